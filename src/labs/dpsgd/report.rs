//! What the DP-SGD lab computes beyond the accountants of [`crate::accounting::training`]: the
//! lecture's three scenarios.

use super::DpsgdParams;
use crate::accounting::zcdp::rho_for_approx_dp;
use crate::error::Result;
use crate::link::query::{fmt_f64, Query};

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
/// `sigma_for_target` is [`crate::accounting::training::sigma_for_target`]'s answer at `p`: its search (about 10 ms natively) runs
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
