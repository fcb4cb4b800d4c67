//! The statement's heavy work, for the worker pool: a guarantee's other scales (its PLD, composed
//! again as the attack lab does), and the deployments that need the PLD.

use super::deployments::DEPLOYMENTS;
use super::scales::{scales, Scales};
use crate::accounting::guarantee::Guarantee;
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// A statement job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum StatementJob {
    /// The other scales of a guarantee that certifies its run.
    Scales(Guarantee),
    /// Every deployment on the statement's axes.
    Deployments,
}

/// What a statement job sends back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum StatementUpdate {
    /// [`StatementJob::Scales`]'s result.
    Scales(Scales),
    /// One deployment's scales, or why it has none, by its index in [`DEPLOYMENTS`].
    Deployment(usize, std::result::Result<Scales, String>),
}

/// Runs `job`, emitting each result as it is ready.
///
/// # Errors
/// A guarantee with no certified curve.
pub fn run(job: StatementJob, emit: &mut dyn FnMut(StatementUpdate)) -> Result<()> {
    match job {
        StatementJob::Scales(g) => emit(StatementUpdate::Scales(scales(&g)?)),
        StatementJob::Deployments => {
            for (i, d) in DEPLOYMENTS.iter().enumerate() {
                emit(StatementUpdate::Deployment(i, d.scales()));
            }
        }
    }
    Ok(())
}
