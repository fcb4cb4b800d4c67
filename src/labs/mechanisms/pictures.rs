//! The curves of the chosen noise: output densities with the bad set, privacy loss, privacy profile,
//! trade-off curve, and a seeded sample histogram.

use super::{MechParams, Noise};
use crate::mechanisms::gaussian::rho as gaussian_rho;
use crate::mechanisms::{tradeoff_bound, tradeoff_from_profile, LossDistribution};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::f64::consts::LN_10;

/// Points per density curve.
const CURVE_POINTS: usize = 240;
/// The profile chart never goes below this δ (the lab's smallest δ is about 1e-300).
const LOG10_DELTA_FLOOR: f64 = -320.0;

impl Noise {
    /// Output density at y for the true answer `centre`.
    pub fn density(&self, y: f64, centre: f64) -> f64 {
        match self {
            Noise::Laplace(m) => m.density(y, centre),
            Noise::Gaussian(m) => m.density(y, centre),
            Noise::TruncatedLaplace(m) => m.density(y, centre),
        }
    }

    /// Exact δ(ε).
    pub fn delta(&self, eps: f64) -> f64 {
        match self {
            Noise::Laplace(m) => m.delta(eps),
            Noise::Gaussian(m) => m.delta(eps),
            Noise::TruncatedLaplace(m) => m.delta(eps),
        }
    }

    /// log10 δ(ε), finite where δ underflows (Gaussian, truncated Laplace), floored for δ = 0.
    pub fn log10_delta(&self, eps: f64) -> f64 {
        let ln = match self {
            Noise::Gaussian(m) => m.ln_delta(eps),
            Noise::TruncatedLaplace(m) if m.delta(eps) < 1e-300 => m.ln_delta_infinite(),
            _ => self.delta(eps).ln(),
        };
        (ln / LN_10).max(LOG10_DELTA_FLOOR)
    }

    /// The noise's standard deviation.
    pub fn sd(&self) -> f64 {
        match self {
            Noise::Laplace(m) => m.sd(),
            Noise::Gaussian(m) => m.sigma(),
            Noise::TruncatedLaplace(m) => m.sd(),
        }
    }

    /// The ε at which the noise is private "by design": Δ/b for Laplace, the link's ε otherwise.
    pub fn design_eps(&self, link_eps: f64) -> f64 {
        match self {
            Noise::Laplace(m) => m.eps(),
            _ => link_eps,
        }
    }

    /// The bad set at ε (output intervals for f(x) = 0) and its probability under x.
    pub fn bad_set(&self, eps: f64, lo: f64) -> (Vec<(f64, f64)>, f64) {
        match self {
            Noise::Laplace(m) => match m.bad_threshold(eps) {
                Some(t) => (vec![(lo, t)], m.bad_probability(eps)),
                None => (Vec::new(), 0.0),
            },
            Noise::Gaussian(m) => (vec![(lo, m.bad_threshold(eps))], m.bad_probability(eps)),
            Noise::TruncatedLaplace(m) => m.bad_set(eps),
        }
    }

    /// The privacy-loss distribution.
    pub fn loss(&self) -> LossDistribution {
        match self {
            Noise::Laplace(m) => m.loss(121),
            Noise::Gaussian(m) => m.loss(121),
            Noise::TruncatedLaplace(m) => m.loss(121),
        }
    }

    /// One draw of the noise.
    pub fn sample<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        match self {
            Noise::Laplace(m) => m.sample_noise(rng),
            Noise::Gaussian(m) => m.sample_noise(rng),
            Noise::TruncatedLaplace(m) => m.sample_noise(rng),
        }
    }

    /// The output range the charts show, for answers 0 and Δ.
    pub fn range(&self, sens: f64) -> (f64, f64) {
        let reach = match self {
            Noise::Laplace(m) => 6.0 * m.scale(),
            Noise::Gaussian(m) => 4.0 * m.sigma(),
            Noise::TruncatedLaplace(m) => 1.08 * m.bound(),
        };
        (-reach, sens + reach)
    }
}

