//! Published deployments of differential privacy on the statement's axes (μ-GDP, TPR at a low FPR, the
//! advantage), so a practitioner can read their own ε beside systems that are deployed. The data, each
//! entry with its sources, is in `deployments_data.rs` (and `docs/deployments.md`); here, the types and
//! the conversions.
//!
//! # Conversions (each states its assumption; the result is only as good as it)
//! - **ρ-zCDP from Gaussian noise** (a release built of Gaussian mechanisms): G_μ with μ = √(2ρ)
//!   (a Gaussian of sensitivity Δ and std s is (Δ²/2s²)-zCDP and (Δ/s)-GDP, Bun & Steinke 2016,
//!   Dong, Roth & Su 2022, and both compose by adding ρ and μ²). zCDP alone does not determine a curve:
//!   the reading holds only for Gaussian (continuous) noise, and discrete Gaussian noise is close.
//! - **Pure ε-DP**: the curve f_{ε,0} (Kairouz, Oh & Viswanath 2015), exact for randomized response,
//!   an outer bound for any other ε-DP mechanism.
//! - **(ε, δ)-DP**: the curve f_{ε,δ}, an outer bound for every (ε, δ)-DP mechanism.
//! - **Poisson DP-SGD** with published σ, q, steps: this playground's PLD, as for a run.
//! - **Undetermined**: published numbers that fix no curve (no mechanism, or only an ε per query
//!   without the number of queries): no conversion, and the reason.

use super::scales::{scales, scales_of, Scales};
use crate::accounting::event::{Neighbour, TrainingEvent};
use crate::accounting::guarantee::{Accountant, Guarantee, Side};

pub use super::deployments_data::DEPLOYMENTS;

/// Where a number was published.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Source {
    /// Title of the paper, page or post.
    pub title: &'static str,
    /// Its address.
    pub url: &'static str,
    /// Its date (as published; YYYY-MM-DD, or YYYY-MM, or YYYY).
    pub date: &'static str,
    /// Where in it the numbers are (a table, a section).
    pub locator: &'static str,
}

/// What was published, in the form a conversion reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Published {
    /// ρ-zCDP of a release built of Gaussian mechanisms.
    ZCdp {
        /// ρ.
        rho: f64,
    },
    /// Pure ε-DP.
    PureDp {
        /// ε.
        eps: f64,
    },
    /// (ε, δ)-DP.
    ApproxDp {
        /// ε.
        eps: f64,
        /// δ.
        delta: f64,
    },
    /// Poisson-sampled DP-SGD with its published parameters.
    PoissonDpsgd {
        /// Sampling rate.
        q: f64,
        /// Noise multiplier.
        sigma: f64,
        /// Steps.
        steps: u64,
        /// The δ the deployment reported at.
        delta: f64,
    },
    /// Numbers that fix no trade-off curve.
    Undetermined {
        /// Why.
        why: &'static str,
    },
}

/// One deployment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Deployment {
    /// A stable key.
    pub id: &'static str,
    /// A short label, for a chart's legend.
    pub label: &'static str,
    /// Its name.
    pub name: &'static str,
    /// Who deployed it.
    pub organisation: &'static str,
    /// The year of the release.
    pub year: u16,
    /// The unit of privacy in a few words, for the table.
    pub unit_short: &'static str,
    /// The unit of privacy (what one person's contribution is).
    pub unit: &'static str,
    /// What was reported, as published.
    pub reported: &'static str,
    /// What the conversion reads.
    pub published: Published,
    /// What the conversion assumes, in words.
    pub assumptions: &'static str,
    /// Where the numbers are.
    pub sources: &'static [Source],
}

/// The trade-off curve of f_{ε,δ} as hull vertices (Kairouz, Oh & Viswanath 2015).
fn approx_dp_hull(eps: f64, delta: f64) -> Vec<(f64, f64)> {
    let c = (1.0 - delta) / (1.0 + eps.exp());
    let mut v = vec![(0.0, 1.0 - delta), (c, c), (1.0 - delta, 0.0), (1.0, 0.0)];
    v.dedup();
    v
}

