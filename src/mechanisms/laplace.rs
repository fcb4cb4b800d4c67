//! The Laplace mechanism M(x) = f(x) + Lap(b) for a query of ℓ1 sensitivity Δ: pure ε-DP with ε = Δ/b.

use super::{check_eps, check_positive, LossDistribution};
use crate::error::Result;
use rand::Rng;
use rand_distr::Exp1;

/// Laplace noise of scale b on a query of sensitivity Δ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Laplace {
    scale: f64,
    sens: f64,
}

/// The calibrated scale for ε-DP.
///
/// # Formula
/// b = Δ₁ / ε
///
/// # Reference
/// Dwork, McSherry, Nissim & Smith (TCC 2006); lecture slides, "Laplace mechanism"; approximate-DP
/// notes, eq. (13). Exact (one rounding).
///
/// # Errors
/// ε or Δ out of their domains.
///
/// ```
/// # use dp_playground::mechanisms::laplace::calibrated_scale;
/// assert_eq!(calibrated_scale(0.5, 2.0).unwrap(), 4.0);
/// ```
pub fn calibrated_scale(eps: f64, sens: f64) -> Result<f64> {
    check_eps(eps)?;
    check_positive("sens", sens)?;
    Ok(sens / eps)
}

impl Laplace {
    /// # Errors
    /// b and Δ must be finite and > 0.
    pub fn new(scale: f64, sens: f64) -> Result<Self> {
        check_positive("scale", scale)?;
        check_positive("sens", sens)?;
        Ok(Laplace { scale, sens })
    }

    /// The mechanism with ε₀ = Δ/b exactly (b = 1, Δ = ε₀), for accountants that know only ε₀.
    pub const fn with_eps0(eps0: f64) -> Self {
        Laplace {
            scale: 1.0,
            sens: eps0,
        }
    }

    /// The scale b.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// The ε of pure DP this scale gives: ε₀ = Δ/b.
    pub fn eps(&self) -> f64 {
        self.sens / self.scale
    }

    /// The standard deviation √2·b.
    pub fn sd(&self) -> f64 {
        std::f64::consts::SQRT_2 * self.scale
    }

    /// The exact privacy profile, [`profile`] at ε₀ = Δ/b.
    pub fn delta(&self, eps: f64) -> f64 {
        profile(self.eps(), eps)
    }

    /// RDP at order α ≥ 1, [`rdp`] at ε₀ = Δ/b.
    pub fn rdp(&self, alpha: f64) -> f64 {
        rdp(self.eps(), alpha)
    }

    /// The bad set {y : p(y)/q(y) > e^ε} is y < (Δ − bε)/2 when ε < ε₀, empty otherwise (`None`).
    pub fn bad_threshold(&self, eps: f64) -> Option<f64> {
        (eps < self.eps()).then(|| (self.sens - self.scale * eps) / 2.0)
    }

    /// P[M(x) ∈ Bad] = 1 − e^{−(ε₀ − ε)/2}/2 for ε < ε₀ (Lemma 1.4's δ), 0 otherwise.
    pub fn bad_probability(&self, eps: f64) -> f64 {
        match self.bad_threshold(eps) {
            Some(t) => 1.0 - 0.5 * (-t / self.scale).exp(),
            None => 0.0,
        }
    }

    /// The output density at y when the true answer is `centre`.
    pub fn density(&self, y: f64, centre: f64) -> f64 {
        (-(y - centre).abs() / self.scale).exp() / (2.0 * self.scale)
    }

    /// The privacy loss: atoms at +ε₀ (mass 1/2, outputs y ≤ 0) and −ε₀ (mass e^{−ε₀}/2, y ≥ Δ), and
    /// the density e^{(L − ε₀)/2}/4 on (−ε₀, ε₀) (outputs between the two answers).
    pub fn loss(&self, points: usize) -> LossDistribution {
        let eps0 = self.eps();
        let n = points.max(2);
        let density = (0..n)
            .map(|i| {
                let l = -eps0 + 2.0 * eps0 * i as f64 / (n - 1) as f64;
                (l, 0.25 * ((l - eps0) / 2.0).exp())
            })
            .collect();
        LossDistribution {
            atoms: vec![(-eps0, 0.5 * (-eps0).exp()), (eps0, 0.5)],
            density,
        }
    }

