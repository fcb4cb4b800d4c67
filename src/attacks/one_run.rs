//! Auditing in one training run: m canaries, each inserted with probability ½; the attack guesses IN
//! for its r most confident canaries and abstains on the rest; v guesses are right. How large an ε do
//! r and v prove? Two tests, each a lower bound with confidence 1 − α:
//! - Steinke, Nasr & Jagielski, "Privacy auditing with one (1) training run" (NeurIPS 2023), Thm 3.1
//!   and Prop. 5.7: a binomial tail plus a δ term;
//! - Mahloujifar, Melis & Chaudhuri, "Auditing f-differential privacy in one run" (ICML 2025): the
//!   Gaussian trade-off curve calibrated to (ε, δ) as the null hypothesis.
//!
//! From scores, the thresholds tried are the Pareto frontier's and α is split among them (Bonferroni),
//! as jax_privacy's `CanaryScoreAuditor.epsilon_one_run{,_fdp}` do; the tests reproduce its published
//! vectors.

use crate::attacks::scores::Sweep;
use crate::error::{Error, Result};
use crate::mechanisms::gaussian::sigma_analytic;
use crate::numerics::roots::{bisect, Split, Until};
use crate::numerics::special::{normal_cdf, normal_upper_quantile};
use statrs::function::factorial::ln_binomial;

/// Which test turns (r guesses, v correct) into an ε.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OneRunTest {
    /// Steinke, Nasr & Jagielski 2023.
    Binomial,
    /// Mahloujifar, Melis & Chaudhuri 2025 (f-DP, Gaussian null).
    GaussianFdp,
}

/// Whether r guesses with v correct among m canaries reject (ε, δ)-DP at level `alpha`.
pub fn falsifies(
    test: OneRunTest,
    eps: f64,
    delta: f64,
    r: u64,
    v: u64,
    m: u64,
    alpha: f64,
) -> bool {
    match test {
        OneRunTest::Binomial => p_value(eps, delta, r, v, m) <= alpha,
        OneRunTest::GaussianFdp => fdp_falsifies(eps, delta, r, v, m, alpha),
    }
}

/// Steinke et al.'s p-value: with p = e^ε/(1 + e^ε), β = P[Bin(r, p) ≥ v] and
/// a* = max over i = 1..v of P[v − i ≤ Bin(r, p) ≤ v − 1]/i, the p-value is min(1, β + 2mδa*).
///
/// Every binomial mass from its logarithm (statrs' ln C(r, j)), summed relative to the largest, so
/// that no tail underflows to a false zero at large ε (which would prove too much).
pub fn p_value(eps: f64, delta: f64, r: u64, v: u64, m: u64) -> f64 {
    if v == 0 {
        return 1.0;
    }
    if v > r {
        return 0.0;
    }
    // ln p and ln(1 − p), stable for either sign of ε.
    let (ln_p, ln_q) = (-(-eps).exp().ln_1p(), -eps.exp().ln_1p());
    let ln_mass = |j: u64| ln_binomial(r, j) + j as f64 * ln_p + (r - j) as f64 * ln_q;
    let masses: Vec<f64> = (0..=r).map(ln_mass).collect();
    let top = masses.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let beta: f64 = masses[v as usize..].iter().map(|l| (l - top).exp()).sum();
    // a*: the running sum of masses from v − 1 downwards, over how many there are.
    let mut a_star: f64 = 0.0;
    let mut sum = 0.0;
    for (i, l) in masses[..v as usize].iter().rev().enumerate() {
        sum += (l - top).exp();
        a_star = a_star.max(sum / (i + 1) as f64);
    }
    (top.exp() * (beta + 2.0 * m as f64 * delta * a_star)).min(1.0)
}

/// Mahloujifar et al.'s test: with σ the analytic Gaussian's σ for (ε, δ) at sensitivity 1 and
/// g(x) = Φ(Φ⁻¹(x) − 1/σ), start from R = αv/m, H = α(r − v)/m; for i = v − 1 down to 0:
/// H₂ = max(H, g(R)), stop once H₂ = H, R = min(R + i(H₂ − H)/(r − i), 1), H = H₂. The guesses
/// reject (ε, δ) when R + H > r/m.
fn fdp_falsifies(eps: f64, delta: f64, r: u64, v: u64, m: u64, alpha: f64) -> bool {
    let Ok(sigma) = sigma_analytic(eps, delta, 1.0) else {
        return false;
    };
    let g = |x: f64| {
        if x <= 0.0 {
            0.0
        } else if x >= 1.0 {
            1.0
        } else {
            normal_cdf(-normal_upper_quantile(x) - 1.0 / sigma)
        }
    };
    let (m, r_f) = (m as f64, r as f64);
    let mut big_r = alpha * v as f64 / m;
    let mut h = alpha * (r - v) as f64 / m;
    for i in (0..v).rev() {
        let h2 = h.max(g(big_r));
        if h2 == h {
            break;
        }
        big_r = (big_r + i as f64 / (r_f - i as f64) * (h2 - h)).min(1.0);
        h = h2;
    }
    big_r + h > r_f / m
}

