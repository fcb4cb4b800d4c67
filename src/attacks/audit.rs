//! Auditing: the ε lower bound that an attack's counts prove, with confidence.

use crate::error::{Error, Result};
use statrs::distribution::{Beta, ContinuousCDF};

/// An attack's confusion counts on members (tp, fn) and non-members (fp, tn).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// Members flagged as members.
    pub tp: u64,
    /// Members missed.
    pub fn_: u64,
    /// Non-members flagged as members.
    pub fp: u64,
    /// Non-members passed.
    pub tn: u64,
}

/// The one-sided Clopper–Pearson upper bound on a proportion after `k` successes in `n` trials, at
/// level 1 − `alpha`: the Beta(k + 1, n − k) quantile at 1 − α (1 when k = n).
///
/// # Reference
/// Clopper & Pearson (Biometrika 1934); exact (conservative) binomial interval, by statrs' Beta
/// inverse CDF.
pub fn clopper_pearson_upper(k: u64, n: u64, alpha: f64) -> f64 {
    if k >= n {
        return 1.0;
    }
    Beta::new(k as f64 + 1.0, (n - k) as f64)
        .map_or(1.0, |b| b.inverse_cdf(1.0 - alpha))
        .clamp(0.0, 1.0)
}

/// The one-sided Clopper–Pearson lower bound: the Beta(k, n − k + 1) quantile at α (0 when k = 0).
pub fn clopper_pearson_lower(k: u64, n: u64, alpha: f64) -> f64 {
    if k == 0 || n == 0 {
        return 0.0;
    }
    Beta::new(k as f64, (n - k + 1) as f64)
        .map_or(0.0, |b| b.inverse_cdf(alpha))
        .clamp(0.0, 1.0)
}

/// An audit drawn on the trade-off chart: the observed (FPR, FNR) and their two-sided Clopper–Pearson
/// intervals at `conf` (each side at (1 − conf)/4, so that both intervals hold with probability ≥ conf).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AuditPoint {
    /// Observed false-positive rate fp/(fp + tn).
    pub fpr: f64,
    /// Observed false-negative rate fn/(tp + fn).
    pub fnr: f64,
    /// (low, high) of the FPR.
    pub fpr_box: (f64, f64),
    /// (low, high) of the FNR.
    pub fnr_box: (f64, f64),
}

/// The point and its box; `None` without members or non-members.
pub fn audit_point(c: Counts, conf: f64) -> Option<AuditPoint> {
    let (neg, pos) = (c.fp + c.tn, c.tp + c.fn_);
    if neg == 0 || pos == 0 {
        return None;
    }
    let a = (1.0 - conf) / 4.0;
    Some(AuditPoint {
        fpr: c.fp as f64 / neg as f64,
        fnr: c.fn_ as f64 / pos as f64,
        fpr_box: (
            clopper_pearson_lower(c.fp, neg, a),
            clopper_pearson_upper(c.fp, neg, a),
        ),
        fnr_box: (
            clopper_pearson_lower(c.fn_, pos, a),
            clopper_pearson_upper(c.fn_, pos, a),
        ),
    })
}

