//! Which PLDs bound a mechanism's trade-off curve from both sides: a training run's
//! ([`TrainingEvent`], Poisson batches) or a composition list's. The attack lab reads its curves and
//! risk numbers off these.

use crate::accounting::composed::ComposedPld;
use crate::accounting::entry::Item;
use crate::accounting::event::{Neighbour, TrainingEvent};
use crate::accounting::pld::{dpsgd_plds, dpsgd_plds_replace_one, Pld, DEFAULT_INTERVAL};
use crate::accounting::tradeoff::{TradeOff, TwoSteps};
use crate::attacks::dpsgd_gdp_mu_clt;
use crate::error::Result;

/// What bounds a mechanism: its PLDs from above and below (both directions), and under replace-one
/// what else caps the certified side.
pub struct Bounds {
    /// Certified: the true curve lies above these PLDs' curves.
    pub upper: Vec<Pld>,
    /// Optimistic: pairs that happen (or the lower side of the exact pair).
    pub lower: Vec<Pld>,
    /// Replace-one: removing then adding through the data set between, from the add/remove pair's
    /// certified curves at σ ([`TwoSteps`]); its curve raises the certified one where higher.
    pub two_steps: Option<TwoSteps>,
    /// A certified ε at δ tighter than the upper side's, where known (replace-one's removing then
    /// adding); ∞ otherwise.
    pub eps_cap: f64,
}

impl Bounds {
    fn plain((upper, lower): (Vec<Pld>, Vec<Pld>)) -> Bounds {
        Bounds {
            upper,
            lower,
            two_steps: None,
            eps_cap: f64::INFINITY,
        }
    }
}

/// The PLDs of a composition list (the link's δ is not read).
///
/// # Errors
/// A list the PLD cannot compose.
pub fn list_bounds(items: &[Item]) -> Result<Bounds> {
    let c = ComposedPld::new(items)?;
    Ok(Bounds::plain((c.upper, c.lower)))
}

/// The PLDs of a training run with Poisson batches at `delta`. Under replace-one the upper side is the
/// one-step route's (`replaced_step_delta`), raised by removing then adding at σ, and the lower side
/// every pair that happens ([`dpsgd_plds_replace_one`]), so that the true curve still lies between
/// them.
///
/// # Errors
/// Parameters out of the PLD's domain.
pub fn run_bounds(e: &TrainingEvent, delta: f64) -> Result<Bounds> {
    match e.neighbour {
        Neighbour::ReplaceOne => {
            let r = dpsgd_plds_replace_one(e.rate, e.sigma, e.steps, delta, DEFAULT_INTERVAL)?;
            Ok(Bounds {
                upper: r.one_step,
                lower: r.lower,
                two_steps: (!r.at_sigma.is_empty())
                    .then(|| TwoSteps::new(r.at_sigma.iter().map(TradeOff::from_pld).collect())),
                eps_cap: r.through,
            })
        }
        Neighbour::AddRemove => {
            dpsgd_plds(e.rate, e.sigma, e.steps, delta, DEFAULT_INTERVAL).map(Bounds::plain)
        }
    }
}

/// The run's central-limit μ (Bu et al. 2020, [`dpsgd_gdp_mu_clt`]), an estimate. Under replace-one
/// the smaller of the σ/2 pair's and twice the pair's at σ (two add/remove steps apart is G_{2μ}).
pub fn run_gdp_mu_clt(e: &TrainingEvent) -> f64 {
    match e.neighbour {
        Neighbour::ReplaceOne => dpsgd_gdp_mu_clt(e.rate, e.sigma / 2.0, e.steps)
            .min(2.0 * dpsgd_gdp_mu_clt(e.rate, e.sigma, e.steps)),
        Neighbour::AddRemove => dpsgd_gdp_mu_clt(e.rate, e.sigma, e.steps),
    }
}
