//! The training lab against its references: scikit-learn's optimum, an independent numpy DP-SGD, the
//! DP-SGD lab's accountant, and its own runs paused, resumed and split across jobs.

use super::audit::{audit_chunk, audit_one_run, audit_report, theory_label};
use super::jobs::{summarise, sweep_point, TrainJob, TrainJobUpdate};
use super::run::{steps_within_target, train, Point, TrainUpdate};
use super::*;
use crate::accounting::samplers::{sampler_epsilon, Kind, Sampler};
use crate::accounting::training::StepRdp;
use crate::jobs::{decode, encode, run, Job, Update};
use crate::learning::data::{Dataset, Split};
use crate::learning::datasets::breast_cancer;
use crate::learning::dpsgd::{evaluate, Checkpoint, Hyper, Trainer};
use crate::learning::model::Architecture;
use crate::link::query::{LinkParams, Query};

fn whole_cancer() -> Split {
    let d = breast_cancer();
    Split::standardised(d.clone(), d)
}

/// Non-private full-batch training (q = 1, no clipping, no noise) reaches scikit-learn's optimum of
/// the same objective, (1/n) Σ log-loss + (λ/2)‖w‖² at λ = 0.01 on all 569 standardised rows.
/// Reference: `scripts/reference/train_reference.py` (scikit-learn 1.5.2, lbfgs, tol 1e-12).
#[test]
fn non_private_training_reaches_sklearns_optimum() {
    // scripts/reference/train_reference.txt
    const SKLEARN_LOSS: f64 = 0.0728332878739073;
    const SKLEARN_OBJECTIVE: f64 = 0.09959137548470907;
    const SKLEARN_ACCURACY: f64 = 561.0 / 569.0;
    let s = whole_cancer();
    let arch = Architecture::logistic(30);
    let lambda = 0.01;
    let hyper = Hyper {
        q: 1.0,
        sigma: 0.0,
        clip: 1.0,
        lr: 0.5,
        lambda,
    };
    let mut trainer = Trainer::new(&arch, &s.train, hyper, 1).unwrap();
    let mut at = Checkpoint::start(&arch, 1);
    for _ in 0..5000 {
        trainer.step(&mut at, &mut (0, 0)).unwrap();
    }
    let theta = &at.theta[2];
    let (loss, acc) = evaluate(&arch, theta, &s.train);
    let objective = loss + 0.5 * lambda * theta[..30].iter().map(|w| w * w).sum::<f64>();
    assert!(
        (objective - SKLEARN_OBJECTIVE).abs() < 1e-9,
        "{objective} vs {SKLEARN_OBJECTIVE}"
    );
    assert!(
        (loss - SKLEARN_LOSS).abs() < 1e-6,
        "{loss} vs {SKLEARN_LOSS}"
    );
    assert_eq!(acc, SKLEARN_ACCURACY);
}

/// DP-SGD's training accuracy over 40 seeds agrees with an independent numpy DP-SGD over 200 seeds
/// (`scripts/reference/train_reference.py`: q = 0.05, C = 1, η = 0.5, λ = 1e-3, T = 600, θ₀ = 0, all
/// 569 rows): the mean within 5.3 standard errors of the two means' difference (a spurious failure
/// below 10⁻⁶ over the three settings), and inside numpy's 2.5–97.5 % range.
#[test]
fn dp_accuracy_matches_an_independent_numpy_dpsgd() {
    // (σ, numpy mean, numpy sd, 2.5 %, 97.5 %)
    const NUMPY: [(f64, f64, f64, f64, f64); 3] = [
        // scripts/reference/train_reference.txt
        (0.5, 0.984859, 0.001705, 0.980668, 0.987698),
        (2.0, 0.976951, 0.003800, 0.968366, 0.984183),
        (8.0, 0.938779, 0.016528, 0.904877, 0.964851),
    ];
    let s = whole_cancer();
    let arch = Architecture::logistic(30);
    for (sigma, mean, sd, lo, hi) in NUMPY {
        let hyper = Hyper {
            q: 0.05,
            sigma,
            clip: 1.0,
            lr: 0.5,
            lambda: 1e-3,
        };
        let runs = 40;
        let accs: Vec<f64> = (0..runs)
            .map(|seed| {
                let mut trainer = Trainer::new(&arch, &s.train, hyper, seed).unwrap();
                let mut at = Checkpoint::start(&arch, seed);
                for _ in 0..600 {
                    trainer.step(&mut at, &mut (0, 0)).unwrap();
                }
                evaluate(&arch, &at.theta[0], &s.train).1
            })
            .collect();
        let ours = accs.iter().sum::<f64>() / runs as f64;
        let se = sd * (1.0 / runs as f64 + 1.0 / 200.0).sqrt();
        assert!(
            (ours - mean).abs() < 5.3 * se.max(1e-4) && (lo..=hi).contains(&ours),
            "σ = {sigma}: {ours} vs numpy {mean} ± {sd}"
        );
    }
}

