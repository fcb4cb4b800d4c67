//! The accountants of a training run ([`TrainingEvent`]): ε by the RDP accountant, ε by the PLD from
//! both sides, and the smallest σ for a target ε by both. They account for the run's Poisson
//! record-level view ([`TrainingEvent::as_poisson`]); the other samplers' own statements are
//! [`crate::accounting::samplers`]'s, the user level's [`crate::accounting::samplers::users`]'s.
//! [`jobs`]: the background work built on them, shared by every lab that accounts for training.

pub mod jobs;
pub mod phases;
mod step_rdp;

pub use step_rdp::{running_epsilon, StepRdp};

use crate::accounting::event::{Neighbour, TrainingEvent};
use crate::accounting::pld::{
    dpsgd_epsilon_band, dpsgd_replace_one_band, EpsilonBand, SigmaSearch,
};
use crate::accounting::rdp::replace_one::Routes;
use crate::accounting::rdp::tight::{epsilon_continuous, step_rdp_exact};
use crate::accounting::rdp::{
    default_orders, epsilon_by_order, rdp_to_approx_dp, step_rdp, Conversion,
};
use crate::error::{Error, Result};
use crate::numerics::roots::{try_bisect, Split, Until};
use std::cmp::Ordering::Greater;

/// What the RDP accountant says (a few milliseconds: computed on every change).
#[derive(Debug, Clone, PartialEq)]
pub struct RdpReport {
    /// ε by the improved conversion over every real order, fractional orders by integration (the
    /// tighter bound; never above `eps_grid`). Under replace-one, the smaller of that for the σ/2
    /// curve and `eps_grid` ([`crate::accounting::rdp::replace_one`]).
    pub eps: f64,
    /// The order that attains `eps`.
    pub best_order: f64,
    /// ε as dp_accounting computes it: its grid of orders, fractional ones by its series of |terms|
    /// (under replace-one, from its curve as `replace_one_rdp.py` does).
    pub eps_grid: f64,
    /// The grid order that attains `eps_grid`.
    pub best_order_grid: f64,
    /// ε by the classical conversion ε(α) + ln(1/δ)/(α − 1).
    pub eps_classical: f64,
    /// (α, the (ε, δ) ε that order alone gives) for the ε(α) chart (finite values): its minimum is `eps`.
    pub curve: Vec<(f64, f64)>,
    /// (steps, ε) at 60 step counts up to T, for the ε-versus-steps chart.
    pub by_steps: Vec<(f64, f64)>,
}

/// The RDP accountant for the run's Poisson view at `delta` (under replace-one, the curve of
/// [`crate::accounting::rdp::replace_one`]).
///
/// # Errors
/// δ out of domain.
pub fn rdp_report(e: &TrainingEvent, delta: f64) -> Result<RdpReport> {
    let orders = default_orders();
    let (q, sigma, steps) = (e.rate, e.sigma, e.steps as f64);
    // Under replace-one, only the bounds that can matter here (on the page's thread at every move).
    let (routes, step) = step_curve(e, delta, &orders);
    let total: Vec<f64> = step.iter().map(|r| r * steps).collect();
    let (eps_grid, best_order_grid) =
        rdp_to_approx_dp(&orders, &total, delta, Conversion::Improved)?;
    // Every real order for a Poisson pair's curve: the link's, or under replace-one the σ/2 one when
    // it is kept. (Removing then adding stays on the grid: between its orders, 0.1 apart up to 11, it
    // gains at most 0.4% here (51.57 against 51.36 at q = 0.05, σ = 0.8) for two integrals an order,
    // which made this report 3 ms natively and 5–20 ms on the page's thread.)
    let continuous_sigma = match routes {
        None => Some(sigma),
        Some(r) => r.half.then_some(sigma / 2.0),
    };
    let (tight, tight_order) = continuous_sigma.map_or((f64::INFINITY, f64::NAN), |s| {
        epsilon_continuous(|a| steps * step_rdp_exact(q, s, a), delta)
    });
    let (eps, best_order) = if tight < eps_grid {
        (tight, tight_order)
    } else {
        (eps_grid, best_order_grid)
    };
    let (eps_classical, _) = rdp_to_approx_dp(&orders, &total, delta, Conversion::Classical)?;
    let curve = epsilon_by_order(&orders, &total, delta);
    let mut by_steps = Vec::new();
    for i in 1..=60 {
        let t = (steps * i as f64 / 60.0).ceil().max(1.0);
        let scaled: Vec<f64> = step.iter().map(|r| r * t).collect();
        by_steps.push((
            t,
            rdp_to_approx_dp(&orders, &scaled, delta, Conversion::Improved)?.0,
        ));
    }
    Ok(RdpReport {
        eps,
        best_order,
        eps_grid,
        best_order_grid,
        eps_classical,
        curve,
        by_steps,
    })
}

