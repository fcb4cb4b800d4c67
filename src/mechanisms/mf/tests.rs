//! The strategies against jax_privacy 2.0.0 (`tests/refs/mf_jax_privacy.json`, written by
//! `tests/refs/mf_jax_privacy.py`; the tree against the same script's numpy evaluation, since
//! jax_privacy has no tree).

use super::*;
use serde_json::Value;

fn refs() -> Value {
    serde_json::from_str(include_str!("../../../tests/refs/mf_jax_privacy.json")).unwrap()
}

/// The strategy a reference names (`binary_tree` and `binary_tree_plain` are the same tree).
fn named(name: &str) -> Option<Strategy> {
    Some(match name {
        "identity" => Strategy::Independent,
        "toeplitz_sqrt" => Strategy::SquareRoot,
        "binary_tree_plain" | "binary_tree" => Strategy::Tree,
        b => Strategy::Banded {
            bands: b.strip_prefix("banded_sqrt_toeplitz_b")?.parse().ok()?,
        },
    })
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn close(a: f64, b: f64, rel: f64, what: &str) {
    assert!(
        (a - b).abs() <= rel * b.abs().max(1e-300),
        "{what}: {a} against {b}"
    );
}

#[test]
fn the_square_root_is_binomials_over_four_to_the_k() {
    let r = &refs()["toeplitz_sqrt_coefficients"];
    let c = toeplitz::sqrt_coefs(16);
    for (a, b) in c.iter().zip(floats(&r["strategy_coefs"])) {
        close(*a, b, 1e-15, "c_k");
    }
    let d: Vec<f64> = (0..16)
        .map(|k| if k == 0 { 1.0 } else { c[k] - c[k - 1] })
        .collect();
    for (a, b) in toeplitz::inverse(&c, 16).iter().zip(&d) {
        close(*a, *b, 1e-12, "C⁻¹ by the recurrence and in closed form");
    }
    for (a, b) in d.iter().zip(floats(&r["noising_coefs"])) {
        close(*a, b, 1e-14, "(1 − x)^(1/2)");
    }
}

/// Each strategy's losses (sensitivity² × mean and max per-step error) and single-participation
/// sensitivity, for T = 16, 64, 256 and 2000, to 1e-9 relative.
#[test]
fn strategies_match_jax_privacy() {
    let refs = refs();
    let mut seen = 0;
    for (n, by_n) in refs["strategies_by_n"].as_object().unwrap() {
        let n: usize = n.parse().unwrap();
        for s in by_n["strategies"].as_array().unwrap() {
            let name = s["strategy"].as_str().unwrap();
            let Some(strategy) = named(name) else {
                continue;
            };
            let e = strategy.evaluate(n, Participation::ONCE).unwrap();
            let what = format!("{name}, T = {n}");
            let mean = e.rmse().powi(2);
            close(
                mean,
                s["loss_mean"].as_f64().unwrap(),
                1e-9,
                &format!("{what}: mean loss"),
            );
            close(
                e.max_error().powi(2),
                s["loss_max"].as_f64().unwrap(),
                1e-9,
                &format!("{what}: max loss"),
            );
            if let Some(per) = s["per_query_error"].as_array().filter(|_| n <= 64) {
                let scale = s["sens_single_squared"].as_f64().unwrap();
                for (i, x) in per.iter().enumerate() {
                    close(
                        e.per_step[i],
                        scale * x.as_f64().unwrap(),
                        1e-9,
                        &format!("{what}: step {i}"),
                    );
                }
            }
            seen += 1;
        }
    }
    assert!(seen >= 20, "{seen} strategies compared");
}

/// Sensitivity under k participations at least b apart: the Toeplitz formula on jax_privacy's cases,
/// and the strategies' (the tree's bound equals the brute force's maximum on these settings).
#[test]
fn several_participations_match_jax_privacy() {
    let refs = refs();
    for case in refs["minsep_sensitivity_formula"]["cases"]
        .as_array()
        .unwrap()
    {
        let n = case["n"].as_u64().unwrap() as usize;
        let k = case["k"].as_u64().map(|k| k as usize);
        let b = case["b"].as_u64().unwrap() as usize;
        let s = toeplitz::minsep_sensitivity(&toeplitz::sqrt_coefs(n), n, k, b).unwrap();
        close(s, case["sens"].as_f64().unwrap(), 1e-12, &format!("{case}"));
    }
    for (n, by_n) in refs["strategies_by_n"].as_object().unwrap() {
        let m = &by_n["multi_participation_sensitivity"];
        if m.is_null() {
            continue;
        }
        let n: usize = n.parse().unwrap();
        let p = Participation {
            k: Some(m["k_max_participations"].as_u64().unwrap() as usize),
            b: m["b_min_sep"].as_u64().unwrap() as usize,
        };
        for (name, v) in m["per_strategy"].as_object().unwrap() {
            let Some(strategy) = named(name) else {
                continue;
            };
            let want = v["brute_force_minsep_numpy"]
                .as_f64()
                .or(v["toeplitz_minsep"].as_f64())
                .or(v["minsep_upper_bound"].as_f64())
                .unwrap();
            let got = strategy.evaluate(n, p).unwrap().sensitivity;
            // Scale-free: a band is normalised here, not there.
            let scale = match &strategy {
                Strategy::Banded { bands } => {
                    toeplitz::single_sensitivity(&toeplitz::sqrt_coefs(*bands), n)
                }
                _ => 1.0,
            };
            close(got * scale, want, 1e-9, &format!("{name}, T = {n}, {p:?}"));
        }
    }
}

/// A BLT: its coefficients, its inverse (a BLT too: jax_privacy's eigen-decomposition, here a
/// recurrence), its closed-form sensitivity and its errors.
#[test]
fn blts_match_jax_privacy() {
    let refs = refs();
    for (name, ex) in refs["blt"]["fixed_examples"].as_object().unwrap() {
        let blt = Blt {
            decay: floats(&ex["buf_decay"]),
            scale: floats(&ex["output_scale"]),
        };
        let n = ex["n"].as_u64().unwrap() as usize;
        for (a, b) in blt
            .coefs(16)
            .iter()
            .zip(floats(&ex["toeplitz_coefs_first16"]))
        {
            close(*a, b, 1e-12, &format!("{name}: c"));
        }
        for (a, b) in blt
            .inverse_coefs(16)
            .iter()
            .zip(floats(&ex["inverse_toeplitz_coefs_first16"]))
        {
            assert!((a - b).abs() < 1e-12, "{name}: C⁻¹ {a} against {b}");
        }
        close(
            blt.sensitivity_squared(n),
            ex["sens_squared_single_closed_form"].as_f64().unwrap(),
            1e-12,
            name,
        );
        let e = Strategy::Blt(blt.clone())
            .evaluate(n, Participation::ONCE)
            .unwrap();
        let s2 = e.sensitivity.powi(2);
        close(
            s2,
            ex["sens_squared_single_from_coefs"].as_f64().unwrap(),
            1e-12,
            name,
        );
        close(
            e.max_error().powi(2) / s2,
            ex["max_error_closed_form"].as_f64().unwrap(),
            1e-9,
            name,
        );
        close(
            e.rmse().powi(2) / s2,
            ex["mean_error_from_inverse_coefs"].as_f64().unwrap(),
            1e-9,
            name,
        );
        if let Some(k) = ex["max_participations"].as_u64() {
            let p = Participation {
                k: Some(k as usize),
                b: ex["min_sep"].as_u64().unwrap() as usize,
            };
            let e = Strategy::Blt(blt).evaluate(n, p).unwrap();
            close(
                e.sensitivity.powi(2),
                ex["sens_squared_minsep"].as_f64().unwrap(),
                1e-12,
                name,
            );
            close(
                e.max_error().powi(2),
                ex["loss_max_minsep"].as_f64().unwrap(),
                1e-9,
                name,
            );
            close(
                e.rmse().powi(2),
                ex["loss_mean_minsep"].as_f64().unwrap(),
                1e-9,
                name,
            );
        }
    }
}

#[test]
fn bad_settings_are_refused_and_long_streams_are_cheap() {
    assert!(Strategy::SquareRoot
        .evaluate(0, Participation::ONCE)
        .is_err());
    assert!(Strategy::Banded { bands: 0 }
        .evaluate(8, Participation::ONCE)
        .is_err());
    // An increasing BLT has no bound here under several participations.
    let rising = Strategy::Blt(Blt {
        decay: vec![0.5],
        scale: vec![2.0],
    });
    assert!(rising
        .evaluate(16, Participation { k: Some(2), b: 4 })
        .is_err());
    // T = 10⁵ for the Toeplitz square root in closed form: Δ² and the max error both grow like
    // 1 + ln(T)/π (Fichtenberger et al. 2023), 4.66 here, so the max error std is about 4.7σ.
    let e = Strategy::SquareRoot
        .evaluate(100_000, Participation::ONCE)
        .unwrap();
    let grows = 1.0 + (1e5f64).ln() / std::f64::consts::PI;
    assert!(
        (e.max_error() / grows - 1.0).abs() < 0.05,
        "{}",
        e.max_error()
    );
    assert!(
        Strategy::Independent
            .evaluate(100_000, Participation::ONCE)
            .unwrap()
            .max_error()
            > 300.0
    );
}

/// The optimiser reaches jax_privacy's optimised BLT losses (`optimize_loss` with the same buffers,
/// `tests/refs/mf_jax_privacy.json` `blt.optimised`) within 1%, and `best_blt` its `optimize(n = 64)`.
#[test]
fn optimised_blts_reach_jax_privacys_loss() {
    use super::optimise::{best_blt, loss, optimise_blt, ErrorMeasure};
    let refs = refs();
    let setting = |ex: &Value| {
        let n = ex["n"].as_u64().unwrap() as usize;
        let p = match ex["max_participations"].as_u64() {
            Some(k) => Participation {
                k: Some(k as usize),
                b: ex["min_sep"].as_u64().unwrap() as usize,
            },
            None => Participation::ONCE,
        };
        let measure = if ex["setting"].as_str().unwrap().ends_with("mean") {
            ErrorMeasure::Mean
        } else {
            ErrorMeasure::Max
        };
        (n, p, measure)
    };
    for ex in refs["blt"]["optimised"].as_array().unwrap() {
        let (n, p, measure) = setting(ex);
        let buffers = ex["num_buffers"].as_u64().unwrap() as usize;
        let theirs = ex["returned_loss"].as_f64().unwrap();
        let jax_blt = Blt {
            decay: floats(&ex["buf_decay"]),
            scale: floats(&ex["output_scale"]),
        };
        // Our loss function gives theirs at their BLT.
        close(loss(&jax_blt, n, p, measure).unwrap(), theirs, 1e-9, "loss");
        let ours = optimise_blt(n, p, measure, buffers, &mut |_, _, _| {});
        assert!(
            ours.loss <= theirs * 1.01,
            "{} with {buffers} buffers: {} against jax_privacy's {theirs}",
            ex["setting"],
            ours.loss
        );
        close(
            loss(&ours.blt, n, p, measure).unwrap(),
            ours.loss,
            0.0,
            "own",
        );
    }
    let auto = &refs["blt"]["optimize_auto_n64_single_max"];
    let theirs = auto["max_loss_closed_form"].as_f64().unwrap();
    let ours = best_blt(
        64,
        Participation::ONCE,
        ErrorMeasure::Max,
        &mut |_, _, _| {},
    );
    assert!(ours.loss <= theirs * 1.01, "{} against {theirs}", ours.loss);
}

/// Honaker's estimator is the best linear unbiased estimate of each prefix sum from the nodes
/// released by then: its variance 1ᵀ(MᵀM)⁻¹1 solved here densely (M: the complete blocks' rows over
/// steps 0..t, unit noise) for T = 32, against the closed form; and it beats the plain tree.
#[test]
// Gaussian elimination reads the pivot row while it writes another: indices say it plainest.
#[allow(clippy::needless_range_loop)]
fn honakers_estimator_is_the_least_squares_one() {
    let n = 32;
    let got = tree::honaker_per_step_error(n);
    let plain = tree::per_step_error(n);
    for t in 1..=n {
        // MᵀM over steps 0..t: each complete block [j2^h, (j+1)2^h) with end ≤ t adds its ones.
        let mut g = vec![vec![0.0; t]; t];
        for h in 0..6 {
            let w = 1usize << h;
            for start in (0..t).step_by(w).filter(|s| s + w <= t) {
                for row in g.iter_mut().skip(start).take(w) {
                    for cell in row.iter_mut().skip(start).take(w) {
                        *cell += 1.0;
                    }
                }
            }
        }
        // Solve (MᵀM) y = 1 by Gaussian elimination (symmetric positive definite: no pivoting).
        let mut rhs = vec![1.0; t];
        for k in 0..t {
            for i in k + 1..t {
                let f = g[i][k] / g[k][k];
                for j in k..t {
                    g[i][j] -= f * g[k][j];
                }
                rhs[i] -= f * rhs[k];
            }
        }
        let mut y = vec![0.0; t];
        for k in (0..t).rev() {
            let s: f64 = (k + 1..t).map(|j| g[k][j] * y[j]).sum();
            y[k] = (rhs[k] - s) / g[k][k];
        }
        close(got[t - 1], y.iter().sum(), 1e-10, &format!("t = {t}"));
        assert!(got[t - 1] <= plain[t - 1]);
    }
    let e = Strategy::HonakerTree
        .evaluate(n, Participation::ONCE)
        .unwrap();
    assert_eq!(e.sensitivity, tree::sensitivity(n, Some(1), 1));
}
