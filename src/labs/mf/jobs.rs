//! The lab's background work: the BLT optimised for the stream, amplified BandMF's σ search, and the
//! whole report for streams longer than a frame allows on the page ([`super::PAGE_STEPS`]).

use super::report::{report, Amplified, MfReport};
use super::MfParams;
use crate::accounting::training::{pld_epsilon, sigma_for_target, sigma_search_pld, SigmaGoal};
use crate::error::Result;
use crate::mechanisms::mf::optimise::{best_blt, ErrorMeasure, OptimisedBlt};
use crate::mechanisms::mf::Participation;
use serde::{Deserialize, Serialize};

/// A piece of the lab's heavy work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum MfJob {
    /// The BLT minimising the mean error over `steps` under the participation ([`best_blt`]).
    Blt {
        /// Steps T.
        steps: u64,
        /// The participation.
        participation: Participation,
    },
    /// Amplified BandMF's σ for the goal, then its ε band there.
    Amplified(SigmaGoal),
    /// The report, with what the other jobs found.
    Report {
        /// The link's parameters.
        params: MfParams,
        /// The optimised BLT, once found.
        blt: Option<OptimisedBlt>,
        /// Amplified BandMF's σ, once found.
        amplified: Option<Amplified>,
    },
}

/// What an [`MfJob`] sends back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum MfUpdate {
    /// The BLT search: (buffers being tried, iterations, best loss so far).
    BltProgress(u32, u32, f64),
    /// The optimised BLT.
    Blt(OptimisedBlt),
    /// Amplified BandMF's σ and band.
    Amplified(Result<Amplified>),
    /// The report.
    Report(Result<MfReport>),
}

/// Amplified BandMF's σ for the goal (RDP's σ seeds the PLD's search, as in the DP-SGD lab) and the
/// PLD's band there.
///
/// # Errors
/// A target out of reach, or parameters out of domain.
pub fn amplified(goal: &SigmaGoal) -> Result<Amplified> {
    let seed = sigma_for_target(goal).unwrap_or(1.0);
    let sigma = sigma_search_pld(goal, seed)?.run()?;
    let band = pld_epsilon(&goal.event.with_sigma(sigma), goal.delta, goal.grid)?;
    Ok(Amplified { sigma, band })
}

/// Runs `job`, sending its progress and its result.
// Never inlined into the dispatcher: a worker compiles (lazily, per function) only the lab it runs.
#[inline(never)]
pub fn run(job: MfJob, emit: &mut dyn FnMut(MfUpdate)) {
    match job {
        MfJob::Blt {
            steps,
            participation,
        } => {
            let mut last = 0;
            let found = best_blt(
                steps as usize,
                participation,
                ErrorMeasure::Mean,
                &mut |d, i, loss| {
                    // Every 20th iteration: enough for a progress line, few messages.
                    if i / 20 != last / 20 || i == 1 {
                        emit(MfUpdate::BltProgress(d as u32, i as u32, loss));
                    }
                    last = i;
                },
            );
            emit(MfUpdate::Blt(found));
        }
        MfJob::Amplified(goal) => emit(MfUpdate::Amplified(amplified(&goal))),
        MfJob::Report {
            params,
            blt,
            amplified,
        } => emit(MfUpdate::Report(report(
            &params,
            blt.as_ref(),
            amplified.as_ref(),
        ))),
    }
}
