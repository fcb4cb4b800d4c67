//! What the DP-SGD lab computes: ε by the RDP accountant, ε by the PLD, the smallest σ for a target
//! ε by both, and the lecture's three scenarios.

use super::{DpsgdParams, Neighbour};
use crate::accounting::pld::{
    dpsgd_epsilon_band, dpsgd_replace_one_band, EpsilonBand, SigmaSearch, DEFAULT_INTERVAL,
};
use crate::accounting::rdp::replace_one::Routes;
use crate::accounting::rdp::tight::{epsilon_continuous, step_rdp_exact};
use crate::accounting::rdp::{
    default_orders, epsilon_by_order, rdp_to_approx_dp, step_rdp, Conversion,
};
use crate::accounting::zcdp::rho_for_approx_dp;
use crate::error::{Error, Result};
use crate::link::query::{fmt_f64, Query};
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

/// The RDP accountant for the link's parameters (under replace-one, the curve of
/// [`crate::accounting::rdp::replace_one`]).
///
/// # Errors
/// δ out of domain.
pub fn rdp_report(p: &DpsgdParams) -> Result<RdpReport> {
    let orders = default_orders();
    let (q, sigma, steps) = (p.rate(), p.sigma, p.total_steps() as f64);
    // Under replace-one, only the bounds that can matter here (on the page's thread at every move).
    let (routes, step) = step_curve(p, &orders);
    let total: Vec<f64> = step.iter().map(|r| r * steps).collect();
    let (eps_grid, best_order_grid) =
        rdp_to_approx_dp(&orders, &total, p.delta, Conversion::Improved)?;
    // Every real order for a Poisson pair's curve: the link's, or under replace-one the σ/2 one when
    // it is kept. (Removing then adding stays on the grid: between its orders, 0.1 apart up to 11, it
    // gains at most 0.4% here (51.57 against 51.36 at q = 0.05, σ = 0.8) for two integrals an order,
    // which made this report 3 ms natively and 5–20 ms on the page's thread.)
    let continuous_sigma = match routes {
        None => Some(sigma),
        Some(r) => r.half.then_some(sigma / 2.0),
    };
    let (tight, tight_order) = continuous_sigma.map_or((f64::INFINITY, f64::NAN), |s| {
        epsilon_continuous(|a| steps * step_rdp_exact(q, s, a), p.delta)
    });
    let (eps, best_order) = if tight < eps_grid {
        (tight, tight_order)
    } else {
        (eps_grid, best_order_grid)
    };
    let (eps_classical, _) = rdp_to_approx_dp(&orders, &total, p.delta, Conversion::Classical)?;
    let curve = epsilon_by_order(&orders, &total, p.delta);
    let mut by_steps = Vec::new();
    for i in 1..=60 {
        let t = (steps * i as f64 / 60.0).ceil().max(1.0);
        let scaled: Vec<f64> = step.iter().map(|r| r * t).collect();
        by_steps.push((
            t,
            rdp_to_approx_dp(&orders, &scaled, p.delta, Conversion::Improved)?.0,
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

/// ε by the PLD accountant after `steps` steps, from both sides (tens of milliseconds: the page runs
/// it off the critical path). `grid` is the link's grid width, if it sets one.
///
/// # Errors
/// Parameters out of domain.
pub fn pld_epsilon(p: &DpsgdParams, steps: u64) -> Result<EpsilonBand> {
    let grid = p.grid.unwrap_or(DEFAULT_INTERVAL);
    match p.neighbour {
        Neighbour::ReplaceOne => dpsgd_replace_one_band(p.rate(), p.sigma, steps, p.delta, grid),
        Neighbour::AddRemove => {
            dpsgd_epsilon_band(p.rate(), p.effective_sigma(), steps, p.delta, grid)
        }
    }
}

/// The smallest noise multiplier whose certified PLD ε (upper side, at the link's q, T, δ, relation)
/// is at most `target_eps`, to a relative 1e-4 and never overshooting; `rdp_sigma` (the RDP answer)
/// seeds the bracket. Returned as the link's σ.
///
/// # Errors
/// Parameters out of domain or an unreachable target.
pub fn sigma_for_target_pld(p: &DpsgdParams, rdp_sigma: f64) -> Result<f64> {
    sigma_search_pld(p, rdp_sigma)?.run()
}

/// The search behind [`sigma_for_target_pld`], one accountant evaluation per step (so that the page
/// can yield between them), in the link's σ (under replace-one its evaluations are the band's upper
/// end, [`SigmaSearch::under_replace_one`]).
///
/// # Errors
/// Parameters out of domain.
pub fn sigma_search_pld(p: &DpsgdParams, rdp_sigma: f64) -> Result<SigmaSearch> {
    let search = SigmaSearch::new(
        p.rate(),
        p.total_steps(),
        p.delta,
        p.target_eps,
        p.grid.unwrap_or(DEFAULT_INTERVAL),
        rdp_sigma,
    )?;
    Ok(match p.neighbour {
        Neighbour::ReplaceOne => search.under_replace_one(),
        Neighbour::AddRemove => search,
    })
}

/// The smallest noise multiplier whose RDP ε (at the link's q, T, δ, relation) is at most `target_eps`,
/// on dp_accounting's grid of orders (so that Opacus' `get_noise_multiplier` gives the same σ under
/// add/remove; the tighter continuous-order ε at this σ is a little below the target). Bisection on
/// ln σ, returning the upper end: it never overshoots the target.
///
/// # Errors
/// A target no σ up to 10⁴ reaches.
pub fn sigma_for_target(p: &DpsgdParams) -> Result<f64> {
    let eps_at = |sigma: f64| {
        let trial = DpsgdParams { sigma, ..p.clone() };
        rdp_report_eps(&trial)
    };
    let (lo, hi) = (1e-2, 1e4);
    if eps_at(hi)? > p.target_eps {
        return Err(Error::invalid(
            "target_eps",
            p.target_eps,
            "is out of reach for any σ up to 10⁴",
        ));
    }
    if eps_at(lo)? <= p.target_eps {
        return Ok(lo);
    }
    // The upper end: ε(hi) ≤ the target, so the σ returned never overshoots it.
    let found = try_bisect(lo, hi, Split::Geometric, Until::Ratio(1e-5), |s| {
        Ok(eps_at(s)?.partial_cmp(&p.target_eps) != Some(Greater))
    })?;
    Ok(found.hi)
}

/// [`rdp_report`]'s `eps_grid` alone (the same curve, so that the σ found meets the target there).
fn rdp_report_eps(p: &DpsgdParams) -> Result<f64> {
    let orders = default_orders();
    let (_, step) = step_curve(p, &orders);
    let steps = p.total_steps() as f64;
    let total: Vec<f64> = step.iter().map(|r| r * steps).collect();
    Ok(rdp_to_approx_dp(&orders, &total, p.delta, Conversion::Improved)?.0)
}

/// One step's RDP at each order under the link's relation, and under replace-one the routes kept
/// (only those that can win: [`Routes::at`]).
fn step_curve(p: &DpsgdParams, orders: &[f64]) -> (Option<Routes>, Vec<f64>) {
    let (q, sigma, steps) = (p.rate(), p.sigma, p.total_steps() as f64);
    let routes =
        (p.neighbour == Neighbour::ReplaceOne).then(|| Routes::at(q, sigma, steps, p.delta));
    let step = orders
        .iter()
        .map(|&a| match routes {
            Some(r) => r.step(q, sigma, a),
            None => step_rdp(q, sigma, a),
        })
        .collect();
    (routes, step)
}

/// The lecture's three scenarios at the link's n, m, T, target ε and δ, with clipping norm B = 1: the
/// noise each prescribes (on the averaged gradient), with the slides' typos corrected.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenarios {
    /// Scenario 1: Laplace scale for pure ε-DP with subsampling without replacement.
    pub laplace_scale: f64,
    /// Scenario 2: ρ for the target (ε, δ) (corrected: squared).
    pub rho: f64,
    /// Scenario 2: Gaussian σ without subsampling, σ = √(T/(2ρ))/n (corrected).
    pub zcdp_sigma: f64,
    /// Scenario 3: the noise multiplier from the RDP accountant, as σ on the averaged gradient (σ/m).
    pub rdp_sigma_mean: f64,
}

/// The three scenarios.
///
/// # Formula
/// 1: b = B/(m ln(1 + (e^{ε/T} − 1) n/m));  2: ρ = (√(ln(1/δ) + ε) − √ln(1/δ))², σ = B√(T/(2ρ))/n;
/// 3: σ_mean = σ_multiplier · B/m.
///
/// `sigma_for_target` is [`sigma_for_target`]'s answer at `p`: its search (about 10 ms natively) runs
/// in the page's worker, and is not repeated here; NaN until it arrives gives a NaN scenario 3.
///
/// # Errors
/// Parameters out of domain or an unreachable target.
pub fn scenarios(p: &DpsgdParams, sigma_for_target: f64) -> Result<Scenarios> {
    let (n, m, t, eps) = (
        p.n as f64,
        p.batch as f64,
        p.total_steps() as f64,
        p.target_eps,
    );
    let laplace_scale = 1.0 / (m * ((eps / t).exp_m1() * n / m).ln_1p());
    let rho = rho_for_approx_dp(eps, p.delta)?;
    let zcdp_sigma = (t / (2.0 * rho)).sqrt() / n;
    let rdp_sigma_mean = sigma_for_target / m;
    Ok(Scenarios {
        laplace_scale,
        rho,
        zcdp_sigma,
        rdp_sigma_mean,
    })
}

/// Links (query strings) that load scenarios 1 and 2 into the composition lab: T steps of Laplace noise
/// on a fixed-size subsample (each step's unamplified ε₀ = ln(1 + (e^{ε/T} − 1)n/m), so that the
/// amplified step is ε/T), and T full-batch Gaussian steps with scenario 2's σ (as σ/Δ with Δ = B/n).
/// Takes the [`scenarios`] already computed (their σ search is the costly part).
pub fn scenario_links(p: &DpsgdParams, s: &Scenarios) -> (String, String) {
    let (n, m, t) = (p.n as f64, p.batch as f64, p.total_steps());
    let eps0 = ((p.target_eps / t as f64).exp_m1() * n / m).ln_1p();
    let rate = (m / n).min(1.0);
    let one = Query::default()
        .with("lab", "compose")
        .with(
            "list",
            format!("wor:{}:{}:0*{t}", fmt_f64(rate), fmt_f64(eps0)),
        )
        .with("delta", fmt_f64(p.delta));
    let two = Query::default()
        .with("lab", "compose")
        .with("list", format!("gauss:{}*{t}", fmt_f64(s.zcdp_sigma * n)))
        .with("delta", fmt_f64(p.delta));
    (one.to_query_string(), two.to_query_string())
}
