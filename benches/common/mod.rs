//! Timing shared by the benchmarks: hand-rolled (no criterion) to keep the dev build lean.
#![allow(dead_code)] // each benchmark uses part of this module

use std::time::Instant;

/// The frame budget a slider move must fit in.
pub const FRAME_MS: f64 = 16.0;

/// Median wall time of `runs` calls of `f`, in ms, after one warm-up call.
pub fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[runs / 2]
}

/// Prints one line: the median and its share of the frame budget (`width` pads the name).
pub fn report(name: &str, ms: f64, width: usize) {
    println!(
        "{name:<width$} median {ms:>9.3} ms   {:>7.3} of a 16 ms frame",
        ms / FRAME_MS
    );
}
