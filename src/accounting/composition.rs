//! Composition theorems for (ε, δ)-DP mechanisms: basic, advanced and the optimal homogeneous bound.
//! Repetition counts are parameters of closed forms, so any count is accounted exactly.

use crate::error::{Error, Result};

/// Basic composition of each (ε_i, δ_i) run k_i times: (Σ k_i ε_i, Σ k_i δ_i).
///
/// # Reference
/// Dwork, McSherry, Nissim & Smith (2006); Dwork & Roth (2014), Theorem 3.16; lecture slide
/// "Composition". Tight for pure DP. Counts are multipliers (no loop over repetitions).
pub fn basic(parts: &[(f64, f64, u64)]) -> (f64, f64) {
    parts.iter().fold((0.0, 0.0), |(e, d), &(ei, di, k)| {
        (e + k as f64 * ei, d + k as f64 * di)
    })
}

/// Advanced composition of each (ε_i, δ_i) run k_i times, with slack δ′: (ε, Σ k_i δ_i + δ′).
///
/// # Formula
/// ε = √(2 ln(1/δ′) Σ k_i ε_i²) + Σ k_i ε_i (e^{ε_i} − 1)
///
/// # Reference
/// Dwork, Rothblum & Vadhan (FOCS 2010), Theorem III.3 (for k equal ε this is
/// ε√(2k ln(1/δ′)) + kε(e^ε − 1), Dwork & Roth 2014, Theorem 3.20); the heterogeneous form is
/// Kairouz, Oh & Viswanath (ICML 2015), Theorem 3.5 with the e^ε − 1 term (looser than theirs).
/// Rounding: a few ulps, either way (the formula is already loose by far more).
///
/// # Errors
/// δ′ outside (0, 1).
pub fn advanced(parts: &[(f64, f64, u64)], slack: f64) -> Result<(f64, f64)> {
    if !(slack > 0.0 && slack < 1.0) {
        return Err(Error::invalid(
            "delta",
            slack,
            "leaves no slack δ′ in (0, 1) for advanced composition",
        ));
    }
    let squares: f64 = parts.iter().map(|p| p.2 as f64 * p.0 * p.0).sum();
    let drift: f64 = parts.iter().map(|p| p.2 as f64 * p.0 * p.0.exp_m1()).sum();
    let delta: f64 = parts.iter().map(|p| p.2 as f64 * p.1).sum::<f64>() + slack;
    Ok(((2.0 * -slack.ln() * squares).sqrt() + drift, delta))
}

/// δ(ε′) of k-fold binary randomized response with ε (the pair that dominates every ε-DP mechanism),
/// for every real ε′.
///
/// # Formula
/// The composed loss is (k − 2l)ε with l ~ Bin(k, 1 − p) under P and l ~ Bin(k, p) under Q,
/// p = e^ε/(1 + e^ε); with m the number of l whose loss exceeds ε′,
/// δ(ε′) = P[Bin(k, 1 − p) < m] − e^{ε′} P[Bin(k, p) < m].
///
/// # Reference
/// Kairouz, Oh & Viswanath (ICML 2015), Theorem 3.3 (their δ_i at ε′ = (k − 2i)ε, here between grid
/// points too). Binomial tails by statrs' regularized incomplete beta (about 1e-14 relative).
pub fn homogeneous_pure_delta(eps: f64, k: u64, eps_total: f64) -> f64 {
    if eps <= 0.0 || k == 0 {
        return if eps_total < 0.0 {
            -eps_total.exp_m1()
        } else {
            0.0
        };
    }
    let kf = k as f64;
    // l < (k − ε′/ε)/2, so m = ⌈(k − ε′/ε)/2⌉ values 0 … m − 1 (clamped to 0 … k + 1).
    let m = ((kf - eps_total / eps) / 2.0).ceil().clamp(0.0, kf + 1.0);
    if m == 0.0 {
        return 0.0;
    }
    if m > kf {
        return -eps_total.exp_m1();
    }
    // p = e^ε/(1 + e^ε) and q = 1 − p, each without cancellation.
    let (p, q) = (1.0 / (1.0 + (-eps).exp()), 1.0 / (1.0 + eps.exp()));
    // P[Bin(k, r) ≤ m − 1] = I_{1−r}(k − m + 1, m).
    let at_most = |one_minus_r: f64| statrs::function::beta::beta_reg(kf - m + 1.0, m, one_minus_r);
    let p_side = at_most(p); // l ~ Bin(k, 1 − p)
    let q_side = at_most(q); // l ~ Bin(k, p)
    (p_side - eps_total.exp() * q_side).clamp(0.0, 1.0)
}

