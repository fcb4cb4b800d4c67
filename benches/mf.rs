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
        ("blt-opt3-n64-single-mean", 64, Participation::ONCE, ErrorMeasure::Mean),
        (
            "blt-opt3-n256-k4-b64-max",
            256,
            Participation { k: Some(4), b: 64 },
            ErrorMeasure::Max,
        ),
        ("blt-opt3-n2000-single-mean", 2000, Participation::ONCE, ErrorMeasure::Mean),
    ] {
        let mut loss = 0.0;
        let ms = median_ms(3, || {
            loss = optimise_blt(n, p, measure, 3, &mut |_, _, _| {}).loss;
        });
        println!("ours {key} {ms:.4}");
        println!("ours-loss {key} {loss}");
    }
}
