//! The truncated Laplace mechanism of the approximate-DP notes, eqs. (14)–(15):
//! M(x) = f(x) + λ·W with W ~ Lap(1, τ), the density ∝ e^{−|w|} on [−τ, τ], and λ = Δ/ε.
//!
//! In units of λ the two neighbouring outputs are W and W + d with d = Δ/λ (= ε when calibrated). Outputs
//! in [−τ, d − τ) can only come from x: there the privacy loss is +∞, and that mass is the exact δ.

use super::{check_delta, check_eps, check_positive, LossDistribution};
use crate::error::{Error, Result};
use crate::numerics::special::ln_add_exp;
use rand::Rng;

/// The support bound τ (in units of λ = Δ/ε) for a target (ε, δ).
///
/// # Formula
/// τ = ln(1 + (e^ε − 1)/(2δ))
///
/// # Reference
/// Solves δ = P[W ∈ [−τ, ε − τ)] = e^{−τ}(e^ε − 1)/(2(1 − e^{−τ})), the mass of the outputs x' cannot
/// produce, which by Lemma 1.4 (exact here, since elsewhere the ratio is at most e^ε) is the mechanism's δ;
/// the same bound is Geng, Ding, Guo & Kumar, "Tight analysis of privacy and utility tradeoff in
/// approximate differential privacy" (AISTATS 2020), Theorem 1. Needs δ < 1/2 (then τ ≥ ε).
///
/// Computed in log space (finite for ε = 50, δ = 1e-300, accurate to a few ulps relative) and rounded up
/// by a relative 1e-12, which lowers δ by at most about 1e-12·max(1, τ) relative: never above the target.
///
/// # Errors
/// ε out of (0, 100], δ out of (0, 1/2).
///
/// ```
/// # use dp_playground::mechanisms::truncated_laplace::tau_for;
/// // ε = 1, δ = 1e-5: ln(1 + (e − 1)/2e-5) = 11.361114778489599 (Python math.log1p)
/// assert!((tau_for(1.0, 1e-5).unwrap() - 11.361_114_778_489_599).abs() < 1e-9);
/// ```
pub fn tau_for(eps: f64, delta: f64) -> Result<f64> {
    check_eps(eps)?;
    check_delta(delta)?;
    if delta >= 0.5 {
        return Err(Error::invalid(
            "delta",
            delta,
            "must be below 1/2 for the truncated Laplace mechanism",
        ));
    }
    // ln(e^ε − 1) = ε + ln(1 − e^{−ε}).
    let ln_expm1 = eps + (-(-eps).exp_m1()).ln();
    let x = ln_expm1 - 2f64.ln() - delta.ln();
    let tau = ln_add_exp(0.0, x);
    Ok(tau * (1.0 + 1e-12))
}

/// Truncated Laplace noise λ·W, W ~ Lap(1, τ), on a query of sensitivity Δ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TruncatedLaplace {
    lambda: f64,
    tau: f64,
    sens: f64,
}

impl TruncatedLaplace {
    /// # Errors
    /// λ, τ and Δ must be finite and > 0.
    pub fn new(lambda: f64, tau: f64, sens: f64) -> Result<Self> {
        check_positive("scale", lambda)?;
        check_positive("tau", tau)?;
        check_positive("sens", sens)?;
        Ok(TruncatedLaplace { lambda, tau, sens })
    }

    /// The scale λ.
    pub fn lambda(&self) -> f64 {
        self.lambda
    }

    /// The support bound τ (units of λ).
    pub fn tau(&self) -> f64 {
        self.tau
    }

    /// The largest noise the mechanism can add: λτ.
    pub fn bound(&self) -> f64 {
        self.lambda * self.tau
    }

    /// The shift between the neighbours in units of λ.
    fn shift(&self) -> f64 {
        self.sens / self.lambda
    }

    /// ln Z − the normaliser Z = 2(1 − e^{−τ}).
    fn ln_norm(&self) -> f64 {
        (2.0 * -(-self.tau).exp_m1()).ln()
    }

    /// ∫_lo^hi e^{−|w|} dw / Z, without cancellation when both ends are far out in one tail.
    fn mass(&self, lo: f64, hi: f64) -> f64 {
        if hi <= lo {
            return 0.0;
        }
        let raw = if hi <= 0.0 {
            hi.exp() * -(lo - hi).exp_m1()
        } else if lo >= 0.0 {
            (-lo).exp() * -(lo - hi).exp_m1()
        } else {
            -lo.exp_m1() - (-hi).exp_m1()
        };
        raw / (2.0 * -(-self.tau).exp_m1())
    }

