//! The attack lab's background work: the report (curve and risk numbers) and the two calibrations,
//! each in its own worker.

use super::params::{AttackParams, Source};
use super::report::{report as attack_report, AttackReport};
use crate::accounting::pld::{dpsgd_epsilon, Goal, SigmaSearch, DEFAULT_INTERVAL};
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// The attack lab's report (curve and risk numbers).
///
/// # Errors
/// A mechanism the PLD cannot compose.
pub fn attack(p: &AttackParams) -> Result<AttackReport> {
    attack_report(p)
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
    pub sigma: Result<f64>,
    /// ε at δ for that σ (advantage calibration only).
    pub eps_at_sigma: Option<f64>,
}

/// One attack-lab calibration (nothing for lists: `None`).
pub fn attack_calibration(p: &AttackParams, which: Calibration) -> Option<Calibrated> {
    let Source::Dpsgd {
        q,
        sigma,
        steps,
        neighbour,
    } = p.source.clone()
    else {
        return None;
    };
    let f = neighbour.factor();
    let (goal, target) = match which {
        Calibration::Advantage => (Goal::Advantage, p.target_adv),
        Calibration::Tpr => (Goal::TprAtFpr { alpha: p.alpha }, p.target_tpr),
    };
    let found = SigmaSearch::for_goal(q, steps, goal, target, DEFAULT_INTERVAL, sigma / f)
        .and_then(|s| s.run());
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
