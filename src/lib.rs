//! # dp-playground core
//!
//! The maths of the differential-privacy playground: pure Rust, no web dependencies, built natively and
//! for wasm32. The web crate only calls these functions and draws their results.
//!
//! ## Mechanisms
//! - [`rr`]: K-ary randomized response, its unbiased frequency estimator, closed-form variance and
//!   seeded survey simulation.
//!
//! ## Playground plumbing
//! - [`query`]: the URL query string, parsed and printed; bad values fall back with a [`query::Notice`].
//! - [`lab`]: which lab a link opens.
//! - [`formulas`]: every formula the playground uses, with its source, for the About page.
//! - [`stats`]: sample mean and spread, histograms, the normal density.
//! - [`error`]: the crate's error type.

pub mod error;
pub mod formulas;
pub mod lab;
pub mod query;
pub mod rr;
pub mod stats;

pub use error::{Error, Result};
