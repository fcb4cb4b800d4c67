//! Benchmark of the tangent DP lab (`cargo bench --bench tangent`): the report a link change recomputes
//! (Gibbs distribution, every norm and bound, the removal), for the default link and for the largest
//! instance (200 × 200 grid, 10⁴ points), as a ratio to the 100 ms budget.
// A benchmark's setup that fails should stop the run: unwrap is its assertion, as in a test.
#![allow(clippy::unwrap_used)]

use dp_playground::labs::tangent::{report, sweep_beta, TangentParams};
use dp_playground::tangent::{Grid, Loss, Model};
use std::hint::black_box;

mod common;
use common::median_ms;

fn main() {
    let cases = [
        (
            "default: threshold, 121 w, 200 points, Savage",
            TangentParams::default(),
            21,
        ),
        (
            "2-D, 41 × 41 w, 1000 points, logistic",
            TangentParams {
                model: Model::Linear2d,
                loss: Loss::Logistic,
                n: 1000,
                ..TangentParams::default()
            },
            5,
        ),
        (
            "2-D, 200 × 200 w, 10⁴ points, Savage",
            TangentParams {
                model: Model::Linear2d,
                n: 10_000,
                wgrid: Some(Grid {
                    min: -3.0,
                    max: 3.0,
                    count: 200,
                }),
                ..TangentParams::default()
            },
            1,
        ),
    ];
    for (name, p, runs) in cases {
        let ms = median_ms(runs, || {
            black_box(report(black_box(&p)).unwrap());
        });
        println!(
            "{name:<48} report median {ms:>10.1} ms   {:>7.2} of 100 ms",
            ms / 100.0
        );
    }
    let r = report(&TangentParams::default()).unwrap();
    let ms = median_ms(11, || {
        black_box(sweep_beta(&r, 0));
    });
    println!("{:<48} β sweep median {ms:>10.1} ms", "default");
}
