//! The Gaussian mechanism M(x) = f(x) + N(0, σ²) for a query of ℓ2 sensitivity Δ: three calibrations of
//! σ for a target (ε, δ), its exact privacy profile, privacy loss and trade-off curve.

use super::{check_delta, check_eps, check_positive, LossDistribution};
use crate::error::{Error, Result};
use crate::numerics::roots::{bisect, Split, Until};
use crate::numerics::special::{ln_normal_cdf, ln_sub_exp, normal_cdf, normal_upper_quantile};
use rand::Rng;
use rand_distr::StandardNormal;

/// How far below the target the analytic calibration aims, relative to δ, on top of the floating-point
/// error bound of each δ evaluation (see [`sigma_analytic`]).
pub const ANALYTIC_DELTA_MARGIN: f64 = 1e-12;
/// Unit roundoff of f64.
const U: f64 = f64::EPSILON / 2.0;
/// The bisection stops when the bracket's ratio is within this of 1.
const BISECT_RATIO: f64 = 1e-13;

/// Gaussian noise of standard deviation σ on a query of ℓ2 sensitivity Δ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gaussian {
    sigma: f64,
    sens: f64,
}

impl Gaussian {
    /// # Errors
    /// σ and Δ must be finite and > 0.
    pub fn new(sigma: f64, sens: f64) -> Result<Self> {
        check_positive("sigma", sigma)?;
        check_positive("sens", sens)?;
        Ok(Gaussian { sigma, sens })
    }

    /// The noise's standard deviation σ.
    pub fn sigma(&self) -> f64 {
        self.sigma
    }

    /// The sensitivity Δ.
    pub fn sens(&self) -> f64 {
        self.sens
    }

    /// The exact δ at which the mechanism is (ε, δ)-DP, for ε ≥ 0.
    ///
    /// # Formula
    /// δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε · Φ(−Δ/(2σ) − εσ/Δ)
    ///
    /// # Reference
    /// Balle & Wang, "Improving the Gaussian mechanism for differential privacy" (ICML 2018), Theorem 8.
    ///
    /// Computed as exp(ln(e^{ln Φ(a)} − e^{ε + ln Φ(b)})) so that neither term underflows or overflows;
    /// accurate to about 1e-12 relative (not rounded either way; [`sigma_analytic`] keeps a margin).
    pub fn delta(&self, eps: f64) -> f64 {
        self.ln_delta(eps).exp()
    }

    /// ln δ(ε), finite even where δ underflows.
    pub fn ln_delta(&self, eps: f64) -> f64 {
        ln_delta_unit(self.sigma / self.sens, eps)
    }

    /// δ(ε) (as [`Gaussian::delta`], bit for bit) and its derivative dδ/dε, for every real ε.
    ///
    /// # Formula
    /// dδ/dε = −e^ε · Φ(−Δ/(2σ) − εσ/Δ): differentiating δ(ε) above, the two densities cancel
    /// (e^ε φ(−a − c) = φ(a − c) for a = Δ/(2σ), c = εσ/Δ, since 2ac = ε). In x = e^ε the profile's
    /// slope is −Q(L > ε), the null's mass where the loss exceeds ε, as for any pair with a
    /// continuous loss.
    ///
    /// # Reference
    /// Balle & Wang (ICML 2018), Theorem 8, differentiated. Computed as −exp(ε + ln Φ(·)) with the
    /// ln Φ that δ itself uses: one more exponential (the PLD's lower side reads its lines at the grid
    /// points off it, one profile evaluation per point instead of three). Not rounded either way.
    pub fn delta_and_slope(&self, eps: f64) -> (f64, f64) {
        let t = Terms::new(self.sigma / self.sens, eps);
        (t.ln_delta(eps).exp(), -(eps + t.lb).exp())
    }

    /// The largest output y in the bad set {y : p(y)/q(y) > e^ε} of Lemma 1.4 (approximate-DP notes),
    /// for f(x) = 0 and f(x') = Δ: the set is y < Δ/2 − εσ²/Δ.
    pub fn bad_threshold(&self, eps: f64) -> f64 {
        self.sens / 2.0 - eps * self.sigma * self.sigma / self.sens
    }

