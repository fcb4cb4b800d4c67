//! The standard normal distribution's CDF Φ, its logarithm deep into the lower tail, and its inverse.
//!
//! Φ uses libm's `erfc` (the FreeBSD/musl implementation, error below 1 ulp), not statrs' `erfc`, whose
//! relative error we measured at 8e-11 near x = 0.7 — too coarse for δ's that are tested to 1e-12. The
//! quantile starts from statrs' `erfc_inv` and polishes it with Newton steps on ln Φ. Neither crate has a
//! log-CDF, so [`ln_normal_cdf`] adds the classical asymptotic series by hand where Φ would underflow.
//! [`students_t_upper_quantile`] inverts statrs' regularized incomplete beta function in the far tail,
//! where statrs' own `StudentsT::inverse_cdf` (which takes 1 − p) has no digits left.

use super::roots::{bisect, Split, Until};
use libm::erfc;
use statrs::function::beta::beta_reg;
use statrs::function::erf::erfc_inv;
use std::cmp::Ordering::Greater;
use std::f64::consts::SQRT_2;

/// ln √(2π).
const LN_SQRT_2PI: f64 = 0.918_938_533_204_672_8;

/// Below this argument [`ln_normal_cdf`] switches to the asymptotic series (Φ(−35) ≈ 1.1e-268, still
/// representable, so the two branches overlap where both are accurate).
const TAIL_SWITCH: f64 = -35.0;

/// The standard normal CDF.
///
/// # Formula
/// Φ(x) = erfc(−x/√2) / 2
///
/// Relative error near machine precision for all x (erfc is accurate in its tail); Φ(x) underflows to 0
/// below x ≈ −38.5, where [`ln_normal_cdf`] still works.
///
/// ```
/// # use dp_playground::numerics::special::normal_cdf;
/// assert!((normal_cdf(1.959963984540054) - 0.975).abs() < 1e-15);
/// ```
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / SQRT_2)
}

/// ln Φ(x), finite for every finite x.
///
/// # Formula
/// x ≥ −35: ln(erfc(−x/√2)/2).
/// x < −35: ln Φ(x) = −x²/2 − ln(−x) − ln√(2π) + ln(1 − 1/x² + 3/x⁴ − 15/x⁶ + 105/x⁸ − 945/x¹⁰),
/// the Mills-ratio asymptotic series (Abramowitz & Stegun 26.2.12); the first omitted term is below
/// 10395/35¹² ≈ 3e-15 in relative terms.
///
/// ```
/// # use dp_playground::numerics::special::ln_normal_cdf;
/// // mpmath (50 digits): log(ncdf(-40)) = -804.608442013753788...
/// assert!((ln_normal_cdf(-40.0) + 804.608_442_013_753_8).abs() < 1e-9);
/// ```
pub fn ln_normal_cdf(x: f64) -> f64 {
    if x >= TAIL_SWITCH {
        if x > 5.0 {
            // ln(1 − Φ(−x)) without cancellation.
            return (-normal_cdf(-x)).ln_1p();
        }
        return normal_cdf(x).ln();
    }
    let z = 1.0 / (x * x);
    let series = 1.0 - z * (1.0 - 3.0 * z * (1.0 - 5.0 * z * (1.0 - 7.0 * z * (1.0 - 9.0 * z))));
    -0.5 * x * x - (-x).ln() - LN_SQRT_2PI + series.ln()
}

/// The upper quantile Φ⁻¹(1 − p) for p ∈ (0, 1), accurate for tiny p (no 1 − p rounding).
///
/// # Formula
/// x = √2 · erfc⁻¹(2p), then three Newton steps on ln Φ(−x) = ln p (each squares the relative error).
pub fn normal_upper_quantile(p: f64) -> f64 {
    let mut x = SQRT_2 * erfc_inv(2.0 * p);
    let target = p.ln();
    for _ in 0..3 {
        let tail = ln_normal_cdf(-x);
        let ln_pdf = -0.5 * x * x - LN_SQRT_2PI;
        let step = (tail - target) / (ln_pdf - tail).exp();
        if !step.is_finite() {
            break;
        }
        x += step;
    }
    x
}

/// ln(e^a − e^b) for a ≥ b, without overflow; −∞ when a = b.
pub fn ln_sub_exp(a: f64, b: f64) -> f64 {
    if b == f64::NEG_INFINITY {
        return a;
    }
    // ln(1 − e^{b−a}) as ln(−expm1(b − a)): exact to an ulp even when b is just below a.
    a + (-(b - a).exp_m1()).ln()
}

/// ln(e^a + e^b) without overflow.
pub fn ln_add_exp(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
    if lo == f64::NEG_INFINITY {
        return hi;
    }
    hi + (lo - hi).exp().ln_1p()
}

