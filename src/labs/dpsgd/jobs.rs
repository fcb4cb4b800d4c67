//! The DP-SGD lab's own background work beside the run's accounting
//! ([`crate::accounting::training::jobs`]): each sampler's ε and σ, the user level, the schedule.

use super::DpsgdParams;
use crate::accounting::samplers::users::UserEpsilon;
use crate::accounting::samplers::{
    sampler_epsilon, sampler_sigma, Sampler, SamplerEpsilon, SamplerSetting,
};
use crate::accounting::training::phases::{schedule_report, user_report, ScheduleReport};
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// A piece of the lab's heavy work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum DpsgdJob {
    /// One batch sampler's ε ([`sampler_epsilon`]).
    Sampler(SamplerSetting, Sampler),
    /// σ for the target ε under one batch sampler ([`sampler_sigma`]).
    SamplerSigma(SamplerSetting, Sampler, f64),
    /// User-level ε at the link's records per user ([`user_report`]).
    Users(DpsgdParams),
    /// The training schedule's ε ([`schedule_report`]).
    Schedule(DpsgdParams),
}

/// What a [`DpsgdJob`] sends back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum DpsgdUpdate {
    /// One sampler's ε.
    Sampler(Result<SamplerEpsilon>),
    /// σ for the target under one sampler (`None`: no upper bound to meet it with).
    SamplerSigma(Result<Option<f64>>),
    /// The user-level ε.
    Users(Result<UserEpsilon>),
    /// The schedule's ε.
    Schedule(Result<ScheduleReport>),
}

/// Runs `job`, sending its result to `emit`.
// Never inlined into the dispatcher: a worker compiles (lazily, per function) only the lab it runs.
#[inline(never)]
pub fn run(job: DpsgdJob, emit: &mut dyn FnMut(DpsgdUpdate)) {
    match job {
        DpsgdJob::Sampler(s, sampler) => emit(DpsgdUpdate::Sampler(sampler_epsilon(&s, sampler))),
        DpsgdJob::SamplerSigma(s, sampler, target) => emit(DpsgdUpdate::SamplerSigma(
            sampler_sigma(&s, sampler, target),
        )),
        DpsgdJob::Users(p) => emit(DpsgdUpdate::Users(user_report(
            &p.event(),
            p.delta,
            p.grid_width(),
        ))),
        DpsgdJob::Schedule(p) => emit(DpsgdUpdate::Schedule(schedule_report(
            &p.event(),
            p.delta,
            p.grid_width(),
        ))),
    }
}
