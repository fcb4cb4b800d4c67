//! The tangent lab's worker protocol, written once: the risk in parts, ln q, the norms' columns in
//! parts, then one job that merges them into the report and goes on with the sweeps and the grid
//! Monte Carlo, beside the Langevin chain. The page runs each stage's jobs in parallel in its worker
//! pool; [`Protocol::run_here`] runs the same jobs, through the same wire format, one after another,
//! so native tests check the page's sequence against the one-thread report bit for bit.

use super::background::{langevin, sweeps_and_grid, Extra};
use super::parallel::{Columns, Plan};
use super::{Report, TangentParams};
use crate::error::Result;
use crate::jobs::{decode, encode, run as run_wired, Job, Update};
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;

/// A piece of the lab's heavy work (the stages [`Protocol`] writes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum TangentJob {
    /// First pass: the empirical risk at the parameters `from..to`.
    Risk {
        /// The lab's parameters.
        params: Box<TangentParams>,
        /// First parameter.
        from: usize,
        /// One past the last parameter.
        to: usize,
    },
    /// Second pass: the norms' accumulators over the columns `from..to`.
    Columns {
        /// The lab's parameters.
        params: Box<TangentParams>,
        /// ln q from the first pass.
        log_q: Vec<f64>,
        /// First column.
        from: usize,
        /// One past the last column.
        to: usize,
    },
    /// Merge the parts (each [`TangentUpdate::NormsPart`]'s bytes, in range order) into the report,
    /// then run the sweeps and the grid Monte Carlo ([`sweeps_and_grid`]) in the same worker, which
    /// already holds the report.
    Finish {
        /// The lab's parameters.
        params: Box<TangentParams>,
        /// The whole risk.
        risk: Vec<f64>,
        /// ln q, as the column parts used it.
        log_q: Vec<f64>,
        /// The encoded column parts, in range order (as bytes: serde's default would encode each u8
        /// as a sequence element, 10× slower on the page's thread that forwards them).
        parts: Vec<ByteBuf>,
    },
    /// The sweeps and the grid Monte Carlo ([`sweeps_and_grid`]) for a report the page computed
    /// itself (an instance that fits in a frame, [`Plan::fits_on_page`]).
    Sweeps {
        /// The lab's parameters.
        params: Box<TangentParams>,
        /// The report.
        report: Box<Report>,
    },
    /// The Langevin chain for a report, beside the sweeps ([`langevin`]).
    Langevin {
        /// The lab's parameters.
        params: Box<TangentParams>,
        /// The report.
        report: Box<Report>,
    },
}

/// What a [`TangentJob`] sends back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum TangentUpdate {
    /// Loss evaluations done so far.
    Progress(f64),
    /// The risk at the job's parameters.
    Risk(Vec<f64>),
    /// A column part of the norms, encoded (merged by [`TangentJob::Finish`]).
    NormsPart(#[serde(with = "serde_bytes")] Vec<u8>),
    /// The report, once merged.
    Report(Box<Report>),
    /// A sweep, the grid Monte Carlo or the Langevin chain's result.
    Extra(Extra),
}

/// Runs `job`, sending each result (and progress) to `emit`.
///
/// # Errors
/// Parameters no plan can be made of, or parts that do not decode.
// Never inlined into the dispatcher: a worker compiles (lazily, per function) only the lab it runs.
#[inline(never)]
pub fn run(job: TangentJob, emit: &mut dyn FnMut(TangentUpdate)) -> Result<()> {
    match job {
        TangentJob::Risk { params, from, to } => {
            let plan = Plan::new(&params)?;
            let risk = plan.risk_part(from..to, &mut |done| emit(TangentUpdate::Progress(done)));
            emit(TangentUpdate::Risk(risk));
        }
        TangentJob::Columns {
            params,
            log_q,
            from,
            to,
        } => {
            let plan = Plan::new(&params)?;
            let columns = Columns::from_log_q(&plan, log_q);
            let part = columns.part(from..to, &mut |done| emit(TangentUpdate::Progress(done)));
            emit(TangentUpdate::NormsPart(encode(&part)));
        }
        TangentJob::Finish {
            params,
            risk,
            log_q,
            parts,
        } => {
            let plan = Plan::new(&params)?;
            let parts = parts
                .iter()
                .map(|b| decode(b.as_slice()))
                .collect::<Result<Vec<_>>>()?;
            let report = plan.finish(risk, log_q, parts);
            emit(TangentUpdate::Report(Box::new(report.clone())));
            sweeps_and_grid(&params, &report, &mut |e| emit(TangentUpdate::Extra(e)));
        }
        TangentJob::Sweeps { params, report } => {
            sweeps_and_grid(&params, &report, &mut |e| emit(TangentUpdate::Extra(e)));
        }
        TangentJob::Langevin { params, report } => {
            langevin(&params, &report, &mut |e| emit(TangentUpdate::Extra(e)));
        }
    }
    Ok(())
}

/// The jobs of one link, stage by stage.
pub struct Protocol {
    params: TangentParams,
    plan: Plan,
}

