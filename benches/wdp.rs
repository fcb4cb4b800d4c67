//! Benchmark of the WDP lab (`cargo bench --bench wdp`): Figure 1 and Figure 3 recompute on every slider
//! move (ratio to a 16 ms frame); Figure 2's full synthetic run (ratio to the 3 s budget), split
//! into its parts so a regression points at its cause.
// A benchmark's setup that fails should stop the run: unwrap is its assertion, as in a test.
#![allow(clippy::unwrap_used)]

use dp_playground::labs::wdp::{
    fig1_curves, fig3_by_beta, fig3_by_delta, table1, Panel, WdpParams,
};
use dp_playground::wdp::accountants::{Accounting, PairRule};
use dp_playground::wdp::synthetic::{fill_weibull_half, SyntheticRun, DIM, PAIRS, ROWS};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

mod common;
use common::median_ms;

fn main() {
    let p = WdpParams::default();
    let ms = median_ms(201, || {
        for panel in Panel::ALL {
            black_box(fig1_curves(black_box(&p), panel));
        }
        black_box(table1(&p));
    });
    common::report("Figure 1: four panels × four scales × 100 orders", ms, 58);
    let ms = median_ms(201, || {
        black_box(fig3_by_beta(black_box(10.0)));
        black_box(fig3_by_delta(10.0));
    });
    common::report("Figure 3: both panels", ms, 58);

    let acc = Accounting::default();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut grads = vec![0.0; ROWS * DIM];
    let ms = median_ms(21, || {
        fill_weibull_half(&mut rng, &mut grads);
        black_box(&grads);
    });
    println!(
        "{:<58} median {ms:>9.3} ms per step",
        "Figure 2: 50 × 1000 Weibull draws"
    );
    let d: Vec<f64> = (0..PAIRS).map(|i| 100.0 + (i % 37) as f64).collect();
    let ms = median_ms(21, || {
        black_box(acc.bdp_step(black_box(&d), 150.0));
    });
    println!(
        "{:<58} median {ms:>9.3} ms per step and variant",
        "Figure 2: Bayesian accountant, 1225 pairs"
    );
    let ms = median_ms(21, || {
        let m = acc.wdp_ln_moments(black_box(&d), 150.0);
        black_box(acc.wdp_step(&m, PairRule::Sum));
    });
    println!(
        "{:<58} median {ms:>9.3} ms per step and variant",
        "Figure 2: Wasserstein accountant, 1225 pairs"
    );
    let ms = median_ms(5, || {
        black_box(SyntheticRun::new(black_box(1), acc).finish());
    });
    println!(
        "{:<58} median {ms:>9.1} ms   {:>7.3} of the 3 s budget (native; the browser takes ~2×)",
        "Figure 2: the whole run (100 steps, 4 quantiles × 2 modes)",
        ms / 3000.0
    );
}
