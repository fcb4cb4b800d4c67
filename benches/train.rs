//! Benchmark of the training lab (`cargo bench --bench train`): the default breast-cancer run (three
//! models, 427 steps, about 100 report points) and one σ of the default sweep (five seeds), with the
//! training gradients computed per second, the figure `tests/e2e/bench.mjs` prints for the page's
//! worker (`scripts/bench-train.sh` prints the ratio of the two).
#![allow(clippy::unwrap_used)]

use dp_playground::labs::train::jobs::sweep_point;
use dp_playground::labs::train::run::{train, TrainUpdate};
use dp_playground::labs::train::TrainParams;
use std::hint::black_box;

mod common;
use common::median_ms;

fn main() {
    let p = TrainParams::default();
    let mut evaluations = 0;
    let run = median_ms(21, || {
        train(&p, None, None, u64::MAX, &mut |u| {
            if let TrainUpdate::Evaluations(n) = u {
                evaluations = n;
            }
            black_box(u);
        })
        .unwrap();
    });
    common::report("default run (427 steps, 3 models)", run, 40);
    let sweep = median_ms(11, || {
        black_box(sweep_point(&p, None, 2.0).unwrap());
    });
    common::report("one σ of the sweep (5 seeds)", sweep, 40);
    println!(
        "native per-example gradients per second (default run): {:.0}",
        evaluations as f64 / (run / 1e3)
    );
}