    /// P[M(x) ∈ Bad] = Φ(Δ/(2σ) − εσ/Δ): the δ Lemma 1.4 certifies, at least the exact [`Gaussian::delta`].
    pub fn bad_probability(&self, eps: f64) -> f64 {
        normal_cdf(self.sens / (2.0 * self.sigma) - eps * self.sigma / self.sens)
    }

    /// The output density at y when the true answer is `centre`.
    pub fn density(&self, y: f64, centre: f64) -> f64 {
        crate::numerics::stats::normal_pdf(y, centre, self.sigma)
    }

    /// The privacy-loss random variable L = ln(p(Y)/q(Y)), Y ~ M(x): normal with mean μ = Δ²/(2σ²) and
    /// variance 2μ (Balle & Wang 2018, Lemma 3), sampled on μ ± 6√(2μ).
    pub fn loss(&self, points: usize) -> LossDistribution {
        let mu = self.loss_mean();
        let sd = (2.0 * mu).sqrt();
        let density = (0..points)
            .map(|i| {
                let l = mu + sd * (-6.0 + 12.0 * i as f64 / (points.max(2) - 1) as f64);
                (l, crate::numerics::stats::normal_pdf(l, mu, sd))
            })
            .collect();
        LossDistribution {
            atoms: Vec::new(),
            density,
        }
    }

    /// μ = Δ²/(2σ²), the mean of the privacy loss; it is also ρ of ρ-zCDP ([`rho`]).
    pub fn loss_mean(&self) -> f64 {
        rho(self.sigma, self.sens)
    }

    /// The trade-off curve β(α) of testing x against x': the mechanism is μ-GDP with μ = Δ/σ.
    ///
    /// # Formula
    /// β(α) = Φ(Φ⁻¹(1 − α) − Δ/σ)
    ///
    /// # Reference
    /// Dong, Roth & Su, "Gaussian differential privacy" (JRSS-B 2022), eq. (2.3).
    pub fn tradeoff(&self, alpha: f64) -> f64 {
        gdp_tradeoff(self.sens / self.sigma, alpha)
    }

    /// One draw of the noise (add it to f(x)).
    pub fn sample_noise<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        let z: f64 = rng.sample(StandardNormal);
        self.sigma * z
    }
}

/// ln δ(ε) for Δ = 1 and σ = s (δ depends on σ/Δ alone). Without the error bound: the PLD accountant
/// evaluates it at every grid point, where the bound's two extra exponentials cost a fifth of the time.
fn ln_delta_unit(s: f64, eps: f64) -> f64 {
    Terms::new(s, eps).ln_delta(eps)
}

/// The pieces of ln δ(ε) = ln Φ(a) + ln(−expm1(x)), x = ε + ln Φ(b) − ln Φ(a), for Δ = 1 and σ = s.
struct Terms {
    h: f64,
    c: f64,
    a: f64,
    b: f64,
    la: f64,
    lb: f64,
    x: f64,
}

impl Terms {
    fn new(s: f64, eps: f64) -> Terms {
        let (h, c) = (0.5 / s, eps * s);
        let (a, b) = (h - c, -h - c);
        let (la, lb) = (ln_normal_cdf(a), ln_normal_cdf(b));
        Terms {
            h,
            c,
            a,
            b,
            la,
            lb,
            x: eps + lb - la,
        }
    }

    /// ln δ(ε) (−∞ where rounding leaves no δ).
    fn ln_delta(&self, eps: f64) -> f64 {
        if self.x >= 0.0 {
            return f64::NEG_INFINITY;
        }
        ln_sub_exp(self.la, eps + self.lb)
    }
}

