use super::*;
use crate::accounting::pld::dpsgd::dpsgd_epsilon;
use crate::accounting::pld::DEFAULT_INTERVAL;
use crate::attacks::estimators::{epsilon_clopper_pearson, gdp_epsilon, gdp_mu};
use crate::attacks::scores::Sweep;

/// 40 rows in two dimensions, two labels apart (fixed, from seed 9).
fn tiny() -> Dataset {
    let mut rng = stream(9, 1);
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for i in 0..40 {
        let label = (i % 2) as f64;
        x.push(label * 2.0 - 1.0 + rng.sample::<f64, _>(StandardNormal));
        x.push(rng.sample::<f64, _>(StandardNormal));
        y.push(label);
    }
    Dataset {
        x,
        y,
        dim: 2,
        names: vec!["a".into(), "b".into()],
    }
}

fn setup<'a>(
    arch: &'a Architecture,
    data: &'a Dataset,
    canary: Canary,
    threat: Threat,
    bug: Bug,
) -> AuditSetup<'a> {
    AuditSetup {
        arch,
        data,
        hyper: Hyper {
            q: 0.1,
            sigma: 1.0,
            clip: 1.0,
            lr: 0.5,
            lambda: 0.0,
        },
        steps: 20,
        canary,
        threat,
        bug,
        sampler: Sampler::Poisson,
        cap: u64::MAX,
    }
}

const DELTA: f64 = 1e-5;

fn audit(s: &AuditSetup, runs: u64, first: u64) -> (f64, f64) {
    let (ins, outs) = s.scores(first..first + runs).unwrap();
    let sweep = Sweep::new(&ins, &outs).unwrap();
    let cp = epsilon_clopper_pearson(&sweep, DELTA, 0.05).unwrap();
    (cp, gdp_epsilon(gdp_mu(&sweep, DELTA, 0.05).unwrap(), DELTA))
}

#[test]
fn the_canary_joins_batches_as_the_sampler_lets_any_record() {
    let (arch, data) = (Architecture::logistic(2), tiny());
    let s = |sampler| AuditSetup {
        sampler,
        cap: 3,
        ..setup(
            &arch,
            &data,
            Canary::Dirac { coord: 0 },
            Threat::Final,
            Bug::None,
        )
    };
    // q = 0.1: b = 10 steps an epoch, 3 epochs; 40 rows, a fixed batch of 4.
    let joins = |sampler, member: bool, seed: u64| {
        let s = s(sampler);
        let mut batches = s.batches();
        let (mut batch, mut joined) = (Vec::new(), Vec::new());
        for t in 1..=30 {
            let mut rng = stream(seed, FIRST_STEP_STREAM + t);
            let j = s.draw(&mut batches, t, seed, member, &mut rng, &mut batch);
            assert!(batch.iter().all(|&i| i < 40), "{sampler}: a data row");
            let size = batch.len() + usize::from(j);
            match sampler {
                Sampler::Fixed => assert_eq!(size, 4, "{sampler}: the public size"),
                Sampler::Truncated => assert!(size <= 3, "{sampler}: the cap"),
                _ => {}
            }
            if j {
                joined.push(t);
            }
        }
        joined
    };
    for seed in 0..20 {
        for sampler in Sampler::ALL {
            assert!(joins(sampler, false, seed).is_empty(), "{sampler}: out");
            let steps = joins(sampler, true, seed);
            let epochs: Vec<u64> = steps.iter().map(|t| (t - 1) / 10).collect();
            let once_an_epoch = epochs == [0, 1, 2];
            match sampler {
                Sampler::Shuffle | Sampler::ShuffleOnce | Sampler::Cyclic | Sampler::Balls => {
                    assert!(once_an_epoch, "{sampler}: joined at {steps:?}")
                }
                _ => {}
            }
            // Shuffled once or in a fixed order: the same step of each epoch.
            if matches!(sampler, Sampler::ShuffleOnce | Sampler::Cyclic) {
                assert_eq!((steps[1] - steps[0], steps[2] - steps[1]), (10, 10));
            }
            if sampler == Sampler::Cyclic {
                assert_eq!(steps, [10, 20, 30], "the canary is the last record");
            }
        }
    }
    // Poisson and the others over 20 seeds: the canary joins about q·T = 3 times a run, not
    // always exactly 3 (Poisson: P(exactly 3 in each of 20 runs) < 10⁻¹⁰).
    let counts: Vec<usize> = (0..20)
        .map(|s| joins(Sampler::Poisson, true, s).len())
        .collect();
    assert!(counts.iter().any(|&c| c != 3), "{counts:?}");
}

