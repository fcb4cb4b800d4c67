//! # dp-playground core
//!
//! The maths of the differential-privacy playground: pure Rust, no web dependencies, built natively and
//! for wasm32. The web crate only calls these functions and draws their results.
//!
//! ## Mechanisms
//! - [`rr`]: K-ary randomized response, its unbiased frequency estimator, closed-form variance and
//!   seeded survey simulation.
//!
//! - [`mechanisms`]: Laplace, Gaussian (lecture, classical and analytic calibrations), truncated
//!   Laplace and exponential mechanisms, with exact privacy profiles, losses and trade-off curves.
//!
//! ## Accounting
//! - [`accounting`]: zCDP, RDP of the subsampled Gaussian, and the PLD accountant.
//! - [`tangent`]: tangent DP (Ying 2025): Gibbs distributions, tangent maps, norms, bounds.
//! - [`wdp`]: Wasserstein DP (Yang, Qi & Zhou 2024): Table 1, the three accountants of its Figure 2.
//!
//! ## Labs
//! - [`compose_lab`]: a list of mechanisms and every accountant's ε for it.
//! - [`dpsgd_lab`]: DP-SGD: ε by the RDP and PLD accountants, σ for a target ε, the lecture's scenarios.
//! - [`mech_lab`]: the mechanisms lab's parameters and everything its page shows.
//! - [`wdp_lab`]: the Wasserstein DP paper's Table 1 and Figures 1–3, reproduced.
//! - [`tangent_lab`]: tangent DP of the Gibbs distribution (Ying 2025), its norms and bounds, live.
//!
//! ## Playground plumbing
//! - [`embed`]: embedding, read-only views and the share panel's snippets.
//! - [`query`]: the URL query string, parsed and printed; bad values fall back with a [`query::Notice`].
//! - [`lab`]: which lab a link opens.
//! - [`formulas`]: every formula the playground uses, with its source, for the About page.
//! - [`stats`]: sample mean and spread, histograms, the normal density.
//! - [`special`]: the normal CDF, its log far into the tail, and its inverse.
//! - [`error`]: the crate's error type.

pub mod accounting;
pub mod attack;
pub mod compose_lab;
pub mod dpsgd_lab;
pub mod embed;
pub mod error;
pub mod formulas;
pub mod jobs;
pub mod lab;
pub mod mech_lab;
pub mod mechanisms;
pub mod query;
pub mod rr;
pub mod sides;
pub mod special;
pub mod stats;
pub mod tangent;
pub mod tangent_lab;
pub mod wdp;
pub mod wdp_lab;

pub use error::{Error, Result};