/// ln δ(ε) for Δ = 1 and σ = s, with a bound on its floating-point error.
///
/// ln δ = ln Φ(a) + ln(−expm1(x)), x = ε + ln Φ(b) − ln Φ(a). The error of x comes from rounding a and b
/// (each off by ~u·(1/(2s) + εs), amplified by d ln Φ/dt ≈ max(1, |t|)) and from the three terms' own
/// rounding; it is amplified by e^x/|expm1(x)| when the two terms nearly cancel (tiny ε, e.g. 1e-6).
fn ln_delta_unit_with_error(s: f64, eps: f64) -> (f64, f64) {
    let Terms {
        h,
        c,
        a,
        b,
        la,
        lb,
        x,
    } = Terms::new(s, eps);
    if x >= 0.0 {
        // Only rounding can get here (the exact difference is positive); report "no δ".
        return (f64::NEG_INFINITY, f64::INFINITY);
    }
    let err_x = 8.0 * U * (eps + la.abs() + lb.abs() + (h + c) * (2.0 + a.abs() + b.abs()));
    let err = 4.0 * U * (1.0 + la.abs()) + err_x * x.exp() / -x.exp_m1();
    (ln_sub_exp(la, eps + lb), err)
}

/// ρ of ρ-zCDP of the Gaussian mechanism with standard deviation σ and sensitivity Δ; also the mean
/// of its privacy loss.
///
/// # Formula
/// ρ = Δ² / (2σ²)
///
/// # Reference
/// Bun & Steinke (TCC 2016), Proposition 1.6. Exact (rounding only).
///
/// ```
/// assert_eq!(dp_playground::mechanisms::gaussian::rho(2.0, 1.0), 0.125);
/// ```
pub fn rho(sigma: f64, sens: f64) -> f64 {
    let r = sens / sigma;
    0.5 * r * r
}

impl super::PrivacyCurves for Gaussian {
    fn delta(&self, eps: f64) -> f64 {
        Gaussian::delta(self, eps)
    }

    fn rdp(&self, alpha: f64) -> Option<f64> {
        Some(rdp(alpha, self.sigma, self.sens))
    }

    fn rho(&self) -> Option<f64> {
        Some(rho(self.sigma, self.sens))
    }
}

/// The μ-GDP trade-off curve G_μ(α): the Gaussian mechanism with μ = Δ/σ.
///
/// # Formula
/// G_μ(α) = Φ(Φ⁻¹(1 − α) − μ); 1 at α ≤ 0 and 0 at α ≥ 1.
///
/// # Reference
/// Dong, Roth & Su, "Gaussian differential privacy" (JRSS-B 2022), Definition 2.7 and eq. (2.3).
/// Exact to rounding.
pub fn gdp_tradeoff(mu: f64, alpha: f64) -> f64 {
    if alpha <= 0.0 {
        return 1.0;
    }
    if alpha >= 1.0 {
        return 0.0;
    }
    normal_cdf(normal_upper_quantile(alpha) - mu)
}

/// RDP of order α of the Gaussian mechanism with standard deviation σ and sensitivity Δ.
///
/// # Formula
/// α·Δ²/(2σ²), written so that Δ = 1 gives α/(2σ²) to the bit.
///
/// # Reference
/// Mironov (CSF 2017), Table 2; Table 1 of Yang, Qi & Zhou (AAAI 2024). Exact to rounding.
pub fn rdp(alpha: f64, sigma: f64, sens: f64) -> f64 {
    alpha * sens * sens / (2.0 * sigma * sigma)
}

/// σ of the approximate-DP notes' Gaussian mechanism (eq. 17, also the lecture slides).
///
/// # Formula
/// σ = Δ · √(2 ln(2/δ)) / ε
///
/// # Reference
/// Approximate-DP notes, eq. (17) and Theorem 2.1: proved only for ε ≤ 1 (the lab says so when ε > 1).
///
/// # Errors
/// ε, δ and Δ out of their domains.
pub fn sigma_lecture(eps: f64, delta: f64, sens: f64) -> Result<f64> {
    check_inputs(eps, delta, sens)?;
    Ok(sens * (2.0 * (2f64.ln() - delta.ln())).sqrt() / eps)
}

