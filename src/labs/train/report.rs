//! What the training lab's page shows, folded here from the jobs' updates so that components only
//! draw: the run so far (curves, norms, checkpoint, clipping counts), the decision regions of a 2-D
//! model, and ε at the current step.

use super::run::{Norms, Point, Prepared, Report, TrainUpdate};
use crate::accounting::rdp::replace_one::dpsgd_step_rdp;
use crate::accounting::rdp::{default_orders, rdp_to_approx_dp, Conversion};
use crate::accounting::samplers::truncated::Truncated;
use crate::accounting::samplers::{Kind, Sampler, SamplerEpsilon};
use crate::error::Error;
use crate::learning::dpsgd::Checkpoint;
use crate::learning::model::{sigmoid, Architecture};

/// The run as the page has it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunState {
    /// The prepared data's description (from the job's first update).
    pub prepared: Option<Prepared>,
    /// The curves' points, in step order.
    pub points: Vec<Point>,
    /// The latest gradient norms.
    pub norms: Option<Norms>,
    /// Where training stands.
    pub checkpoint: Option<Checkpoint>,
    /// The private model's clipped gradients and batch rows, over the jobs since the last reset.
    pub clipped: (u64, u64),
    /// Why training stopped early, if it did.
    pub stopped: Option<Error>,
    /// Per-example gradients computed by the latest job, and how long it ran (ms): the speed.
    pub evaluations: (u64, f64),
    clipped_before: (u64, u64),
}

impl RunState {
    /// A job starts: counts restart from what earlier jobs of this run reached.
    pub fn start_job(&mut self) {
        self.clipped_before = self.clipped;
        self.stopped = None;
    }

    /// Folds in one update (`elapsed`: ms since the job's first update, for the speed read-out).
    pub fn apply(&mut self, u: TrainUpdate, elapsed: f64) {
        match u {
            TrainUpdate::Prepared(p) => self.prepared = Some(*p),
            TrainUpdate::Report(r) => {
                let Report {
                    point,
                    norms,
                    checkpoint,
                    clipped,
                } = *r;
                self.points.retain(|q| q.step != point.step);
                let at = self.points.partition_point(|q| q.step < point.step);
                self.points.insert(at, point);
                self.norms = Some(norms);
                self.checkpoint = Some(checkpoint);
                self.clipped = (
                    self.clipped_before.0 + clipped.0,
                    self.clipped_before.1 + clipped.1,
                );
            }
            TrainUpdate::Stopped(e) => self.stopped = Some(e),
            TrainUpdate::Evaluations(n) => self.evaluations = (n, elapsed),
        }
    }

    /// Steps taken.
    pub fn step(&self) -> u64 {
        self.checkpoint.as_ref().map_or(0, |c| c.step)
    }

    /// The latest point.
    pub fn last(&self) -> Option<&Point> {
        self.points.last()
    }

    /// Fraction of the private model's per-example gradients that clipping shrank, over the batches
    /// trained so far (NaN before the first step).
    pub fn clipped_fraction_in_batches(&self) -> f64 {
        self.clipped.0 as f64 / self.clipped.1 as f64
    }

    /// Per-example gradient evaluations per second in the latest job (NaN if it was too short to time).
    pub fn gradients_per_second(&self) -> f64 {
        let (n, ms) = self.evaluations;
        if ms > 0.0 && n > 0 {
            n as f64 / (ms / 1000.0)
        } else {
            f64::NAN
        }
    }
}

/// A 2-D model's P(y = 1) − ½ on a `cells × cells` grid over [−`half`, `half`]² in standardised units:
/// (cell centres, values row-major by y). Its sign is the decision.
pub fn decision_grid(
    arch: &Architecture,
    theta: &[f64],
    half: f64,
    cells: usize,
) -> (Vec<f64>, Vec<f64>) {
    let centres: Vec<f64> = (0..cells)
        .map(|i| -half + (i as f64 + 0.5) * 2.0 * half / cells as f64)
        .collect();
    let mut ws = arch.workspace();
    let mut values = Vec::with_capacity(cells * cells);
    if arch.dim == 2 && theta.len() == arch.params() {
        for &y in &centres {
            for &x in &centres {
                values.push(sigmoid(arch.logit(theta, &[x, y], &mut ws)) - 0.5);
            }
        }
    }
    (centres, values)
}

