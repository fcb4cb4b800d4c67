//! The composition lab's background work: the composed PLD pair.

use super::ComposedPld;
use crate::accounting::entry::Item;
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// The composition lab's PLD pair for a list and grid (the link's δ is not read: the pair serves
/// every δ).
///
/// # Errors
/// A list the PLD cannot compose (the message the page shows).
pub fn compose_pld(list: &[Item], grid: Option<f64>) -> Result<ComposedPld> {
    ComposedPld::with_grid(list, grid)
}

/// A piece of the lab's heavy work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ComposeJob {
    /// The composed PLD pair of a list, on a grid ([`compose_pld`]).
    Pld(Vec<Item>, Option<f64>),
}

/// What a [`ComposeJob`] sends back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ComposeUpdate {
    /// The composed PLD pair.
    Pld(Result<Box<ComposedPld>>),
}

/// Runs `job`, sending its result to `emit`.
// Never inlined into the dispatcher: a worker compiles (lazily, per function) only the lab it runs.
#[inline(never)]
pub fn run(job: ComposeJob, emit: &mut dyn FnMut(ComposeUpdate)) {
    match job {
        ComposeJob::Pld(list, grid) => {
            emit(ComposeUpdate::Pld(compose_pld(&list, grid).map(Box::new)))
        }
    }
}