/// `train-eps` is the DP-SGD lab's: the training lab's event goes to the DP-SGD and attack labs by
/// links that carry q, σ, T and δ, and a run handed back to this lab is the same event.
#[test]
fn the_eps_is_the_dpsgd_labs() {
    use crate::accounting::training::jobs::PldJob;
    use crate::link::handoff::{attack_link_for_run, dpsgd_link_for_run, train_link_for_run};
    let p = TrainParams::default();
    let rows = BREAST_CANCER_ROWS;
    let steps = p.total_steps(rows);
    let event = p.event(rows, steps);
    let link = attack_link_for_run(&event, p.delta).to_query_string();
    assert!(link.contains("steps=427"), "{link}");
    assert!(dpsgd_link_for_run(&event, p.delta)
        .to_query_string()
        .contains("steps=427"));
    let job = |e: &crate::accounting::event::TrainingEvent| PldJob::new(e, p.delta, 1e-4);
    let back = TrainParams::from_query(&train_link_for_run(&event, p.delta)).0;
    assert_eq!(job(&back.event(rows, steps)), job(&event));
    let band = crate::accounting::training::pld_epsilon(&event, p.delta, 1e-4).unwrap();
    assert!(band.upper > band.lower && band.upper < 10.0, "{band:?}");
}

fn collect(job: Job) -> Vec<Update> {
    let mut out = Vec::new();
    run(decode(&encode(&job)).unwrap(), &mut |u| {
        out.push(decode::<Update>(&encode(&u)).unwrap())
    });
    assert_eq!(out.last(), Some(&Update::Done), "{out:?}");
    out
}

fn points(out: &[Update]) -> Vec<Point> {
    out.iter()
        .filter_map(|u| match u {
            Update::Train(TrainJobUpdate::Run(TrainUpdate::Report(r))) => Some(r.point.clone()),
            _ => None,
        })
        .collect()
}

fn last_checkpoint(out: &[Update]) -> Checkpoint {
    out.iter()
        .rev()
        .find_map(|u| match u {
            Update::Train(TrainJobUpdate::Run(TrainUpdate::Report(r))) => {
                Some(r.checkpoint.clone())
            }
            _ => None,
        })
        .unwrap()
}

/// The default link trains through the worker's wire format; paused at any step and resumed (the
/// page's pause, play and one-step buttons) it gives the same curves and models bit for bit; the
/// private model learns (test accuracy far above the majority class's 63 %) and the non-private one
/// reaches the published 97–98 %.
#[test]
fn the_default_run_trains_and_resumes_bit_for_bit() {
    let p = TrainParams::default();
    let whole = collect(Job::Train(TrainJob::Run {
        params: Box::new(p.clone()),
        csv: None,
        from: None,
        noise: None,
        until: u64::MAX,
    }));
    let all = points(&whole);
    // Step 0, every ⌈427/100⌉ = 5 steps, and the last.
    assert_eq!(all.len(), 1 + 85 + 1);
    let end = all.last().unwrap();
    assert_eq!(end.step, 427);
    assert!(end.test_acc[2] > 0.95, "{end:?}");
    assert!(end.test_acc[0] > 0.85, "{end:?}");
    let first = collect(Job::Train(TrainJob::Run {
        params: Box::new(p.clone()),
        csv: None,
        from: None,
        noise: None,
        until: 101,
    }));
    let one = collect(Job::Train(TrainJob::Run {
        params: Box::new(p.clone()),
        csv: None,
        from: Some(last_checkpoint(&first)),
        noise: None,
        until: 102,
    }));
    let rest = collect(Job::Train(TrainJob::Run {
        params: Box::new(p),
        csv: None,
        from: Some(last_checkpoint(&one)),
        noise: None,
        until: u64::MAX,
    }));
    assert_eq!(last_checkpoint(&rest), last_checkpoint(&whole));
    assert_eq!(points(&rest).last(), Some(end));
}

