//! The lab's tests: its numbers against jax_privacy's, its links, its jobs and its ugly inputs.

use super::report::Amplification;
use super::*;
use crate::link::query::{LinkParams, Query};

/// At the defaults (T = 256, one pass, (1, 10⁻⁶)): every strategy's error is σ_G times jax_privacy's
/// loss (tests/refs/mf_jax_privacy.json, `strategies_by_n.256`), and correlation pays: the square
/// root's RMSE is a fraction of independent noise's.
#[test]
fn the_default_report_is_jax_privacys_losses_at_the_gaussian_sigma() {
    let r = report(&MfParams::default(), None, None).unwrap();
    let refs: serde_json::Value =
        serde_json::from_str(include_str!("../../../tests/refs/mf_jax_privacy.json")).unwrap();
    let loss = |name: &str| {
        refs["strategies_by_n"]["256"]["strategies"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["strategy"] == name)
            .map(|s| s["loss_mean"].as_f64().unwrap())
            .unwrap()
    };
    let row = |key: &str| r.rows.iter().find(|row| row.kind.key() == key).unwrap();
    for (key, name) in [
        ("independent", "identity"),
        ("sqrt", "toeplitz_sqrt"),
        ("tree", "binary_tree_plain"),
    ] {
        let want = r.sigma_gaussian * loss(name).sqrt();
        assert!((row(key).rmse / want - 1.0).abs() < 1e-9, "{key}");
    }
    assert!(row("sqrt").rmse < 0.25 * row("independent").rmse);
    // One pass: every strategy's sensitivity is one participation's, so σ is σ_G's (rounded up).
    for row in &r.rows {
        assert!(
            (row.sensitivity - 1.0).abs() < 1e-12 && row.sigma >= r.sigma_gaussian,
            "{}",
            row.kind.key()
        );
        assert_eq!(row.curve.last().map(|c| c.0), Some(256.0));
    }
    assert!(r
        .rows
        .iter()
        .all(|row| row.amplification == Amplification::Unsampled));
}

#[test]
fn links_round_trip_and_bad_values_fall_back() {
    let p = MfParams {
        steps: 1000,
        epochs: 4,
        bands: 16,
        eps: 3.0,
        delta: 1e-5,
        rho: Some(0.5),
        q: 0.0,
        matrix: Kind::Tree,
    };
    assert_eq!(MfParams::from_query(&p.to_query()), (p.clone(), vec![]));
    let (q, notices) = MfParams::from_query(&Query::parse("steps=0&epochs=x&eps=nan&bands=1e9"));
    assert_eq!(q, MfParams::default());
    assert_eq!(notices.len(), 4);
    let (q, notices) = MfParams::from_query(&Query::parse("steps=10&epochs=50"));
    assert_eq!((q.epochs, notices.len()), (10, 1));
    // Several passes: independent noise's sensitivity is √k.
    let r = report(&p, None, None).unwrap();
    assert!((r.rows[0].sensitivity - 2.0).abs() < 1e-12);
    // T = 10⁵ evaluates (each strategy in O(T·bands)).
    let big = MfParams {
        steps: MAX_STEPS,
        ..MfParams::default()
    };
    assert!(report(&big, None, None)
        .unwrap()
        .rows
        .iter()
        .all(|r| r.rmse.is_finite() && r.curve.len() <= CURVE_POINTS + 1));
}

/// The fuzzer's links that once held the page for ever (the analytic σ's bisection looped on an
/// overflowing midpoint): ε at its floor, δ far below any use.
#[test]
fn extreme_targets_end() {
    for link in [
        "eps=1e-300&delta=1e-160",
        "eps=1e-300&delta=1e-9",
        "eps=100&delta=0.999",
    ] {
        let (p, _) = MfParams::from_query(&Query::parse(link));
        let r = report(&p, None, None).unwrap();
        assert!(
            r.sigma_gaussian.is_finite() && r.rows.iter().all(|row| row.rmse.is_finite()),
            "{link}"
        );
    }
}

