//! Privacy accounting: measures and the conversions between them.
//!
//! - [`zcdp`]: zero-concentrated DP, the Gaussian mechanism's ρ, and conversions to (ε, δ)-DP.

pub mod zcdp;
