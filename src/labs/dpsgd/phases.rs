//! The DP-SGD lab's schedules (`schedule=q:σ:T,…`) and hyperparameter tuning (`tuning=…`): what each
//! accountant reads of the link.

use super::DpsgdParams;
use crate::accounting::event::Neighbour;
use crate::accounting::pld::{EpsilonBand, DEFAULT_INTERVAL};
use crate::accounting::rdp::replace_one::dpsgd_step_rdp;
use crate::accounting::rdp::tuning::{tuned_rdp, Tuning};
use crate::accounting::rdp::{default_orders, rdp_to_approx_dp, Conversion};
use crate::accounting::samplers::schedule::{
    schedule_band, schedule_band_replace_one, schedule_rdp, Phase,
};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// A schedule's ε at δ by both accountants.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ScheduleReport {
    /// The PLD's band (certified upper and lower).
    pub band: EpsilonBand,
    /// RDP on dp_accounting's orders (an upper bound).
    pub rdp: f64,
}

/// The tuned release's ε at δ beside the single run's and the naive composition's, all by RDP on
/// dp_accounting's orders (upper bounds).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TuningReport {
    /// The best of K runs released (Papernot & Steinke 2022).
    pub tuned: f64,
    /// One run.
    pub single: f64,
    /// ⌈E\[K\]⌉ runs, every one released (composition).
    pub naive: f64,
    /// ⌈E\[K\]⌉.
    pub runs: u64,
}

impl DpsgdParams {
    /// The schedule's phases at the link's σ, or the link's single phase when it has no schedule. Each
    /// accountant reads them under the link's relation (replace-one is not a change of σ: see
    /// [`schedule_band_replace_one`] and [`crate::accounting::rdp::replace_one`]).
    pub fn phases(&self) -> Vec<Phase> {
        match &self.schedule {
            Some(phases) => phases.clone(),
            None => vec![Phase {
                q: self.rate(),
                sigma: self.sigma,
                steps: self.total_steps(),
            }],
        }
    }
}

/// The link's schedule by the PLD (both sides) and RDP.
///
/// # Errors
/// No schedule in the link, or δ outside the PLD's range.
pub fn schedule_report(p: &DpsgdParams) -> Result<ScheduleReport> {
    if p.schedule.is_none() {
        return Err(Error::invalid("schedule", "", "is not set"));
    }
    let phases = p.phases();
    let replace_one = p.neighbour == Neighbour::ReplaceOne;
    let grid = p.grid.unwrap_or(DEFAULT_INTERVAL);
    Ok(ScheduleReport {
        band: match replace_one {
            true => schedule_band_replace_one(&phases, p.delta, grid)?,
            false => schedule_band(&phases, p.delta, grid)?,
        },
        rdp: schedule_rdp(&phases, p.delta, replace_one)?,
    })
}

/// The link's tuning on its run (the schedule when it has one): RDP of the tuned release on
/// dp_accounting's orders ([`tuned_rdp`]), of one run, and of ⌈E\[K\]⌉ runs composed.
///
/// # Errors
/// No tuning in the link, or δ outside (0, 1).
pub fn tuning_report(p: &DpsgdParams) -> Result<TuningReport> {
    let Some(tuning) = p.tuning else {
        return Err(Error::invalid("tuning", "", "is not set"));
    };
    let orders = default_orders();
    let phases = p.phases();
    let replace_one = p.neighbour == Neighbour::ReplaceOne;
    let single: Vec<f64> = orders
        .iter()
        .map(|&a| {
            phases
                .iter()
                .map(|ph| ph.steps as f64 * dpsgd_step_rdp(ph.q, ph.sigma, a, replace_one))
                .sum()
        })
        .collect();
    let runs = tuning.mean().ceil() as u64;
    let naive: Vec<f64> = single.iter().map(|r| r * runs as f64).collect();
    let eps = |curve: &[f64]| {
        rdp_to_approx_dp(&orders, curve, p.delta, Conversion::Improved).map(|x| x.0)
    };
    Ok(TuningReport {
        tuned: eps(&tuned_rdp(&orders, &single, tuning))?,
        single: eps(&single)?,
        naive: eps(&naive)?,
        runs,
    })
}

/// What the tuning distribution is, in words.
pub fn describe_tuning(t: Tuning) -> String {
    match t {
        Tuning::Poisson { mean } => format!(
            "K ~ Poisson with mean {}",
            crate::link::query::fmt_f64(mean)
        ),
        Tuning::NegativeBinomial { shape, mean } => format!(
            "K ~ truncated negative binomial, shape η = {} ({}), mean {}",
            crate::link::query::fmt_f64(shape),
            if shape == 0.0 {
                "logarithmic"
            } else if shape == 1.0 {
                "geometric"
            } else {
                "negative binomial"
            },
            crate::link::query::fmt_f64(mean)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::query::{LinkParams, Query};

    #[test]
    fn a_replace_one_schedule_is_bounded_as_one_phase_is() {
        // One phase written as a schedule gives the lab's own replace-one band; two phases stay
        // between pairs that happen (the add/remove schedule at σ) and the σ/2 schedule's guarantee.
        let report = |link: &str| schedule_report(&DpsgdParams::from_query(&Query::parse(link)).0);
        let one = report("schedule=0.01:2:500&neighbour=replace-one&delta=1e-5").unwrap();
        let plain_link = DpsgdParams::from_query(&Query::parse(
            "q=0.01&sigma=2&steps=500&neighbour=replace-one&delta=1e-5",
        ))
        .0;
        let plain = crate::accounting::training::pld_epsilon(
            &plain_link.event(),
            plain_link.delta,
            plain_link.grid_width(),
        )
        .unwrap();
        assert!(
            (one.band.upper - plain.upper).abs() < 1e-9
                && (one.band.lower - plain.lower).abs() < 1e-9,
            "{one:?} {plain:?}"
        );
        let band = |schedule: &str, neighbour: &str| {
            report(&format!(
                "schedule={schedule}&neighbour={neighbour}&delta=1e-5"
            ))
            .unwrap()
            .band
        };
        let replace = band("0.01:2:500,0.02:3:300", "replace-one");
        let half = band("0.01:1:500,0.02:1.5:300", "add-remove");
        let whole = band("0.01:2:500,0.02:3:300", "add-remove");
        assert!(
            replace.upper <= half.upper && replace.lower >= whole.lower * (1.0 - 1e-2),
            "{replace:?}"
        );
        assert!(
            replace.lower < half.lower && replace.lower <= replace.upper,
            "{replace:?} {half:?}"
        );
    }
}