impl Protocol {
    /// The protocol of a link's parameters.
    ///
    /// # Errors
    /// Parameters no plan can be made of (a removal index out of range, fewer than 2 points).
    pub fn new(params: &TangentParams) -> Result<Self> {
        Ok(Protocol {
            params: params.clone(),
            plan: Plan::new(params)?,
        })
    }

    /// The plan (sizes, work, whether the report fits in a frame on the page).
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Stage 1: the risk at each range of parameters ([`TangentUpdate::Risk`] each; concatenate in order).
    pub fn risk_jobs(&self) -> Vec<TangentJob> {
        self.plan
            .risk_ranges()
            .into_iter()
            .map(|r| TangentJob::Risk {
                params: Box::new(self.params.clone()),
                from: r.start,
                to: r.end,
            })
            .collect()
    }

    /// Stage 2: ln q from the whole risk, and the norms' column ranges ([`TangentUpdate::NormsPart`] each;
    /// keep them in order).
    pub fn column_jobs(&self, risk: &[f64]) -> (Columns, Vec<TangentJob>) {
        let columns = self.plan.columns(risk);
        let jobs = columns
            .ranges()
            .into_iter()
            .map(|r| TangentJob::Columns {
                params: Box::new(self.params.clone()),
                log_q: columns.log_q.clone(),
                from: r.start,
                to: r.end,
            })
            .collect();
        (columns, jobs)
    }

    /// Stage 3: the report from the parts ([`TangentUpdate::Report`]), then the sweeps and the grid
    /// Monte Carlo in the same worker.
    pub fn finish_job(&self, risk: Vec<f64>, log_q: Vec<f64>, parts: Vec<Vec<u8>>) -> TangentJob {
        TangentJob::Finish {
            params: Box::new(self.params.clone()),
            risk,
            log_q,
            parts: parts.into_iter().map(ByteBuf::from).collect(),
        }
    }

    /// For a report the page computed itself: the sweeps and the grid Monte Carlo.
    pub fn sweeps_job(&self, report: Report) -> TangentJob {
        TangentJob::Sweeps {
            params: Box::new(self.params.clone()),
            report: Box::new(report),
        }
    }

    /// Beside stage 3 (or the sweeps): the Langevin chain for the report.
    pub fn langevin_job(&self, report: Report) -> TangentJob {
        TangentJob::Langevin {
            params: Box::new(self.params.clone()),
            report: Box::new(report),
        }
    }

    /// Runs every stage here, each job through the wire format as a worker runs it, and returns
    /// every update in the order the page would fold them (the report first, then the extras).
    pub fn run_here(&self) -> Vec<Update> {
        let wired = |job: &TangentJob| {
            let mut out = Vec::new();
            let job = Job::Tangent(job.clone());
            let job: Job = decode(&encode(&job)).unwrap_or(job);
            run_wired(job, &mut |u| {
                out.push(decode::<Update>(&encode(&u)).unwrap_or(Update::Done))
            });
            out
        };
        let risk: Vec<f64> = self
            .risk_jobs()
            .iter()
            .flat_map(wired)
            .filter_map(|u| match u {
                Update::Tangent(TangentUpdate::Risk(r)) => Some(r),
                _ => None,
            })
            .flatten()
            .collect();
        let (columns, jobs) = self.column_jobs(&risk);
        let parts = jobs
            .iter()
            .flat_map(wired)
            .filter_map(|u| match u {
                Update::Tangent(TangentUpdate::NormsPart(b)) => Some(b),
                _ => None,
            })
            .collect();
        let mut out = wired(&self.finish_job(risk, columns.log_q, parts));
        if let Some(Update::Tangent(TangentUpdate::Report(report))) = out.first().cloned() {
            out.extend(wired(&self.langevin_job(*report)));
        }
        out.retain(|u| {
            !matches!(
                u,
                Update::Tangent(TangentUpdate::Progress(_)) | Update::Done
            )
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::tangent::background::{Extra, Extras};
    use crate::link::query::{LinkParams, Query};

    /// The page's sequence of jobs, run here through the wire, gives the one-thread report bit for
    /// bit, then the extras the page folds.
    #[test]
    fn the_protocol_gives_the_one_thread_report() {
        let p = TangentParams::from_query(&Query::parse(
            "model=linear2d&n=40&wgrid=-3:3:15&samples=200",
        ))
        .0;
        let protocol = Protocol::new(&p).unwrap();
        let updates = protocol.run_here();
        let Some(Update::Tangent(TangentUpdate::Report(report))) = updates.first() else {
            panic!("{updates:?}")
        };
        assert_eq!(**report, protocol.plan().report());
        let mut extras = Extras::default();
        for u in &updates[1..] {
            if let Update::Tangent(TangentUpdate::Extra(e)) = u {
                extras.apply(e.clone());
            }
        }
        assert!(extras.grid.is_some() && extras.langevin_r.is_some() && !extras.by_beta.is_empty());
        assert!(updates.iter().any(|u| matches!(
            u,
            Update::Tangent(TangentUpdate::Extra(Extra::LangevinR(_)))
        )));
    }
}
