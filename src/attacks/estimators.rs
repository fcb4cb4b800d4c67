//! What a set of attack scores proves about ε, threshold chosen after seeing them and paid for by a
//! Bonferroni correction over the Pareto frontier's N thresholds (jax_privacy's `Bonferroni` strategy):
//! - the Clopper–Pearson lower bound (Jagielski, Ullman & Oprea 2020; Nasr et al. 2021), a lower
//!   bound with confidence 1 − α;
//! - the Gaussian-DP estimate (Nasr et al., "Tight auditing of differentially private machine
//!   learning", USENIX Security 2023): the largest μ the error rates' upper limits allow, then the ε of
//!   μ-GDP at δ. An estimate under the assumption that the trade-off curve is Gaussian's, not a bound.

use crate::attacks::audit::{clopper_pearson_upper, epsilon_lower_bound, Counts};
use crate::attacks::scores::Sweep;
use crate::error::{Error, Result};
use crate::mechanisms::gaussian::Gaussian;
use crate::numerics::roots::{bisect, Split, Until};
use crate::numerics::special::normal_upper_quantile;

fn check(alpha: f64, delta: f64) -> Result<()> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(Error::invalid("alpha", alpha, "must be in (0, 1)"));
    }
    if !(0.0..1.0).contains(&delta) {
        return Err(Error::invalid("delta", delta, "must be in [0, 1)"));
    }
    Ok(())
}

/// The counts of the k-th threshold of `s`.
fn counts(s: &Sweep, k: usize) -> Counts {
    Counts {
        tp: s.n_in - s.fn_[k],
        fn_: s.fn_[k],
        fp: s.n_out - s.tn[k],
        tn: s.tn[k],
    }
}

/// The Clopper–Pearson ε lower bound at confidence 1 − α: the best frontier threshold's bound, each
/// at confidence 1 − α/N ([`epsilon_lower_bound`]).
///
/// # Errors
/// α or δ out of range.
pub fn epsilon_clopper_pearson(s: &Sweep, delta: f64, alpha: f64) -> Result<f64> {
    check(alpha, delta)?;
    let frontier = s.frontier();
    let conf = 1.0 - alpha / frontier.len() as f64;
    frontier.iter().try_fold(0.0f64, |best, &k| {
        Ok(best.max(epsilon_lower_bound(counts(s, k), conf, delta)?))
    })
}

/// The counts of the frontier threshold whose Clopper–Pearson bound is largest (the first on ties):
/// the audit's point on a trade-off chart.
pub fn best_counts(s: &Sweep, delta: f64, alpha: f64) -> Counts {
    let frontier = s.frontier();
    let conf = 1.0 - alpha / frontier.len() as f64;
    let mut best = (f64::NEG_INFINITY, counts(s, frontier[0]));
    for &k in &frontier {
        let c = counts(s, k);
        let e = epsilon_lower_bound(c, conf, delta).unwrap_or(0.0);
        if e > best.0 {
            best = (e, c);
        }
    }
    best.1
}

/// The Gaussian-DP μ the scores support: over the frontier thresholds whose limits leave room
/// (max(FPR_ub, FNR_ub) < 1 − δ), the largest Φ⁻¹(1 − FPR_ub) − Φ⁻¹(FNR_ub), each limit at α/(2N);
/// 0 when none is positive (no evidence: never |μ|, the bug jax_privacy 2.0.0 shipped).
///
/// # Errors
/// α or δ out of range.
pub fn gdp_mu(s: &Sweep, delta: f64, alpha: f64) -> Result<f64> {
    check(alpha, delta)?;
    let frontier = s.frontier();
    let a = alpha / (2.0 * frontier.len() as f64);
    let mu = frontier
        .iter()
        .map(|&k| {
            let c = counts(s, k);
            let fpr = clopper_pearson_upper(c.fp, c.fp + c.tn, a);
            let fnr = clopper_pearson_upper(c.fn_, c.tp + c.fn_, a);
            if fpr.max(fnr) < 1.0 - delta {
                // Φ⁻¹(1 − FPR_ub) − Φ⁻¹(FNR_ub), both as upper quantiles (accurate in the tails).
                normal_upper_quantile(fpr) - normal_upper_quantile(1.0 - fnr)
            } else {
                f64::NEG_INFINITY
            }
        })
        .fold(0.0f64, f64::max);
    Ok(mu)
}

