//! Correlated noise against DP-SGD at the same certified ε (issue 51): for the link's data, model,
//! batch size, epochs and target ε, each mechanism's σ calibrated to the target, its runs over the
//! link's seeds, and their test accuracies.
//!
//! Each mechanism runs with the batches its guarantee needs, on the same training rows:
//! - DP-SGD: Poisson sampling at q, accounted by the PLD (the σ search never overshoots);
//! - BandMF with b bands: cyclic Poisson over b groups at q_b = q·b (the same expected batch),
//!   accounted as DP-SGD over ⌈T/b⌉ rounds (Choquette-Choo et al. 2023, Theorem 4) by the PLD;
//! - the tree and the BLT: batches in a fixed order, k = ⌈T/s⌉ passes s = round(1/q) steps apart, no
//!   amplification: the Gaussian mechanism at σ/Δ with Δ the strategy's sensitivity under that
//!   participation (exact), σ = Δ·σ_G(ε, δ) rounded up.

use super::params::TrainParams;
use super::run::{prepare_data, Plan};
use crate::accounting::correlated::CorrelatedEvent;
use crate::accounting::event::{Neighbour, TrainingEvent};
use crate::accounting::guarantee::{Accountant, Event, Guarantee, Side};
use crate::accounting::pld::DEFAULT_INTERVAL;
use crate::accounting::samplers::Sampler;
use crate::accounting::training::{pld_epsilon, sigma_for_target, sigma_search_pld, SigmaGoal};
use crate::error::{Error, Result};
use crate::learning::correlated::{strategy, Mechanism, NoiseGen};
use crate::learning::data::Dataset;
use crate::learning::dpsgd::{evaluate, Checkpoint, Hyper, Trainer};
use crate::mechanisms::gaussian::sigma_analytic;
use crate::mechanisms::mf::{Participation, Strategy};
use serde::{Deserialize, Serialize};

/// One mechanism at the link's target ε.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComparePoint {
    /// The mechanism.
    pub mech: Mechanism,
    /// The ε it was calibrated to.
    pub target: f64,
    /// Its noise multiplier for the target (of the strategy scaled to column norm 1).
    pub sigma: f64,
    /// Its certified ε at the link's δ, with the event and accountant.
    pub guarantee: Guarantee,
    /// The private model's test accuracy, one per seed (NaN for a run that diverged).
    pub test_acc: Vec<f64>,
    /// The non-private model's, trained on the same batches.
    pub baseline: Vec<f64>,
}

/// `mech`'s run over `steps` steps at rate q with noise multiplier σ, as accountants take it: `None`
/// for DP-SGD. BandMF samples its b groups in turn at q·b (the same expected batch); the tree and the
/// BLT take batches in a fixed order, k = ⌈T/s⌉ passes s = round(1/q) steps apart.
///
/// # Errors
/// BandMF with q·b above 1.
pub fn correlated_event(
    mech: Mechanism,
    q: f64,
    steps: u64,
    sigma: f64,
) -> Result<Option<CorrelatedEvent>> {
    let per_epoch = (1.0 / q).round().max(1.0) as u64;
    let fixed_order = Participation {
        k: Some(steps.div_ceil(per_epoch) as usize),
        b: per_epoch as usize,
    };
    let (participation, sampling) = match mech {
        Mechanism::DpSgd => return Ok(None),
        Mechanism::BandMf { bands } => {
            let rate = q * f64::from(bands);
            if rate > 1.0 {
                return Err(Error::invalid(
                    "mech",
                    mech.key(),
                    format!("needs q·b ≤ 1 (each group's rate), here {rate}: fewer bands or a smaller batch"),
                ));
            }
            let b = bands as usize;
            (Participation { k: None, b }, Some(rate))
        }
        Mechanism::Tree | Mechanism::Blt => (fixed_order, None),
    };
    Ok(Some(CorrelatedEvent {
        strategy: strategy(mech, steps, fixed_order),
        steps,
        sigma,
        participation,
        sampling,
    }))
}

/// A correlated-noise run as the run job found it: its event and, without amplification, its
/// sensitivity Δ (a BLT is optimised and its Δ computed in the worker, never on the page's thread).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunNoise {
    /// The run.
    pub event: CorrelatedEvent,
    /// Δ in units of one participation's (1 for an amplified run, whose accountant needs none).
    pub sensitivity: f64,
}