/// Everything the pictures of one noise show.
#[derive(Debug, Clone, PartialEq)]
pub struct Pictures {
    /// (y, p(y) under x, q(y) under x').
    pub densities: Vec<(f64, f64, f64)>,
    /// The bad set of Lemma 1.4 at [`Pictures::bad_eps`], as output intervals.
    pub bad: Vec<(f64, f64)>,
    /// The ε of the bad set.
    pub bad_eps: f64,
    /// P[M(x) ∈ Bad]: the δ Lemma 1.4 certifies.
    pub bad_probability: f64,
    /// The exact δ at `bad_eps` (never above `bad_probability`).
    pub bad_eps_delta: f64,
    /// The privacy-loss distribution.
    pub loss: LossDistribution,
    /// (ε, δ(ε), log10 δ(ε)) of the exact privacy profile.
    pub profile: Vec<(f64, f64, f64)>,
    /// The zCDP bound (Gaussian only): (ε, log10 of exp(−(ε − ρ)²/(4ρ))).
    pub profile_zcdp: Vec<(f64, f64)>,
    /// (α, β(α)): the trade-off curve.
    pub tradeoff: Vec<(f64, f64)>,
    /// (α, f_{ε,δ}(α)) for the noise's own (ε, δ) guarantee.
    pub tradeoff_bound: Vec<(f64, f64)>,
    /// That guarantee.
    pub guarantee: (f64, f64),
}

impl Pictures {
    /// Panics (tests only) when a number the page draws is NaN or infinite.
    #[cfg(test)]
    pub fn assert_finite(&self, what: &str) {
        let finite = self
            .densities
            .iter()
            .all(|d| d.0.is_finite() && d.1.is_finite() && d.2.is_finite())
            && self
                .profile
                .iter()
                .all(|p| p.0.is_finite() && p.2.is_finite())
            && self.tradeoff.iter().all(|t| t.1.is_finite())
            && self.bad_probability.is_finite()
            && self.loss.density.iter().all(|d| d.1.is_finite());
        assert!(finite, "{what}: {self:?}");
    }
}

/// Computes the pictures for the noise in use.
pub fn pictures(p: &MechParams, noise: &Noise) -> Pictures {
    let (lo, hi) = noise.range(p.sens);
    let mut ys: Vec<f64> = (0..CURVE_POINTS)
        .map(|i| lo + (hi - lo) * i as f64 / (CURVE_POINTS - 1) as f64)
        .collect();
    if let Noise::TruncatedLaplace(m) = noise {
        // Both sides of every edge of the two supports, so that the jumps are drawn vertical.
        let nudge = (hi - lo) * 1e-9;
        for edge in [
            -m.bound(),
            m.bound(),
            p.sens - m.bound(),
            p.sens + m.bound(),
        ] {
            ys.extend([edge - nudge, edge + nudge]);
        }
        ys.sort_by(f64::total_cmp);
    }
    let densities = ys
        .iter()
        .map(|&y| (y, noise.density(y, 0.0), noise.density(y, p.sens)))
        .collect();
    let bad_eps = p.bad_eps();
    let (bad, bad_probability) = noise.bad_set(bad_eps, lo);
    let design = noise.design_eps(p.eps);
    let eps_top = (2.0 * design)
        .max(bad_eps * 1.2)
        .clamp(0.5, crate::mechanisms::MAX_EPS);
    let profile: Vec<(f64, f64, f64)> = (0..=150)
        .map(|i| eps_top * i as f64 / 150.0)
        .map(|e| (e, noise.delta(e), noise.log10_delta(e)))
        .collect();
    let profile_zcdp = match noise {
        Noise::Gaussian(g) => {
            let rho = gaussian_rho(g.sigma(), g.sens());
            profile
                .iter()
                .map(|&(e, _, _)| {
                    let log10 = if e <= rho {
                        0.0
                    } else {
                        -(e - rho).powi(2) / (4.0 * rho) / LN_10
                    };
                    (e, log10.max(LOG10_DELTA_FLOOR))
                })
                .collect()
        }
        _ => Vec::new(),
    };
    let alphas: Vec<f64> = [1e-6, 1e-5, 1e-4, 1e-3, 3e-3]
        .into_iter()
        .chain((1..100).map(|i| i as f64 / 100.0))
        .chain([1.0])
        .collect();
    let tradeoff = match noise {
        Noise::Gaussian(g) => alphas.iter().map(|&a| (a, g.tradeoff(a))).collect(),
        Noise::Laplace(l) => alphas.iter().map(|&a| (a, l.tradeoff(a))).collect(),
        Noise::TruncatedLaplace(_) => {
            // Dual of the profile on a fine ε grid reaching well past the atom at ε (exact up to the grid).
            let grid: Vec<(f64, f64)> = (0..=600)
                .map(|i| i as f64 * 0.05)
                .map(|e| (e, noise.delta(e)))
                .collect();
            let betas = tradeoff_from_profile(&grid, &alphas);
            alphas
                .iter()
                .zip(betas)
                .map(|(&a, b)| (a, b.min(1.0 - a)))
                .collect()
        }
    };
    let guarantee = (design, noise.delta(design));
    let tradeoff_bound = alphas
        .iter()
        .map(|&a| (a, tradeoff_bound(guarantee.0, guarantee.1, a)))
        .collect();
    Pictures {
        densities,
        bad,
        bad_eps,
        bad_probability,
        bad_eps_delta: noise.delta(bad_eps),
        loss: noise.loss(),
        profile,
        profile_zcdp,
        tradeoff,
        tradeoff_bound,
        guarantee,
    }
}

