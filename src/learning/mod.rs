//! Learning with DP-SGD: data sets ([`data`], [`datasets`]), models with exact per-example gradients
//! ([`model`], with a convolutional front: [`conv`]), the DP-SGD update exactly as the accountants
//! account for it ([`dpsgd`]) with the batch sampler they account for ([`batches`]), and audits that
//! train it many times with and without a canary ([`audit`]).

pub mod audit;
pub mod batches;
pub mod clipped;
pub mod conv;
pub mod correlated;
pub mod data;
pub mod datasets;
pub mod dpsgd;
pub mod images;
pub mod model;
pub mod one_run;
pub mod pca;
