//! A run's phases, tuning and users: the schedule's ε by the PLD and RDP, the tuned release's RDP, and
//! the user-level accountants, each on the run's [`TrainingEvent`].

use crate::accounting::event::{Neighbour, TrainingEvent};
use crate::accounting::pld::EpsilonBand;
use crate::accounting::rdp::replace_one::dpsgd_step_rdp;
use crate::accounting::rdp::tuning::tuned_rdp;
use crate::accounting::rdp::{default_orders, rdp_to_approx_dp, Conversion};
use crate::accounting::samplers::schedule::{
    schedule_band, schedule_band_replace_one, schedule_rdp,
};
use crate::accounting::samplers::users::{user_epsilon, user_epsilon_replace_one, UserEpsilon};
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

/// The run's schedule at `delta` by the PLD (both sides, on a grid of width `grid`) and RDP.
///
/// # Errors
/// A run without a schedule, or δ outside the PLD's range.
pub fn schedule_report(e: &TrainingEvent, delta: f64, grid: f64) -> Result<ScheduleReport> {
    if e.schedule.is_none() {
        return Err(Error::invalid("schedule", "", "is not set"));
    }
    let phases = e.phases();
    let replace_one = e.replace_one();
    Ok(ScheduleReport {
        band: match replace_one {
            true => schedule_band_replace_one(&phases, delta, grid)?,
            false => schedule_band(&phases, delta, grid)?,
        },
        rdp: schedule_rdp(&phases, delta, replace_one)?,
    })
}

/// The run's tuning (on its schedule when it has one) at `delta`: RDP of the tuned release on
/// dp_accounting's orders ([`tuned_rdp`]), of one run, and of ⌈E\[K\]⌉ runs composed.
///
/// # Errors
/// A run without tuning, or δ outside (0, 1).
pub fn tuning_report(e: &TrainingEvent, delta: f64) -> Result<TuningReport> {
    let Some(tuning) = e.tuning else {
        return Err(Error::invalid("tuning", "", "is not set"));
    };
    let orders = default_orders();
    let phases = e.phases();
    let replace_one = e.replace_one();
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
    let eps =
        |curve: &[f64]| rdp_to_approx_dp(&orders, curve, delta, Conversion::Improved).map(|x| x.0);
    Ok(TuningReport {
        tuned: eps(&tuned_rdp(&orders, &single, tuning))?,
        single: eps(&single)?,
        naive: eps(&naive)?,
        runs,
    })
}

/// The user-level accountants at the run's k records per user, under its relation (users added or
/// removed, or a user's records replaced by another's: [`user_epsilon_replace_one`]), at `delta` on a
/// grid of width `grid`.
///
/// # Errors
/// As [`user_epsilon`].
pub fn user_report(e: &TrainingEvent, delta: f64, grid: f64) -> Result<UserEpsilon> {
    let accountant = match e.neighbour {
        Neighbour::ReplaceOne => user_epsilon_replace_one,
        Neighbour::AddRemove => user_epsilon,
    };
    accountant(e.users, e.rate, e.sigma, e.steps, delta, grid)
}
