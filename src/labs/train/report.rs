//! What the training lab's page shows, folded here from the jobs' updates so that components only
//! draw: the run so far (curves, norms, checkpoint, clipping counts), the decision regions of a 2-D
//! model, and ε at the current step.

use super::correlated::RunNoise;
use super::run::{Norms, Point, Prepared, Report, TrainUpdate};
use crate::accounting::event::TrainingEvent;
use crate::accounting::guarantee::{Accountant, Guarantee, Side};
use crate::accounting::samplers::{Kind, Sampler, SamplerEpsilon};
use crate::error::Error;
use crate::learning::correlated::Mechanism;
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

/// The run's relation, ε and where it comes from, as [`epsilon_statement`] says them for DP-SGD; with
/// correlated noise, its [`guarantee`]'s (an upper bound; NaN while it is computed).
pub fn run_statement(h: &HeadlineInputs) -> (&'static str, f64, &'static str) {
    if h.mech == Mechanism::DpSgd {
        return epsilon_statement(h.sampler, h.own, h.poisson);
    }
    let how = match h.noise.map(|n| n.event.amplified().is_some()) {
        None => "for this run's correlated noise (being computed)",
        Some(true) => {
            "certified for amplified BandMF's cyclic Poisson batches, as DP-SGD over ⌈T/b⌉ rounds \
             (Choquette-Choo et al. 2023, Theorem 4)"
        }
        Some(false) => {
            "exactly, as the Gaussian mechanism at σ/Δ for batches in a fixed order (no \
             amplification is known for this strategy)"
        }
    };
    ("≤", guarantee(h).map_or(f64::NAN, |g| g.eps), how)
}

/// `x` with `digits` digits rounded outward for the relation [`epsilon_statement`] gives it: down for
/// a lower bound (≥), up otherwise (an upper bound, or the exact ε, which is computed never below it).
pub fn outward(rel: &str, x: f64, digits: usize) -> String {
    let side = if rel == "≥" {
        Side::Lower
    } else {
        Side::Upper
    };
    side.digits(x, digits)
}

/// What the headline reads of the page: the run's sampler and its own statement, the Poisson
/// accountants' best ε (and whether it is the PLD's), δ, the target, and the run so far.
#[derive(Debug, Clone, Copy)]
pub struct HeadlineInputs<'a> {
    /// The run as accountants take it ([`super::TrainParams::accounting_event`]).
    pub event: &'a TrainingEvent,
    /// The run's noise.
    pub mech: Mechanism,
    /// A correlated-noise run as its job found it (`None` for DP-SGD, or until the job says).
    pub noise: Option<&'a RunNoise>,
    /// The run's sampler.
    pub sampler: Sampler,
    /// Its own ε when not Poisson (`None` while computed).
    pub own: Option<&'a SamplerEpsilon>,
    /// The Poisson accountants' ε over the planned steps, and whether it is the PLD's.
    pub poisson: (f64, bool),
    /// δ.
    pub delta: f64,
    /// The target ε.
    pub target_eps: f64,
    /// Whether the run stops at the target (`stop=1`).
    pub stop: bool,
    /// The last evaluation (test accuracies, DP-SGD first, non-private last) and the step it is at.
    pub last: Option<([f64; 3], u64)>,
}

/// The run's one ε as a [`Guarantee`]: for Poisson batches the PLD's certified bound once composed
/// (RDP's until then), for another sampler its own statement; `None` while that is computed. With
/// correlated noise, its own ([`RunNoise::guarantee`]: amplified BandMF by the same accountants over
/// its ⌈T/b⌉ rounds, the event the page accounts; the tree and BLTs exactly).
pub fn guarantee(h: &HeadlineInputs) -> Option<Guarantee> {
    let (eps, by_pld) = h.poisson;
    let accountant = if by_pld {
        Accountant::Pld
    } else {
        Accountant::RdpEveryOrder
    };
    if h.mech != Mechanism::DpSgd {
        return h
            .noise
            .and_then(|n| n.guarantee(h.delta, Some((eps, accountant))));
    }
    match (h.sampler, h.own) {
        (Sampler::Poisson, _) => eps
            .is_finite()
            .then(|| Guarantee::poisson(h.event, accountant, Side::Upper, h.delta, eps)),
        (_, Some(own)) => Some(Guarantee::from_sampler(h.event, own, h.delta)),
        (_, None) => None,
    }
}

/// What the training lab knows of its run beyond the event, for a statement: the training rows and the
/// epochs (read off the run's `event`, so they say what was accounted), the clipping norm, that its
/// features were standardised on the training rows, and the audit's result where one ran.
pub fn statement_facts(
    p: &super::TrainParams,
    event: &TrainingEvent,
    link: &str,
    audit: Option<crate::statement::AuditFact>,
) -> crate::statement::RunFacts {
    crate::statement::RunFacts {
        lab: "train".into(),
        link: link.into(),
        records: Some(event.records),
        epochs: Some(event.steps as f64 * event.rate),
        clip: Some(p.clip),
        standardised_on_training_rows: true,
        audit,
        ..Default::default()
    }
}

