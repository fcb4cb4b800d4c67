//! Privacy accounting: measures and the conversions between them.
//!
//! - [`composition`]: basic, advanced (Dwork–Rothblum–Vadhan) and optimal (Kairouz–Oh–Viswanath).
//! - [`zcdp`]: zero-concentrated DP and its conversions to (ε, δ)-DP (each mechanism owns its ρ).
//! - [`rdp`]: Rényi DP of the Poisson-subsampled Gaussian (DP-SGD) and RDP → (ε, δ); [`rdp::tight`]
//!   over every real order.
//! - [`event`]: a training run as accountants take it ([`event::TrainingEvent`]), and the relation.
//! - [`guarantee`]: a privacy number with its run, accountant, side and assumptions, rendered outward.
//! - [`training`]: the accountants of a training run (RDP, the PLD, σ for a target) and their jobs.
//! - [`composed`]: every accountant's ε for a composition list, and the composed PLD.
//! - [`entry`]: a mechanism as an accountant sees it, and the composition list syntax.
//! - [`pld`]: the privacy loss distribution accountant (connect-the-dots discretization, FFT).
//! - [`tradeoff`]: f-DP trade-off curves β(α) from a PLD (the attack lab reads them).
//! - [`samplers`]: the ε of each way training draws its batches (Poisson, shuffled, cyclic, balls in
//!   bins, fixed size).

pub mod composed;
pub mod composition;
pub mod correlated;
pub mod entry;
pub mod event;
pub mod guarantee;
pub mod pld;
pub mod rdp;
pub mod samplers;
pub mod tradeoff;
pub mod training;
pub mod zcdp;
