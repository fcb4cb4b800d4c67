//! The accountant labs' background work as jobs: each runs in its own worker, so that independent
//! pieces (the DP-SGD lab's ε and its σ searches, the attack lab's report and two calibrations) run
//! in parallel. Each job streams its results as they are ready.

use crate::accounting::pld::{dpsgd_epsilon, EpsilonBand, Goal, SigmaSearch, DEFAULT_INTERVAL};
use crate::attack::params::{AttackParams, Source};
use crate::attack::report::{report as attack_report, AttackReport};
use crate::compose_lab::{ComposeParams, ComposedPld};
use crate::dpsgd_lab::{pld_epsilon, sigma_for_target, sigma_search_pld, DpsgdParams};
use crate::query::Query;
use crate::wdp::accountants::Accounting;
use crate::wdp::synthetic::{Curves, SyntheticRun};
use serde::{Deserialize, Serialize};

/// Fractions of T at which the DP-SGD lab draws its PLD ε-against-steps curve.
pub const CURVE_FRACTIONS: [f64; 4] = [0.125, 0.25, 0.5, 0.75];

/// A result of a DP-SGD job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum DpsgdUpdate {
    /// What is being computed.
    Status(String),
    /// ε by the PLD after T steps, from both sides.
    Pld(Result<EpsilonBand, String>),
    /// (steps, certified ε) at a fraction of T.
    CurvePoint(f64, f64),
    /// σ for the target ε by RDP (dp_accounting's orders).
    SigmaRdp(Result<f64, String>),
    /// σ for the target ε by the PLD, as the link gives σ (replace-one doubled back).
    SigmaPld(Result<f64, String>),
}

/// The DP-SGD lab's PLD ε at T steps, then the curve at fractions of T.
pub fn dpsgd_pld(query: &str, emit: &mut dyn FnMut(DpsgdUpdate)) {
    let (p, _) = DpsgdParams::from_query(&Query::parse(query));
    let steps = p.total_steps();
    emit(DpsgdUpdate::Pld(
        pld_epsilon(&p, steps).map_err(|e| e.to_string()),
    ));
    let grid = p.grid.unwrap_or(DEFAULT_INTERVAL);
    for (i, fraction) in CURVE_FRACTIONS.into_iter().enumerate() {
        emit(DpsgdUpdate::Status(format!(
            "PLD accountant: the ε-versus-steps curve, {}/{}…",
            i + 1,
            CURVE_FRACTIONS.len()
        )));
        let t = ((steps as f64) * fraction).ceil().max(1.0) as u64;
        if let Ok(e) = dpsgd_epsilon(p.rate(), p.effective_sigma(), t, p.delta, grid) {
            emit(DpsgdUpdate::CurvePoint(t as f64, e));
        }
    }
}

/// The DP-SGD lab's σ for the target ε: by RDP, then by the PLD seeded with RDP's σ.
pub fn dpsgd_sigma(query: &str, emit: &mut dyn FnMut(DpsgdUpdate)) {
    let (p, _) = DpsgdParams::from_query(&Query::parse(query));
    let rdp = sigma_for_target(&p).map_err(|e| e.to_string());
    emit(DpsgdUpdate::SigmaRdp(rdp.clone()));
    let seed = rdp.unwrap_or(p.sigma);
    let found = sigma_search_pld(&p, seed).and_then(|mut search| loop {
        if let Some(sigma) = search.step()? {
            break Ok(sigma * p.neighbour.factor());
        }
        emit(DpsgdUpdate::Status(format!(
            "PLD accountant: σ for the target ε, {} evaluations…",
            search.evaluations
        )));
    });
    emit(DpsgdUpdate::SigmaPld(found.map_err(|e| e.to_string())));
}

/// The composition lab's PLD pair for the link's list and grid.
///
/// # Errors
/// A list the PLD cannot compose (the message the page shows).
pub fn compose_pld(query: &str) -> Result<ComposedPld, String> {
    let (p, _) = ComposeParams::from_query(&Query::parse(query));
    ComposedPld::with_grid(&p.list, p.grid).map_err(|e| e.to_string())
}

/// The attack lab's report (curve and risk numbers).
///
/// # Errors
/// A mechanism the PLD cannot compose.
pub fn attack(query: &str) -> Result<AttackReport, String> {
    let (p, _) = AttackParams::from_query(&Query::parse(query));
    attack_report(&p).map_err(|e| e.to_string())
}

/// Which attack-lab calibration.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Calibration {
    /// σ for the advantage target, and ε at that σ.
    Advantage,
    /// σ for the TPR-at-FPR target.
    Tpr,
}

/// A calibration's result: σ as the link gives it, and for the advantage ε at that σ.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Calibrated {
    /// The σ found, or why not.
    pub sigma: Result<f64, String>,
    /// ε at δ for that σ (advantage calibration only).
    pub eps_at_sigma: Option<f64>,
}

/// One attack-lab calibration (nothing for lists: `None`).
pub fn attack_calibration(query: &str, which: Calibration) -> Option<Calibrated> {
    let (p, _) = AttackParams::from_query(&Query::parse(query));
    let Source::Dpsgd {
        q,
        sigma,
        steps,
        neighbour,
    } = p.source
    else {
        return None;
    };
    let f = neighbour.factor();
    let (goal, target) = match which {
        Calibration::Advantage => (Goal::Advantage, p.target_adv),
        Calibration::Tpr => (Goal::TprAtFpr { alpha: p.alpha }, p.target_tpr),
    };
    let found = SigmaSearch::for_goal(q, steps, goal, target, DEFAULT_INTERVAL, sigma / f)
        .and_then(|s| s.run())
        .map_err(|e| e.to_string());
    let eps_at_sigma = match (&found, which) {
        (Ok(s), Calibration::Advantage) => {
            dpsgd_epsilon(q, *s, steps, p.delta, DEFAULT_INTERVAL).ok()
        }
        _ => None,
    };
    Some(Calibrated {
        sigma: found.map(|s| s * f),
        eps_at_sigma,
    })
}

/// WDP Figure 2's run from `seed`, sending the curves every `every` steps and at the end:
/// (steps done, steps in all, curves).
pub fn wdp_fig2(seed: u64, every: u32, emit: &mut dyn FnMut(u32, u32, Vec<[Curves; 2]>)) {
    let mut run = SyntheticRun::new(seed, Accounting::default());
    while !run.is_done() {
        run.step();
        let (done, total) = run.progress();
        if done % every.max(1) == 0 || run.is_done() {
            emit(done, total, run.curves.to_vec());
        }
    }
}
