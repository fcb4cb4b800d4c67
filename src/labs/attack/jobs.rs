//! The attack lab's background work: the report (curve and risk numbers) and the two calibrations,
//! each in its own worker.

use super::params::{AttackParams, Source};
use super::report::{report as attack_report, AttackReport};
use crate::accounting::event::Neighbour;
use crate::accounting::pld::{
    dpsgd_epsilon, dpsgd_replace_one_epsilon, Goal, SigmaSearch, DEFAULT_INTERVAL,
};
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
    let Source::Dpsgd(e) = &p.source else {
        return None;
    };
    let (q, sigma, steps, neighbour) = (e.rate, e.sigma, e.steps, e.neighbour);
    let (goal, target) = match which {
        Calibration::Advantage => (Goal::Advantage, p.target_adv),
        Calibration::Tpr => (Goal::TprAtFpr { alpha: p.alpha }, p.target_tpr),
    };
    // In the link's σ under either relation (replace-one's search reads both of its routes).
    let found = SigmaSearch::for_goal(q, steps, goal, target, DEFAULT_INTERVAL, sigma)
        .map(|s| match neighbour {
            Neighbour::ReplaceOne => s.under_replace_one(),
            Neighbour::AddRemove => s,
        })
        .and_then(|s| s.run());
    let eps_at_sigma = match (&found, which, neighbour) {
        (Ok(s), Calibration::Advantage, Neighbour::ReplaceOne) => {
            dpsgd_replace_one_epsilon(q, *s, steps, p.delta, DEFAULT_INTERVAL).ok()
        }
        (Ok(s), Calibration::Advantage, Neighbour::AddRemove) => {
            dpsgd_epsilon(q, *s, steps, p.delta, DEFAULT_INTERVAL).ok()
        }
        _ => None,
    };
    Some(Calibrated {
        sigma: found,
        eps_at_sigma,
    })
}

/// A piece of the lab's heavy work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum AttackJob {
    /// The curve and risk numbers ([`attack`]).
    Report(AttackParams),
    /// One calibration ([`attack_calibration`]).
    Calibration(AttackParams, Calibration),
}

/// What an [`AttackJob`] sends back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum AttackUpdate {
    /// The curve and risk numbers.
    Report(Result<Box<AttackReport>>),
    /// A calibration (`None` for lists).
    Calibrated(Option<Calibrated>),
}

/// Runs `job`, sending its result to `emit`.
// Never inlined into the dispatcher: a worker compiles (lazily, per function) only the lab it runs.
#[inline(never)]
pub fn run(job: AttackJob, emit: &mut dyn FnMut(AttackUpdate)) {
    match job {
        AttackJob::Report(p) => emit(AttackUpdate::Report(attack(&p).map(Box::new))),
        AttackJob::Calibration(p, which) => {
            emit(AttackUpdate::Calibrated(attack_calibration(&p, which)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::query::{LinkParams, Query};

    #[test]
    fn replace_one_calibrations_meet_their_targets_on_the_certified_curve() {
        let link = |sigma: f64, neighbour: &str| {
            AttackParams::from_query(&Query::parse(&format!(
                "source=dpsgd&q=0.004&sigma={sigma}&steps=1000&neighbour={neighbour}&alpha=0.01\
                 &target_adv=0.1&target_tpr=0.05"
            )))
            .0
        };
        let p = link(1.2, "replace-one");
        let sigma = |which| attack_calibration(&p, which).unwrap().sigma.unwrap();
        let (adv, tpr) = (sigma(Calibration::Advantage), sigma(Calibration::Tpr));
        let at = |s: f64| attack(&link(s, "replace-one")).unwrap();
        // The report's certified numbers meet each target at the σ found, and miss it 1% below.
        assert!(at(adv).advantage <= 0.1 + 1e-9, "{}", at(adv).advantage);
        assert!(at(0.99 * adv).advantage > 0.1);
        assert!(at(tpr).tpr_at_fpr <= 0.05 + 1e-9, "{}", at(tpr).tpr_at_fpr);
        assert!(at(0.99 * tpr).tpr_at_fpr > 0.05);
        // Below what the σ/2 pair alone asks (twice the add/remove calibration).
        let half = link(0.6, "add-remove");
        let half_sigma = |which| attack_calibration(&half, which).unwrap().sigma.unwrap();
        assert!(
            adv < 2.0 * half_sigma(Calibration::Advantage)
                && tpr < 2.0 * half_sigma(Calibration::Tpr),
            "{adv} {tpr}"
        );
        let eps = attack_calibration(&p, Calibration::Advantage)
            .unwrap()
            .eps_at_sigma
            .unwrap();
        assert!((eps - at(adv).eps).abs() < 1e-9, "{eps} vs {}", at(adv).eps);
        // Without sampling the σ/2 pair wins: the calibration's ε is still the report's.
        let full = |sigma: f64| {
            AttackParams::from_query(&Query::parse(&format!(
                "source=dpsgd&q=1&sigma={sigma}&steps=10&neighbour=replace-one&target_adv=0.5"
            )))
            .0
        };
        let c = attack_calibration(&full(20.0), Calibration::Advantage).unwrap();
        let (s, eps) = (c.sigma.unwrap(), c.eps_at_sigma.unwrap());
        let report = attack(&full(s)).unwrap();
        assert!(
            eps.is_finite() && (eps - report.eps).abs() < 1e-9 && report.advantage <= 0.5 + 1e-9,
            "σ {s}: {eps} vs {}",
            report.eps
        );
    }
}
