//! The attack lab (`?lab=attack`): what an attacker can learn from a mechanism ([`crate::attacks`]):
//! its trade-off curve, risk numbers, σ calibrated to an attack target, and the ε an audit's counts
//! prove.

pub mod info;
pub mod tasks;

/// The parameters this lab reads from its link.
pub type Params = params::AttackParams;

pub mod claims;
pub mod jobs;
pub mod params;
pub mod report;
