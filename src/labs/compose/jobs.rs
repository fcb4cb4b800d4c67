//! The composition lab's background work: the composed PLD pair.

use super::ComposedPld;
use crate::accounting::entry::Item;
use crate::error::Result;

/// The composition lab's PLD pair for a list and grid (the link's δ is not read: the pair serves
/// every δ).
///
/// # Errors
/// A list the PLD cannot compose (the message the page shows).
pub fn compose_pld(list: &[Item], grid: Option<f64>) -> Result<ComposedPld> {
    ComposedPld::with_grid(list, grid)
}
