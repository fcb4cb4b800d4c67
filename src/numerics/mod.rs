//! Numerical building blocks the maths shares, each written once.
//!
//! - [`binomial`]: binomial probabilities and tails, accurate at large n.
//! - [`special`]: the normal CDF Φ, ln Φ far into the tail, its inverse; Student's t quantile.
//! - [`roots`]: the one root finder (bisection that returns the bracket) and golden-section search.
//! - [`stats`]: sample mean and spread, histograms, the normal density.

pub mod binomial;
pub mod roots;
pub mod special;
pub mod stats;