/// The ε that the counts prove at δ with confidence `conf`: with FPR ≤ ᾱ and FNR ≤ β̄ (one-sided
/// Clopper–Pearson bounds at (1 − conf)/2 each, so both hold with probability ≥ conf), any (ε, δ)-DP
/// mechanism has 1 − β ≤ e^ε α + δ and 1 − α ≤ e^ε β + δ, so
/// ε ≥ max(ln((1 − δ − β̄)/ᾱ), ln((1 − δ − ᾱ)/β̄)), and ε ≥ 0.
///
/// # Reference
/// Jagielski, Ullman & Oprea (NeurIPS 2020), §3; Nasr, Song, Thakurta, Papernot & Carlini (IEEE S&P
/// 2021), Eq. (1). A lower bound with confidence `conf` (rounding in the log can only lower it).
///
/// # Errors
/// No members or no non-members, or `conf` / δ outside (0, 1).
pub fn epsilon_lower_bound(c: Counts, conf: f64, delta: f64) -> Result<f64> {
    if c.tp + c.fn_ == 0 || c.fp + c.tn == 0 {
        return Err(Error::invalid(
            "tp",
            c.tp,
            "needs at least one member and one non-member",
        ));
    }
    if !(conf > 0.0 && conf < 1.0) {
        return Err(Error::invalid(
            "conf",
            conf,
            "must be a confidence in (0, 1)",
        ));
    }
    if !(0.0..1.0).contains(&delta) {
        return Err(Error::invalid("delta", delta, "must be in [0, 1)"));
    }
    let a = (1.0 - conf) / 2.0;
    let fpr = clopper_pearson_upper(c.fp, c.fp + c.tn, a);
    let fnr = clopper_pearson_upper(c.fn_, c.tp + c.fn_, a);
    let side = |x: f64, y: f64| {
        let num = 1.0 - delta - y;
        if num <= 0.0 || x <= 0.0 {
            0.0
        } else {
            (num / x).ln()
        }
    };
    Ok(side(fpr, fnr).max(side(fnr, fpr)).max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use rand_distr::{Distribution, Normal};

    #[test]
    fn clopper_pearson_matches_scipy() {
        // scipy.stats.beta.ppf(0.975, 11, 90) = 0.17622259774002266 (10 of 100);
        // beta.ppf(0.95, 1, 50) = 1 − 0.05^(1/50) = 0.05815507911697225 (0 of 50).
        assert!((clopper_pearson_upper(10, 100, 0.025) - 0.176_222_597_740_022_66).abs() < 1e-9);
        assert!(
            (clopper_pearson_upper(0, 50, 0.05) - (1.0 - 0.05f64.powf(1.0 / 50.0))).abs() < 1e-9
        );
        assert_eq!(clopper_pearson_upper(5, 5, 0.05), 1.0);
        // scipy.stats.beta.ppf(0.025, 10, 91) = 0.04900469…: the lower end for 10 of 100.
        assert!((clopper_pearson_lower(10, 100, 0.025) - 0.049_004_689_221_485_76).abs() < 1e-9);
        let box_ = audit_point(
            Counts {
                tp: 90,
                fn_: 10,
                fp: 10,
                tn: 90,
            },
            0.95,
        )
        .unwrap_or_else(|| panic!("point"));
        assert!(box_.fpr_box.0 < 0.1 && box_.fpr_box.1 > 0.1 && box_.fnr == 0.1);
    }

    #[test]
    fn audits_of_a_gaussian_mechanism_never_exceed_its_epsilon() {
        // A Gaussian mechanism with μ = Δ/σ = 2: members score N(2, 1), non-members N(0, 1). Its exact
        // ε at δ = 1e-5 (Balle & Wang) bounds what any threshold attack can prove; at 95% confidence
        // each audit may exceed it with probability ≤ 5%, so over 200 seeds at most ~25 may (a
        // binomial(200, 0.05) exceeds 25 with probability < 1e-6); in practice none do, as the attack
        // is far from optimal at ε's tail.
        let exact = crate::accounting::entry::Entry::Gaussian { sigma: 0.5 }.eps_for(1e-5);
        let (members, non) = (Normal::new(2.0, 1.0), Normal::new(0.0, 1.0));
        let (Ok(members), Ok(non)) = (members, non) else {
            panic!("normals")
        };
        let mut above = 0;
        for seed in 0..200u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let threshold = 1.0 + 2.0 * rng.random::<f64>();
            let n = 1000;
            let tp = (0..n)
                .filter(|_| members.sample(&mut rng) > threshold)
                .count() as u64;
            let fp = (0..n).filter(|_| non.sample(&mut rng) > threshold).count() as u64;
            let c = Counts {
                tp,
                fn_: n - tp,
                fp,
                tn: n - fp,
            };
            let eps = epsilon_lower_bound(c, 0.95, 1e-5).unwrap_or(f64::NAN);
            assert!(eps.is_finite() && eps >= 0.0);
            if eps > exact {
                above += 1;
            }
        }
        assert!(above <= 25, "{above} of 200 audits above ε = {exact}");
    }

    #[test]
    fn bad_counts_are_refused() {
        let c = Counts {
            tp: 0,
            fn_: 0,
            fp: 1,
            tn: 1,
        };
        assert!(epsilon_lower_bound(c, 0.95, 1e-5).is_err());
        let c = Counts {
            tp: 1,
            fn_: 1,
            fp: 1,
            tn: 1,
        };
        assert!(
            epsilon_lower_bound(c, 1.0, 1e-5).is_err() && epsilon_lower_bound(c, 0.9, 1.0).is_err()
        );
    }
}
