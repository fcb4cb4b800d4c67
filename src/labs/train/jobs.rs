//! The training lab's background work: the training run ([`super::run::train`], resumable from a
//! checkpoint) and the privacy–utility sweep, one job per σ so that the pool spreads them and every
//! number is the same on any number of workers (each job's seeds and streams are fixed by the link).

use super::audit::{audit_chunk, audit_one_run, audit_report, OneRunReport};
use super::correlated::{compare_point, ComparePoint, RunNoise};
use super::mia::{mia_chunk, mia_report, MiaReport};
use super::params::TrainParams;
use super::run::{prepare_data, Plan};
use super::run::{train_resuming, TrainUpdate};
use crate::accounting::pld::DEFAULT_INTERVAL;
use crate::accounting::samplers::{sampler_epsilon, Sampler};
use crate::accounting::training::StepRdp;
use crate::accounting::training::{pld_epsilon, rdp_report};
use crate::attacks::audit_summary::AuditSummary;
use crate::error::Result;
use crate::learning::correlated::Mechanism;
use crate::learning::data::Dataset;
use crate::learning::dpsgd::{evaluate, Checkpoint, Hyper, Trainer};
use serde::{Deserialize, Serialize};

/// One σ of the sweep: its ε and each seed's test accuracies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    /// The noise multiplier.
    pub sigma: f64,
    /// ε at the link's q, T, δ: the PLD accountant's certified upper bound for Poisson batches, else the
    /// run's sampler's own headline (a lower bound for shuffled batches).
    pub eps: f64,
    /// ε by the RDP accountant for the run's sampler ([`StepRdp`]), NaN for a
    /// sampler without a certified upper bound.
    pub eps_rdp: f64,
    /// Test accuracy of the private, clipping-only and non-private models, one entry per seed (NaN
    /// for a run that diverged).
    pub test_acc: Vec<[f64; 3]>,
}

/// Trains `p.seeds` runs at noise multiplier `sigma` (training seeds `p.seed`, `p.seed + 1`, …; the
/// data and split stay those of `p.seed`) for the link's T steps, and accounts for them.
///
/// # Errors
/// Data or parameters the trainers refuse.
pub fn sweep_point(p: &TrainParams, csv: Option<&Dataset>, sigma: f64) -> Result<SweepPoint> {
    let split = prepare_data(p, csv)?;
    let p = TrainParams {
        sigma,
        stop: false,
        ..p.clone()
    };
    let plan = Plan::new(&p, &split)?;
    let hyper = Hyper {
        sigma,
        ..plan.hyper
    };
    let mut test_acc = Vec::new();
    for k in 0..p.seeds {
        let seed = p.seed.wrapping_add(k);
        let mut trainer =
            Trainer::new(&plan.arch, &split.train, hyper, seed)?.with_sampler(p.sampler, plan.cap);
        let mut at = Checkpoint::start(&plan.arch, seed);
        let ok = trainer.run_to(&mut at, plan.steps);
        test_acc.push(std::array::from_fn(|v| {
            if ok {
                evaluate(&plan.arch, &at.theta[v], &split.test).1
            } else {
                f64::NAN
            }
        }));
    }
    let rows = split.train.rows() + split.test.rows();
    let event = p.event(rows, plan.steps);
    Ok(SweepPoint {
        sigma,
        // The sampler's own statement when the batches are not Poisson (a lower bound for shuffling).
        eps: if p.sampler == Sampler::Poisson {
            pld_epsilon(&event, p.delta, DEFAULT_INTERVAL)?.upper
        } else {
            sampler_epsilon(&event.sampler_setting(p.delta, DEFAULT_INTERVAL), p.sampler)?
                .headline()
        },
        eps_rdp: if p.sampler == Sampler::Poisson {
            rdp_report(&event, p.delta)?.eps
        } else {
            StepRdp::for_run(&event).map_or(f64::NAN, |r| r.epsilon(plan.steps, p.delta))
        },
        test_acc,
    })
}

/// Mean and sample standard deviation of each σ's private test accuracy (seeds that diverged left
/// out), and the non-private models' mean over every run: the utility chart's data.
pub fn summarise(points: &[SweepPoint]) -> (Vec<(f64, f64, f64)>, f64) {
    let mut out = Vec::new();
    let mut base = Vec::new();
    for pt in points {
        let acc: Vec<f64> = pt
            .test_acc
            .iter()
            .map(|a| a[0])
            .filter(|a| a.is_finite())
            .collect();
        base.extend(pt.test_acc.iter().map(|a| a[2]).filter(|a| a.is_finite()));
        let (mean, sd) = crate::numerics::stats::mean_sd(&acc);
        out.push((pt.eps, mean, sd));
    }
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    (out, crate::numerics::stats::mean_sd(&base).0)
}

