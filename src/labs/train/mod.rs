//! The training lab (`?lab=train`): DP-SGD run for real on data in the page, beside the same run with
//! clipping only and without privacy, its ε from the DP-SGD lab's accountants, and test accuracy
//! against ε over a sweep of σ.

pub mod info;
pub mod tasks;

/// The parameters this lab reads from its link.
pub type Params = TrainParams;

pub mod audit;
pub mod correlated;
pub mod jobs;
pub mod mia;
mod params;
pub mod report;
pub mod run;
mod share;

pub use params::{DataKind, ModelKind, TrainParams, BREAST_CANCER_ROWS, MAX_STEPS};
pub use share::{markdown, opacus_snippet, weights_json};

#[cfg(test)]
mod tests;