    /// The standard deviation λ·√(E\[W²\]), E\[W²\] = (2 − e^{−τ}(τ² + 2τ + 2))/(1 − e^{−τ}).
    pub fn sd(&self) -> f64 {
        let t = self.tau;
        let second = (2.0 - (-t).exp() * (t * t + 2.0 * t + 2.0)) / -(-t).exp_m1();
        self.lambda * second.max(0.0).sqrt()
    }

    /// The exact privacy profile for ε ≥ 0: δ(ε) = E[(1 − e^{ε − L})₊] over the loss L below.
    pub fn delta(&self, eps: f64) -> f64 {
        let (t, d) = (self.tau, self.shift());
        let mut delta = self.delta_infinite();
        // Atom at L = d (outputs w ∈ [d − τ, 0]).
        if eps < d {
            delta += self.mass(d - t, 0.0f64.min(t)) * -(eps - d).exp_m1();
        }
        // Continuous part L = d − 2w for w ∈ [max(0, d − τ), min(d, τ)], where L > ε ⇔ w < (d − ε)/2.
        let b0 = 0.0f64.max(d - t);
        let c = d.min(t).min((d - eps) / 2.0);
        if c > b0 {
            let first = (-b0).exp() - (-c).exp();
            let second = (eps - d).exp() * (c.exp() - b0.exp());
            delta += (first - second).max(0.0) * (-self.ln_norm()).exp();
        }
        delta.min(1.0)
    }

    /// The mass where x' has no density (L = +∞): the δ of Lemma 1.4 at every ε ≥ Δ/λ.
    pub fn delta_infinite(&self) -> f64 {
        self.ln_delta_infinite().exp()
    }

    /// ln of [`TruncatedLaplace::delta_infinite`], finite even where it underflows.
    pub fn ln_delta_infinite(&self) -> f64 {
        let (t, d) = (self.tau, self.shift());
        let hi = (d - t).min(t);
        if hi <= 0.0 {
            // ∫_{−τ}^{d−τ} e^{w} dw = e^{−τ}·expm1(d), written without forming d − τ (which would cost
            // d's relative precision when d ≪ τ).
            -t + d.exp_m1().ln() - self.ln_norm()
        } else {
            self.mass(-t, hi).ln()
        }
    }

    /// The bad set of Lemma 1.4 at ε, as intervals of outputs (f(x) = 0), and its probability under x.
    pub fn bad_set(&self, eps: f64) -> (Vec<(f64, f64)>, f64) {
        let (t, d, l) = (self.tau, self.shift(), self.lambda);
        // Where L = +∞, or L = d > ε, or L = d − 2w > ε: all w < (d − ε)/2 within the support, plus
        // w < d − τ. The set is one interval [−τ, w*).
        let w_star = if eps < d {
            ((d - eps) / 2.0).min(t)
        } else {
            (d - t).min(t)
        };
        if w_star <= -t {
            return (Vec::new(), 0.0);
        }
        (vec![(-t * l, w_star * l)], self.mass(-t, w_star))
    }

    /// The output density at y when the true answer is `centre`.
    pub fn density(&self, y: f64, centre: f64) -> f64 {
        let w = (y - centre) / self.lambda;
        if w.abs() > self.tau {
            0.0
        } else {
            (-w.abs() - self.ln_norm()).exp() / self.lambda
        }
    }

    /// The privacy loss: +∞ with the mass [`TruncatedLaplace::delta_infinite`], atoms at ±d, and the
    /// density of d − 2w for w between the two answers.
    pub fn loss(&self, points: usize) -> LossDistribution {
        let (t, d) = (self.tau, self.shift());
        let mut atoms = vec![(f64::INFINITY, self.delta_infinite())];
        let at_d = self.mass(d - t, 0.0f64.min(t));
        if at_d > 0.0 {
            atoms.push((d, at_d));
        }
        let at_minus = self.mass(d, t);
        if at_minus > 0.0 {
            atoms.insert(0, (-d, at_minus));
        }
        let (b0, b1) = (0.0f64.max(d - t), d.min(t));
        let n = points.max(2);
        let density = if b1 > b0 {
            // w = (d − L)/2, |dw/dL| = 1/2, p(w) = e^{−w}/Z.
            (0..n)
                .map(|i| {
                    let l = (d - 2.0 * b1) + 2.0 * (b1 - b0) * i as f64 / (n - 1) as f64;
                    let w = (d - l) / 2.0;
                    (l, 0.5 * (-w - self.ln_norm()).exp())
                })
                .collect()
        } else {
            Vec::new()
        };
        LossDistribution { atoms, density }
    }