/// A piece of the lab's heavy work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum TrainJob {
    /// The user's CSV file's text, parsed off the page's thread
    /// ([`crate::learning::data::parse_csv`]).
    ParseCsv(String),
    /// The three models from a checkpoint (or the start) to step `until` ([`train_resuming`]).
    Run {
        /// The lab's parameters.
        params: Box<TrainParams>,
        /// The user's CSV, for `data=csv` (it never enters the link).
        csv: Option<Box<Dataset>>,
        /// Where to resume.
        from: Option<Checkpoint>,
        /// The run's noise as its first job built it, sent back on resume so that a BLT is not
        /// optimised again for every pause and step (`None`: built here).
        noise: Option<Box<RunNoise>>,
        /// The step to stop after.
        until: u64,
    },
    /// One σ of the privacy–utility sweep over every seed ([`sweep_point`]).
    Sweep {
        /// The lab's parameters.
        params: Box<TrainParams>,
        /// The user's CSV, for `data=csv`.
        csv: Option<Box<Dataset>>,
        /// The noise multiplier.
        sigma: f64,
    },
    /// One mechanism at one certified ε, over every seed ([`compare_point`]).
    Compare {
        /// The lab's parameters.
        params: Box<TrainParams>,
        /// The user's CSV, for `data=csv`.
        csv: Option<Box<Dataset>>,
        /// The mechanism.
        mech: Mechanism,
        /// The ε it is calibrated to.
        target: f64,
    },
    /// Audit runs `first .. first + count`, with and without the canary ([`audit_chunk`]).
    Audit {
        /// The lab's parameters.
        params: Box<TrainParams>,
        /// The user's CSV, for `data=csv`.
        csv: Option<Box<Dataset>>,
        /// The first run.
        first: u64,
        /// How many runs.
        count: u64,
    },
    /// The one-run audit ([`audit_one_run`]).
    AuditOneRun {
        /// The lab's parameters.
        params: Box<TrainParams>,
        /// The user's CSV, for `data=csv`.
        csv: Option<Box<Dataset>>,
    },
    /// The audit's numbers from every run's scores ([`audit_report`]).
    AuditReport {
        /// The lab's parameters.
        params: Box<TrainParams>,
        /// Rows of the user's CSV (0 for the built-in data).
        csv_rows: usize,
        /// Scores with the canary.
        ins: Vec<f64>,
        /// Scores without.
        outs: Vec<f64>,
    },
    /// Membership-attack models `first .. first + count` ([`mia_chunk`]).
    Mia {
        /// The lab's parameters.
        params: Box<TrainParams>,
        /// The user's CSV, for `data=csv`.
        csv: Option<Box<Dataset>>,
        /// The first model.
        first: u64,
        /// How many models.
        count: u64,
    },
    /// The membership attacks' numbers from every model's φ ([`mia_report`]).
    MiaReport {
        /// The lab's parameters.
        params: Box<TrainParams>,
        /// Rows of the user's CSV (0 for the built-in data).
        csv_rows: usize,
        /// Each chunk's φ, in chunk order.
        chunks: Vec<[Vec<f64>; 3]>,
    },
}

/// What a [`TrainJob`] sends back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum TrainJobUpdate {
    /// The user's CSV, parsed, or why it was refused.
    Csv(Result<Box<Dataset>>),
    /// The training run's progress.
    Run(TrainUpdate),
    /// One σ of the sweep.
    Sweep(Result<SweepPoint>),
    /// One mechanism at one certified ε.
    Compared(Result<Box<ComparePoint>>),
    /// A chunk of audit runs: its first run, the scores with and without the canary.
    Audit(Result<(u64, Vec<f64>, Vec<f64>)>),
    /// The audit's numbers.
    AuditReport(Result<Box<AuditSummary>>),
    /// The one-run audit's numbers.
    AuditOneRun(Result<OneRunReport>),
    /// A chunk of membership-attack models (its first model, each trainer's φ).
    Mia(Result<(u64, [Vec<f64>; 3])>),
    /// The membership attacks' numbers.
    MiaReport(Result<Box<MiaReport>>),
}

/// Runs `job`, sending each result to `emit`.
///
/// # Errors
/// A training run the trainer refuses (the sweep, audit and attack chunks send theirs as updates).
// Never inlined into the dispatcher: a worker compiles (lazily, per function) only the lab it runs.
#[inline(never)]
pub fn run(job: TrainJob, emit: &mut dyn FnMut(TrainJobUpdate)) -> Result<()> {
    match job {
        TrainJob::ParseCsv(text) => emit(TrainJobUpdate::Csv(
            crate::learning::data::parse_csv(&text).map(Box::new),
        )),
        TrainJob::Run {
            params,
            csv,
            from,
            noise,
            until,
        } => train_resuming(
            &params,
            csv.as_deref(),
            from.map(|c| (c, noise.map(|n| *n))),
            until,
            &mut |u| emit(TrainJobUpdate::Run(u)),
        )?,
        TrainJob::Sweep { params, csv, sigma } => emit(TrainJobUpdate::Sweep(sweep_point(
            &params,
            csv.as_deref(),
            sigma,
        ))),
        TrainJob::Compare {
            params,
            csv,
            mech,
            target,
        } => emit(TrainJobUpdate::Compared(
            compare_point(&params, csv.as_deref(), mech, target).map(Box::new),
        )),
        TrainJob::Audit {
            params,
            csv,
            first,
            count,
        } => emit(TrainJobUpdate::Audit(
            audit_chunk(&params, csv.as_deref(), first, count).map(|(i, o)| (first, i, o)),
        )),
        TrainJob::AuditOneRun { params, csv } => emit(TrainJobUpdate::AuditOneRun(audit_one_run(
            &params,
            csv.as_deref(),
        ))),
        TrainJob::AuditReport {
            params,
            csv_rows,
            ins,
            outs,
        } => emit(TrainJobUpdate::AuditReport(
            audit_report(&params, csv_rows, &ins, &outs).map(Box::new),
        )),
        TrainJob::Mia {
            params,
            csv,
            first,
            count,
        } => emit(TrainJobUpdate::Mia(
            mia_chunk(&params, csv.as_deref(), first, count).map(|phi| (first, phi)),
        )),
        TrainJob::MiaReport {
            params,
            csv_rows,
            chunks,
        } => emit(TrainJobUpdate::MiaReport(
            mia_report(&params, csv_rows, &chunks).map(Box::new),
        )),
    }
    Ok(())
}
