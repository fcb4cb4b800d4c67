//! The randomized-response lab's background work: repeated surveys too large for a frame, and the
//! shuffle model's bounds.

use super::shuffle::{shuffle_point, ShufflePoint};
use super::{repetitions, Repetitions, RrParams};
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// A piece of the lab's heavy work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum RrJob {
    /// The repeated surveys of a link whose repetitions do not fit on the page ([`repetitions`];
    /// up to 10⁷ binomial draws, 50 ms at K = 50, R = 1000).
    Repetitions(RrParams),
    /// The shuffle model's bounds at n respondents ([`shuffle_point`]).
    Shuffle(RrParams, u64),
}

/// What an [`RrJob`] sends back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum RrUpdate {
    /// The repeated surveys.
    Repetitions(Result<Repetitions>),
    /// The shuffle model's bounds at one n.
    Shuffle(Result<ShufflePoint>),
}

/// Runs `job`, sending its result to `emit`.
// Never inlined into the dispatcher: a worker compiles (lazily, per function) only the lab it runs.
#[inline(never)]
pub fn run(job: RrJob, emit: &mut dyn FnMut(RrUpdate)) {
    match job {
        RrJob::Repetitions(p) => emit(RrUpdate::Repetitions(repetitions(&p))),
        RrJob::Shuffle(p, n) => emit(RrUpdate::Shuffle(shuffle_point(&p, n))),
    }
}