/// The exact ε of k runs of an (ε, δ)-DP mechanism at `target` δ: the smallest ε′ with
/// 1 − (1 − δ)^k (1 − δ_k(ε′)) ≤ target, δ_k from [`homogeneous_pure_delta`]; `None` when δ alone
/// uses up the target.
///
/// # Reference
/// Kairouz, Oh & Viswanath (ICML 2015), Theorem 3.3: optimal for the class of (ε, δ)-DP mechanisms
/// (exact for randomized response). Bisection on ε′ returning the upper end (rounds up).
pub fn optimal_homogeneous(eps: f64, delta: f64, k: u64, target: f64) -> Option<f64> {
    if k == 0 {
        return Some(0.0);
    }
    let survive = k as f64 * (-delta).ln_1p();
    let total = |e: f64| -(survive + (-homogeneous_pure_delta(eps, k, e)).ln_1p()).exp_m1();
    if -survive.exp_m1() > target {
        return None;
    }
    let (mut lo, mut hi) = (0.0, k as f64 * eps);
    if total(lo) <= target {
        return Some(0.0);
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if total(mid) <= target {
            hi = mid;
        } else {
            lo = mid;
        }
        if hi - lo <= 1e-13 * hi {
            break;
        }
    }
    Some(hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_sums_and_advanced_closed_form() {
        assert_eq!(basic(&[(1.0, 1e-6, 1), (0.5, 0.0, 1)]), (1.5, 1e-6));
        // Counts up to the lab's 10⁶ are multipliers: dp:0.1:0*1000000 is 100 000.
        assert!((basic(&[(0.1, 0.0, 1_000_000)]).0 - 1e5).abs() < 1e-6);
        // k = 100 copies of ε = 0.1, δ′ = 1e-6: 0.1√(200 ln 1e6) + 100·0.1·(e^0.1 − 1) (Dwork & Roth 3.20).
        let parts = vec![(0.1, 0.0, 100)];
        let (eps, delta) = advanced(&parts, 1e-6).unwrap_or_else(|e| panic!("{e}"));
        let want = 0.1 * (200.0 * 1e6f64.ln()).sqrt() + 10.0 * 0.1f64.exp_m1();
        assert!((eps - want).abs() < 1e-12 && delta == 1e-6);
        assert!(advanced(&parts, 0.0).is_err());
    }

    #[test]
    fn optimal_is_never_worse_than_basic_or_advanced() {
        for (eps, k) in [(0.1, 100u64), (0.5, 20), (1.0, 10)] {
            let opt = optimal_homogeneous(eps, 0.0, k, 1e-6).unwrap_or(f64::INFINITY);
            let parts = vec![(eps, 0.0, k)];
            let adv = advanced(&parts, 1e-6).unwrap_or_else(|e| panic!("{e}")).0;
            assert!(
                opt <= k as f64 * eps && opt <= adv + 1e-12,
                "ε={eps} k={k}: {opt} vs {adv}"
            );
        }
        // k = 1, δ = 0: the smallest ε′ with δ_RR(ε′) ≤ 1e-6, just below ε = 0.7 (RR's profile is
        // linear in e^{ε′} up to ε).
        let one = optimal_homogeneous(0.7, 0.0, 1, 1e-6).unwrap_or(f64::NAN);
        assert!(one <= 0.7 && one > 0.69, "{one}");
        // δ alone above the target: no ε.
        assert_eq!(optimal_homogeneous(0.7, 1e-3, 10, 1e-6), None);
    }
}