/// The upper quantile t with P\[T_ν > t\] = p of Student's t distribution, for ν > 0 and p ∈ (0, ½].
///
/// # Formula
/// P\[T_ν > t\] = ½ · I_{ν/(ν+t²)}(ν/2, ½) (Abramowitz & Stegun 26.7.1 with 26.5.27), solved for t by
/// bisection (doubling to bracket, then halving to 1 ulp). Taking p rather than 1 − p keeps every digit
/// for tiny p: scipy's `t.ppf(1 − 2⁻⁵³, 1224)` = 8.325592199579301 is reproduced to 1e-13.
/// Returns NaN outside the domain.
pub fn students_t_upper_quantile(nu: f64, p: f64) -> f64 {
    if !(nu > 0.0 && nu.is_finite() && p > 0.0 && p <= 0.5) {
        return f64::NAN;
    }
    let upper_tail = |t: f64| 0.5 * beta_reg(0.5 * nu, 0.5, 1.0 / (1.0 + t * t / nu));
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    while upper_tail(hi) > p {
        lo = hi;
        hi *= 2.0;
        if hi > 1e300 {
            return f64::INFINITY;
        }
    }
    // The ends are adjacent floats: either is the quantile to 1 ulp; the midpoint rounds to one of them.
    let b = bisect(lo, hi, Split::Middle, Until::Adjacent(200), |t| {
        upper_tail(t).partial_cmp(&p) != Some(Greater)
    });
    0.5 * (b.lo + b.hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference values: mpmath 1.3.0 at 50 digits, `ncdf(x)` and `log(ncdf(x))`.
    const CDF: [(f64, f64); 5] = [
        (-1.0, 0.158_655_253_931_457_05),
        (0.0, 0.5),
        (2.0, 0.977_249_868_051_820_8),
        (-10.0, 7.619_853_024_160_526e-24),
        (-37.0, 5.725_571_222_524_577e-300),
    ];

    #[test]
    fn cdf_matches_mpmath() {
        for (x, want) in CDF {
            let got = normal_cdf(x);
            assert!(
                ((got - want) / want).abs() < 1e-13,
                "Φ({x}) = {got}, want {want}"
            );
        }
    }

    #[test]
    fn log_cdf_is_continuous_across_the_switch_and_finite_far_out() {
        let below = ln_normal_cdf(TAIL_SWITCH - 1e-9);
        let above = ln_normal_cdf(TAIL_SWITCH + 1e-9);
        assert!(
            (below - above).abs() < 1e-9 * above.abs(),
            "{below} vs {above}"
        );
        // mpmath: log(ncdf(-1e6)) = -500000000014.73...; log(ncdf(-300)) = -45006.6227321...
        assert!((ln_normal_cdf(-1e6) + 500_000_000_014.734_45).abs() < 1e-3);
        // mpmath: log(ncdf(6)) = -9.8658764552437573e-10
        assert!((ln_normal_cdf(-300.0) + 45_006.622_732_1).abs() < 1e-6);
        assert!(ln_normal_cdf(40.0) == 0.0 || ln_normal_cdf(40.0).abs() < 1e-300);
        assert!((ln_normal_cdf(6.0) + 9.865_876_455_243_757e-10).abs() < 1e-22);
    }

    #[test]
    fn quantile_inverts_cdf() {
        for p in [1e-300, 1e-10, 0.025, 0.5, 0.9] {
            let x = normal_upper_quantile(p);
            let back = normal_cdf(-x);
            assert!(((back - p) / p).abs() < 1e-12, "p = {p}: {back}");
        }
    }

    #[test]
    fn log_sum_helpers() {
        assert!((ln_add_exp(1000.0, 1000.0) - (1000.0 + 2f64.ln())).abs() < 1e-12);
        assert!((ln_sub_exp(2f64.ln(), 0.0)).abs() < 1e-15);
        assert_eq!(ln_sub_exp(3.0, 3.0), f64::NEG_INFINITY);
    }

    /// scipy 1.x `stats.t.ppf(1 - 2**-53, df)` (the Bayesian accountant's penalty) and `t.isf(0.025, 10)`.
    #[test]
    fn t_quantile_matches_scipy() {
        let p = 2f64.powi(-53);
        for (nu, want) in [
            (1224.0, 8.325_592_199_579_301),
            (5.0, 2_434.291_430_369_9),
            (10.0, 2.228_138_851_986_273_5),
        ] {
            let pp = if nu == 10.0 { 0.025 } else { p };
            let got = students_t_upper_quantile(nu, pp);
            assert!(
                ((got - want) / want).abs() < 1e-11,
                "ν = {nu}: {got} vs {want}"
            );
        }
        assert!(students_t_upper_quantile(f64::NAN, 0.1).is_nan());
        assert!(students_t_upper_quantile(3.0, 0.0).is_nan());
        assert!(students_t_upper_quantile(0.0, 0.1).is_nan());
        assert!(students_t_upper_quantile(3.0, 0.5) < 1e-50);
    }
}