impl RunNoise {
    /// `mech`'s run ([`correlated_event`]); `None` for DP-SGD.
    ///
    /// # Errors
    /// As [`correlated_event`], or a sensitivity out of reach.
    pub fn new(mech: Mechanism, q: f64, steps: u64, sigma: f64) -> Result<Option<RunNoise>> {
        let Some(event) = correlated_event(mech, q, steps, sigma)? else {
            return Ok(None);
        };
        let sensitivity = match event.amplified() {
            Some(_) => 1.0,
            None => event.sensitivity()?,
        };
        Ok(Some(RunNoise { event, sensitivity }))
    }

    /// Whether this is `mech`'s run over `steps` steps at rate q with noise multiplier σ, as
    /// [`correlated_event`] builds it (a BLT's coefficients aside: the optimiser fixes them from the
    /// rest), so that a resumed job may reuse it.
    pub fn is_for(&self, mech: Mechanism, q: f64, steps: u64, sigma: f64) -> bool {
        let e = &self.event;
        let same_kind = match (&e.strategy, mech) {
            (Strategy::Blt(_), Mechanism::Blt) | (Strategy::Tree, Mechanism::Tree) => true,
            (Strategy::Banded { bands }, Mechanism::BandMf { bands: b }) => *bands == b as usize,
            _ => false,
        };
        let (groups, sampling) = match mech {
            Mechanism::BandMf { bands } => (bands as usize, Some(q * f64::from(bands))),
            _ => ((1.0 / q).round().max(1.0) as usize, None),
        };
        same_kind
            && e.steps == steps
            && e.sigma == sigma
            && e.participation.b == groups
            && e.sampling == sampling
    }

    /// The run's guarantee at δ. Amplified BandMF: `amplified` is the accountant's ε for
    /// [`CorrelatedEvent::amplified`]'s DP-SGD run (`None` while it is computed: no guarantee yet);
    /// otherwise the Gaussian mechanism's exact ε at σ/Δ.
    pub fn guarantee(&self, delta: f64, amplified: Option<(f64, Accountant)>) -> Option<Guarantee> {
        match (self.event.amplified(), amplified) {
            (Some(_), Some((eps, accountant))) => eps.is_finite().then(|| Guarantee {
                accountant,
                ..Guarantee::amplified(self.event.clone(), delta, eps)
            }),
            (Some(_), None) => None,
            (None, _) => Some(Guarantee::unamplified(
                self.event.clone(),
                self.sensitivity,
                delta,
            )),
        }
    }
}

/// `mech`'s σ for the link's target ε over T steps at rate q, and its guarantee there (σ is the
/// event's: for BandMF and the fixed-order mechanisms the guarantee's [`CorrelatedEvent`]).
///
/// # Errors
/// A target out of reach, BandMF with q·b above 1, or parameters out of domain.
pub fn calibrate(
    mech: Mechanism,
    q: f64,
    steps: u64,
    target: f64,
    delta: f64,
) -> Result<(f64, Guarantee)> {
    let search = |event: TrainingEvent| -> Result<(f64, f64)> {
        let goal = SigmaGoal {
            event,
            delta,
            target_eps: target,
            grid: DEFAULT_INTERVAL,
        };
        let seed = sigma_for_target(&goal).unwrap_or(1.0);
        let sigma = sigma_search_pld(&goal, seed)?.run()?;
        let eps = pld_epsilon(&goal.event.with_sigma(sigma), delta, DEFAULT_INTERVAL)?.upper;
        Ok((sigma, eps))
    };
    let Some(mut ce) = correlated_event(mech, q, steps, 1.0)? else {
        let event = TrainingEvent::poisson(q, 1.0, steps, Neighbour::AddRemove);
        let (sigma, eps) = search(event.clone())?;
        let g = Guarantee::poisson(
            &event.with_sigma(sigma),
            Accountant::Pld,
            Side::Upper,
            delta,
            eps,
        );
        return Ok((sigma, g));
    };
    match ce.amplified() {
        Some(amplified) => {
            let (sigma, eps) = search(amplified)?;
            ce.sigma = sigma;
            Ok((sigma, Guarantee::amplified(ce, delta, eps)))
        }
        None => {
            let relative = ce.sensitivity()?;
            ce.sigma = (sigma_analytic(target, delta, 1.0)? * relative).next_up();
            Ok((ce.sigma, Guarantee::unamplified(ce, relative, delta)))
        }
    }
}