/// How the page states the planned steps' ε: the relation (≤, = or ≥), the number, and where it comes
/// from. Poisson batches: the PLD's certified bound once composed (`poisson.1`), RDP's until then;
/// another sampler: its own statement (`own`, `None` while it is computed: NaN), never the Poisson
/// accountants', which do not hold for it.
pub fn epsilon_statement(
    sampler: Sampler,
    own: Option<&SamplerEpsilon>,
    poisson: (f64, bool),
) -> (&'static str, f64, &'static str) {
    match (sampler, own) {
        (Sampler::Poisson, _) if poisson.1 => ("≤", poisson.0, "certified by the PLD"),
        (Sampler::Poisson, _) => ("≤", poisson.0, "by RDP"),
        (_, None) => ("≤", f64::NAN, "for this run's sampler (being computed)"),
        (_, Some(e)) => match e.kind {
            Kind::Exact => (
                "=",
                e.lower,
                "exactly for zero-out neighbours (a removed record's slot stays), for this run's sampler",
            ),
            Kind::Upper => ("≤", e.headline(), "certified for this run's sampler"),
            Kind::Lower => (
                "≥",
                e.lower,
                "a lower bound for this run's sampler (no upper bound is known for it)",
            ),
        },
    }
}

/// The RDP accountant's per-step Rényi curve of the Poisson-subsampled Gaussian (q, σ) on
/// dp_accounting's orders, computed once (its fractional orders are series), so that ε after any
/// number of steps is one conversion: the "ε spent so far" read-out and the stop rule.
#[derive(Debug, Clone, PartialEq)]
pub struct StepRdp {
    orders: Vec<f64>,
    per_step: Vec<f64>,
}

impl StepRdp {
    /// The curve for sampling rate `q` and noise multiplier `sigma` (add/remove).
    pub fn new(q: f64, sigma: f64) -> Self {
        Self::under(q, sigma, false)
    }

    /// The curve for rate `q` and noise multiplier `sigma` under either relation
    /// ([`dpsgd_step_rdp`]).
    fn under(q: f64, sigma: f64, replace_one: bool) -> Self {
        Self::from_curve(|a| dpsgd_step_rdp(q, sigma, a, replace_one))
    }

    /// The curve certifying the run `a` describes, for its own sampler at its accounted rate; `None`
    /// for a sampler with no certified upper bound. The Poisson pair's σ:
    ///
    /// - Poisson: σ, under replace-one [`crate::accounting::rdp::replace_one`]'s curve (as the DP-SGD
    ///   lab's).
    /// - Fixed-size batches under add/remove: σ/2, exactly the pair [`crate::accounting::samplers`] bounds
    ///   them by (removing a record hands its slot to another, so the sum moves by up to 2C; the batch size
    ///   is public).
    /// - Truncated Poisson: its flagged pair's curve
    ///   ([`crate::accounting::samplers::truncated::Truncated::step_rdp`]).
    /// - Every other case: none. Shuffled batches have lower bounds only, balls-in-bins batches a
    ///   certified bound for whole epochs but no per-step RDP curve; cyclic
    ///   batches' exact ε holds for zero-out neighbours (a removed record's slot stays), while removing a
    ///   row from the trainer's fixed order moves every later row to another batch, so under add/remove no
    ///   bound is known.
    pub fn for_run(a: &crate::labs::dpsgd::DpsgdParams) -> Option<Self> {
        let setting = a.sampler_setting();
        if a.sampler == Sampler::Truncated {
            let step = Truncated::new(
                setting.n,
                setting.q,
                setting.cap,
                a.sigma,
                setting.replace_one,
            );
            return step
                .ok()
                .map(|t| StepRdp::from_curve(|alpha| t.step_rdp(alpha)));
        }
        run_pair(a.sampler, setting.replace_one, a.sigma)
            .map(|(s, replace_one)| StepRdp::under(setting.q, s, replace_one))
    }

