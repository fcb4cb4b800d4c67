use super::*;
use crate::learning::data::Split;
use crate::learning::datasets::breast_cancer;
use crate::numerics::special::normal_upper_quantile;

fn cancer() -> Split {
    let d = breast_cancer();
    Split::new(&d, 0.8, &mut stream(1, 1)).unwrap()
}

/// With q = 1 (every row in every batch) the private step's direction is the clipped sum plus
/// N(0, (σC)²) per coordinate, over q·n. Over 4,000 steps from the same parameters (each its own
/// stream), each coordinate's mean and variance lie within bounds that fail with probability
/// below 10⁻⁶ in all (Bonferroni over 2·2·31 checks: z = 6.0 for the mean; the variance's
/// relative error is within 6.0·√(2/4000) = 0.13, its normal approximation being accurate at this
/// size); for the summed-in-floats trainer and the exact one (fixed point, noise added by blocks).
#[test]
fn the_noisy_step_has_the_right_mean_and_covariance() {
    let s = cancer();
    let arch = Architecture::logistic(30);
    let hyper = Hyper {
        q: 1.0,
        sigma: 1.3,
        clip: 0.5,
        lr: 0.1,
        lambda: 0.0,
    };
    let mut start = Checkpoint::start(&arch, 3);
    start.theta[0][0] = 0.4;
    let n = s.train.rows() as f64;
    // The exact clipped sum at θ, over n.
    let mut ws = arch.workspace();
    let mut g = vec![0.0; 31];
    let mut want = vec![0.0; 31];
    for i in 0..s.train.rows() {
        arch.gradient(
            &start.theta[0],
            s.train.row(i),
            s.train.y[i],
            &mut g,
            &mut ws,
        );
        let norm = g.iter().map(|v| v * v).sum::<f64>().sqrt();
        let f = (hyper.clip / norm).min(1.0);
        for (w, v) in want.iter_mut().zip(&g) {
            *w += f * v / n;
        }
    }
    let runs = 4000;
    let z = normal_upper_quantile(1e-6 / (2.0 * 124.0));
    let sd = hyper.sigma * hyper.clip / n;
    for exact in [false, true] {
        let (mut sum, mut sq) = (vec![0.0; 31], vec![0.0; 31]);
        for r in 0..runs {
            let mut trainer = Trainer::new(&arch, &s.train, hyper, 100 + r).unwrap();
            if exact {
                trainer = trainer.exact();
            }
            let dir = trainer.private_direction(&start).unwrap();
            for j in 0..31 {
                let e = dir[j] - want[j];
                sum[j] += e;
                sq[j] += e * e;
            }
        }
        for j in 0..31 {
            let mean = sum[j] / runs as f64;
            let var = sq[j] / runs as f64 - mean * mean;
            assert!(
                mean.abs() < z * sd / (runs as f64).sqrt(),
                "θ[{j}], exact {exact}: mean {mean}"
            );
            assert!(
                (var / (sd * sd) - 1.0).abs() < z * (2.0 / runs as f64).sqrt(),
                "θ[{j}], exact {exact}: variance {var} vs {}",
                sd * sd
            );
        }
    }
}

/// The practitioners' sanity check: a huge clipping norm and σ → 0 give the non-private model.
#[test]
fn huge_clip_and_no_noise_is_the_non_private_model() {
    let s = cancer();
    let arch = Architecture::logistic(30);
    let hyper = Hyper {
        q: 0.1,
        sigma: 1e-20,
        clip: 1e9,
        lr: 0.5,
        lambda: 1e-3,
    };
    let mut trainer = Trainer::new(&arch, &s.train, hyper, 9).unwrap();
    let mut at = Checkpoint::start(&arch, 9);
    let mut clipped = (0, 0);
    for _ in 0..300 {
        trainer.step(&mut at, &mut clipped).unwrap();
    }
    assert_eq!(clipped.0, 0);
    assert!(clipped.1 > 0);
    for (a, b) in at.theta[0].iter().zip(&at.theta[2]) {
        assert!((a - b).abs() < 1e-9, "{a} vs {b}");
    }
    assert_eq!(at.theta[1], at.theta[2]);
    let (_, acc) = evaluate(&arch, &at.theta[0], &s.test);
    assert!(acc > 0.93, "{acc}");
}