/// The training lab's headline: one ε for the run (its [`guarantee`], rounded outward), and the
/// accuracy it bought once trained.
pub fn headline(h: &HeadlineInputs) -> String {
    use crate::link::format::{count, sig};
    let (rel, _, how) = run_statement(h);
    let eps_text = guarantee(h).map_or_else(|| "—".to_string(), |g| g.eps_text(4));
    let delta = sig(h.delta, 3);
    match h.last {
        Some((acc, step)) => format!(
            "After {} steps the private model's test accuracy is {} (non-private {}), at ε {rel} {eps_text} for δ = {delta} over the planned steps, {how}.",
            count(step),
            sig(acc[0], 3),
            sig(acc[2], 3),
        ),
        None => format!(
            "Training costs ε {rel} {eps_text} at δ = {delta} over the planned steps, {how}; press Play to see what it buys in accuracy."
        ),
    }
}

/// The notice when the planned run's ε passes the target and the run does not stop at it: `None`
/// when it stays within the target, stops at it, or has no number yet. A lower bound above the
/// target passes it for sure; an upper bound above it may.
pub fn target_notice(h: &HeadlineInputs) -> Option<String> {
    let (rel, eps, _) = run_statement(h);
    if h.stop || !eps.is_finite() || eps <= h.target_eps {
        return None;
    }
    let eps_text = outward(rel, eps, 4);
    let target = crate::link::query::fmt_f64(h.target_eps);
    Some(if rel == "≥" {
        format!("This run passes your target ε = {target}: its ε is at least {eps_text} over the planned steps.")
    } else {
        let how = if rel == "=" { "exactly" } else { "at most" };
        let fix = if h.mech == Mechanism::DpSgd {
            "Stop at the target to keep within it."
        } else {
            "Raise σ or train fewer epochs to keep within it (the comparison below calibrates σ to a target)."
        };
        format!("This run's certified ε over the planned steps is {how} {eps_text}, above your target ε = {target}: that larger number is the guarantee you can state. {fix}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default link and other samplers: the headline's ε reads back on the safe side of the value
    /// it states, and names a lower bound as one.
    #[test]
    fn the_headline_states_one_epsilon_rounded_outward() {
        use crate::accounting::pld::DEFAULT_INTERVAL;
        use crate::accounting::samplers::sampler_epsilon;
        use crate::accounting::training::pld_epsilon;
        use crate::labs::train::TrainParams;
        use crate::link::query::{LinkParams, Query};
        for link in ["", "sampler=shuffle", "sampler=fixed", "sigma=0.7&epochs=3"] {
            let p = TrainParams::from_query(&Query::parse(link)).0;
            let rows = crate::labs::train::BREAST_CANCER_ROWS;
            let event = p.event(rows, p.total_steps(rows));
            let band = pld_epsilon(&event, p.delta, DEFAULT_INTERVAL).unwrap();
            let own = (p.sampler != Sampler::Poisson).then(|| {
                sampler_epsilon(&event.sampler_setting(p.delta, DEFAULT_INTERVAL), p.sampler)
                    .unwrap()
            });
            let h = HeadlineInputs {
                event: &event,
                mech: Mechanism::DpSgd,
                noise: None,
                sampler: p.sampler,
                own: own.as_ref(),
                poisson: (band.upper, true),
                delta: p.delta,
                target_eps: p.target_eps,
                stop: p.stop,
                last: None,
            };
            let text = headline(&h);
            let g = guarantee(&h).unwrap();
            let marker = format!(
                "ε {} ",
                epsilon_statement(p.sampler, own.as_ref(), h.poisson).0
            );
            let shown: f64 = text
                .split(marker.as_str())
                .nth(1)
                .and_then(crate::link::format::read_shown)
                .unwrap_or(f64::NAN);
            match g.side {
                Side::Upper => assert!(shown >= g.eps, "{link}: {shown} < {} in {text}", g.eps),
                _ => {
                    assert!(shown <= g.eps, "{link}: {shown} > {} in {text}", g.eps);
                    assert!(text.contains("lower bound"), "{text}");
                }
            }
        }
    }
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
                    noise: vec![],
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
        let arch = Architecture::mlp(2, vec![3], Activation::Tanh);
        let theta = vec![0.1; arch.params()];
        let (xs, v) = decision_grid(&arch, &theta, 3.0, 10);
        assert_eq!((xs.len(), v.len()), (10, 100));
        assert!(v.iter().all(|p| p.abs() < 0.5));
    }
}