    /// The curve of a step whose RDP at order α is `rdp(α)`, on dp_accounting's orders.
    fn from_curve(rdp: impl Fn(f64) -> f64) -> Self {
        let orders = default_orders();
        let per_step = orders.iter().map(|&a| rdp(a)).collect();
        StepRdp { orders, per_step }
    }

    /// Whether `sampler` has such a curve under add/remove (the training lab's relation).
    pub fn exists_for(sampler: Sampler) -> bool {
        sampler == Sampler::Truncated || run_pair(sampler, false, 1.0).is_some()
    }

    /// ε at δ after `steps` steps (improved conversion; a certified upper bound): 0 before the first
    /// step, NaN when δ is out of domain.
    pub fn epsilon(&self, steps: u64, delta: f64) -> f64 {
        if steps == 0 {
            return 0.0;
        }
        let total: Vec<f64> = self.per_step.iter().map(|r| r * steps as f64).collect();
        rdp_to_approx_dp(&self.orders, &total, delta, Conversion::Improved)
            .map_or(f64::NAN, |e| e.0)
    }
}

/// σ of the Poisson step whose RDP certifies a run with `sampler`, and whether it is read under
/// replace-one (see [`StepRdp::for_run`]).
fn run_pair(sampler: Sampler, replace_one: bool, sigma: f64) -> Option<(f64, bool)> {
    match (sampler, replace_one) {
        (Sampler::Poisson, relation) => Some((sigma, relation)),
        (Sampler::Fixed, false) => Some((sigma / 2.0, false)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learning::model::Activation;

    #[test]
    fn points_stay_in_step_order_and_counts_add_up() {
        let mut r = RunState::default();
        let pt = |step, clipped| {
            TrainUpdate::Report(Box::new(Report {
                point: Point {
                    step,
                    train_loss: [0.0; 3],
                    train_acc: [0.0; 3],
                    test_loss: [0.0; 3],
                    test_acc: [0.0; 3],
                },
                norms: Norms {
                    step,
                    edges: vec![0.0, 1.0],
                    counts: vec![1],
                    median: 0.5,
                    clipped: 0.0,
                },
                checkpoint: Checkpoint {
                    step,
                    theta: [vec![], vec![], vec![]],
                },
                clipped,
            }))
        };
        for s in [0, 10, 5, 10] {
            r.apply(pt(s, (0, 0)), 0.0);
        }
        assert_eq!(
            r.points.iter().map(|p| p.step).collect::<Vec<_>>(),
            [0, 5, 10]
        );
        r.start_job();
        r.apply(pt(1, (3, 10)), 0.0);
        r.start_job();
        r.apply(pt(2, (1, 10)), 0.0);
        assert_eq!(r.clipped_fraction_in_batches(), 0.2);
        r.apply(TrainUpdate::Evaluations(3000), 1500.0);
        assert_eq!(r.gradients_per_second(), 2000.0);
        let arch = Architecture {
            dim: 2,
            hidden: vec![3],
            act: Activation::Tanh,
        };
        let theta = vec![0.1; arch.params()];
        let (xs, v) = decision_grid(&arch, &theta, 3.0, 10);
        assert_eq!((xs.len(), v.len()), (10, 100));
        assert!(v.iter().all(|p| p.abs() < 0.5));
        let rdp = StepRdp::new(0.01, 1.0);
        assert_eq!(rdp.epsilon(0, 1e-5), 0.0);
        assert!(rdp.epsilon(100, 1e-5) > 0.0);
        assert!(rdp.epsilon(100, 2.0).is_nan());
    }
}
