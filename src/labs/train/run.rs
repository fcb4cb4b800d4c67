//! A training run as the page shows it: the data prepared from the link (or the user's CSV), the three
//! models trained step by step from a checkpoint, and at about 100 points the losses, accuracies and
//! the private model's gradient norms.

use super::correlated::{equip, RunNoise};
use super::params::{DataKind, TrainParams};
use crate::error::{Error, Result};
use crate::learning::data::{Dataset, Split};
use crate::learning::datasets::{adult, breast_cancer, high_dim, two_d};
use crate::learning::dpsgd::{evaluate, gradient_norms, stream, Checkpoint, Hyper, Trainer};
use crate::learning::model::Architecture;
use crate::numerics::roots::{bisect, Split as Halving, Until};
use crate::numerics::stats::histogram;
use serde::{Deserialize, Serialize};

/// The stream of `seed` the synthetic data are drawn from.
const DATA_STREAM: u64 = 1;
/// The stream of `seed` the train/test split is drawn from.
const SPLIT_STREAM: u64 = 2;
/// Points on the curves (about; every ⌈T/100⌉ steps and the last).
pub const POINTS: u64 = 100;
/// Bins of the gradient-norm histogram.
pub const NORM_BINS: usize = 40;

/// The rows a link (and, for `data=csv`, the user's file) trains on, split and standardised.
///
/// # Errors
/// `data=csv` without a file, or a data set the trainers refuse (see [`Dataset::validate`]).
pub fn prepare_data(p: &TrainParams, csv: Option<&Dataset>) -> Result<Split> {
    let mut rng = stream(p.seed, DATA_STREAM);
    let data = match (p.data, p.data.shape()) {
        (DataKind::BreastCancer, _) => breast_cancer(),
        (DataKind::Adult, _) => adult(),
        (DataKind::HighDim, _) => high_dim(p.n as usize, p.dim as usize, &mut rng)?,
        (DataKind::Csv, _) => csv
            .cloned()
            .ok_or_else(|| Error::invalid("data", "csv", super::params::NO_CSV))?,
        (_, Some(shape)) => two_d(shape, p.n as usize, p.noise, &mut rng),
        (_, None) => breast_cancer(),
    };
    Split::new(&data, p.split, &mut stream(p.seed, SPLIT_STREAM))
}

/// What a run needs besides the data: the model, the update's knobs and the steps to take.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The model.
    pub arch: Architecture,
    /// q, σ, C, η, λ.
    pub hyper: Hyper,
    /// Steps to take: the link's T, or fewer when the run stops at the target ε.
    pub steps: u64,
    /// The link's T.
    pub link_steps: u64,
    /// Truncated Poisson's batch cap B.
    pub cap: u64,
}

impl Plan {
    /// The plan for `p` on `split`.
    ///
    /// # Errors
    /// A model shape or hyperparameter out of range, or a target ε that one step already exceeds.
    pub fn new(p: &TrainParams, split: &Split) -> Result<Plan> {
        let rows = split.train.rows() + split.test.rows();
        let arch = p.architecture(split.train.dim);
        arch.validate()?;
        let hyper = Hyper {
            q: p.rate(rows),
            sigma: p.sigma,
            clip: p.clip,
            lr: p.lr,
            lambda: p.lambda,
        };
        let link_steps = p.total_steps(rows);
        let steps = p.planned_steps(rows)?;
        Ok(Plan {
            arch,
            hyper,
            steps,
            link_steps,
            cap: p.cap(rows),
        })
    }
}

