//! Privacy accounting: measures and the conversions between them.
//!
//! - [`composition`]: basic, advanced (Dwork–Rothblum–Vadhan) and optimal (Kairouz–Oh–Viswanath).
//! - [`zcdp`]: zero-concentrated DP, the Gaussian mechanism's ρ, and conversions to (ε, δ)-DP.
//! - [`rdp`]: Rényi DP of the Poisson-subsampled Gaussian (DP-SGD) and RDP → (ε, δ).
//! - [`pld`]: the privacy loss distribution accountant (connect-the-dots discretization, FFT).

pub mod composition;
pub mod pld;
pub mod rdp;
pub mod rdp_tight;
pub mod zcdp;