/// The largest ε that r guesses with v correct among m canaries prove at level `alpha` (0 when they
/// prove nothing); the bisection keeps the falsified end, so the result never exceeds the exact root.
///
/// # Reference values
/// Steinke et al. 2023, §7: m = 500, δ = 10⁻⁵, r = v = 100 gives 3.4791953936 at α = 0.05.
pub fn epsilon_from_guesses(
    test: OneRunTest,
    r: u64,
    v: u64,
    m: u64,
    delta: f64,
    alpha: f64,
) -> f64 {
    let no = |e: f64| !falsifies(test, e, delta, r, v, m, alpha);
    // ε = 0 itself has no analytic-Gaussian σ: the smallest ε tried is 10⁻⁹.
    if r == 0 || 2 * v <= r || no(1e-9) {
        return 0.0;
    }
    let mut hi = 1.0;
    while !no(hi) {
        hi *= 2.0;
        if hi > 1e3 {
            return hi;
        }
    }
    bisect(0.0, hi, Split::Middle, Until::Steps(44), no).lo
}

/// The ε one run's scores prove: every frontier threshold t guesses IN for the scores ≥ t (abstaining
/// on the rest), α is split among the N frontier thresholds, and the best threshold's ε is the result.
/// m is the number of canaries, n_in + n_out.
///
/// # Errors
/// α or δ outside (0, 1) or [0, 1).
pub fn epsilon_one_run(test: OneRunTest, s: &Sweep, delta: f64, alpha: f64) -> Result<f64> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(Error::invalid("alpha", alpha, "must be in (0, 1)"));
    }
    if !(0.0..1.0).contains(&delta) {
        return Err(Error::invalid("delta", delta, "must be in [0, 1)"));
    }
    let frontier = s.frontier();
    let level = alpha / frontier.len() as f64;
    let m = s.n_in + s.n_out;
    // The most precise thresholds first; a threshold that cannot beat the best so far at its
    // precision, or does not falsify the best so far, is skipped (a shortcut: the same maximum).
    let mut guesses: Vec<(u64, u64)> = frontier
        .iter()
        .map(|&k| {
            let tp = s.n_in - s.fn_[k];
            (tp + s.n_out - s.tn[k], tp)
        })
        .filter(|&(r, v)| r > 0 && 2 * v > r)
        .collect();
    guesses.sort_by(|a, b| (b.1 as f64 / b.0 as f64).total_cmp(&(a.1 as f64 / a.0 as f64)));
    let mut best: f64 = 0.0;
    for (r, v) in guesses {
        let logistic = 1.0 / (1.0 + (-best).exp());
        if (v as f64 / r as f64) <= logistic
            || (best > 0.0 && !falsifies(test, best, delta, r, v, m, level))
        {
            continue;
        }
        best = best.max(epsilon_from_guesses(test, r, v, m, delta, level));
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::special::normal_upper_quantile;

    // Reference values: scripts/reference/audit_reference.json (jax_privacy 2.0.0's
    // CanaryScoreAuditor, reproducing its published test vectors, and Steinke et al. 2023 §7).

    #[test]
    fn steinke_et_al_published_values() {
        let cases = [
            (100, 100, 0.05, 3.4791953936),
            (100, 100, 0.01, 3.0231975541),
            (35, 23, 0.05, 0.01454872),
            (100, 60, 0.05, 0.05073561),
        ];
        for (r, v, alpha, want) in cases {
            let got = epsilon_from_guesses(OneRunTest::Binomial, r, v, 500, 1e-5, alpha);
            assert!(
                (got - want).abs() < 2e-7 * want.max(1.0),
                "r = {r}, v = {v}: {got} vs {want}"
            );
        }
    }

    fn shifted(shift: f64) -> Sweep {
        let n = 10_000;
        let score = |k: usize| -normal_upper_quantile((k as f64 + 0.5) / n as f64);
        let ins: Vec<f64> = (0..n).map(|k| score(k) + shift).collect();
        let outs: Vec<f64> = (0..n).map(score).collect();
        Sweep::new(&ins, &outs).unwrap()
    }

    #[test]
    fn jax_privacy_vectors_from_scores() {
        // (shift, frontier size, one-run ε, f-DP ε): jax_privacy tests/auditing_test.py, exact values
        // from scripts/reference/audit_reference.json (jax itself stops its root search at 1e-6).
        let cases = [
            (1.0, 386, 1.1334596, 2.1647492),
            (2.0, 374, 2.3119453, 4.7218066),
            (4.0, 140, 4.3955677, 9.1337517),
        ];
        for (shift, n, one_run, fdp) in cases {
            let s = shifted(shift);
            assert_eq!(s.frontier().len(), n, "shift {shift}");
            let got = epsilon_one_run(OneRunTest::Binomial, &s, 1e-6, 0.05).unwrap();
            assert!(
                (got - one_run).abs() < 2e-6,
                "shift {shift}: one run {got} vs {one_run}"
            );
            let got = epsilon_one_run(OneRunTest::GaussianFdp, &s, 1e-6, 0.05).unwrap();
            assert!(
                (got - fdp).abs() < 2e-6,
                "shift {shift}: f-DP {got} vs {fdp}"
            );
        }
    }

    #[test]
    fn no_evidence_proves_nothing_and_bad_levels_are_errors() {
        let s = Sweep::new(&[0.0, 1.0, 2.0], &[0.0, 1.0, 2.0]).unwrap();
        assert_eq!(
            epsilon_one_run(OneRunTest::Binomial, &s, 1e-5, 0.05).unwrap(),
            0.0
        );
        assert_eq!(
            epsilon_from_guesses(OneRunTest::Binomial, 10, 5, 20, 1e-5, 0.05),
            0.0
        );
        assert!(epsilon_one_run(OneRunTest::Binomial, &s, 1e-5, 0.0).is_err());
        assert!(epsilon_one_run(OneRunTest::Binomial, &s, f64::NAN, 0.05).is_err());
    }
}
