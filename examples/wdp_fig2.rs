//! Runs Figure 2 of the WDP paper natively and prints the final ε of each panel and the time taken.
//! `cargo run --release --example wdp_fig2 -- [seed]`; compare with `scripts/reference/wdp_fig2.py`.

use dp_playground::wdp::accountants::{Accounting, PairRule};
use dp_playground::wdp::synthetic::{SyntheticRun, QUANTILES};
use std::time::Instant;

fn main() {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let start = Instant::now();
    let run = SyntheticRun::new(seed, Accounting::default()).finish();
    let ms = start.elapsed().as_secs_f64() * 1e3;
    println!("seed {seed}: 100 steps in {ms:.0} ms");
    println!("quantile clip      DP          BDP         WDP(sum)    WDP(inf)    W(sum)");
    for (p, panel) in QUANTILES.iter().zip(&run.curves) {
        for (mode, c) in panel.iter().enumerate() {
            let last = |v: &[f64]| v.last().copied().unwrap_or(f64::NAN);
            println!(
                "{p:<8} {:<5} {:<11.5} {:<11.5} {:<11.6} {:<11.6} {:.6}",
                if mode == 0 { "on" } else { "off" },
                last(&c.dp),
                last(&c.bdp),
                last(c.wdp(PairRule::Sum)),
                last(c.wdp(PairRule::Inf)),
                c.w(PairRule::Sum)
            );
        }
    }
}