    /// The trade-off curve of testing x against x'.
    ///
    /// # Formula
    /// β(α) = 1 − e^{ε₀}α for α < e^{−ε₀}/2; e^{−ε₀}/(4α) up to α = 1/2; e^{−ε₀}(1 − α) beyond.
    ///
    /// # Reference
    /// Dong, Roth & Su (JRSS-B 2022), the Laplace example of §2.2 (Neyman–Pearson on the loss above).
    pub fn tradeoff(&self, alpha: f64) -> f64 {
        let eps0 = self.eps();
        let alpha = alpha.clamp(0.0, 1.0);
        let knee = 0.5 * (-eps0).exp();
        if alpha < knee {
            1.0 - eps0.exp() * alpha
        } else if alpha <= 0.5 {
            (-eps0).exp() / (4.0 * alpha)
        } else {
            (-eps0).exp() * (1.0 - alpha)
        }
    }

    /// One draw of the noise: b·E·S with E ~ Exp(1) and S a fair sign.
    pub fn sample_noise<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        let e: f64 = rng.sample(Exp1);
        if rng.random::<bool>() {
            self.scale * e
        } else {
            -self.scale * e
        }
    }
}

impl super::PrivacyCurves for Laplace {
    fn delta(&self, eps: f64) -> f64 {
        Laplace::delta(self, eps)
    }

    fn rdp(&self, alpha: f64) -> Option<f64> {
        Some(Laplace::rdp(self, alpha))
    }

    fn pure_eps(&self) -> Option<f64> {
        Some(self.eps())
    }
}

/// The exact privacy profile of the Laplace mechanism with ε₀ = Δ/b, for every real ε.
///
/// # Formula
/// δ(ε) = 0 for ε ≥ ε₀;  1 − e^{(ε − ε₀)/2} on [−ε₀, ε₀];  1 − e^ε below −ε₀ (every loss exceeds ε
/// there: the loss lies in [−ε₀, ε₀]).
///
/// # Reference
/// Derived from Lemma 1.4's bad set, which is exact here: for y ≤ y* = (Δ − bε)/2 the ratio exceeds
/// e^ε, so δ(ε) = P[Y ≤ y*] − e^ε P[Y + Δ ≤ y*]; the same curve appears in Balle et al., "Privacy
/// amplification by subsampling" (NeurIPS 2018), §4, and Balle & Wang (ICML 2018), §5. Computed with
/// expm1 (exact to rounding, no direction). An earlier copy used the middle branch below −ε₀ too,
/// which understates δ there and made `lap:0.01*100000` print ε = 0.
///
/// ```
/// use dp_playground::mechanisms::laplace::profile;
/// assert_eq!(profile(1.0, 1.0), 0.0);
/// assert!((profile(1.0, 0.0) - (1.0 - (-0.5f64).exp())).abs() < 1e-16);
/// assert!((profile(1.0, -2.0) - (1.0 - (-2.0f64).exp())).abs() < 1e-16);
/// ```
pub fn profile(eps0: f64, eps: f64) -> f64 {
    if eps >= eps0 {
        0.0
    } else if eps <= -eps0 {
        -eps.exp_m1()
    } else {
        (-((eps - eps0) / 2.0).exp_m1()).min(1.0)
    }
}

