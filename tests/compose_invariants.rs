//! Randomized invariants of the composition lab's accountants (issue 13): thousands of seeded random
//! lists mixing every entry kind, counts up to the lab's maximum. For each: the PLD's lower ε ≤ its
//! upper ε ≤ basic composition; the upper ε ≥ the exact ε where one is known (Gaussians compose to one
//! Gaussian, Balle & Wang's closed form; k runs of binary randomized response have the exact
//! Kairouz–Oh–Viswanath optimum); more steps, a larger q or a smaller σ never lower the bound; no NaN,
//! and ∞ only where more than δ of the privacy loss is infinite. The PLD runs on coarse grids (1e-2,
//! 1e-3) to keep the test quick: every invariant holds on any grid.
// An integration test crate: its helpers are test code too (clippy.toml covers only #[test] fns).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use dp_playground::accounting::composition::optimal_homogeneous;
use dp_playground::accounting::entry::{format_list, parse_list, Entry, Item};
use dp_playground::labs::compose::{accountants, ComposedPld};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const DELTAS: [f64; 3] = [1e-3, 1e-6, 1e-9];

fn random_entry(rng: &mut ChaCha8Rng) -> String {
    let u = |rng: &mut ChaCha8Rng, lo: f64, hi: f64| lo * (hi / lo).powf(rng.random::<f64>());
    match rng.random_range(0..8) {
        0 => format!("lap:{:.4}", u(rng, 0.01, 2.0)),
        1 => format!("gauss:{:.4}", u(rng, 0.5, 20.0)),
        2 => format!("rr:{:.4}", u(rng, 0.05, 3.0)),
        3 => format!(
            "rr:{:.4}:{}",
            u(rng, 0.05, 3.0),
            [3, 4, 10, 100][rng.random_range(0..4)]
        ),
        4 => format!("sgauss:{:.5}:{:.4}", u(rng, 0.001, 0.5), u(rng, 0.5, 5.0)),
        5 => format!(
            "dp:{:.4}:{}",
            u(rng, 0.01, 2.0),
            [0.0, 1e-9, 1e-7][rng.random_range(0..3)]
        ),
        6 => format!(
            "wor:{:.4}:{:.4}:{}",
            u(rng, 0.01, 1.0),
            u(rng, 0.01, 2.0),
            [0.0, 1e-9][rng.random_range(0..2)]
        ),
        _ => format!(
            "wor:{:.4}:gauss:{:.4}",
            u(rng, 0.01, 1.0),
            u(rng, 0.5, 10.0)
        ),
    }
}

fn random_times(rng: &mut ChaCha8Rng) -> u64 {
    [1, 2, 7, 10, 100, 1000, 10_000, 100_000, 1_000_000][rng.random_range(0..9)]
}

/// The mass at +∞ of the list's composed PLD (only (ε, δ) entries have one).
fn infinite_mass(items: &[Item]) -> f64 {
    let ln_keep: f64 = items
        .iter()
        .map(|it| match it.entry {
            Entry::Raw { delta, .. } => it.times as f64 * (-delta).ln_1p(),
            Entry::Subsampled { rate, delta, .. } => it.times as f64 * (-rate * delta).ln_1p(),
            _ => 0.0,
        })
        .sum();
    -ln_keep.exp_m1()
}