/// With sampling, amplified BandMF and independent noise wait for the PLD's σ, then take it: below
/// the unamplified σ, its certified ε at most the target and the PLD's lower side below it; the
/// tree, the square root and the BLT keep their unamplified σ and say amplification is not known.
#[test]
fn sampling_amplifies_the_bands_only() {
    let (p, notices) = MfParams::from_query(&Query::parse(
        "steps=1000&epochs=4&bands=8&q=0.05&eps=2&delta=1e-5",
    ));
    assert!(notices.is_empty(), "{notices:?}");
    let pending = report(&p, None, None).unwrap();
    let kinds = |r: &MfReport, a: Amplification| -> Vec<&str> {
        r.rows
            .iter()
            .filter(|row| row.amplification == a)
            .map(|row| row.kind.key())
            .collect()
    };
    assert_eq!(
        kinds(&pending, Amplification::Pending),
        ["independent", "banded"]
    );
    let goal = p.amplified_goal().unwrap();
    assert_eq!(goal.event.steps, 4);
    let a = jobs::amplified(&goal).unwrap();
    let r = report(&p, None, Some(&a)).unwrap();
    assert_eq!(kinds(&r, Amplification::Applied), ["independent", "banded"]);
    assert_eq!(
        kinds(&r, Amplification::NotKnown),
        ["tree", "honaker", "sqrt"]
    );
    for (before, after) in pending.rows.iter().zip(&r.rows) {
        let g = &after.guarantee;
        assert!(
            g.eps <= 2.0 && g.certifies_run(),
            "{}: {g:?}",
            after.kind.key()
        );
        if after.amplification == Amplification::Applied {
            assert!(after.sigma < before.sigma && after.rmse < before.rmse);
            assert!(after.lower.unwrap() <= g.eps);
            assert!(g
                .claim(4)
                .contains("cyclic Poisson sampling (q = 0.05 within 250 groups)"));
        } else {
            assert_eq!(after, before);
            assert!(g.claim(4).contains("no amplification by sampling"));
        }
    }
}

/// A ρ target: σ_G = 1/√(2ρ) (rounded up), each row's guarantee the Gaussian's ε at δ for σ/Δ.
#[test]
fn a_rho_target_is_the_gaussians() {
    let (p, _) = MfParams::from_query(&Query::parse("rho=0.125&steps=64&epochs=2"));
    let r = report(&p, None, None).unwrap();
    assert!(r.sigma_gaussian >= 2.0 && r.sigma_gaussian < 2.0 * (1.0 + 1e-15));
    assert!(r.rho <= 0.125);
    for row in &r.rows {
        let want = crate::accounting::entry::Entry::Gaussian {
            sigma: row.sigma / row.sensitivity,
        }
        .eps_for(p.delta);
        assert_eq!(row.guarantee.eps, want);
    }
}

/// The BLT optimised for the default stream (the lab's job) beats the square root's RMSE, and
/// Honaker's estimator the plain tree's.
#[test]
fn the_optimised_blt_and_honakers_tree_earn_their_rows() {
    let p = MfParams::default();
    let mut found = None;
    jobs::run(
        jobs::MfJob::Blt {
            steps: p.steps,
            participation: p.participation(),
        },
        &mut |u| {
            if let jobs::MfUpdate::Blt(b) = u {
                found = Some(b);
            }
        },
    );
    let blt = found.unwrap();
    let r = report(&p, Some(&blt), None).unwrap();
    let row = |k: Kind| r.rows.iter().find(|row| row.kind == k).unwrap();
    assert!(row(Kind::Blt).rmse < row(Kind::Sqrt).rmse, "{blt:?}");
    assert!(row(Kind::Honaker).rmse < 0.8 * row(Kind::Tree).rmse);
    assert!(row(Kind::Blt).name.contains("buffers"));
}

/// The heat maps: the square root's decoder is C itself (C·C = A); the tree's B·C is A.
#[test]
fn heat_maps_draw_the_factorisations() {
    let p = MfParams::default();
    let h = heat_maps(&p, None).unwrap();
    assert_eq!((h.steps, h.c_rows), (HEAT_STEPS, HEAT_STEPS));
    for (c, b) in h.c.iter().zip(h.b.as_ref().unwrap()) {
        assert!((c - b).abs() < 1e-12);
    }
    let tree = MfParams {
        matrix: Kind::Tree,
        steps: 16,
        ..MfParams::default()
    };
    let h = heat_maps(&tree, None).unwrap();
    let (m, nodes) = (h.steps, h.c_rows);
    assert_eq!((m, nodes), (16, 31));
    let b = h.b.unwrap();
    for i in 0..m {
        for j in 0..m {
            let bc: f64 = (0..nodes).map(|r| b[i * nodes + r] * h.c[r * m + j]).sum();
            assert_eq!(bc, if j <= i { 1.0 } else { 0.0 }, "({i}, {j})");
        }
    }
    let honaker = MfParams {
        matrix: Kind::Honaker,
        ..tree
    };
    assert!(heat_maps(&honaker, None).unwrap().b.is_none());
    let blt = MfParams {
        matrix: Kind::Blt,
        ..MfParams::default()
    };
    assert!(heat_maps(&blt, None).is_none());
}
