//! Times our DP-SGD accountants on the (q, σ, T, δ) rows given as arguments `q,σ,T,δ ...` and prints
//! `rdp_ms pld_ms eps_rdp eps_pld` per row (medians of 5 runs). Used by scripts/reference/bench_dpsgd.py.
use dp_playground::accounting::pld::{dpsgd_epsilon, DEFAULT_INTERVAL};
use dp_playground::accounting::rdp::{default_orders, dpsgd_rdp, rdp_to_approx_dp, Conversion};
use std::time::Instant;

fn median(mut f: impl FnMut() -> f64) -> (f64, f64) {
    let mut runs: Vec<(f64, f64)> = (0..5)
        .map(|_| {
            let start = Instant::now();
            let v = f();
            (start.elapsed().as_secs_f64() * 1e3, v)
        })
        .collect();
    runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    runs[2]
}

fn main() {
    let orders = default_orders();
    for row in std::env::args().skip(1) {
        let v: Vec<f64> = row.split(',').filter_map(|x| x.parse().ok()).collect();
        let [q, sigma, steps, delta] = v[..] else {
            continue;
        };
        let (rdp_ms, rdp) = median(|| {
            let r = dpsgd_rdp(q, sigma, steps, &orders);
            rdp_to_approx_dp(&orders, &r, delta, Conversion::Improved).map_or(f64::NAN, |x| x.0)
        });
        let (pld_ms, pld) = median(|| {
            dpsgd_epsilon(q, sigma, steps as u64, delta, DEFAULT_INTERVAL).unwrap_or(f64::NAN)
        });
        println!("{rdp_ms} {pld_ms} {rdp} {pld}");
    }
}
