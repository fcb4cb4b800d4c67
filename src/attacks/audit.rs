//! Auditing: the ε lower bound that an attack's counts prove, with confidence.

use crate::error::{Error, Result};
use crate::numerics::binomial;
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
/// Clopper & Pearson (Biometrika 1934); exact (conservative) binomial interval: statrs' Beta
/// inverse CDF, then moved outward until P(Bin(n, p) ≤ k) ≤ α is verified ([`verified_outward`]).
pub fn clopper_pearson_upper(k: u64, n: u64, alpha: f64) -> f64 {
    if k >= n {
        return 1.0;
    }
    let start = Beta::new(k as f64 + 1.0, (n - k) as f64)
        .map_or(1.0, |b| b.inverse_cdf(1.0 - alpha))
        .clamp(0.0, 1.0);
    verified_outward(start, true, alpha, |p| binomial::lower_tail(n, p, k as i64))
}

/// The one-sided Clopper–Pearson lower bound: the Beta(k, n − k + 1) quantile at α (0 when k = 0),
/// moved inward to 0 until P(Bin(n, p) ≥ k) ≤ α is verified.
pub fn clopper_pearson_lower(k: u64, n: u64, alpha: f64) -> f64 {
    if k == 0 || n == 0 {
        return 0.0;
    }
    let start = Beta::new(k as f64, (n - k + 1) as f64)
        .map_or(0.0, |b| b.inverse_cdf(alpha))
        .clamp(0.0, 1.0);
    verified_outward(start, false, alpha, |p| {
        binomial::upper_tail(n, p, k as i64)
    })
}

/// A Clopper–Pearson end p moved away from the observed proportion (up for an upper bound) until the
/// binomial tail it stands for, `tail(p)`, is at most α by the accurate tails of
/// [`crate::numerics::binomial`] (with 10⁻¹⁰ to spare for their rounding): statrs' Beta quantile
/// stops its search short, on either side (against scipy: 2·10⁻⁷ relative below the upper end and
/// 1.6·10⁻⁵ above the lower end at n = 10⁶, k = 10), and an end on the inside would overstate what
/// an audit proves. Steps of 10⁻¹², 4·10⁻¹², … relative; the interval's far end (1 or 0) if none
/// verifies.
fn verified_outward(start: f64, up: bool, alpha: f64, tail: impl Fn(f64) -> f64) -> f64 {
    let holds = |p: f64| tail(p) <= alpha * (1.0 - 1e-10);
    let mut step = 1e-12;
    let mut p = start;
    for _ in 0..30 {
        if holds(p) {
            return p;
        }
        p = if up {
            (start * (1.0 + step)).min(1.0)
        } else {
            start * (1.0 - step)
        };
        step *= 4.0;
    }
    if up {
        1.0
    } else {
        0.0
    }
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

    /// (k, n, α, upper end, lower end) from scipy, printed by
    /// `scripts/reference/binomial_reference.py`.
    #[rustfmt::skip]
    const SCIPY_CP: &[(u64, u64, f64, f64, f64)] = &[
    // Clopper-Pearson, scipy.stats.beta.ppf
    (500, 1000, 0.05, 0.5264822687643087, 0.47351773123569124),
    (500, 1000, 0.0125, 0.5358845396821998, 0.4641154603178002),
    (500, 1000, 1e-06, 0.5752094927452731, 0.4247905072546365),
    (1000, 100000, 0.05, 0.010533200900636332, 0.009487997257358383),
    (1000, 100000, 0.0125, 0.010728581280006127, 0.00930785414677715),
    (1000, 100000, 1e-06, 0.011577320895870486, 0.008574256101169131),
    (10, 1000000, 0.05, 1.6962160188281603e-05, 5.425415393940883e-06),
    (10, 1000000, 0.0125, 1.972878085073971e-05, 4.278158594282096e-06),
    (10, 1000000, 1e-06, 3.442746384253429e-05, 1.2768237184405902e-06),
    (500000, 1000000, 0.05, 0.5008229260505229, 0.4991770739494771),
    (500000, 1000000, 0.0125, 0.5011211996742186, 0.4988788003257813),
    (500000, 1000000, 1e-06, 0.5023771981271251, 0.497622801872872),
    (99990, 100000, 0.05, 0.9999457449733105, 0.9998303837123736),
    (99990, 100000, 0.0125, 0.9999572175049806, 0.9998027208286973),
    (99990, 100000, 1e-06, 0.9999872313190414, 0.9996557632042139),
    ];

    /// Each end lies outside scipy's (the interval never narrower than exact), by at most 10⁻⁵
    /// relative (statrs' start 1.6·10⁻⁵ inside at n = 10⁶, k = 10, moved out in steps of four).
    #[test]
    fn clopper_pearson_ends_lie_outside_scipys() {
        for &(k, n, alpha, up, lo) in SCIPY_CP {
            let (u, l) = (
                clopper_pearson_upper(k, n, alpha),
                clopper_pearson_lower(k, n, alpha),
            );
            assert!(
                u >= up && u <= up * (1.0 + 1e-5),
                "k {k} n {n} α {alpha}: {u} vs {up}"
            );
            assert!(
                l <= lo && l >= lo * (1.0 - 1e-5),
                "k {k} n {n} α {alpha}: {l} vs {lo}"
            );
        }
    }

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