/// RDP of order α ≥ 1 of the Laplace mechanism with ε₀ = Δ/b.
///
/// # Formula
/// α > 1: (1/(α−1)) · ln( α/(2α−1)·e^{(α−1)ε₀} + (α−1)/(2α−1)·e^{−αε₀} );  α = 1: ε₀ + e^{−ε₀} − 1.
/// Near α = 1 it is evaluated as ln(1 + u·K)/u with u = α − 1 and
/// K = (α·expm1(uε₀)/u + expm1(−αε₀))/(2α − 1), which tends to the α = 1 value without cancellation;
/// for u ≥ ½ the logarithm is a log-sum-exp, finite for any order. Exact to rounding (no direction).
///
/// # Reference
/// Mironov (CSF 2017), Table 2; Table 1 of Yang, Qi & Zhou (AAAI 2024).
///
/// ```
/// use dp_playground::mechanisms::laplace::rdp;
/// // α = 1: the KL divergence ε₀ + e^{−ε₀} − 1.
/// assert!((rdp(1.0, 1.0) - (-1f64).exp()).abs() < 1e-16);
/// // Never above pure ε-DP's ε₀.
/// assert!(rdp(1.0, 1e6) <= 1.0);
/// ```
pub fn rdp(eps0: f64, alpha: f64) -> f64 {
    let u = alpha - 1.0;
    if u < 0.5 {
        let growth = if u == 0.0 {
            eps0
        } else {
            (u * eps0).exp_m1() / u
        };
        let k = (alpha * growth + (-alpha * eps0).exp_m1()) / (2.0 * alpha - 1.0);
        return if u == 0.0 { k } else { (u * k).ln_1p() / u };
    }
    let two_alpha = 2.0 * alpha - 1.0;
    let up = (alpha / two_alpha).ln() + u * eps0;
    let down = (u / two_alpha).ln() - alpha * eps0;
    crate::numerics::special::ln_add_exp(up, down) / u
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mechanisms::tradeoff_from_profile;

    fn lap(scale: f64, sens: f64) -> Laplace {
        Laplace::new(scale, sens).unwrap()
    }

    #[test]
    fn profile_matches_direct_integration() {
        // δ(ε) = ∫ (p − e^ε q)₊ by the midpoint rule on a fine grid (an independent computation).
        let m = lap(1.0, 2.0);
        for eps in [0.0f64, 0.5, 1.5, 1.99, 2.0, 3.0] {
            let direct = crate::mechanisms::hockey_stick_by_midpoint(
                |y| m.density(y, 0.0),
                |y| m.density(y, 2.0),
                eps,
                -20.0,
                1e-4,
                400_000,
            );
            assert!(
                (m.delta(eps) - direct).abs() < 1e-6,
                "ε={eps}: {} vs {direct}",
                m.delta(eps)
            );
        }
    }

    #[test]
    fn calibrated_scale_is_pure_dp() {
        let b = calibrated_scale(0.5, 2.0).unwrap();
        let m = lap(b, 2.0);
        assert_eq!(m.eps(), 0.5);
        assert_eq!(m.delta(0.5), 0.0);
        assert!(m.delta(0.4) > 0.0);
        assert!(m.bad_probability(0.5) == 0.0 && m.bad_probability(0.2) >= m.delta(0.2));
    }

    #[test]
    fn loss_has_unit_mass() {
        let loss = lap(1.0, 1.3).loss(2001);
        let atoms: f64 = loss.atoms.iter().map(|a| a.1).sum();
        let cont: f64 = loss
            .density
            .windows(2)
            .map(|w| (w[1].0 - w[0].0) * 0.5 * (w[0].1 + w[1].1))
            .sum();
        assert!((atoms + cont - 1.0).abs() < 1e-6);
    }

    #[test]
    fn tradeoff_closed_form_matches_profile_duality() {
        let m = lap(1.0, 1.0);
        let profile: Vec<(f64, f64)> = (0..=4000)
            .map(|i| i as f64 * 1e-3 - 2.0)
            .map(|e| (e, m.delta(e.abs())))
            .collect();
        // The dual over ε ≥ 0 only (symmetric mechanism).
        let positive: Vec<(f64, f64)> = profile.into_iter().filter(|p| p.0 >= 0.0).collect();
        let alphas = [0.01, 0.1, 0.18, 0.3, 0.5, 0.8];
        for (alpha, dual) in alphas
            .into_iter()
            .zip(tradeoff_from_profile(&positive, &alphas))
        {
            assert!(
                (m.tradeoff(alpha) - dual).abs() < 1e-6,
                "α={alpha}: {} vs {dual}",
                m.tradeoff(alpha)
            );
        }
    }

    #[test]
    fn bad_inputs_are_refused() {
        assert!(Laplace::new(f64::NAN, 1.0).is_err());
        assert!(Laplace::new(1.0, 0.0).is_err());
        assert!(calibrated_scale(0.0, 1.0).is_err());
        assert_eq!(calibrated_scale(1e-6, 1e9).unwrap(), 1e15);
    }
}
