//! Times the parts of one PLD band (q = 0.01, σ = 1, T = 10⁵ unless given `q,σ,T,δ`): discretising each
//! side, the Chernoff window, the composition.
use dp_playground::accounting::pld::{Direction, Pld, Side};
use std::time::Instant;

fn ms<T>(label: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let v = f();
    println!("{label:<44} {:8.2} ms", start.elapsed().as_secs_f64() * 1e3);
    v
}

fn main() {
    let row = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "0.01,1,100000,1e-5".into());
    let v: Vec<f64> = row.split(',').filter_map(|x| x.parse().ok()).collect();
    let [q, sigma, steps, delta] = v[..] else {
        return;
    };
    let steps = steps as u64;
    let tail = 1e-15f64.min(delta / 10.0);
    for side in [Side::Upper, Side::Lower] {
        let fine = ms(&format!("{side:?}: discretise at 1e-4"), || {
            Pld::subsampled_gaussian(q, sigma, Direction::Remove, 1e-4, tail / steps as f64, side)
                .ok()
        });
        let Some(fine) = fine else { return };
        let points = ms("  window points", || {
            Pld::window_points(&[(&fine, steps)], tail)
        });
        let wider = 1e-4 * (points / 131072.0).ceil().max(1.0);
        println!(
            "  {} points at 1e-4 ({} grid points): interval {wider}",
            points,
            fine.len()
        );
        let Some(pld) = ms("  discretise again", || {
            Pld::subsampled_gaussian(
                q,
                sigma,
                Direction::Remove,
                wider,
                tail / steps as f64,
                side,
            )
            .ok()
        }) else {
            return;
        };
        let composed = ms("  compose", || pld.self_compose(steps, tail));
        ms("  ε walk", || composed.epsilon_for_delta(delta));
    }
}
