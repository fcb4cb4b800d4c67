//! The mechanisms lab's background work: the many-queries simulation.

use crate::error::Result;
use crate::mechanisms::many_queries::{simulate_max_errors, MaxErrorSimulation};
use serde::{Deserialize, Serialize};

/// A piece of the lab's heavy work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum MechJob {
    /// The many-queries simulation for (k_max, seed) ([`simulate_max_errors`]; 0.8–4 million draws,
    /// 75–400 ms on the page's thread).
    ManyQueries(usize, u64),
}

/// What a [`MechJob`] sends back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum MechUpdate {
    /// The simulation.
    ManyQueries(Result<MaxErrorSimulation>),
}

/// Runs `job`, sending its result to `emit`.
// Never inlined into the dispatcher: a worker compiles (lazily, per function) only the lab it runs.
#[inline(never)]
pub fn run(job: MechJob, emit: &mut dyn FnMut(MechUpdate)) {
    match job {
        MechJob::ManyQueries(k_max, seed) => {
            emit(MechUpdate::ManyQueries(simulate_max_errors(k_max, seed)))
        }
    }
}
