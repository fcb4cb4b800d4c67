//! The randomized-response lab (`?lab=rr`): a survey of n people through K-ary randomized response
//! ([`crate::mechanisms::randomized_response`]), its estimates, their spread over repeated surveys, and
//! the share panel's texts.

pub mod info;
pub mod jobs;
pub mod tasks;

/// The parameters this lab reads from its link.
pub type Params = RrParams;

pub mod params;
mod report;
pub mod share;
pub mod shuffle;

pub use params::{default_truth, format_truth, RrParams, MAX_N, MAX_REPS, MIN_REPS};
pub use report::{
    repetitions, repetitions_fit_on_page, run, run_without_repetitions, CategoryResult,
    EstimateHistogram, Repetitions, RrReport, ON_PAGE_REPETITION_WORK,
};
