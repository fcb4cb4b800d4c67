//! Benchmark of the randomized-response lab's computation (`cargo bench --bench rr`): the closed-form
//! part a slider move needs, and the whole lab at its heaviest settings, each as a median over runs and
//! as a ratio to the 16 ms frame budget. Hand-rolled timing (no criterion) to keep the dev build lean.
// A benchmark's setup that fails should stop the run: unwrap is its assertion, as in a test.
#![allow(clippy::unwrap_used)]

use dp_playground::labs::rr::shuffle::{curve_sizes, shuffle_point};
use dp_playground::labs::rr::{default_truth, run, RrParams};
use dp_playground::mechanisms::randomized_response::RandomizedResponse;
use std::hint::black_box;

mod common;
use common::median_ms;

fn report(name: &str, ms: f64) {
    common::report(name, ms, 58);
}

fn main() {
    let closed = median_ms(201, || {
        for k in 2..=50 {
            let m = RandomizedResponse::new(black_box(1.3), k).unwrap();
            black_box(m.variance(0.3, 1000) + m.p_truth());
        }
    });
    report("closed forms, K = 2..50", closed);
    let cases = [
        (
            "lab default (K = 2, n = 1000, R = 200)",
            RrParams::default(),
        ),
        (
            "K = 50, n = 1000, R = 200",
            RrParams {
                k: 50,
                truth: default_truth(50),
                ..RrParams::default()
            },
        ),
        (
            "n = 10^7, K = 2, R = 200",
            RrParams {
                n: 10_000_000,
                ..RrParams::default()
            },
        ),
        (
            "heaviest: n = 10^7, K = 50, R = 1000",
            RrParams {
                n: 10_000_000,
                k: 50,
                truth: default_truth(50),
                reps: 1000,
                ..RrParams::default()
            },
        ),
        (
            "person by person: n = 400, K = 2, R = 200",
            RrParams {
                n: 400,
                ..RrParams::default()
            },
        ),
    ];
    for (name, params) in cases {
        let ms = median_ms(21, || {
            black_box(run(&params).unwrap());
        });
        report(name, ms);
    }
    // The shuffle model (issue 27's target: the link's n = 10⁷ within 100 ms in the page).
    let mut shuffled = RrParams {
        n: 10_000_000,
        ..RrParams::default()
    };
    shuffled.shuffle.on = true;
    let many = RrParams {
        k: 10,
        eps: 2.0,
        ..shuffled.clone()
    };
    for (name, p) in [
        ("shuffle model at n = 10^7, K = 2 (every bound)", &shuffled),
        ("shuffle model at n = 10^7, K = 10, eps0 = 2", &many),
    ] {
        let ms = median_ms(21, || {
            black_box(shuffle_point(p, p.n).unwrap());
        });
        report(name, ms);
    }
    let ms = median_ms(11, || {
        for n in curve_sizes() {
            black_box(shuffle_point(&shuffled, n).unwrap());
        }
    });
    report("shuffle model's curve, 16 sizes to 10^6", ms);
}
