//! Composition theorems for (ε, δ)-DP mechanisms: basic, advanced and the optimal homogeneous bound.

use crate::error::{Error, Result};

/// Basic composition: the sums (Σε_i, Σδ_i).
///
/// # Reference
/// Dwork, McSherry, Nissim & Smith (2006); Dwork & Roth (2014), Theorem 3.16; lecture slide
/// "Composition". Tight for pure DP.
pub fn basic(parts: &[(f64, f64)]) -> (f64, f64) {
    parts
        .iter()
        .fold((0.0, 0.0), |(e, d), &(ei, di)| (e + ei, d + di))
}

/// Advanced composition for mechanisms (ε_i, δ_i) with slack δ′: (ε, Σδ_i + δ′).
///
/// # Formula
/// ε = √(2 ln(1/δ′) Σε_i²) + Σ ε_i (e^{ε_i} − 1)
///
/// # Reference
/// Dwork, Rothblum & Vadhan (FOCS 2010), Theorem III.3 (for k equal ε_i this is
/// ε√(2k ln(1/δ′)) + kε(e^ε − 1), Dwork & Roth 2014, Theorem 3.20); the heterogeneous form is
/// Kairouz, Oh & Viswanath (ICML 2015), Theorem 3.5 with the e^ε − 1 term (looser than theirs).
///
/// # Errors
/// δ′ outside (0, 1).
pub fn advanced(parts: &[(f64, f64)], slack: f64) -> Result<(f64, f64)> {
    if !(slack > 0.0 && slack < 1.0) {
        return Err(Error::invalid(
            "delta",
            slack,
            "leaves no slack δ′ in (0, 1) for advanced composition",
        ));
    }
    let squares: f64 = parts.iter().map(|p| p.0 * p.0).sum();
    let drift: f64 = parts.iter().map(|p| p.0 * p.0.exp_m1()).sum();
    let delta: f64 = parts.iter().map(|p| p.1).sum::<f64>() + slack;
    Ok(((2.0 * -slack.ln() * squares).sqrt() + drift, delta))
}

/// The optimal composition of k copies of an (ε, δ)-DP mechanism: the smallest ε′ with
/// δ_total(ε′) ≤ `target`, over ε′ = (k − 2i)ε.
///
/// # Formula
/// ((k − 2i)ε, 1 − (1 − δ)^k (1 − δ_i)) for i = 0 … ⌊k/2⌋, with
/// δ_i = Σ_{l=0}^{i−1} C(k, l) (e^{(k−l)ε} − e^{(k−2i+l)ε}) / (1 + e^ε)^k
///
/// # Reference
/// Kairouz, Oh & Viswanath, "The composition theorem for differential privacy" (ICML 2015),
/// Theorem 3.3. Computed in log space; `None` when no such ε′ meets the target (then basic applies).
pub fn optimal_homogeneous(eps: f64, delta: f64, k: u64, target: f64) -> Option<f64> {
    if k == 0 {
        return Some(0.0);
    }
    let kf = k as f64;
    let ln_norm = kf * crate::special::ln_add_exp(0.0, eps);
    let ln_binom = |l: f64| -> f64 {
        // ln C(k, l) by the running ratio is cheaper, but k ≤ 10⁴ here: ln Γ via statrs.
        statrs::function::gamma::ln_gamma(kf + 1.0)
            - statrs::function::gamma::ln_gamma(l + 1.0)
            - statrs::function::gamma::ln_gamma(kf - l + 1.0)
    };
    let survive = kf * (-delta).ln_1p();
    // i from ⌊k/2⌋ down to 0: ε′ grows, δ_total falls; return the first (smallest ε′) meeting the target.
    let mut best = None;
    for i in (0..=k / 2).rev() {
        let i_f = i as f64;
        let mut ln_di = f64::NEG_INFINITY;
        for l in 0..i {
            let l = l as f64;
            let hi = (kf - l) * eps;
            let lo = (kf - 2.0 * i_f + l) * eps;
            ln_di = crate::special::ln_add_exp(
                ln_di,
                ln_binom(l) + crate::special::ln_sub_exp(hi, lo) - ln_norm,
            );
        }
        let d_i = ln_di.exp().min(1.0);
        let total = -(survive + (-d_i).ln_1p()).exp_m1();
        if total <= target {
            best = Some((kf - 2.0 * i_f) * eps);
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_sums_and_advanced_closed_form() {
        assert_eq!(basic(&[(1.0, 1e-6), (0.5, 0.0)]), (1.5, 1e-6));
        // k = 100 copies of ε = 0.1, δ′ = 1e-6: 0.1√(200 ln 1e6) + 100·0.1·(e^0.1 − 1) (Dwork & Roth 3.20).
        let parts = vec![(0.1, 0.0); 100];
        let (eps, delta) = advanced(&parts, 1e-6).unwrap_or_else(|e| panic!("{e}"));
        let want = 0.1 * (200.0 * 1e6f64.ln()).sqrt() + 10.0 * 0.1f64.exp_m1();
        assert!((eps - want).abs() < 1e-12 && delta == 1e-6);
        assert!(advanced(&parts, 0.0).is_err());
    }

    #[test]
    fn optimal_is_never_worse_than_basic_or_advanced() {
        for (eps, k) in [(0.1, 100u64), (0.5, 20), (1.0, 10)] {
            let opt = optimal_homogeneous(eps, 0.0, k, 1e-6).unwrap_or(f64::INFINITY);
            let parts = vec![(eps, 0.0); k as usize];
            let adv = advanced(&parts, 1e-6).unwrap_or_else(|e| panic!("{e}")).0;
            assert!(
                opt <= k as f64 * eps && opt <= adv + 1e-12,
                "ε={eps} k={k}: {opt} vs {adv}"
            );
        }
        // k = 1: i = 0 gives (ε, δ) itself.
        assert_eq!(optimal_homogeneous(0.7, 1e-6, 1, 1e-6), Some(0.7));
    }
}