#[test]
fn bad_canaries_are_refused() {
    let (arch, data) = (Architecture::logistic(2), tiny());
    let dirac = setup(
        &arch,
        &data,
        Canary::Dirac { coord: 3 },
        Threat::Final,
        Bug::None,
    );
    assert!(dirac.validate().is_err());
    let row = setup(
        &arch,
        &data,
        Canary::Row {
            x: vec![1.0],
            y: 0.0,
        },
        Threat::Final,
        Bug::None,
    );
    assert!(row.validate().is_err());
    let mut fine = setup(
        &arch,
        &data,
        Canary::Dirac { coord: 2 },
        Threat::Final,
        Bug::None,
    );
    assert!(fine.validate().is_ok());
    fine.steps = 0;
    assert!(fine.validate().is_err());
}

#[test]
fn a_correct_dpsgd_is_never_caught_and_a_white_box_audit_comes_close() {
    let (arch, data) = (Architecture::logistic(3), with_blank_feature(&tiny()));
    let coord = quietest_coordinate(&arch, &data);
    let s = setup(
        &arch,
        &data,
        Canary::Dirac { coord },
        Threat::AllSteps,
        Bug::None,
    );
    let certified = dpsgd_epsilon(0.1, 1.0, 20, DELTA, DEFAULT_INTERVAL).unwrap();
    // Soundness over 200 seeded audits of 50 + 50 runs: the Clopper–Pearson bound (α = 0.05) may
    // exceed the guarantee in at most 5% of them (seeded, so the count is fixed).
    let caught = (0..200)
        .filter(|a| audit(&s, 50, 1_000 + 50 * a).0 > certified)
        .count();
    assert!(
        caught <= 10,
        "{caught} of 200 audits exceeded ε = {certified}"
    );
    // One large audit: a lower bound below the guarantee, and an estimate of its order.
    let (cp, gdp) = audit(&s, 1_000, 0);
    assert!(
        cp <= certified && cp > 0.0,
        "CP {cp}, certified {certified}"
    );
    // The Gaussian-DP estimate reads more from the same scores than the distribution-free bound.
    assert!(
        gdp > cp,
        "GDP estimate {gdp}, CP {cp}, certified {certified}"
    );
    eprintln!("white box, all steps, 1000 + 1000 runs: CP {cp}, GDP {gdp}, certified {certified}");
}

#[test]
fn planted_bugs_are_caught() {
    let (arch, data) = (Architecture::logistic(3), with_blank_feature(&tiny()));
    let coord = quietest_coordinate(&arch, &data);
    assert_eq!(coord, 2, "the blank feature's weight");
    let certified = dpsgd_epsilon(0.1, 1.0, 20, DELTA, DEFAULT_INTERVAL).unwrap();
    // Noise added to the mean: qn = 4 times too little noise.
    let s = setup(
        &arch,
        &data,
        Canary::Dirac { coord },
        Threat::AllSteps,
        Bug::MeanNoise,
    );
    let (cp, _) = audit(&s, 500, 0);
    assert!(
        cp > certified,
        "mean noise: CP {cp} vs certified {certified}"
    );
    // An outlier whose gradient escapes clipping, seen in the final model.
    let outlier = Canary::Row {
        x: vec![40.0, 40.0],
        y: 0.0,
    };
    let s = setup(&arch, &data, outlier, Threat::Final, Bug::UnclippedCanary);
    let (cp, _) = audit(&s, 500, 0);
    assert!(
        cp > certified,
        "unclipped canary: CP {cp} vs certified {certified}"
    );
}

#[test]
fn a_normaliser_from_the_realised_batch_is_caught_on_a_tiny_data_set() {
    // Four rows in 40 dimensions, every row in every step (q = 1): the normaliser is 4 without
    // the canary and 5 with it under the bug, and the update's size tells them apart.
    let rows = tiny().select(&[0, 1, 2, 3]);
    let mut x = Vec::new();
    for i in 0..4 {
        x.extend((0..40).map(|k| rows.row(i)[k % 2] / (1 + k) as f64));
    }
    let wide = Dataset {
        x,
        y: rows.y.clone(),
        dim: 40,
        names: (0..40).map(|k| format!("x{k}")).collect(),
    };
    let data = with_blank_feature(&wide);
    let arch = Architecture::logistic(data.dim);
    let coord = quietest_coordinate(&arch, &data);
    let hyper = Hyper {
        q: 1.0,
        sigma: 4.0,
        clip: 1.0,
        lr: 0.1,
        lambda: 0.0,
    };
    let certified = dpsgd_epsilon(1.0, 4.0, 10, DELTA, DEFAULT_INTERVAL).unwrap();
    let at = |bug| AuditSetup {
        hyper,
        steps: 10,
        ..setup(
            &arch,
            &data,
            Canary::Dirac { coord },
            Threat::UpdateSize,
            bug,
        )
    };
    let (cp, _) = audit(&at(Bug::RealisedBatch), 500, 0);
    eprintln!("realised batch, update size, 500 + 500 runs: CP {cp}, certified {certified}");
    assert!(
        cp > certified,
        "realised batch: CP {cp} vs certified {certified}"
    );
    let (cp, _) = audit(&at(Bug::None), 500, 0);
    assert!(cp < certified, "correct: CP {cp} vs certified {certified}");
}