/// The most steps t ≤ `max` whose certified ε at δ is at most `target`, by the run's own sampler's
/// accountant ([`crate::accounting::training::StepRdp`]: RDP on dp_accounting's orders with the improved
/// conversion): the "stop when ε reaches the target" rule. RDP's ε is a certified upper bound, and
/// the same pair's PLD ε at the same t lies below it, so the run never passes the target. Bisection on
/// t (ε grows with t); the returned t is the bracket's lower end, the side where ε ≤ target.
///
/// # Errors
/// A target below one step's ε, or δ out of domain.
pub fn steps_within_target(
    rule: &crate::accounting::training::StepRdp,
    max: u64,
    delta: f64,
    target: f64,
) -> Result<u64> {
    let eps_at = |t: u64| -> f64 {
        let e = rule.epsilon(t, delta);
        if e.is_nan() {
            f64::INFINITY
        } else {
            e
        }
    };
    if eps_at(max) <= target {
        return Ok(max);
    }
    if eps_at(1) > target {
        return Err(Error::invalid(
            "target_eps",
            target,
            format!(
                "is below the ε of a single step ({}): raise it or σ",
                crate::link::query::fmt_f64(eps_at(1))
            ),
        ));
    }
    let b = bisect(1.0, max as f64, Halving::Middle, Until::Steps(64), |t| {
        eps_at(t.ceil() as u64) > target
    });
    Ok((b.lo.ceil() as u64).max(1))
}

/// Losses and accuracies of the three models at one step (arrays in [`crate::learning::dpsgd::Variant`]
/// order: private, clipping only, non-private).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// Steps taken.
    pub step: u64,
    /// Mean log-loss on the training rows.
    pub train_loss: [f64; 3],
    /// Accuracy on the training rows.
    pub train_acc: [f64; 3],
    /// Mean log-loss on the test rows.
    pub test_loss: [f64; 3],
    /// Accuracy on the test rows.
    pub test_acc: [f64; 3],
}

impl Point {
    /// The models of `at`, evaluated on both parts of `split`.
    pub fn measure(arch: &Architecture, at: &Checkpoint, split: &Split) -> Point {
        let mut p = Point {
            step: at.step,
            train_loss: [0.0; 3],
            train_acc: [0.0; 3],
            test_loss: [0.0; 3],
            test_acc: [0.0; 3],
        };
        for v in 0..3 {
            (p.train_loss[v], p.train_acc[v]) = evaluate(arch, &at.theta[v], &split.train);
            (p.test_loss[v], p.test_acc[v]) = evaluate(arch, &at.theta[v], &split.test);
        }
        p
    }
}

/// The private model's per-example gradient norms over the training rows at one step: what clipping
/// sees there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Norms {
    /// Steps taken.
    pub step: u64,
    /// The histogram's bin edges, log-spaced (norms span orders of magnitude: well-fit rows have
    /// tiny gradients), from the smallest positive norm or C/10 to the largest norm or 2C.
    pub edges: Vec<f64>,
    /// Rows in each bin (a zero norm counts in the first).
    pub counts: Vec<u64>,
    /// The median norm (the usual first guess for C).
    pub median: f64,
    /// Fraction of rows whose gradient the clipping norm shrinks (norm > C).
    pub clipped: f64,
}

impl Norms {
    /// The norms at the private model of `at`.
    pub fn measure(arch: &Architecture, at: &Checkpoint, train: &Dataset, clip: f64) -> Norms {
        let mut norms = gradient_norms(arch, &at.theta[0], train);
        norms.sort_by(f64::total_cmp);
        let n = norms.len();
        let median = if n % 2 == 1 {
            norms[n / 2]
        } else {
            0.5 * (norms[n / 2 - 1] + norms[n / 2])
        };
        let smallest = norms.iter().copied().find(|&g| g > 0.0).unwrap_or(clip);
        let lo = smallest.min(clip / 10.0).max(1e-300).log10();
        let hi = norms.last().copied().unwrap_or(0.0).max(2.0 * clip).log10();
        let logs: Vec<f64> = norms
            .iter()
            .map(|g| g.max(10f64.powf(lo)).log10())
            .collect();
        let (log_edges, counts) = histogram(&logs, lo, hi, NORM_BINS);
        let edges = log_edges.iter().map(|e| 10f64.powf(*e)).collect();
        Norms {
            step: at.step,
            edges,
            counts,
            median,
            clipped: norms.iter().filter(|&&g| g > clip).count() as f64 / n.max(1) as f64,
        }
    }
}