    /// One draw of the noise λW by inversion: |W| = −ln(1 − U(1 − e^{−τ})), with a fair sign.
    pub fn sample_noise<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        let u: f64 = rng.random();
        let magnitude = -(-u * -(-self.tau).exp_m1()).ln_1p();
        let w = magnitude.min(self.tau);
        if rng.random::<bool>() {
            self.lambda * w
        } else {
            -self.lambda * w
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn calibrated(eps: f64, delta: f64, sens: f64) -> TruncatedLaplace {
        let tau = tau_for(eps, delta).unwrap();
        TruncatedLaplace::new(sens / eps, tau, sens).unwrap()
    }

    #[test]
    fn tau_reaches_the_target_delta_exactly_and_safely() {
        for eps in [1e-6, 0.1, 1.0, 5.0] {
            for delta in [0.4, 1e-3, 1e-9] {
                let m = calibrated(eps, delta, 2.0);
                let got = m.delta(eps);
                assert!(got <= delta, "ε={eps} δ={delta}: {got}");
                assert!(got > delta * (1.0 - 1e-9), "ε={eps} δ={delta}: {got}");
            }
        }
    }

    #[test]
    fn profile_matches_direct_integration() {
        // δ(ε) = ∫ (p − e^ε q)₊, midpoint rule (an independent computation), with τ = 3, λ = 1, Δ = 0.8.
        let m = TruncatedLaplace::new(1.0, 3.0, 0.8).unwrap();
        for eps in [0.0f64, 0.3, 0.79, 0.8, 2.0] {
            let direct = crate::mechanisms::hockey_stick_by_midpoint(
                |y| m.density(y, 0.0),
                |y| m.density(y, 0.8),
                eps,
                -4.0,
                1e-5,
                800_000,
            );
            assert!(
                (m.delta(eps) - direct).abs() < 1e-5,
                "ε={eps}: {} vs {direct}",
                m.delta(eps)
            );
        }
    }

    #[test]
    fn loss_and_bad_set_are_consistent() {
        let m = calibrated(1.0, 0.01, 1.0);
        let loss = m.loss(2001);
        let atoms: f64 = loss.atoms.iter().map(|a| a.1).sum();
        let cont: f64 = loss
            .density
            .windows(2)
            .map(|w| (w[1].0 - w[0].0) * 0.5 * (w[0].1 + w[1].1))
            .sum();
        assert!((atoms + cont - 1.0).abs() < 1e-6, "{atoms} + {cont}");
        let (_, p_bad) = m.bad_set(1.0);
        assert!(
            (p_bad - m.delta(1.0)).abs() < 1e-15,
            "at ε the bad set is exactly the +∞ region"
        );
        let (_, p_bad_small) = m.bad_set(0.5);
        assert!(p_bad_small >= m.delta(0.5));
    }

    #[test]
    fn extreme_inputs_stay_finite() {
        let tau = tau_for(50.0, 1e-300).unwrap();
        // ln(1 + (e^50 − 1)/2e-300) = 50 + 300 ln 10 − ln 2 (to 1e-12).
        assert!((tau - (50.0 + 300.0 * 10f64.ln() - 2f64.ln())).abs() < 1e-9);
        let m = TruncatedLaplace::new(1e9 / 50.0, tau, 1e9).unwrap();
        assert!(m.ln_delta_infinite().is_finite() && m.ln_delta_infinite() < -690.0);
        assert!(m.sd().is_finite());
        assert!(tau_for(1e-6, 1e-300).is_ok_and(|t| t.is_finite()));
        assert!(tau_for(1.0, 0.5).is_err() && tau_for(f64::NAN, 0.1).is_err());
    }

    #[test]
    fn samples_stay_inside_the_support() {
        use rand::SeedableRng;
        let m = calibrated(1.0, 1e-3, 1.0);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..10_000 {
            assert!(m.sample_noise(&mut rng).abs() <= m.bound());
        }
    }
}
