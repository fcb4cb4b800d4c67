//! The audit of issue 13: every entry kind's privacy profile against direct numerical integration or
//! exact sums over its whole range (ε below −ε₀, near 0, large; δ down to 1e-300), the class checks
//! every privacy profile must pass, and the two defects that shipped, pinned.

use super::*;
use crate::accounting::entry::*;
use crate::mechanisms::hockey_stick_by_midpoint;

/// Σ_j (P_j − e^ε Q_j)₊ over a finite output space: the definition, for discrete pairs.
fn hockey_discrete(p: &[f64], q: &[f64], eps: f64) -> f64 {
    p.iter()
        .zip(q)
        .map(|(a, b)| (a - eps.exp() * b).max(0.0))
        .sum()
}

fn entry(s: &str) -> Entry {
    parse_list(s).unwrap_or_else(|e| panic!("{s}: {e}"))[0].entry
}

/// ε values from −3ε₀ to 3ε₀ plus the edges, for a mechanism of scale ε₀.
fn range(e0: f64) -> Vec<f64> {
    let mut v: Vec<f64> = (-30..=30).map(|k| e0 * k as f64 / 10.0).collect();
    v.extend([-e0 - 1e-9, -e0 + 1e-9, e0 - 1e-9, 1e-9, -1e-9, 50.0 * e0]);
    v
}

#[test]
fn laplace_matches_integration_below_minus_eps0_and_everywhere() {
    for e0 in [0.01, 0.37, 2.0] {
        let lap = entry(&format!("lap:{e0}"));
        // Scale 1/ε₀, shift 1: densities on [−60/ε₀, 60/ε₀ + 1], panels of 1e-4/ε₀ (error ≪ 1e-6).
        let b = 1.0 / e0;
        let p = |y: f64| (-(y.abs()) / b).exp() / (2.0 * b);
        let q = |y: f64| (-((y - 1.0).abs()) / b).exp() / (2.0 * b);
        for eps in range(e0) {
            let num = hockey_stick_by_midpoint(
                p,
                q,
                eps,
                -60.0 * b,
                1e-4 * b,
                1_200_000 + (1e4 * e0) as usize,
            );
            let ours = lap.delta(eps);
            assert!(
                (ours - num).abs() < 2e-6,
                "ε₀ {e0} ε {eps}: {ours} vs {num}"
            );
        }
    }
}

#[test]
fn gaussian_matches_integration() {
    for sigma in [0.5, 3.0] {
        let g = entry(&format!("gauss:{sigma}"));
        let pdf = |y: f64, m: f64| {
            (-(y - m).powi(2) / (2.0 * sigma * sigma)).exp()
                / (sigma * (2.0 * std::f64::consts::PI).sqrt())
        };
        for eps in range(1.0 / (sigma * sigma)) {
            let num = hockey_stick_by_midpoint(
                |y| pdf(y, 0.0),
                |y| pdf(y, 1.0),
                eps,
                -40.0 * sigma,
                1e-4 * sigma,
                800_000,
            );
            assert!(
                (g.delta(eps) - num).abs() < 1e-7,
                "σ {sigma} ε {eps}: {} vs {num}",
                g.delta(eps)
            );
        }
    }
}

#[test]
fn randomized_response_and_raw_pairs_match_their_sums() {
    for (e, k) in [(1.0f64, 2u32), (0.3, 4), (2.5, 10), (8.0, 3)] {
        let rr = if k == 2 {
            entry(&format!("rr:{e}"))
        } else {
            entry(&format!("rr:{e}:{k}"))
        };
        let z = e.exp() + f64::from(k) - 1.0;
        let mut p = vec![1.0 / z; k as usize];
        let mut q = p.clone();
        p[0] = e.exp() / z;
        q[1] = e.exp() / z;
        for eps in range(e) {
            let want = hockey_discrete(&p, &q, eps);
            assert!(
                (rr.delta(eps) - want).abs() < 1e-14,
                "rr {e}:{k} ε {eps}: {} vs {want}",
                rr.delta(eps)
            );
        }
    }
    // (ε, δ): Kairouz, Oh & Viswanath's pair P = (δ, (1−δ)e^ε/(1+e^ε), (1−δ)/(1+e^ε), 0), Q reversed.
    for (e, d) in [(0.5f64, 1e-6f64), (0.0, 1e-3), (3.0, 0.2)] {
        let raw = entry(&format!("dp:{e}:{d}"));
        let (a, c) = (
            (1.0 - d) * e.exp() / (1.0 + e.exp()),
            (1.0 - d) / (1.0 + e.exp()),
        );
        let (p, q) = ([d, a, c, 0.0], [0.0, c, a, d]);
        for eps in range(e.max(0.1)) {
            let want = hockey_discrete(&p, &q, eps);
            assert!(
                (raw.delta(eps) - want).abs() < 1e-14,
                "dp {e}:{d} ε {eps}: {} vs {want}",
                raw.delta(eps)
            );
        }
    }
}