/// The sweep's jobs are independent of each other: any order, any worker, the same numbers; more
/// noise means a smaller ε.
#[test]
fn the_sweep_is_the_same_in_any_order() {
    let p = TrainParams::from_query(&Query::parse("sweep=1,4&seeds=3")).0;
    let a = sweep_point(&p, None, 4.0).unwrap();
    let b = sweep_point(&p, None, 1.0).unwrap();
    let via_job = collect(Job::Train(TrainJob::Sweep {
        params: Box::new(p.clone()),
        csv: None,
        sigma: 4.0,
    }));
    assert_eq!(
        via_job[0],
        Update::Train(TrainJobUpdate::Sweep(Ok(a.clone())))
    );
    assert!(a.eps < b.eps && a.eps <= a.eps_rdp * 1.0001);
    assert_eq!(a.test_acc.len(), 3);
    let (curve, base) = summarise(&[a.clone(), b.clone()]);
    assert_eq!(curve, summarise(&[b, a]).0);
    assert!(curve[0].0 < curve[1].0 && base > 0.9);
}

/// The stop rule: the step count returned has ε ≤ target, one more step exceeds it.
#[test]
fn stopping_at_the_target_never_passes_it() {
    let p = TrainParams::from_query(&Query::parse("stop=1&target_eps=1.5&sigma=1.5")).0;
    let steps = p.total_steps(BREAST_CANCER_ROWS);
    let rule = StepRdp::for_run(&p.event(BREAST_CANCER_ROWS, steps)).unwrap();
    let t = steps_within_target(&rule, steps, p.delta, 1.5).unwrap();
    let eps = |t: u64| {
        crate::accounting::training::rdp_report(&p.event(BREAST_CANCER_ROWS, t), p.delta)
            .unwrap()
            .eps_grid
    };
    assert!(t < steps && eps(t) <= 1.5 && eps(t + 1) > 1.5, "{t}");
    assert!(steps_within_target(&rule, steps, p.delta, 1e-4).is_err());
    let out = collect(Job::Train(TrainJob::Run {
        params: Box::new(p),
        csv: None,
        from: None,
        noise: None,
        until: u64::MAX,
    }));
    assert_eq!(points(&out).last().unwrap().step, t);
}

/// Ugly inputs end in a message, never a panic or NaN on the page: no CSV loaded, a CSV with one
/// class, a diverging learning rate (the curves so far stand, with the reason).
#[test]
fn ugly_inputs_give_messages() {
    let csv = Query::parse("data=csv");
    let p = TrainParams::from_query(&csv).0;
    let out = collect_err(Job::Train(TrainJob::Run {
        params: Box::new(p.clone()),
        csv: None,
        from: None,
        noise: None,
        until: 10,
    }));
    assert_eq!(out.parameter(), "data");
    let one_class = Dataset {
        x: vec![1.0, 2.0, 3.0, 4.0, 5.0],
        y: vec![1.0; 5],
        dim: 1,
        names: vec!["a".into()],
    };
    let out = collect_err(Job::Train(TrainJob::Run {
        params: Box::new(p),
        csv: Some(Box::new(one_class)),
        from: None,
        noise: None,
        until: 10,
    }));
    assert!(out.to_string().contains("one class"), "{out}");
    let p = TrainParams::from_query(&Query::parse(
        "model=mlp&hidden=16,16&act=relu&lr=100&clip=1e6&sigma=0.1",
    ))
    .0;
    let out = collect(Job::Train(TrainJob::Run {
        params: Box::new(p),
        csv: None,
        from: None,
        noise: None,
        until: u64::MAX,
    }));
    assert!(out
        .iter()
        .any(|u| matches!(u, Update::Train(TrainJobUpdate::Run(TrainUpdate::Stopped(e))) if e.parameter() == "lr")));
    assert!(points(&out).iter().all(|p| p
        .test_acc
        .iter()
        .chain(&p.test_loss)
        .all(|v| v.is_finite())));
}

