//! Learning with DP-SGD: data sets ([`data`], [`datasets`]), models with exact per-example gradients
//! ([`model`]) and the DP-SGD update exactly as the accountants account for it ([`dpsgd`]).

pub mod data;
pub mod datasets;
pub mod dpsgd;
pub mod model;
