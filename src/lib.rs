//! # dp-playground core
//!
//! The maths of the differential-privacy playground: pure Rust, no web dependencies, built natively and
//! for wasm32. The web crate only calls these functions and draws their results.
//!
//! ## Maths, by kind
//! - [`numerics`]: special functions (Φ, ln Φ, Φ⁻¹), the root finder, small statistics.
//! - [`mechanisms`]: Laplace, Gaussian, truncated Laplace, exponential, K-ary randomized response and
//!   many queries, each with its exact privacy profile, RDP, ρ and PLD where it has one.
//! - [`accounting`]: composition theorems, zCDP, RDP, the PLD accountant, and the composable entry
//!   (a mechanism as an accountant sees it).
//! - [`attacks`]: trade-off curves, risk numbers and the ε an audit's counts prove.
//! - [`tangent`]: tangent DP (Ying 2025): Gibbs distributions, tangent maps, norms, bounds.
//! - [`wdp`]: Wasserstein DP (Yang, Qi & Zhou 2024): Table 1, the three accountants of its Figure 2.
//! - [`learning`]: data sets, models with exact per-example gradients, and DP-SGD as accounted.
//! - [`statement`]: a guarantee stated for publication (the paragraph, its JSON record, other scales,
//!   the Python that reproduces it, deployed systems on the same axes).
//!
//! ## Labs
//! - [`labs`]: which lab a link opens, and one folder per lab (its parameters, report, jobs,
//!   exercises and share texts); `labs`' documentation has the checklist for adding one.
//! - [`course`]: exercises the engine checks, their variants and the answer codes.
//!
//! ## Playground plumbing
//! - [`link`]: the URL query (the single source of truth) and how a view is shown (embedding).
//! - [`jobs`]: heavy work as data, run by the worker pool or natively, and its wire format.
//! - [`error`]: the crate's error type.

pub mod accounting;
pub mod attacks;
pub mod course;
pub mod error;
pub mod jobs;
pub mod labs;
pub mod learning;
pub mod link;
pub mod mechanisms;
pub mod numerics;
pub mod statement;
pub mod tangent;
pub mod wdp;

pub use error::{Error, Result};
