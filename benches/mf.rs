//! Benchmark of the correlated-noise lab's maths (`cargo bench --bench mf`), on the settings
//! `scripts/reference/bench_mf.py` times jax_privacy 2.0.0 on; `scripts/bench-mf.sh` runs both and
//! prints the ratios. Lines: `ours <key> <ms>` (median) and `ours-loss <key> <loss>`.
// A benchmark's setup that fails should stop the run: unwrap is its assertion, as in a test.
#![allow(clippy::unwrap_used)]

use dp_playground::mechanisms::mf::optimise::{optimise_blt, ErrorMeasure};
use dp_playground::mechanisms::mf::{Participation, Strategy};
use std::hint::black_box;

mod common;
use common::median_ms;

fn main() {
    if std::env::var("MF_UTILITY").is_ok() {
        return utility();
    }
    for n in [256, 2000, 10_000, 100_000] {
        let runs = if n > 10_000 { 5 } else { 21 };
        let ms = median_ms(runs, || {
            black_box(Strategy::SquareRoot.evaluate(black_box(n), Participation::ONCE)).unwrap();
        });
        println!("ours eval-sqrt-T{n} {ms:.4}");
    }
    let p = Participation { k: Some(4), b: 500 };
    let ms = median_ms(21, || {
        black_box(Strategy::Banded { bands: 8 }.evaluate(2000, p)).unwrap();
    });
    println!("ours eval-banded8-k4-T2000 {ms:.4}");
    for (key, n, p, measure) in [
        (
            "blt-opt3-n64-single-mean",
            64,
            Participation::ONCE,
            ErrorMeasure::Mean,
        ),
        (
            "blt-opt3-n256-k4-b64-max",
            256,
            Participation { k: Some(4), b: 64 },
            ErrorMeasure::Max,
        ),
        (
            "blt-opt3-n2000-single-mean",
            2000,
            Participation::ONCE,
            ErrorMeasure::Mean,
        ),
    ] {
        let mut loss = 0.0;
        let ms = median_ms(3, || {
            loss = optimise_blt(n, p, measure, 3, &mut |_, _, _| {}).loss;
        });
        println!("ours {key} {ms:.4}");
        println!("ours-loss {key} {loss}");
    }
}

/// `MF_UTILITY=1 cargo bench --bench mf`: test accuracy of DP-SGD and correlated noise at the same
/// certified ε on the training lab's breast-cancer and Adult links, one and several epochs, five
/// seeds (mean ± sd): the measurement issue 51 asks for.
fn utility() {
    use dp_playground::labs::train::correlated::compare_point;
    use dp_playground::labs::train::TrainParams;
    use dp_playground::learning::correlated::Mechanism;
    use dp_playground::link::query::{LinkParams, Query};
    for link in [
        "data=breast-cancer&batch=16&epochs=1&target_eps=1&seeds=5",
        "data=breast-cancer&batch=16&epochs=20&target_eps=1&seeds=5",
        "data=adult&batch=64&epochs=1&target_eps=1&seeds=5",
        "data=adult&batch=64&epochs=10&target_eps=1&seeds=5",
    ] {
        // `MF_EPS=0.5,1,2` compares at several targets (the lab's `compare_eps`); default ε = 1.
        let targets: Vec<f64> = std::env::var("MF_EPS")
            .ok()
            .map(|v| v.split(',').filter_map(|x| x.trim().parse().ok()).collect())
            .unwrap_or_else(|| vec![1.0]);
        let p = TrainParams::from_query(&Query::parse(link)).0;
        for mech in [
            Mechanism::DpSgd,
            Mechanism::BandMf { bands: 4 },
            Mechanism::Tree,
            Mechanism::Blt,
        ] {
            for target in targets.iter().copied() {
                match compare_point(&p, None, mech, target) {
                    Ok(pt) => {
                        let n = pt.test_acc.len() as f64;
                        let mean = pt.test_acc.iter().sum::<f64>() / n;
                        let sd = (pt.test_acc.iter().map(|a| (a - mean).powi(2)).sum::<f64>()
                            / (n - 1.0))
                            .sqrt();
                        let base = pt.baseline.iter().sum::<f64>() / n;
                        println!(
                        "utility {link} target {target} {:<28} σ {:>8.4} ε ≤ {:.4} acc {:.4} ± {:.4} (non-private {:.4})",
                        mech.title(),
                        pt.sigma,
                        pt.guarantee.eps,
                        mean,
                        sd,
                        base
                    );
                    }
                    Err(e) => println!("utility {link} {:<28} {e}", mech.title()),
                }
            }
        }
    }
}
