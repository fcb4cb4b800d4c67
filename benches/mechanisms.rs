//! Benchmark of the mechanisms lab's computation (`cargo bench --bench mechanisms`): what one slider move
//! recomputes for each mechanism, as a median over runs and as a ratio to the 16 ms frame budget.
//! Hand-rolled timing (no criterion) to keep the dev build lean.
// A benchmark's setup that fails should stop the run: unwrap is its assertion, as in a test.
#![allow(clippy::unwrap_used)]

use dp_playground::labs::mechanisms::{
    calibrate, exponential, many_queries, noise, pictures, samples, MechParams, Mechanism,
};
use dp_playground::mechanisms::many_queries::simulate_max_errors;
use std::hint::black_box;

mod common;
use common::median_ms;

fn report(name: &str, ms: f64) {
    common::report(name, ms, 62);
}

fn main() {
    for mech in Mechanism::ALL {
        let p = MechParams {
            mech,
            eps: 1.3,
            ..MechParams::default()
        };
        let ms = median_ms(51, || {
            let cal = calibrate(black_box(&p)).unwrap();
            match noise(&p, &cal).unwrap() {
                Some(n) => {
                    black_box(pictures(&p, &n));
                    black_box(samples(&p, &n));
                }
                None => {
                    black_box(exponential(&p).unwrap());
                }
            }
        });
        report(&format!("{mech}: calibration, pictures, 10^4 samples"), ms);
    }
    let p = MechParams::default();
    let sim = simulate_max_errors(p.kmax, p.seed).unwrap();
    let ms = median_ms(21, || {
        black_box(many_queries(black_box(&p), &sim).unwrap());
    });
    report("many queries at a new ε (closed forms, crossover)", ms);
    for kmax in [1000, 100_000] {
        let ms = median_ms(5, || {
            black_box(simulate_max_errors(black_box(kmax), 1).unwrap());
        });
        report(
            &format!("many queries: simulation for k up to {kmax} (seed or k change)"),
            ms,
        );
    }
}