/// ε by the PLD accountant for the run's Poisson view at `delta`, from both sides, on a grid of
/// width `grid` (tens of milliseconds: pages run it off the critical path).
///
/// # Errors
/// Parameters out of domain.
pub fn pld_epsilon(e: &TrainingEvent, delta: f64, grid: f64) -> Result<EpsilonBand> {
    match e.neighbour {
        Neighbour::ReplaceOne => dpsgd_replace_one_band(e.rate, e.sigma, e.steps, delta, grid),
        Neighbour::AddRemove => dpsgd_epsilon_band(e.rate, e.sigma, e.steps, delta, grid),
    }
}

/// What a σ search reads: the run (its σ aside), δ, the target ε and the PLD grid's width.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SigmaGoal {
    /// The run whose noise multiplier is sought.
    pub event: TrainingEvent,
    /// δ.
    pub delta: f64,
    /// The target ε.
    pub target_eps: f64,
    /// The PLD grid's width.
    pub grid: f64,
}

/// The smallest noise multiplier whose certified PLD ε (upper side, at the goal's q, T, δ, relation)
/// is at most the target, to a relative 1e-4 and never overshooting; `rdp_sigma` (the RDP answer)
/// seeds the bracket.
///
/// # Errors
/// Parameters out of domain or an unreachable target.
pub fn sigma_for_target_pld(g: &SigmaGoal, rdp_sigma: f64) -> Result<f64> {
    sigma_search_pld(g, rdp_sigma)?.run()
}

/// The search behind [`sigma_for_target_pld`], one accountant evaluation per step (so that the page
/// can yield between them), in the noise multiplier (under replace-one its evaluations are the band's
/// upper end, [`SigmaSearch::under_replace_one`]).
///
/// # Errors
/// Parameters out of domain.
pub fn sigma_search_pld(g: &SigmaGoal, rdp_sigma: f64) -> Result<SigmaSearch> {
    let search = SigmaSearch::new(
        g.event.rate,
        g.event.steps,
        g.delta,
        g.target_eps,
        g.grid,
        rdp_sigma,
    )?;
    Ok(match g.event.neighbour {
        Neighbour::ReplaceOne => search.under_replace_one(),
        Neighbour::AddRemove => search,
    })
}

/// The smallest noise multiplier whose RDP ε (at the goal's q, T, δ, relation) is at most the target,
/// on dp_accounting's grid of orders (so that Opacus' `get_noise_multiplier` gives the same σ under
/// add/remove; the tighter continuous-order ε at this σ is a little below the target). Bisection on
/// ln σ, returning the upper end: it never overshoots the target.
///
/// # Errors
/// A target no σ up to 10⁴ reaches.
pub fn sigma_for_target(g: &SigmaGoal) -> Result<f64> {
    let eps_at = |sigma: f64| rdp_report_eps(&g.event.with_sigma(sigma), g.delta);
    let (lo, hi) = (1e-2, 1e4);
    if eps_at(hi)? > g.target_eps {
        return Err(Error::invalid(
            "target_eps",
            g.target_eps,
            "is out of reach for any σ up to 10⁴",
        ));
    }
    if eps_at(lo)? <= g.target_eps {
        return Ok(lo);
    }
    // The upper end: ε(hi) ≤ the target, so the σ returned never overshoots it.
    let found = try_bisect(lo, hi, Split::Geometric, Until::Ratio(1e-5), |s| {
        Ok(eps_at(s)?.partial_cmp(&g.target_eps) != Some(Greater))
    })?;
    Ok(found.hi)
}

/// [`rdp_report`]'s `eps_grid` alone (the same curve, so that the σ found meets the target there).
fn rdp_report_eps(e: &TrainingEvent, delta: f64) -> Result<f64> {
    let orders = default_orders();
    let (_, step) = step_curve(e, delta, &orders);
    let steps = e.steps as f64;
    let total: Vec<f64> = step.iter().map(|r| r * steps).collect();
    Ok(rdp_to_approx_dp(&orders, &total, delta, Conversion::Improved)?.0)
}

/// One step's RDP at each order under the run's relation, and under replace-one the routes kept
/// (only those that can win: [`Routes::at`]).
fn step_curve(e: &TrainingEvent, delta: f64, orders: &[f64]) -> (Option<Routes>, Vec<f64>) {
    let (q, sigma, steps) = (e.rate, e.sigma, e.steps as f64);
    let routes = e.replace_one().then(|| Routes::at(q, sigma, steps, delta));
    let step = orders
        .iter()
        .map(|&a| match routes {
            Some(r) => r.step(q, sigma, a),
            None => step_rdp(q, sigma, a),
        })
        .collect();
    (routes, step)
}