fn collect_err(job: Job) -> crate::error::Error {
    let mut out = Vec::new();
    run(job, &mut |u| out.push(u));
    match out.pop() {
        Some(Update::Error(e)) => e,
        other => panic!("{other:?}"),
    }
}

/// The exports: the weights' JSON names the standardisation and every parameter; the snippet names
/// Opacus' knobs.
#[test]
fn exports_carry_the_model() {
    let p = TrainParams::default();
    let mut prepared = None;
    let mut last = None;
    train(&p, None, None, 5, &mut |u| match u {
        TrainUpdate::Prepared(d) => prepared = Some(*d),
        TrainUpdate::Report(r) => last = Some(r.checkpoint),
        _ => {}
    })
    .unwrap();
    let (prepared, last) = (prepared.unwrap(), last.unwrap());
    let json = weights_json(&p, &prepared, last.step, &last.theta[0]);
    assert!(json.contains("\"mean\": [") && json.contains("radius (mean)"));
    assert!(json.matches(',').count() > 90);
    let snippet = opacus_snippet(&p, 30, 569, 427);
    assert!(snippet.contains("noise_multiplier=2,") && snippet.contains("torch.nn.Linear(30, 1)"));
    let md = markdown(&p, Some(&prepared), None, None, 2.0, None, None);
    assert!(md.contains("(computing)") && md.contains("certified upper"));
    // Shuffled batches: the run's own lower bound is the ε row, the Poisson numbers are marked as
    // not applying.
    use crate::accounting::samplers::{Kind, Sampler, SamplerEpsilon};
    let shuffled = TrainParams {
        sampler: Sampler::Shuffle,
        ..p
    };
    let own = SamplerEpsilon {
        sampler: Sampler::Shuffle,
        kind: Kind::Lower,
        lower: 7.25,
        upper: None,
        epochs: 3.0,
    };
    let md = markdown(
        &shuffled,
        Some(&prepared),
        None,
        Some(1.5),
        2.0,
        Some(&own),
        None,
    );
    assert!(
        md.contains("| ≥ 7.25 |") && md.contains("a lower bound"),
        "{md}"
    );
    assert!(
        md.contains("holds only for Poisson sampling, not for this run")
            && !md.contains("certified upper"),
        "{md}"
    );
}

/// Issue 53: `?lab=train&data=csv` before any file certified "ε ≤ 14.83" for a 4-row placeholder
/// (0 rows read as 4). Without its file the link plans no steps, so the page states no ε; with one,
/// the numbers are the file's.
#[test]
fn a_csv_link_without_its_file_plans_no_run() {
    let p = TrainParams::from_query(&Query::parse("data=csv")).0;
    assert!(p.awaits_csv(0) && !p.awaits_csv(40));
    let e = p.planned_steps(0).unwrap_err();
    assert!(
        e.parameter() == "data" && e.to_string().contains("no data is loaded"),
        "{e}"
    );
    assert!(p.planned_steps(40).is_ok());
    let built_in = TrainParams::default();
    assert!(!built_in.awaits_csv(0) && built_in.planned_steps(0).is_ok());
}

/// Issue 52's report: the DP-SGD lab's plan for 60 000 records opened on breast cancer trains on
/// batches of about two rows, and its gradient norms spread over dozens of decades; the page says why
/// in words. The default run's ordinary spread needs none.
#[test]
fn a_histogram_over_many_decades_is_explained() {
    let mut event = crate::accounting::event::TrainingEvent::poisson(
        256.0 / 60_000.0,
        1.1,
        2344,
        crate::accounting::event::Neighbour::AddRemove,
    );
    event.records = 60_000;
    let link = crate::link::handoff::train_link_for_run(&event, 1e-5);
    let norms_at_end = |p: &TrainParams| {
        let mut last = None;
        crate::labs::train::run::train(p, None, None, u64::MAX, &mut |u| {
            if let TrainUpdate::Report(r) = u {
                last = Some(r.norms);
            }
        })
        .unwrap();
        last.unwrap()
    };
    let planned = TrainParams::from_query(&link).0;
    let words = norms_at_end(&planned).in_words(planned.clip).unwrap();
    assert!(words.contains("not a bug"), "{words}");
    let default = TrainParams::default();
    assert_eq!(norms_at_end(&default).in_words(default.clip), None);
}

mod samplers;
