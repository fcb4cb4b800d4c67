//! The WDP lab's background work: Figure 2's synthetic run.

use crate::wdp::accountants::Accounting;
use crate::wdp::synthetic::{Curves, SyntheticRun};

/// WDP Figure 2's run from `seed`, sending the curves every `every` steps and at the end:
/// (steps done, steps in all, curves).
pub fn wdp_fig2(seed: u64, every: u32, emit: &mut dyn FnMut(u32, u32, Vec<[Curves; 2]>)) {
    let mut run = SyntheticRun::new(seed, Accounting::default());
    while !run.is_done() {
        run.step();
        let (done, total) = run.progress();
        if done % every.max(1) == 0 || run.is_done() {
            emit(done, total, run.curves.to_vec());
        }
    }
}

/// A piece of the lab's heavy work.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum WdpJob {
    /// Figure 2's synthetic run from a seed ([`wdp_fig2`]).
    Fig2(u64),
}

/// What a [`WdpJob`] sends back.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum WdpUpdate {
    /// Figure 2's curves: (steps done, steps in all, curves).
    Curves(u32, u32, Vec<[Curves; 2]>),
}

/// Runs `job`, sending the curves as they grow.
// Never inlined into the dispatcher: a worker compiles (lazily, per function) only the lab it runs.
#[inline(never)]
pub fn run(job: WdpJob, emit: &mut dyn FnMut(WdpUpdate)) {
    match job {
        WdpJob::Fig2(seed) => wdp_fig2(seed, 5, &mut |done, total, curves| {
            emit(WdpUpdate::Curves(done, total, curves))
        }),
    }
}
