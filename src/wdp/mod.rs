//! Wasserstein differential privacy (Yang, Qi & Zhou, AAAI 2024): the formulas behind the WDP lab.
//!
//! - [`mechanisms`]: Table 1 — RDP and WDP budgets of the Laplace and Gaussian mechanisms (Figure 1).
//! - [`moments`]: raw absolute moments of a normal variable through Kummer's function, in log space.
//! - [`accountants`]: the moments, Bayesian and Wasserstein accountants per step (Figure 2).
//! - [`synthetic`]: Figure 2's synthetic-gradient experiment, step by step from a seed.
//! - [`tail`]: Corollary 1's ε = W − (ln δ)/β (Figure 3).

pub mod accountants;
pub mod mechanisms;
pub mod moments;
pub mod synthetic;
pub mod tail;