/// The classical calibration of the Gaussian mechanism.
///
/// # Formula
/// σ = Δ · √(2 ln(1.25/δ)) / ε
///
/// # Reference
/// Dwork & Roth, "The algorithmic foundations of differential privacy" (2014), Theorem A.1: proved only
/// for ε < 1.
///
/// # Errors
/// ε, δ and Δ out of their domains.
pub fn sigma_classical(eps: f64, delta: f64, sens: f64) -> Result<f64> {
    check_inputs(eps, delta, sens)?;
    Ok(sens * (2.0 * (1.25f64.ln() - delta.ln())).sqrt() / eps)
}

/// The smallest σ for which the Gaussian mechanism is (ε, δ)-DP: the analytic Gaussian mechanism.
///
/// # Formula
/// σ = min { σ : Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ) ≤ δ }
///
/// # Reference
/// Balle & Wang (ICML 2018), Theorem 8 and Algorithm 1; we bisect on ln σ instead of their
/// reparametrisation (δ(σ) is decreasing in σ).
///
/// Rounds up: a σ counts as enough only if ln δ plus its floating-point error bound is below
/// ln(δ·(1 − 1e-12)) ([`ANALYTIC_DELTA_MARGIN`]), and the bisection returns the upper end of its bracket,
/// so the returned σ never gives a δ above the target. Typically σ exceeds the exact minimum by under
/// 1e-10 relative; at ε = 1e-6, where the two terms of δ cancel to seven digits, by up to 4e-6.
///
/// # Errors
/// ε, δ and Δ out of their domains, or a σ beyond f64 range.
///
/// ```
/// # use dp_playground::mechanisms::gaussian::sigma_analytic;
/// // dp_accounting 0.6.0: gaussian_mechanism.get_sigma_gaussian(1, 1e-5) = 3.730631634815937
/// let sigma = sigma_analytic(1.0, 1e-5, 1.0).unwrap();
/// assert!((sigma / 3.730_631_634_815_937 - 1.0).abs() < 1e-8);
/// ```
pub fn sigma_analytic(eps: f64, delta: f64, sens: f64) -> Result<f64> {
    check_inputs(eps, delta, sens)?;
    let target = delta.ln() + (-ANALYTIC_DELTA_MARGIN).ln_1p();
    let too_small = |s: f64| {
        let (ln_delta, err) = ln_delta_unit_with_error(s, eps);
        ln_delta + err > target
    };
    // Start from the classical σ (for Δ = 1) and widen the bracket until it holds the answer.
    let guess = (2.0 * (1.25f64.ln() - delta.ln())).sqrt() / eps;
    let (mut lo, mut hi) = (guess, guess);
    for _ in 0..2100 {
        if too_small(lo) {
            break;
        }
        lo *= 0.5;
    }
    for _ in 0..2100 {
        if !too_small(hi) {
            break;
        }
        hi *= 2.0;
    }
    if !too_small(lo) || too_small(hi) || !hi.is_finite() {
        return Err(Error::invalid(
            "delta",
            delta,
            "cannot be reached by any finite σ at this ε",
        ));
    }
    // The upper end: hi is a σ that meets the target with its error bound; lo is not.
    let hi = bisect(lo, hi, Split::Geometric, Until::Ratio(BISECT_RATIO), |s| {
        !too_small(s)
    })
    .hi;
    // hi satisfies the target; the product with Δ is rounded up by one ulp to stay on that side.
    let sigma = next_up(hi * sens);
    if sigma.is_finite() {
        Ok(sigma)
    } else {
        Err(Error::invalid(
            "sens",
            sens,
            "gives a σ beyond the range of a double",
        ))
    }
}

/// The next representable double above a positive finite x.
pub(crate) fn next_up(x: f64) -> f64 {
    f64::from_bits(x.to_bits() + 1)
}

fn check_inputs(eps: f64, delta: f64, sens: f64) -> Result<()> {
    check_eps(eps)?;
    check_delta(delta)?;
    check_positive("sens", sens)
}

#[cfg(test)]
#[path = "gaussian_tests.rs"]
mod tests;