/// Geometric gaps give Poisson sampling: over 20,000 draws of n = 50 at q = 0.1, every index's
/// inclusion count is Binomial(20,000, 0.1) (mean 2,000, sd 42.4), within 6.2 sd (Bonferroni over
/// 50 indices: below 10⁻⁶ in all), and the batch sizes' mean is 5 within 6.2·√(4.5/20,000).
#[test]
fn geometric_gaps_sample_each_index_with_probability_q() {
    let mut rng = stream(11, 3);
    let (n, q, runs) = (50, 0.1, 20_000);
    let mut counts = vec![0u32; n];
    let mut sizes = 0usize;
    let mut batch = Vec::new();
    for _ in 0..runs {
        poisson_batch(n, q, &mut rng, &mut batch);
        assert!(batch.windows(2).all(|w| w[0] < w[1]) && batch.iter().all(|&i| i < n));
        sizes += batch.len();
        for &i in &batch {
            counts[i] += 1;
        }
    }
    let sd = (runs as f64 * q * (1.0 - q)).sqrt();
    for (i, &c) in counts.iter().enumerate() {
        assert!((c as f64 - 2000.0).abs() < 6.2 * sd, "index {i}: {c}");
    }
    let mean = sizes as f64 / runs as f64;
    assert!(
        (mean - 5.0).abs() < 6.2 * (4.5f64 / runs as f64).sqrt(),
        "{mean}"
    );
    poisson_batch(7, 1.0, &mut rng, &mut batch);
    assert_eq!(batch, (0..7).collect::<Vec<_>>());
}

/// Pausing after any step and resuming gives the uninterrupted run bit for bit.
#[test]
fn resumed_runs_are_the_same_run() {
    let s = cancer();
    let arch = Architecture::mlp(30, vec![4], crate::learning::model::Activation::Relu);
    let hyper = Hyper {
        q: 0.05,
        sigma: 1.0,
        clip: 1.0,
        lr: 0.2,
        lambda: 0.0,
    };
    let run = |pauses: &[u64]| {
        let mut at = Checkpoint::start(&arch, 4);
        let mut clipped = (0, 0);
        let mut last = 0;
        for &p in pauses {
            let mut trainer = Trainer::new(&arch, &s.train, hyper, 4).unwrap();
            while at.step < p {
                trainer.step(&mut at, &mut clipped).unwrap();
            }
            last = p;
        }
        assert_eq!(at.step, last);
        (at, clipped)
    };
    assert_eq!(run(&[50]), run(&[1, 2, 17, 50]));
}

#[test]
fn a_diverging_learning_rate_is_an_error_and_bad_hyperparameters_are_refused() {
    let s = cancer();
    let arch = Architecture::logistic(30);
    let hyper = Hyper {
        q: 0.5,
        sigma: 1.0,
        clip: 1e300,
        lr: 1e300,
        lambda: 1.0,
    };
    let mut trainer = Trainer::new(&arch, &s.train, hyper, 1).unwrap();
    let mut at = Checkpoint::start(&arch, 1);
    let err = (0..50)
        .find_map(|_| trainer.step(&mut at, &mut (0, 0)).err())
        .unwrap();
    assert_eq!(err.parameter(), "lr");
    for bad in [
        Hyper { q: 0.0, ..hyper },
        Hyper {
            q: f64::NAN,
            ..hyper
        },
        Hyper {
            sigma: -1.0,
            ..hyper
        },
        Hyper { clip: 0.0, ..hyper },
        Hyper {
            lr: f64::INFINITY,
            ..hyper
        },
        Hyper {
            lambda: -1.0,
            ..hyper
        },
    ] {
        assert!(Trainer::new(&arch, &s.train, bad, 1).is_err());
    }
}