#[test]
fn every_profile_is_a_valid_hockey_stick_curve() {
    // In x = e^ε every profile is convex and non-increasing, with (1 − x)₊ ≤ δ ≤ 1: checked on a grid
    // through every kind's whole range, negative ε included.
    for s in [
        "lap:0.3",
        "gauss:0.7",
        "rr:1",
        "rr:1.5:6",
        "sgauss:0.05:0.8",
        "dp:0.4:0.001",
        "wor:0.2:1:0.0001",
        "wor:0.1:gauss:1.2",
        "wor:0.3:rr:2:5",
    ] {
        let e = entry(s);
        let xs: Vec<f64> = (0..4000).map(|i| -6.0 + 12.0 * i as f64 / 3999.0).collect();
        let ds: Vec<f64> = xs.iter().map(|&x| e.delta(x)).collect();
        for (i, (&x, &d)) in xs.iter().zip(&ds).enumerate() {
            assert!(
                d.is_finite() && d <= 1.0 && d >= -x.exp_m1() - 1e-12,
                "{s} ε {x}: δ {d}"
            );
            if i > 0 {
                assert!(d <= ds[i - 1] + 1e-14, "{s} ε {x}: δ rises");
            }
            if i > 0 && i + 1 < xs.len() {
                let (x0, x1, x2) = (xs[i - 1].exp(), x.exp(), xs[i + 1].exp());
                let chord = ds[i - 1] + (ds[i + 1] - ds[i - 1]) * (x1 - x0) / (x2 - x0);
                assert!(
                    d <= chord + 1e-12,
                    "{s} ε {x}: not convex in e^ε ({d} > {chord})"
                );
            }
        }
    }
}

#[test]
fn epsilon_for_tiny_delta_down_to_1e_300() {
    for s in [
        "gauss:0.7",
        "sgauss:0.05:0.8",
        "sgauss:0.001:3",
        "wor:0.1:gauss:1.2",
        "dp:0.4:0.001",
        "lap:0.3",
    ] {
        let e = entry(s);
        let mut last = 0.0;
        for d in [1e-5, 1e-20, 1e-50, 1e-100, 1e-200, 1e-300] {
            let eps = e.eps_for(d);
            assert!(
                !eps.is_nan() && eps >= last,
                "{s} δ {d}: ε {eps} after {last}"
            );
            if eps.is_finite() {
                assert!(
                    e.delta(eps) <= d,
                    "{s} δ {d}: δ(ε) = {} above",
                    e.delta(eps)
                );
            }
            last = eps;
        }
        // Only (ε, δ) pairs with δ above the target have no finite ε: they have mass at +∞.
        assert_eq!(
            last.is_infinite(),
            s.starts_with("dp"),
            "{s}: ε at 1e-300 = {last}"
        );
    }
}

#[test]
fn the_two_shipped_defects_stay_fixed() {
    // Issue 13: lap:0.01*100000 at δ = 1e-5 printed a PLD ε of 0; one step alone has δ(0) = 1 − e^{−0.005}.
    let items = parse_list("lap:0.01*100000").unwrap();
    let pld = ComposedPld::new(&items).unwrap();
    let band = pld.band(1e-5);
    assert!(band.lower > 1.0 && band.lower <= band.upper, "{band:?}");
    // Advanced composition (closed form) bounds it from above: 0.01√(2·10⁵ ln 10⁵) + 10⁵·0.01(e^0.01 − 1).
    let adv = 0.01 * (2e5 * 1e5f64.ln()).sqrt() + 1e3 * 0.01f64.exp_m1();
    assert!(band.upper < adv, "{band:?} vs advanced {adv}");
    // dp:0.1:0*1000000 printed basic 10 000: counts are multipliers now.
    let a = accountants(&parse_list("dp:0.1:0*1000000").unwrap_or_default(), 1e-5);
    assert!((a.basic - 1e5).abs() < 1e-6, "basic {}", a.basic);
    let adv = 0.1 * (2e6 * 1e5f64.ln()).sqrt() + 1e5 * 0.1f64.exp_m1();
    assert!((a.advanced.unwrap_or(0.0) - adv).abs() < 1e-9 * adv);
    assert!(
        a.optimal.is_some_and(|o| o < adv),
        "KOV for k = 10⁶: {:?}",
        a.optimal
    );
}

#[test]
fn optimal_composition_survives_huge_per_run_epsilons() {
    // A Gaussian with σ = 0.001 needs ε ≈ 5·10⁵ per run at δ = 5e-4: e^ε overflowed, and the optimal
    // (KOV) ε came out as 0. It must be close to that run's ε (k = 1) and never below the exact one.
    let items = parse_list("gauss:0.001*1").unwrap_or_default();
    let a = accountants(&items, 1e-3);
    let exact = Entry::Gaussian { sigma: 0.001 }.eps_for(1e-3);
    let optimal = a.optimal.unwrap_or(f64::NAN);
    assert!(
        optimal >= exact && optimal <= 1.01 * exact,
        "{optimal} vs exact {exact}"
    );
    for (e, k) in [(800.0, 1u64), (1e3, 7), (50.0, 1000)] {
        let o = crate::accounting::composition::optimal_homogeneous(e, 0.0, k, 1e-5)
            .unwrap_or(f64::NAN);
        assert!(
            o.is_finite() && o > 0.9 * e * k as f64 - 2.0 * e,
            "ε₀ {e} k {k}: {o}"
        );
    }
}
