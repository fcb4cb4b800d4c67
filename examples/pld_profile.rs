//! Runs the PLD band `q,σ,T,δ` (default: q = 0.01, σ = 1, T = 10⁵, δ = 1e-5) `reps` times, for a
//! profiler: `perf record cargo run --release --example pld_profile`.
use dp_playground::accounting::pld::{dpsgd_epsilon_band, DEFAULT_INTERVAL};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let row = args.first().map_or("0.01,1,100000,1e-5", String::as_str);
    let reps: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(20);
    let v: Vec<f64> = row.split(',').filter_map(|x| x.parse().ok()).collect();
    let [q, sigma, steps, delta] = v[..] else {
        return;
    };
    for _ in 0..reps {
        std::hint::black_box(
            dpsgd_epsilon_band(q, sigma, steps as u64, delta, DEFAULT_INTERVAL).ok(),
        );
    }
}