/// ε of μ-Gaussian DP at δ: the ε solving δ = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Dong, Roth & Su
/// 2022, Cor. 2.13), i.e. the Gaussian mechanism's with σ = 1/μ at sensitivity 1. Returns the lower
/// end of the bisection (an estimate's conservative side); 0 for μ ≤ 0.
pub fn gdp_epsilon(mu: f64, delta: f64) -> f64 {
    if mu.is_nan() || mu <= 0.0 {
        return 0.0;
    }
    let Ok(g) = Gaussian::new(1.0 / mu, 1.0) else {
        return 0.0;
    };
    if g.delta(0.0) <= delta {
        return 0.0;
    }
    let mut hi = 1.0;
    while g.delta(hi) > delta {
        hi *= 2.0;
        if hi > 1e6 {
            return f64::INFINITY;
        }
    }
    bisect(0.0, hi, Split::Middle, Until::Steps(60), |e| {
        g.delta(e) <= delta
    })
    .lo
}

#[cfg(test)]
mod tests {
    use super::*;

    // Reference values: scripts/reference/audit_reference.json (scipy's beta quantiles and mpmath,
    // checked against jax_privacy 2.0.0 and dp_accounting).

    fn zero_one(c: Counts) -> Sweep {
        let side = |ones: u64, zeros: u64| {
            let mut v = vec![1.0; ones as usize];
            v.extend(std::iter::repeat_n(0.0, zeros as usize));
            v
        };
        Sweep::new(&side(c.tp, c.fn_), &side(c.fp, c.tn)).unwrap()
    }

    #[test]
    fn gdp_epsilon_matches_dong_roth_su() {
        assert!((gdp_epsilon(1.0, 1e-2) - 2.31778904030405).abs() < 1e-9);
        assert_eq!(gdp_epsilon(0.0, 1e-5), 0.0);
        assert_eq!(gdp_epsilon(-1.0, 1e-5), 0.0);
    }

    #[test]
    fn bonferroni_estimates_match_jax_privacy() {
        // (tp, fn, fp, tn) → (μ, ε at δ = 1e-5), α = 0.05, N = 3 frontier thresholds.
        let cases = [
            ((900, 100, 50, 950), 2.634276210029584, 14.11292114835116),
            ((500, 500, 100, 900), 1.0546545806970191, 4.6558677415984455),
            ((990, 10, 10, 990), 4.09223160848709, 25.143650768628387),
            ((1000, 0, 0, 1000), 5.183270407422581, 34.81188982485257),
            ((990, 10, 300, 700), 2.4695678184953107, 13.003926535747478),
            ((3, 2, 2, 3), 0.0, 0.0),
            ((100, 900, 500, 500), 0.0, 0.0),
        ];
        for ((tp, fn_, fp, tn), mu_want, eps_want) in cases {
            let s = zero_one(Counts { tp, fn_, fp, tn });
            let mu = gdp_mu(&s, 1e-5, 0.05).unwrap();
            assert!(
                (mu - mu_want).abs() < 1e-9,
                "{tp} {fn_} {fp} {tn}: μ {mu} vs {mu_want}"
            );
            let eps = gdp_epsilon(mu, 1e-5);
            assert!(
                (eps - eps_want).abs() < 1e-7 * eps_want.max(1.0),
                "ε {eps} vs {eps_want}"
            );
        }
    }

    #[test]
    fn clopper_pearson_over_the_frontier() {
        // One threshold's bound at confidence 1 − α/N is what the sweep reports for 0/1 scores.
        let c = Counts {
            tp: 900,
            fn_: 100,
            fp: 50,
            tn: 950,
        };
        let s = zero_one(c);
        let n = s.frontier().len() as f64;
        let want = epsilon_lower_bound(c, 1.0 - 0.05 / n, 1e-5).unwrap();
        assert_eq!(epsilon_clopper_pearson(&s, 1e-5, 0.05).unwrap(), want);
        assert_eq!(best_counts(&s, 1e-5, 0.05), c);
        assert!(epsilon_clopper_pearson(&s, 1e-5, 1.5).is_err());
    }
}