/// The G_μ curve as scales: closed forms (TPR at α = 1 − G_μ(α), advantage 2Φ(μ/2) − 1, regret 0).
fn gaussian_scales(mu: f64) -> Scales {
    use crate::mechanisms::gaussian::gdp_tradeoff;
    use crate::numerics::special::normal_cdf;
    Scales {
        mu,
        regret: 0.0,
        tpr: super::scales::FPRS.map(|a| 1.0 - gdp_tradeoff(mu, a)),
        advantage: 2.0 * normal_cdf(mu / 2.0) - 1.0,
        one_step_only: false,
    }
}

impl Deployment {
    /// The deployment on the statement's axes, or why not.
    ///
    /// # Errors
    /// An undetermined entry (its reason), or parameters the PLD cannot compose.
    pub fn scales(&self) -> Result<Scales, String> {
        match self.published {
            Published::ZCdp { rho } => Ok(gaussian_scales((2.0 * rho).sqrt())),
            Published::PureDp { eps } => Ok(scales_of(&approx_dp_hull(eps, 0.0), false)),
            Published::ApproxDp { eps, delta } => Ok(scales_of(&approx_dp_hull(eps, delta), false)),
            Published::PoissonDpsgd {
                q,
                sigma,
                steps,
                delta,
            } => {
                let e = TrainingEvent::poisson(q, sigma, steps, Neighbour::AddRemove);
                let g = Guarantee::poisson(&e, Accountant::Pld, Side::Upper, delta, 0.0);
                scales(&g).map_err(|e| e.to_string())
            }
            Published::Undetermined { why } => Err(why.to_string()),
        }
    }
}

/// Every deployment's scales (or why it has none), in [`DEPLOYMENTS`]' order: computed once per
/// statement and read by both its table and its chart.
pub fn all_scales() -> Vec<Result<Scales, String>> {
    DEPLOYMENTS.iter().map(Deployment::scales).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_cites_a_dated_source_and_converts_or_says_why() {
        assert!(DEPLOYMENTS.len() >= 6);
        for d in DEPLOYMENTS {
            assert!(!d.sources.is_empty(), "{}", d.id);
            for s in d.sources {
                assert!(
                    s.url.starts_with("https://") && s.date.len() >= 4,
                    "{}: {s:?}",
                    d.id
                );
            }
            assert!(!d.assumptions.is_empty() && !d.unit.is_empty(), "{}", d.id);
            match d.scales() {
                Ok(s) => assert!(s.mu.is_finite() && s.tpr[0] <= 1.0, "{}: {s:?}", d.id),
                Err(why) => assert!(!why.is_empty(), "{}", d.id),
            }
        }
    }

    /// Pure ε: μ = 2Φ⁻¹(e^ε/(1 + e^ε)) (G_μ through f_ε's corner), TPR at α = e^ε·α, advantage
    /// (e^ε − 1)/(e^ε + 1) (closed forms of f_{ε,0}).
    #[test]
    fn pure_dp_closed_forms() {
        let eps = 2.0f64;
        let s = scales_of(&approx_dp_hull(eps, 0.0), false);
        let mu = 2.0 * crate::numerics::special::normal_upper_quantile(1.0 / (1.0 + eps.exp()));
        assert!((s.mu - mu).abs() < 1e-9, "{s:?} {mu}");
        assert!((s.tpr[0] - eps.exp() * 0.01).abs() < 1e-12, "{s:?}");
        assert!((s.advantage - (eps.exp() - 1.0) / (eps.exp() + 1.0)).abs() < 1e-12);
        let g = gaussian_scales((2.0f64 * 0.5).sqrt());
        assert!((g.mu - 1.0).abs() < 1e-12 && g.regret == 0.0);
    }
}