impl Norms {
    /// Words for a histogram that looks broken: a median norm below 10⁻⁶·C (like issue 52's 5×10⁻¹⁵,
    /// with bars down to 10⁻⁶⁰) means the model already separates most rows with a wide margin,
    /// where the log-loss's gradient shrinks like e^(−margin). `None` when the typical row still
    /// pulls (a few far-separated rows are ordinary).
    pub fn in_words(&self, clip: f64) -> Option<String> {
        let (lo, hi) = (*self.edges.first()?, *self.edges.last()?);
        let decades = (hi / lo).log10();
        (self.median < 1e-6 * clip).then(|| {
            format!(
                "These norms span {} decades, down to {}: that is not a bug. The model already classifies most \
                 training rows with a wide margin, and the log-loss's gradient on a row shrinks like e^(−margin), so \
                 those rows barely pull on it. The median ({}) is tiny for the same reason; clipping at C = {} only \
                 touches the rows to its right ({} of them).",
                decades.floor(),
                crate::link::format::sig(lo, 2),
                crate::link::format::sig(self.median, 2),
                crate::link::format::sig(clip, 3),
                crate::link::format::sig(self.clipped, 2),
            )
        })
    }
}

/// Whether a model's training loss ran away: above max(10·L₀, 10), L₀ its loss at step 0 (a mean
/// log-loss of 10 means the model is confidently wrong on most rows, e^10 to 1). Gradient steps on the
/// log-loss rarely overflow (its gradients are bounded), so a learning rate that is too high shows
/// here first.
fn diverged(initial: &Point, now: &Point, lr: f64) -> Option<Error> {
    crate::learning::dpsgd::Variant::ALL.iter().find_map(|&v| {
        let (l0, l) = (initial.train_loss[v as usize], now.train_loss[v as usize]);
        let bound = (10.0 * l0).max(10.0);
        (l.is_nan() || l > bound).then(|| {
            Error::invalid(
                "lr",
                lr,
                format!(
                    "makes the {} model diverge: its training loss rose from {} to {} by step {}; lower the learning rate",
                    v.title(),
                    crate::link::format::sig6(l0),
                    crate::link::format::sig6(l),
                    now.step
                ),
            )
        })
    })
}

/// What a training job sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum TrainUpdate {
    /// The data as prepared: rows, features, the standardisation (for the weights' export) and the
    /// planned steps.
    Prepared(Box<Prepared>),
    /// One report point: the curves' next point, the gradient norms, the checkpoint (the page resumes
    /// from it after a pause) and the private model's clipping counts so far in this job. One message
    /// per point, so that the page handles about a hundred messages a run.
    Report(Box<Report>),
    /// Training stopped early (a diverging learning rate); the curves so far stand.
    Stopped(Error),
    /// The job's training gradients in all (three models), sent last: the speed read-out.
    Evaluations(u64),
}

/// What the page learns at a report point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Losses and accuracies.
    pub point: Point,
    /// The private model's gradient norms.
    pub norms: Norms,
    /// Where training stands.
    pub checkpoint: Checkpoint,
    /// The private model's clipped gradients and its batches' total rows so far in this job.
    pub clipped: (u64, u64),
}

/// The prepared data's description.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prepared {
    /// Training rows.
    pub train_rows: usize,
    /// Test rows.
    pub test_rows: usize,
    /// Features.
    pub dim: usize,
    /// Feature names.
    pub names: Vec<String>,
    /// Training means.
    pub mean: Vec<f64>,
    /// Training scales.
    pub scale: Vec<f64>,
    /// Constant columns (1-based).
    pub constant: Vec<usize>,
    /// Steps the run takes.
    pub steps: u64,
    /// The link's T (more than `steps` when the run stops at the target).
    pub link_steps: u64,
    /// Parameters of the model.
    pub params: usize,
    /// The run's correlated noise as accounted (`None`: DP-SGD's independent noise).
    pub noise: Option<super::correlated::RunNoise>,
}

