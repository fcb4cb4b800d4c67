//! Replace-one's one-step bound for Poisson batches (`replaced_step_delta`): above every replacement
//! that happens, below the add/remove pair at σ/2 it replaced, a valid profile, and, composed, above
//! runs whose steps change orientation. References: direct numerical integration of each pair's
//! hockey-stick divergence, and closed forms; no library computes this bound.

use dp_playground::accounting::pld::replace_one::replaced_step_delta;
use dp_playground::accounting::pld::subsampled::either_way_delta;
use dp_playground::accounting::pld::{dpsgd_plds_replace_one, Direction, Pld, Side};

/// δ(ε) of P against Q, each a mixture of N(mean, σ²) with the given weights, by the midpoint rule on
/// [−12σ − 3, 12σ + 3] with 2·10⁵ cells (its error is far below the margins used).
fn integrated(p: &[(f64, f64)], q: &[(f64, f64)], sigma: f64, eps: f64) -> f64 {
    let density = |mix: &[(f64, f64)], x: f64| -> f64 {
        mix.iter()
            .map(|(w, m)| w * (-(x - m).powi(2) / (2.0 * sigma * sigma)).exp())
            .sum::<f64>()
            / (sigma * (2.0 * std::f64::consts::PI).sqrt())
    };
    let (a, b, n) = (-12.0 * sigma - 3.0, 12.0 * sigma + 3.0, 200_000);
    let w = (b - a) / f64::from(n);
    (0..n)
        .map(|i| {
            let x = a + (f64::from(i) + 0.5) * w;
            (density(p, x) - eps.exp() * density(q, x)).max(0.0) * w
        })
        .sum()
}

#[test]
fn the_bound_lies_above_every_replacement_that_happens() {
    // The record's gradient a replaced by b (clipped, |a|, |b| ≤ 1), with or without one other record
    // whose gradient c is drawn at the same rate: both ways round are covered by the mirror.
    for q in [0.01, 0.1, 0.5, 0.9] {
        for sigma in [0.5, 1.0, 2.0] {
            for (a, b, c) in [
                (1.0, -1.0, 0.0),
                (1.0, 0.0, 0.0),
                (0.0, 1.0, 0.0),
                (0.5, -1.0, 0.0),
                (1.0, -1.0, -1.0),
                (1.0, 0.0, 1.0),
            ] {
                let with = |g: f64| {
                    vec![
                        ((1.0 - q) * (1.0 - q), 0.0),
                        ((1.0 - q) * q, c),
                        (q * (1.0 - q), g),
                        (q * q, g + c),
                    ]
                };
                for eps in [-2.0, -0.5, 0.0, 0.05, 0.3, 1.0, 2.0, 3.0] {
                    let exact = integrated(&with(a), &with(b), sigma, eps);
                    let ours = replaced_step_delta(q, sigma, eps);
                    assert!(
                        ours >= exact - 1e-9,
                        "q {q} σ {sigma} ({a}, {b}, {c}) ε {eps}: {ours} < {exact}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_bound_is_a_valid_profile_below_the_half_sigma_pair() {
    // Below the add/remove pair at σ/2 either way round (the route before) at every ε, equal to the
    // Gaussian at σ/2 at q = 1 (a replaced record moves the sum by 2C), and convex in e^ε across 0
    // (slopes between neighbouring grid points never decrease), so that it is some pair's profile.
    for q in [1e-4, 0.004, 0.01, 0.1, 0.3, 0.5, 0.9, 1.0] {
        for sigma in [0.3, 0.6, 1.1, 2.0, 8.0] {
            let grid: Vec<f64> = (-300..=500).map(|k| 0.01 * f64::from(k)).collect();
            let deltas: Vec<f64> = grid
                .iter()
                .map(|&e| replaced_step_delta(q, sigma, e))
                .collect();
            for (&e, &d) in grid.iter().zip(&deltas) {
                let half = either_way_delta(q, sigma / 2.0, e);
                assert!(
                    d <= half * (1.0 + 1e-12) + 1e-15,
                    "q {q} σ {sigma} ε {e}: {d} > {half}"
                );
                if q == 1.0 {
                    assert!((d - half).abs() <= 1e-15 + 1e-12 * half, "σ {sigma} ε {e}");
                }
            }
            let slopes: Vec<f64> = (1..grid.len())
                .map(|i| (deltas[i] - deltas[i - 1]) / (grid[i].exp() - grid[i - 1].exp()))
                .collect();
            for i in 1..slopes.len() {
                assert!(
                    slopes[i] >= slopes[i - 1] - 1e-9 * slopes[i - 1].abs() - 1e-13,
                    "q {q} σ {sigma} at ε {}: slope {} after {}",
                    grid[i],
                    slopes[i],
                    slopes[i - 1]
                );
            }
        }
    }
}

#[test]
fn the_route_covers_runs_whose_steps_change_orientation() {
    // Replacing a record by one with a zero gradient is the add/remove pair at σ, the remove way round;
    // the reverse replacement is the add way round, and a run may mix them. The route's composed upper
    // ε lies above every mix's exact ε, read from below (certified under it), so the check is safe from
    // discretization.
    let delta = 1e-5;
    for (q, sigma, steps) in [(0.3, 1.0, 200u64), (0.01, 1.1, 2000), (0.1, 1.0, 100)] {
        let route = dpsgd_plds_replace_one(q, sigma, steps, delta, 1e-3)
            .unwrap()
            .one_step[0]
            .epsilon_for_delta(delta);
        let step = |direction| {
            Pld::subsampled_gaussian(q, sigma, direction, 2e-3, 1e-9, Side::Lower).unwrap()
        };
        let (remove, add) = (step(Direction::Remove), step(Direction::Add));
        for removes in [0, steps / 4, steps / 2, 3 * steps / 4, steps] {
            let mix = Pld::compose_many(&[(&remove, removes), (&add, steps - removes)], 1e-9)
                .epsilon_for_delta(delta);
            assert!(
                mix <= route,
                "q {q} σ {sigma} T {steps}, {removes} removals: {mix} > {route}"
            );
        }
    }
}