fn check(items: &[Item], grid: f64, cases: &mut usize) -> ComposedPld {
    let name = format_list(items);
    let pld = ComposedPld::with_grid(items, Some(grid)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let infinite = infinite_mass(items);
    for delta in DELTAS {
        *cases += 1;
        let band = pld.band(delta);
        let basic = accountants(items, delta).basic;
        assert!(
            !band.upper.is_nan() && !band.lower.is_nan(),
            "{name} δ {delta}: {band:?}"
        );
        assert!(
            band.lower <= band.upper + 1e-12,
            "{name} δ {delta}: {band:?}"
        );
        assert!(
            band.upper <= basic,
            "{name} δ {delta}: upper {} above basic {basic}",
            band.upper
        );
        if band.upper.is_infinite() {
            // The upper side adds at most 1e-15 of truncated mass at +∞.
            assert!(
                infinite + 1e-15 > delta,
                "{name} δ {delta}: ∞ with only {infinite} at +∞"
            );
        }
        if band.lower.is_infinite() {
            assert!(
                infinite > delta,
                "{name} δ {delta}: lower ∞ with only {infinite} at +∞"
            );
        }
        // Exact ε where one is known.
        let exact = exact_epsilon(items, delta);
        if let Some(exact) = exact {
            assert!(
                band.upper >= exact * (1.0 - 1e-9) - 1e-9,
                "{name} δ {delta}: upper {} below exact {exact}",
                band.upper
            );
            assert!(
                band.lower <= exact * (1.0 + 1e-9) + 1e-9,
                "{name} δ {delta}: lower {} above exact {exact}",
                band.lower
            );
        }
        // Laplace's exact ε is at most the KOV optimum of its ε-DP: the lower bound stays below it.
        if let [Item {
            entry: Entry::Laplace { eps },
            times,
        }] = items
        {
            let kov = optimal_homogeneous(*eps, 0.0, *times, delta).unwrap_or(f64::INFINITY);
            assert!(
                band.lower <= kov * (1.0 + 1e-9) + 1e-9,
                "{name} δ {delta}: lower {} above KOV {kov}",
                band.lower
            );
        }
    }
    pld
}

/// Gaussians compose to one Gaussian of σ = (Σ k_i/σ_i²)^{−1/2}; k runs of binary randomized response
/// have the Kairouz–Oh–Viswanath optimum as their exact ε.
fn exact_epsilon(items: &[Item], delta: f64) -> Option<f64> {
    if items
        .iter()
        .all(|it| matches!(it.entry, Entry::Gaussian { .. }))
    {
        let precision: f64 = items
            .iter()
            .map(|it| match it.entry {
                Entry::Gaussian { sigma } => it.times as f64 / (sigma * sigma),
                _ => 0.0,
            })
            .sum();
        return Some(
            Entry::Gaussian {
                sigma: precision.sqrt().recip(),
            }
            .eps_for(delta),
        );
    }
    match items {
        [Item {
            entry: Entry::RandomizedResponse { eps, k: 2 },
            times,
        }] => optimal_homogeneous(*eps, 0.0, *times, delta),
        _ => None,
    }
}

#[test]
fn random_lists_keep_every_invariant() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let mut cases = 0;
    let lists = 800;
    for n in 0..lists {
        let len = rng.random_range(1..=3);
        let text: Vec<String> = (0..len)
            .map(|_| format!("{}*{}", random_entry(&mut rng), random_times(&mut rng)))
            .collect();
        let items = parse_list(&text.join(",")).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        let grid = if n % 10 == 0 { 1e-3 } else { 1e-2 };
        check(&items, grid, &mut cases);
    }
    eprintln!("{lists} random lists, {cases} (list, δ) cases");
}

#[test]
fn exact_cases_and_monotonicity() {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let mut cases = 0;
    for _ in 0..80 {
        // All-Gaussian lists and single randomized-response entries: exact ε known.
        let sigma = 0.5 * 40f64.powf(rng.random::<f64>());
        let list = format!(
            "gauss:{sigma:.4}*{},gauss:{:.4}*{}",
            random_times(&mut rng),
            sigma * 2.0,
            rng.random_range(1..50)
        );
        check(&parse_list(&list).unwrap_or_default(), 1e-3, &mut cases);
        let eps = 0.02 * 100f64.powf(rng.random::<f64>());
        let times = random_times(&mut rng);
        let rr = parse_list(&format!("rr:{eps:.4}*{times}")).unwrap_or_default();
        check(&rr, 1e-3, &mut cases);
        // More steps, a larger q, a smaller σ: never a smaller upper bound on the same grid, and the
        // lower bound of the smaller never above the upper bound of the larger.
        let (q, s) = (
            0.001 * 100f64.powf(rng.random::<f64>()),
            0.6 * 5f64.powf(rng.random::<f64>()),
        );
        let t = [10, 100, 1000, 10_000][rng.random_range(0..4)];
        let base = check(
            &parse_list(&format!("sgauss:{q:.5}:{s:.4}*{t}")).unwrap_or_default(),
            1e-3,
            &mut cases,
        );
        for bigger in [
            format!("sgauss:{q:.5}:{s:.4}*{}", 2 * t),
            format!("sgauss:{:.5}:{s:.4}*{t}", (1.5 * q).min(1.0)),
            format!("sgauss:{q:.5}:{:.4}*{t}", s / 1.3),
        ] {
            let more = check(&parse_list(&bigger).unwrap_or_default(), 1e-3, &mut cases);
            for delta in DELTAS {
                let (a, b) = (base.band(delta), more.band(delta));
                assert!(
                    a.lower <= b.upper + 1e-12,
                    "{bigger} δ {delta}: {a:?} vs {b:?}"
                );
                if a.interval == b.interval {
                    assert!(
                        a.upper <= b.upper + 1e-9,
                        "{bigger} δ {delta}: {a:?} vs {b:?}"
                    );
                }
            }
        }
    }
    eprintln!("{cases} (list, δ) cases with an exact ε or a monotonicity check");
}