/// Runs the three models from `from` (step 0 when `None`) to step `until` (at most the plan's steps),
/// emitting a point, the norms and a checkpoint at step 0 and every ⌈T/[`POINTS`]⌉ steps, and at the
/// end, and last the per-example gradients it computed.
///
/// # Errors
/// Data or parameters the trainers refuse.
pub fn train(
    p: &TrainParams,
    csv: Option<&Dataset>,
    from: Option<Checkpoint>,
    until: u64,
    emit: &mut dyn FnMut(TrainUpdate),
) -> Result<()> {
    train_resuming(p, csv, from.map(|c| (c, None)), until, emit)
}

/// [`train`], resuming from a checkpoint with the run's noise as an earlier job of the same run built
/// it (a BLT's optimisation is the dearest part of a short job). Noise that is not this run's
/// ([`RunNoise::is_for`]) is built again.
///
/// # Errors
/// As [`train`].
pub fn train_resuming(
    p: &TrainParams,
    csv: Option<&Dataset>,
    from: Option<(Checkpoint, Option<RunNoise>)>,
    until: u64,
    emit: &mut dyn FnMut(TrainUpdate),
) -> Result<()> {
    let (from, known) = from.map_or((None, None), |(c, n)| (Some(c), n));
    let split = prepare_data(p, csv)?;
    let plan = Plan::new(p, &split)?;
    let noise = match known {
        Some(n) if n.is_for(p.mech, plan.hyper.q, plan.steps, p.sigma) => Some(n),
        _ => RunNoise::new(p.mech, plan.hyper.q, plan.steps, p.sigma)?,
    };
    let trainer = Trainer::new(&plan.arch, &split.train, plan.hyper, p.seed)?;
    let mut trainer = equip(
        trainer,
        noise.as_ref().map(|n| &n.event),
        p.sampler,
        plan.cap,
    )?;
    emit(TrainUpdate::Prepared(Box::new(Prepared {
        train_rows: split.train.rows(),
        test_rows: split.test.rows(),
        dim: split.train.dim,
        names: split.train.names.clone(),
        mean: split.mean.clone(),
        scale: split.scale.clone(),
        constant: split.constant.clone(),
        steps: plan.steps,
        link_steps: plan.link_steps,
        params: plan.arch.params(),
        noise,
    })));
    let every = plan.steps.div_ceil(POINTS).max(1);
    let start = Checkpoint::start(&plan.arch, p.seed);
    let initial = Point::measure(&plan.arch, &start, &split);
    let report = |at: &Checkpoint,
                  clipped: (u64, u64),
                  emit: &mut dyn FnMut(TrainUpdate)|
     -> Option<Error> {
        let point = Point::measure(&plan.arch, at, &split);
        let diverged = diverged(&initial, &point, p.lr);
        emit(TrainUpdate::Report(Box::new(Report {
            point,
            norms: Norms::measure(&plan.arch, at, &split.train, p.clip),
            checkpoint: at.clone(),
            clipped,
        })));
        diverged
    };
    let mut at = match from {
        Some(c) if c.step <= plan.steps && c.theta[0].len() == plan.arch.params() => c,
        _ => {
            report(&start, (0, 0), emit);
            start.clone()
        }
    };
    let until = until.min(plan.steps);
    let mut clipped = (0, 0);
    while at.step < until {
        if let Err(e) = trainer.step(&mut at, &mut clipped) {
            emit(TrainUpdate::Stopped(e));
            break;
        }
        if at.step % every == 0 || at.step == until {
            if let Some(e) = report(&at, clipped, emit) {
                emit(TrainUpdate::Stopped(e));
                break;
            }
        }
    }
    emit(TrainUpdate::Evaluations(trainer.evaluations));
    Ok(())
}
