//! Noise mechanisms for one query of sensitivity Δ, each with its exact privacy analysis.
//!
//! - [`laplace`]: Laplace noise, pure ε-DP; its privacy profile and trade-off curve in closed form.
//! - [`gaussian`]: Gaussian noise; the lecture's, the classical and the analytic (Balle–Wang) σ.
//! - [`truncated_laplace`]: Laplace noise on a bounded support, (ε, δ)-DP (approximate-DP notes §1.2).
//! - [`exponential`]: the exponential mechanism's selection probabilities.
//! - [`many_queries`]: k counting queries, Laplace against Gaussian (approximate-DP notes §2.2).
//!
//! Throughout, the neighbouring answers are f(x) = 0 and f(x') = Δ, and "privacy loss" means
//! L = ln(p(Y)/q(Y)) for Y ~ M(x), p and q the output densities under x and x'.

pub mod exponential;
pub mod gaussian;
pub mod laplace;
pub mod many_queries;
pub mod mf;
pub mod randomized_response;
pub mod truncated_laplace;

use crate::error::{Error, Result};

/// The largest ε the mechanisms lab accepts (e^100 is still far inside f64 range).
pub const MAX_EPS: f64 = 100.0;
/// The smallest ε a mechanism accepts: below it 1/ε, and K/ε in randomized response's estimate,
/// leave f64's range (at ε = 2.3e-308 and K = 50 the estimate was −4e307 and its standard error ∞).
pub const MIN_EPS: f64 = 1e-300;
/// The largest sensitivity the lab accepts; beyond it σ·Δ products leave f64's comfortable range.
pub const MAX_SENS: f64 = 1e15;

/// What an accountant asks of a mechanism: its exact privacy profile on the whole line, and its Rényi
/// curve, pure ε and zCDP ρ where it has them. Each mechanism implements it with the formulas it owns;
/// the composition entries ([`crate::accounting::entry::Entry`]) hold parameters and delegate here.
pub trait PrivacyCurves {
    /// δ(ε) for every real ε (the hockey-stick divergence of the worst pair), exact to rounding.
    fn delta(&self, eps: f64) -> f64;
    /// RDP ε(α) at an order α > 1, where the mechanism has a Rényi curve.
    fn rdp(&self, alpha: f64) -> Option<f64>;
    /// ε of pure DP, where the mechanism is pure.
    fn pure_eps(&self) -> Option<f64> {
        None
    }
    /// ρ of zCDP, where it has one: pure ε-DP is ε²/2-zCDP (Bun & Steinke, TCC 2016, Prop. 1.4).
    fn rho(&self) -> Option<f64> {
        self.pure_eps().map(|e| e * e / 2.0)
    }
}

/// The distribution of a privacy-loss random variable: point masses plus a continuous part.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LossDistribution {
    /// Point masses (loss value, probability); the value may be +∞ (outputs x' can never produce).
    pub atoms: Vec<(f64, f64)>,
    /// The continuous part's density, sampled in increasing loss: (loss, density).
    pub density: Vec<(f64, f64)>,
}

/// The trade-off curve of a mechanism from its privacy profile, for symmetric mechanisms, at each α:
/// β(α) = max(0, sup_ε 1 − δ(ε) − e^ε α, sup_ε e^{−ε}(1 − δ(ε) − α)) over the ε grid given.
///
/// # Reference
/// Dong, Roth & Su (JRSS-B 2022), Proposition 2.12 (f-DP is the dual of the privacy profile). On a
/// finite grid the supremum is taken over fewer lines, so the curve drawn lies on or below the true one.
pub fn tradeoff_from_profile(profile: &[(f64, f64)], alphas: &[f64]) -> Vec<f64> {
    // Each grid point gives two lines β = c − s·α; the exponentials are computed once per line.
    let lines: Vec<(f64, f64, f64)> = profile
        .iter()
        .map(|&(eps, delta)| (1.0 - delta, eps.exp(), (-eps).exp()))
        .collect();
    alphas
        .iter()
        .map(|&alpha| {
            lines.iter().fold(0.0f64, |best, &(c, up, down)| {
                best.max(c - up * alpha).max(down * (c - alpha))
            })
        })
        .collect()
}

/// The (ε, δ)-DP region's boundary f_{ε,δ}(α) = max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α)): any
/// (ε, δ)-DP mechanism's trade-off curve lies on or above it (Dong, Roth & Su 2022, eq. (2.5)).
pub fn tradeoff_bound(eps: f64, delta: f64, alpha: f64) -> f64 {
    tradeoff_from_profile(&[(eps, delta)], &[alpha])[0]
}

/// δ(ε) = ∫ (p(y) − e^ε q(y))₊ dy by the midpoint rule with `steps` panels of width `h` from `from`:
/// an independent check of a closed-form privacy profile (tests only).
#[cfg(test)]
pub(crate) fn hockey_stick_by_midpoint(
    p: impl Fn(f64) -> f64,
    q: impl Fn(f64) -> f64,
    eps: f64,
    from: f64,
    h: f64,
    steps: usize,
) -> f64 {
    (0..steps)
        .map(|i| {
            let y = from + (i as f64 + 0.5) * h;
            (p(y) - eps.exp() * q(y)).max(0.0) * h
        })
        .sum()
}

/// Checks ε ∈ [[`MIN_EPS`], [`MAX_EPS`]].
pub(crate) fn check_eps(eps: f64) -> Result<()> {
    if (MIN_EPS..=MAX_EPS).contains(&eps) {
        Ok(())
    } else {
        Err(Error::invalid(
            "eps",
            eps,
            format!("must be a number in [{MIN_EPS:e}, {MAX_EPS}]"),
        ))
    }
}

/// Checks δ ∈ (0, 1).
pub(crate) fn check_delta(delta: f64) -> Result<()> {
    if delta > 0.0 && delta < 1.0 {
        Ok(())
    } else {
        Err(Error::invalid("delta", delta, "must be a number in (0, 1)"))
    }
}

/// Checks a finite positive parameter no larger than [`MAX_SENS`]·10^100 (σ, b) or [`MAX_SENS`] (Δ).
pub(crate) fn check_positive(name: &'static str, x: f64) -> Result<()> {
    let max = if name == "sens" { MAX_SENS } else { 1e200 };
    if x.is_finite() && x > 0.0 && x <= max {
        Ok(())
    } else {
        Err(Error::invalid(
            name,
            x,
            format!("must be a number in (0, {max:e}]"),
        ))
    }
}
