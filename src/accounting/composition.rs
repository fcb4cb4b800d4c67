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

/// The exact ε of k runs of an (ε, δ)-DP mechanism at `target` δ: the smallest ε′ with
/// 1 − (1 − δ)^k (1 − δ_k(ε′)) ≤ target, where δ_k is the profile of k-fold binary randomized response
/// with ε, the pair that dominates every ε-DP mechanism. `None` when δ alone uses up the target.
///
/// # Formula
/// The composed loss is L_l = (k − 2l)ε with P-mass P_l = C(k, l) p^{k−l} q^l (p = e^ε/(1 + e^ε),
/// q = 1 − p) and Q-mass P_l e^{−L_l}. Between atoms, with S_P and S_Q the masses of the m atoms
/// above ε′, δ_k(ε′) = S_P − e^{ε′} S_Q, so on the segment where δ_k crosses the target t,
/// ε′ = ln(S_P − t) − ln S_Q. Sums in log space from the first atom with P_l > e^{−40}·t; the mass
/// beyond it is bounded geometrically and counted at +∞ (rounding up).
///
/// # Reference
/// Kairouz, Oh & Viswanath (ICML 2015), Theorem 3.3 (their bound at ε′ = (k − 2i)ε; here at any real
/// ε′, so it is the exact optimum, also for k up to 10⁶). O(√k) work.
pub fn optimal_homogeneous(eps: f64, delta: f64, k: u64, target: f64) -> Option<f64> {
    // A run with no finite ε (an approximate entry asked for a δ below its own, in the composition
    // lab) has no finite composition: ε = ∞ made p = 1, q = 0 below and returned 0.
    if eps.is_nan() || eps == f64::INFINITY {
        return None;
    }
    if k == 0 || eps <= 0.0 {
        return (delta == 0.0 || k == 0 || target >= -(k as f64 * (-delta).ln_1p()).exp_m1())
            .then_some(0.0);
    }
    // The pure part's target: 1 − (1 − target)/(1 − δ)^k.
    let t = -((-target).ln_1p() - k as f64 * (-delta).ln_1p()).exp_m1();
    if t.is_nan() || t <= 0.0 {
        return None;
    }
    // Targets within 1e-6 of 1: S_P − t cancels (amplified by up to e^{2ε₀}; the review found ε = 0
    // returned at t = 1 − 2e-13). k·ε₀ is always enough.
    if t > 1.0 - 1e-6 {
        return Some(k as f64 * eps);
    }
    let kf = k as f64;
    // ln p = −ln(1 + e^{−ε}), ln q = −ε + ln p: no overflow for any ε (e^ε overflowed at ε > 709, and
    // the NaN that followed made a Gaussian with σ = 0.001 print an optimal ε of 0).
    let ln_p = -(-eps).exp().ln_1p();
    let ln_q = ln_p - eps;
    let loss = |l: f64| (kf - 2.0 * l) * eps;
    // ln P_l by the running ratio C(k, l + 1)/C(k, l) = (k − l)/(l + 1), from the mode outward.
    let mode = (kf * ln_q.exp()).floor().min(kf);
    // P_l is the Bin(k, q) probability of l (p + q = 1); Loader's form keeps its digits at k = 10⁶,
    // where differences of log-gammas lost ~10⁻⁹.
    let ln_at_mode = crate::numerics::binomial::pmf(k, ln_q.exp(), mode as i64).ln();
    let floor = t.ln() - 40.0;
    let mut start = mode;
    let mut ln_start = ln_at_mode;
    while start > 0.0 && ln_start > floor {
        // P_{l−1} = P_l · l/(k − l + 1) · p/q
        ln_start += (start / (kf - start + 1.0)).ln() + ln_p - ln_q;
        start -= 1.0;
    }
    // Prefix sums over l = start, start + 1, …: ln S_P and ln S_Q of the atoms l' ≤ l. The atoms
    // below `start` are counted in S_P (as if at +∞: a larger δ, so ε′ rounds up) by the geometric
    // bound P_start·r/(1 − r), r = P_{start−1}/P_start < 1 being the largest of their ratios; their
    // Q-mass is left out (also a larger δ).
    let ratio = (start / (kf - start + 1.0)).ln() + ln_p - ln_q;
    let mut ln_sp = if start > 0.0 && ratio < 0.0 {
        ln_start + ratio - (-ratio.exp()).ln_1p()
    } else {
        f64::NEG_INFINITY
    };
    let mut ln_sq = f64::NEG_INFINITY;
    let (mut l, mut ln_pl) = (start, ln_start);
    let end = (mode + 40.0 * (kf * 0.25).sqrt() + 50.0).min(kf);
    loop {
        ln_sp = crate::numerics::special::ln_add_exp(ln_sp, ln_pl);
        ln_sq = crate::numerics::special::ln_add_exp(ln_sq, ln_pl - loss(l));
        // ε′ on the segment just below L_l, where the atoms start … l are above ε′.
        let next = if l < kf {
            loss(l + 1.0)
        } else {
            f64::NEG_INFINITY
        };
        let sp = ln_sp.exp();
        if sp > t {
            let at = (sp - t).ln() - ln_sq;
            if at > next {
                // Rounding of the log-space sums (measured at 2.4e-12 relative against mpmath at
                // k = 10⁵): a relative 1e-10 up.
                let e = at.min(loss(l));
                return Some((e + 1e-10 * e.abs()).max(0.0));
            }
        }
        if l >= end {
            // δ at L_l is still within the target: L_l itself meets it.
            return Some(loss(l).max(0.0));
        }
        ln_pl += ((kf - l) / (l + 1.0)).ln() + ln_q - ln_p;
        l += 1.0;
    }
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
        let (eps, delta) = advanced(&parts, 1e-6).unwrap();
        let want = 0.1 * (200.0 * 1e6f64.ln()).sqrt() + 10.0 * 0.1f64.exp_m1();
        assert!((eps - want).abs() < 1e-12 && delta == 1e-6);
        assert!(advanced(&parts, 0.0).is_err());
    }

    #[test]
    fn optimal_is_never_worse_than_basic_or_advanced() {
        for (eps, k) in [(0.1, 100u64), (0.5, 20), (1.0, 10)] {
            let opt = optimal_homogeneous(eps, 0.0, k, 1e-6).unwrap_or(f64::INFINITY);
            let parts = vec![(eps, 0.0, k)];
            let adv = advanced(&parts, 1e-6).unwrap().0;
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
        // Review finding: a target of 1 − 2e-13 with ε₀ = 30, k = 2 returned 0 (exact 21.99).
        assert!(
            optimal_homogeneous(30.0, 0.0, 2, 0.999_999_999_999_812_8).is_some_and(|e| e >= 21.99)
        );
    }
}
