//! The composition lab's background work: the composed PLD pair.

use super::{ComposeParams, ComposedPld};
use crate::link::query::Query;

/// The composition lab's PLD pair for the link's list and grid.
///
/// # Errors
/// A list the PLD cannot compose (the message the page shows).
pub fn compose_pld(query: &str) -> Result<ComposedPld, String> {
    let (p, _) = ComposeParams::from_query(&Query::parse(query));
    ComposedPld::with_grid(&p.list, p.grid).map_err(|e| e.to_string())
}