/// `trainer` running `noise`'s mechanism: its noise generated step by step, and the batches its
/// guarantee assumes (cyclic Poisson over its groups, or a fixed order); without one, DP-SGD with
/// `sampler`'s batches.
///
/// # Errors
/// A strategy with no step-by-step generator (the square root, Honaker's tree: not offered here).
pub fn equip<'a>(
    trainer: Trainer<'a>,
    noise: Option<&CorrelatedEvent>,
    sampler: Sampler,
    cap: u64,
) -> Result<Trainer<'a>> {
    let Some(ce) = noise else {
        return Ok(trainer.with_sampler(sampler, cap));
    };
    let steps = usize::try_from(ce.steps).unwrap_or(usize::MAX);
    let gen = NoiseGen::new(&ce.strategy, steps).ok_or_else(|| {
        Error::invalid(
            "mech",
            ce.strategy.name(),
            "has no step-by-step noise generator",
        )
    })?;
    Ok(match ce.sampling {
        Some(rate) => trainer.with_correlated(gen, Some((ce.participation.b, rate))),
        None => trainer
            .with_sampler(Sampler::Cyclic, cap)
            .with_correlated(gen, None),
    })
}

/// `mech` at the certified ε `target`: its σ, guarantee and `p.seeds` runs (training seeds `p.seed`,
/// `p.seed + 1`, …, the data and split those of `p.seed`) for the link's T steps.
///
/// # Errors
/// Data or parameters the trainers refuse, or a target [`calibrate`] cannot meet.
pub fn compare_point(
    p: &TrainParams,
    csv: Option<&Dataset>,
    mech: Mechanism,
    target: f64,
) -> Result<ComparePoint> {
    let split = prepare_data(p, csv)?;
    let p = TrainParams {
        stop: false,
        ..p.clone()
    };
    let plan = Plan::new(&p, &split)?;
    let (sigma, guarantee) = calibrate(mech, plan.hyper.q, plan.steps, target, p.delta)?;
    let hyper = Hyper {
        sigma,
        ..plan.hyper
    };
    let noise = match &guarantee.event {
        Event::Correlated(ce) => Some(ce),
        _ => None,
    };
    let (mut test_acc, mut baseline) = (Vec::new(), Vec::new());
    for k in 0..p.seeds {
        let seed = p.seed.wrapping_add(k);
        let trainer = Trainer::new(&plan.arch, &split.train, hyper, seed)?;
        let mut trainer = equip(trainer, noise, Sampler::Poisson, plan.cap)?;
        let mut at = Checkpoint::start(&plan.arch, seed);
        let ok = trainer.run_to(&mut at, plan.steps);
        let acc = |v: usize| {
            if ok {
                evaluate(&plan.arch, &at.theta[v], &split.test).1
            } else {
                f64::NAN
            }
        };
        test_acc.push(acc(0));
        baseline.push(acc(2));
    }
    Ok(ComparePoint {
        mech,
        target,
        sigma,
        guarantee,
        test_acc,
        baseline,
    })
}

/// One mechanism's line on the comparison's chart: (certified ε, mean accuracy, sd) points.
pub type CompareCurve = (Mechanism, Vec<(f64, f64, f64)>);

