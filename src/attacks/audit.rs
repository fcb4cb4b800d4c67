//! Auditing: the ε lower bound that an attack's counts prove, with confidence.

use crate::error::{Error, Result};
use crate::numerics::binomial;
use crate::numerics::roots::illinois;

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
/// level 1 − `alpha`: the p with P(Bin(n, p) ≤ k) = α, i.e. the Beta(k + 1, n − k) quantile at 1 − α
/// (1 when k = n), rounded up.
///
/// # Reference
/// Clopper & Pearson (Biometrika 1934); exact (conservative) binomial interval. Solved here by
/// regula falsi on the accurate tails of [`crate::numerics::binomial`]: statrs' Beta
/// quantile stopped its search short on the unsafe side (the lower end 1.6·10⁻⁵ relative inside
/// scipy's at n = 10⁶, k = 10) and ran for minutes at n = 10⁹, k = 10.
pub fn clopper_pearson_upper(k: u64, n: u64, alpha: f64) -> f64 {
    if k >= n {
        return 1.0;
    }
    if k == 0 {
        // (1 − p)ⁿ = α, rounded up by an ulp or two.
        return (-(alpha.ln() / n as f64).exp_m1() * (1.0 + 4.0 * f64::EPSILON)).min(1.0);
    }
    cp_end(k, n, alpha, true)
}

/// The one-sided Clopper–Pearson lower bound: the p with P(Bin(n, p) ≥ k) = α, the Beta(k, n − k + 1)
/// quantile at α (0 when k = 0), rounded down.
pub fn clopper_pearson_lower(k: u64, n: u64, alpha: f64) -> f64 {
    if k == 0 || n == 0 {
        return 0.0;
    }
    if k >= n {
        // pⁿ = α, rounded down.
        return (alpha.ln() / n as f64).exp() * (1.0 - 4.0 * f64::EPSILON);
    }
    cp_end(k, n, alpha, false)
}

/// A Clopper–Pearson end for 0 < k < n, by regula falsi (Illinois) on ln(tail) − ln α between k/n
/// and Hoeffding's bound k/n ± √(ln(1/α)/(2n)) (where the tail is at most α for certain), to a
/// relative width of 10⁻¹², returning the end where the tail was verified at most α (with 10⁻¹⁰ to
/// spare for the tails' rounding): never inside the exact interval. At k/n the tail is at least ½
/// (the median of Bin(n, k/n) is k), so for α ≥ ½ the search starts from p → 0 (upper) or 1
/// (lower) instead. About ten tails, each at most ~7 standard deviations of terms.
fn cp_end(k: u64, n: u64, alpha: f64, upper: bool) -> f64 {
    if !(alpha > 0.0 && alpha < 1.0) {
        return if upper { 1.0 } else { 0.0 };
    }
    let near = alpha < 0.5;
    let (kf, nf) = (k as f64, n as f64);
    let (mid, reach) = (kf / nf, ((1.0 / alpha).ln() / (2.0 * nf)).sqrt());
    let (ki, level) = (k as i64, (alpha * (1.0 - 1e-10)).ln());
    // ln(tail) − ln α, decreasing along the search (p up for the upper end, down for the lower).
    let g = |p: f64| {
        let tail = if upper {
            binomial::lower_tail(n, p, ki)
        } else {
            binomial::upper_tail(n, p, ki)
        };
        let v = tail.max(1e-300).ln() - level;
        if upper {
            v
        } else {
            -v
        }
    };
    const TOL: f64 = 1e-12;
    if upper {
        let (from, far) = (
            if near { mid } else { f64::MIN_POSITIVE },
            (mid + reach).min(1.0),
        );
        // Hoeffding's end holds whatever the computed tail says there.
        let hi = (far, g(far).min(0.0));
        illinois((from, g(from)), hi, TOL, 200, g).hi
    } else {
        let (far, to) = (
            (mid - reach).max(f64::MIN_POSITIVE),
            if near { mid } else { 1.0 },
        );
        let lo = (far, g(far).max(f64::MIN_POSITIVE));
        illinois(lo, (to, g(to)), TOL, 200, g).lo
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

    /// (k, n, α, upper end, lower end): mpmath (50 digits) solving the incomplete beta function,
    /// printed by `scripts/reference/binomial_reference.py`.
    #[rustfmt::skip]
    const EXACT_CP: &[(u64, u64, f64, f64, f64)] = &[
    // Clopper-Pearson, mpmath findroot on betainc (50 digits)
    (500, 1000, 0.05, 0.5264822687643088, 0.4735177312356912),
    (500, 1000, 0.0125, 0.5358845396821998, 0.4641154603178002),
    (500, 1000, 1e-06, 0.5752094927453635, 0.4247905072546365),
    (500, 1000, 0.7, 0.4922108879524075, 0.5077891120475925),
    (1, 1000, 0.05, 0.004734993575499778, 5.129197890901781e-05),
    (1, 1000, 0.0125, 0.006363785057031605, 1.2578703094310929e-05),
    (1, 1000, 1e-06, 0.016558164174744126, 1.0000004995003329e-09),
    (1, 1000, 0.7, 0.0010972958775204592, 0.0012032483198515284),
    (1000, 100000, 0.05, 0.010533200900636332, 0.009487997257358358),
    (1000, 100000, 0.0125, 0.010728581280006127, 0.009307854146777175),
    (1000, 100000, 1e-06, 0.011577320895872496, 0.008574256101169164),
    (1000, 100000, 0.7, 0.009842482601615916, 0.01016249936202885),
    (10, 1000000, 0.05, 1.696216018838093e-05, 5.425415393940882e-06),
    (10, 1000000, 0.0125, 1.9728780850739704e-05, 4.2781585942820945e-06),
    (10, 1000000, 1e-06, 3.4427463842574214e-05, 1.2768237184405895e-06),
    (10, 1000000, 0.7, 9.050365983888702e-06, 1.138725894455049e-05),
    (99990, 100000, 0.05, 0.9999457449733105, 0.9998303837123736),
    (99990, 100000, 0.0125, 0.9999572175049806, 0.9998027208286973),
    (99990, 100000, 1e-06, 0.9999872313190414, 0.9996557632042139),
    (99990, 100000, 0.7, 0.9998861286338692, 0.999909495953386),
    ];

    /// Each end lies outside the exact one (the interval never narrower), by at most 10⁻⁹ relative.
    #[test]
    fn clopper_pearson_ends_lie_just_outside_the_exact_ones() {
        for &(k, n, alpha, up, lo) in EXACT_CP {
            let (u, l) = (
                clopper_pearson_upper(k, n, alpha),
                clopper_pearson_lower(k, n, alpha),
            );
            let what = format!("k {k} n {n} α {alpha}: [{l}, {u}] vs [{lo}, {up}]");
            assert!(u >= up && u <= up * (1.0 + 1e-9), "{what}");
            assert!(l <= lo && l >= lo * (1.0 - 1e-9), "{what}");
        }
        // Huge and lopsided counts answer at once (statrs' quantile ran for minutes at n = 10⁹).
        assert!(clopper_pearson_upper(10, 1_000_000_000, 0.0125) > 1.97e-8);
        assert!(clopper_pearson_lower(10, 1_000_000_000, 0.0125) < 4.28e-9);
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