/// A seeded sample of M(x) against its density.
#[derive(Debug, Clone, PartialEq)]
pub struct Samples {
    /// Bin edges over the charts' output range.
    pub edges: Vec<f64>,
    /// Draws per bin.
    pub counts: Vec<u64>,
    /// (y, expected draws per bin at y) from the density.
    pub curve: Vec<(f64, f64)>,
    /// Sample mean and standard deviation.
    pub mean: f64,
    /// See `mean`.
    pub sd: f64,
    /// The noise's standard deviation.
    pub sd_theory: f64,
}

/// Draws `p.draws` outputs of M(x) (f(x) = 0) with `p.seed` (ChaCha8, stream 3) and bins them.
pub fn samples(p: &MechParams, noise: &Noise) -> Samples {
    let mut rng = ChaCha8Rng::seed_from_u64(p.seed);
    rng.set_stream(3);
    let draws: Vec<f64> = (0..p.draws).map(|_| noise.sample(&mut rng)).collect();
    let (lo, hi) = noise.range(p.sens);
    let bins = 60;
    let (edges, counts) = crate::numerics::stats::histogram(&draws, lo, hi, bins);
    let width = (hi - lo) / bins as f64;
    let curve = (0..CURVE_POINTS)
        .map(|i| lo + (hi - lo) * i as f64 / (CURVE_POINTS - 1) as f64)
        .map(|y| (y, p.draws as f64 * width * noise.density(y, 0.0)))
        .collect();
    let (mean, sd) = crate::numerics::stats::mean_sd(&draws);
    Samples {
        edges,
        counts,
        curve,
        mean,
        sd,
        sd_theory: noise.sd(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::mechanisms::{calibrate, noise, Mechanism};

    fn noise_for(mech: Mechanism) -> (MechParams, Noise) {
        let p = MechParams {
            mech,
            ..MechParams::default()
        };
        let cal = calibrate(&p).unwrap();
        let n = noise(&p, &cal)
            .unwrap()
            .unwrap_or_else(|| panic!("no noise"));
        (p, n)
    }

    #[test]
    fn bad_set_bounds_exact_delta_and_guarantee_holds() {
        for mech in [
            Mechanism::Laplace,
            Mechanism::Gaussian,
            Mechanism::TruncatedLaplace,
        ] {
            let (p, n) = noise_for(mech);
            let pic = pictures(&p, &n);
            pic.assert_finite(mech.key());
            assert!(pic.bad_probability >= pic.bad_eps_delta - 1e-15, "{mech}");
            assert!(pic.guarantee.1 <= p.delta, "{mech}: {:?}", pic.guarantee);
            // The trade-off curve lies on or above the (ε, δ) boundary of its own guarantee.
            for (t, b) in pic.tradeoff.iter().zip(&pic.tradeoff_bound) {
                assert!(
                    t.1 >= b.1 - 1e-9,
                    "{mech} at α = {}: {} < {}",
                    t.0,
                    t.1,
                    b.1
                );
            }
        }
    }

    #[test]
    fn samples_are_reproducible_and_match_the_sd() {
        for mech in [
            Mechanism::Laplace,
            Mechanism::Gaussian,
            Mechanism::TruncatedLaplace,
        ] {
            let (p, n) = noise_for(mech);
            let a = samples(&p, &n);
            assert_eq!(a, samples(&p, &n));
            // 10⁴ draws: the sample sd is within 6 standard errors (< 6·sd·√(κ/4n)) of the truth.
            assert!(
                (a.sd / a.sd_theory - 1.0).abs() < 0.06,
                "{mech}: {} vs {}",
                a.sd,
                a.sd_theory
            );
        }
    }
}