/// The comparison's chart data: per mechanism (in first-seen order), its points as (certified ε,
/// mean test accuracy, sample sd over the seeds that did not diverge) in ε order; and the non-private
/// models' mean over every run.
pub fn compare_curves(points: &[ComparePoint]) -> (Vec<CompareCurve>, f64) {
    use crate::numerics::stats::mean_sd;
    let finite = |v: &[f64]| {
        v.iter()
            .copied()
            .filter(|a| a.is_finite())
            .collect::<Vec<_>>()
    };
    let mut curves: Vec<CompareCurve> = Vec::new();
    let mut base = Vec::new();
    for pt in points {
        let (mean, sd) = mean_sd(&finite(&pt.test_acc));
        base.extend(finite(&pt.baseline));
        let at = (pt.guarantee.eps, mean, sd);
        match curves.iter_mut().find(|c| c.0 == pt.mech) {
            Some(c) => c.1.push(at),
            None => curves.push((pt.mech, vec![at])),
        }
    }
    for c in &mut curves {
        c.1.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    (curves, mean_sd(&base).0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::query::{LinkParams, Query};
    use crate::numerics::stats::mean_sd;

    /// Each mechanism meets the target: its certified ε at most the target and, for the searched
    /// ones, close below it.
    #[test]
    fn every_mechanism_meets_the_target() {
        for mech in [
            Mechanism::DpSgd,
            Mechanism::BandMf { bands: 4 },
            Mechanism::Tree,
            Mechanism::Blt,
        ] {
            let (sigma, g) = calibrate(mech, 0.02, 150, 2.0, 1e-5).unwrap();
            assert!(
                g.eps <= 2.0 && g.eps > 1.9 && sigma > 0.0,
                "{mech:?}: {g:?}"
            );
            assert!(g.certifies_run());
        }
        assert!(calibrate(Mechanism::BandMf { bands: 100 }, 0.02, 150, 2.0, 1e-5).is_err());
    }

    /// With the independent strategy as its "correlated" noise, the trainer is DP-SGD bit for bit
    /// (the same draws from the same streams).
    #[test]
    fn independent_correlated_noise_is_dp_sgd() {
        let p = TrainParams::from_query(&Query::parse("data=breast-cancer&epochs=1")).0;
        let split = prepare_data(&p, None).unwrap();
        let plan = Plan::new(&p, &split).unwrap();
        let gen = NoiseGen::new(&crate::mechanisms::mf::Strategy::Independent, 10).unwrap();
        let mut a = Trainer::new(&plan.arch, &split.train, plan.hyper, 3).unwrap();
        let mut b = Trainer::new(&plan.arch, &split.train, plan.hyper, 3)
            .unwrap()
            .with_correlated(gen, None);
        let (mut x, mut y) = (
            Checkpoint::start(&plan.arch, 3),
            Checkpoint::start(&plan.arch, 3),
        );
        for _ in 0..10 {
            a.step(&mut x, &mut (0, 0)).unwrap();
            b.step(&mut y, &mut (0, 0)).unwrap();
        }
        assert_eq!(x.theta, y.theta);
    }

    /// On breast cancer at ε = 1 over 3 epochs, each mechanism trains to a useful model.
    #[test]
    fn correlated_runs_train() {
        let p = TrainParams::from_query(&Query::parse(
            "data=breast-cancer&epochs=3&batch=32&seeds=2",
        ))
        .0;
        for mech in [
            Mechanism::DpSgd,
            Mechanism::BandMf { bands: 4 },
            Mechanism::Tree,
            Mechanism::Blt,
        ] {
            let pt = compare_point(&p, None, mech, 1.0).unwrap();
            let (acc, _) = mean_sd(&pt.test_acc);
            assert!(acc > 0.85, "{mech:?}: {pt:?}");
        }
    }

    /// The main run with each correlated mechanism (`mech=`): its job says the noise it ran; for
    /// BandMF the page's accounting event is the guarantee's own amplified run; a paused run resumes
    /// bit for bit (the noise's state rides in the checkpoint); the headline states the run's
    /// guarantee (amplified BandMF: the PLD's ε for its rounds; the tree and the BLT: the Gaussian's
    /// exact ε at σ/Δ), rounded outward; and the model learns.
    #[test]
    fn the_main_run_trains_with_correlated_noise() {
        use super::super::report::{guarantee, headline, HeadlineInputs};
        use super::super::run::{train, Prepared, TrainUpdate};
        use crate::mechanisms::gaussian::Gaussian;
        let rows = super::super::BREAST_CANCER_ROWS;
        for (link, mech) in [
            ("mech=bandmf:4&epochs=2", Mechanism::BandMf { bands: 4 }),
            ("mech=tree&epochs=2", Mechanism::Tree),
            ("mech=blt&epochs=2", Mechanism::Blt),
        ] {
            let (p, notices) = TrainParams::from_query(&Query::parse(link));
            assert!(notices.is_empty() && p.mech == mech, "{notices:?}");
            let run = |from: Option<Checkpoint>, until: u64| {
                let mut out = Vec::new();
                train(&p, None, from, until, &mut |u| out.push(u)).unwrap();
                out
            };
            let last = |out: &[TrainUpdate]| {
                out.iter()
                    .rev()
                    .find_map(|u| match u {
                        TrainUpdate::Report(r) => Some(r.clone()),
                        _ => None,
                    })
                    .unwrap()
            };
            let whole = run(None, u64::MAX);
            let prepared: Prepared = whole
                .iter()
                .find_map(|u| match u {
                    TrainUpdate::Prepared(d) => Some((**d).clone()),
                    _ => None,
                })
                .unwrap();
            let noise = prepared.noise.clone().unwrap();
            let half = run(None, prepared.steps / 2);
            let rest = run(Some(last(&half).checkpoint), u64::MAX);
            assert_eq!(last(&rest).checkpoint, last(&whole).checkpoint, "{link}");
            // Resumed with the first job's noise (as the page does), the same run, bit for bit; the
            // noise is reused only for the run it was built for.
            let q = p.rate(rows);
            assert!(noise.is_for(mech, q, prepared.steps, p.sigma));
            assert!(!noise.is_for(mech, q, prepared.steps, p.sigma * 2.0));
            assert!(!noise.is_for(Mechanism::BandMf { bands: 2 }, q, prepared.steps, p.sigma));
            let mut reused = Vec::new();
            super::super::run::train_resuming(
                &p,
                None,
                Some((last(&half).checkpoint, Some(noise.clone()))),
                u64::MAX,
                &mut |u| reused.push(u),
            )
            .unwrap();
            assert_eq!(last(&reused).checkpoint, last(&whole).checkpoint, "{link}");
            assert!(!last(&whole).checkpoint.noise.is_empty() || mech == Mechanism::Tree);
            assert!(last(&whole).point.test_acc[0] > 0.85, "{link}");

            let event = p.accounting_event(rows, prepared.steps);
            let band = pld_epsilon(&event, p.delta, DEFAULT_INTERVAL).unwrap();
            let h = HeadlineInputs {
                event: &event,
                mech,
                noise: Some(&noise),
                sampler: p.sampler,
                own: None,
                poisson: (band.upper, true),
                delta: p.delta,
                target_eps: p.target_eps,
                stop: false,
                last: None,
            };
            let g = guarantee(&h).unwrap();
            match noise.event.amplified() {
                Some(a) => {
                    assert_eq!(
                        (a.rate, a.steps, a.sigma),
                        (event.rate, event.steps, event.sigma)
                    );
                    assert_eq!(g.eps, band.upper);
                    assert_eq!(p.steps_per_accounted_step(), 4);
                }
                None => {
                    // The Gaussian's ε at σ/Δ, exact (Balle & Wang 2018): δ(ε) at the stated ε is
                    // at most δ, so the stated ε is not below the truth.
                    let gauss = Gaussian::new(p.sigma / noise.sensitivity, 1.0).unwrap();
                    assert!(noise.sensitivity > 1.0, "{link}: several epochs");
                    assert!(gauss.delta(g.eps) <= p.delta * (1.0 + 1e-9), "{link}");
                    assert!(gauss.delta(g.eps * 0.999) > p.delta, "{link}");
                }
            }
            let text = headline(&h);
            assert!(text.contains(&g.eps_text(4)), "{text}");
        }
    }

    /// The run's mechanism, the comparison's list and its ε's round-trip through the link; a stop
    /// rule or another sampler with correlated noise is refused with a notice, the rest kept.
    #[test]
    fn the_link_carries_the_noise_and_the_comparison() {
        let p = TrainParams {
            mech: Mechanism::BandMf { bands: 8 },
            compare: vec![Mechanism::Tree, Mechanism::Blt],
            compare_eps: vec![0.5, 2.0],
            ..TrainParams::default()
        };
        let (back, notices) = TrainParams::from_query(&p.to_query());
        assert_eq!((back, notices.len()), (p, 0));
        let (p, notices) = TrainParams::from_query(&Query::parse(
            "mech=tree&stop=1&sampler=shuffle&sigma=3&compare_eps=0,nan",
        ));
        assert_eq!((p.mech, p.stop, p.sigma), (Mechanism::Tree, false, 3.0));
        assert_eq!(p.compare_targets(), vec![p.target_eps]);
        assert_eq!(notices.len(), 3, "{notices:?}");
        let (p, notices) = TrainParams::from_query(&Query::parse("mech=bandmf:0"));
        assert_eq!((p.mech, notices.len()), (Mechanism::DpSgd, 1));
    }
}
