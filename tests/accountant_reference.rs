//! Our accountants against reference values computed by `scripts/reference/accountants.py`
//! (dp_accounting 0.6.0 and mpmath at 50 digits; the values are in `tests/reference/accountants.rs`).
//!
//! - PLD: the exact ε lies in our band [lower, upper]; dp_accounting's pessimistic ε is also an upper
//!   bound, so our lower bound is never above it, and its optimistic ε (privacy buckets, rounding down)
//!   is never above our upper bound. Our upper side and theirs use the same discretization.
//! - Kairouz–Oh–Viswanath: our optimum agrees with mpmath's exact one, and never falls below it.
//! - Fractional RDP orders: our integral agrees with mpmath's quadrature and never falls below it;
//!   dp_accounting's series is never below either.
//! - σ for a target ε by the PLD: ours meets the target and needs no more noise than dp_accounting's.
//! - Continuous orders: our zCDP conversion matches mpmath's minimum over all α > 1.
// An integration test crate: its helpers are test code too (clippy.toml covers only #[test] fns).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "reference/accountants.rs"]
mod reference;

use dp_playground::accounting::composition::optimal_homogeneous;
use dp_playground::accounting::entry::parse_list;
use dp_playground::accounting::pld::{dpsgd_epsilon, sigma_for_epsilon, DEFAULT_INTERVAL};
use dp_playground::accounting::rdp::step_rdp;
use dp_playground::accounting::rdp::tight::{epsilon_continuous, step_rdp_exact};
use dp_playground::labs::compose::ComposedPld;
use reference::*;

#[test]
fn pld_band_brackets_dp_accountings_pair() {
    for &(list, delta, pessimistic, optimistic) in PLD_DP_ACCOUNTING {
        let items = parse_list(list).unwrap_or_else(|e| panic!("{list}: {e}"));
        let band = ComposedPld::new(&items)
            .unwrap_or_else(|e| panic!("{list}: {e}"))
            .band(delta);
        // 1e-9 relative: both sides' floating point.
        assert!(
            band.lower <= pessimistic * (1.0 + 1e-9),
            "{list} δ {delta}: our lower {} above their upper {pessimistic}",
            band.lower
        );
        assert!(
            optimistic <= band.upper * (1.0 + 1e-9),
            "{list} δ {delta}: their lower {optimistic} above our upper {}",
            band.upper
        );
        // Same discretization on the upper side: within 0.2% (ours may use a wider grid for long runs).
        assert!(
            (band.upper / pessimistic - 1.0).abs() < 2e-3,
            "{list} δ {delta}: upper {} vs {pessimistic}",
            band.upper
        );
        eprintln!("{list:>40} δ {delta:e}: ours [{:.6}, {:.6}], dp_accounting [{optimistic:.6}, {pessimistic:.6}]", band.lower, band.upper);
    }
}

#[test]
fn kov_optimum_matches_mpmath() {
    for &(eps, k, delta, exact) in KOV_EXACT {
        let ours = optimal_homogeneous(eps, 0.0, k, delta).unwrap_or(f64::NAN);
        assert!(
            ours >= exact * (1.0 - 1e-12),
            "ε₀ {eps} k {k} δ {delta}: {ours} below {exact}"
        );
        assert!(
            ours <= exact * (1.0 + 1e-9),
            "ε₀ {eps} k {k} δ {delta}: {ours} vs {exact}"
        );
    }
}

#[test]
fn fractional_orders_match_mpmath_and_dp_accounting_is_looser() {
    for &(q, sigma, alpha, exact) in RDP_FRACTIONAL_EXACT {
        let ours = step_rdp_exact(q, sigma, alpha);
        assert!(
            ours >= exact * (1.0 - 1e-12),
            "q {q} σ {sigma} α {alpha}: {ours} below {exact}"
        );
        assert!(
            ours <= exact * (1.0 + 1e-8),
            "q {q} σ {sigma} α {alpha}: {ours} vs {exact}"
        );
    }
    let mut loosest: (f64, f64, f64, f64) = (1.0, 0.0, 0.0, 0.0);
    for &(q, sigma, alpha, theirs) in RDP_DP_ACCOUNTING_FRACTIONAL {
        let exact = step_rdp_exact(q, sigma, alpha);
        if theirs.is_finite() {
            assert!(
                theirs >= exact * (1.0 - 1e-9),
                "q {q} σ {sigma} α {alpha}: dp_accounting {theirs} below {exact}"
            );
            if theirs / exact > loosest.0 {
                loosest = (theirs / exact, q, sigma, alpha);
            }
        }
        // Our own grid series (the same as theirs) is never below the exact value either.
        let series = step_rdp(q, sigma, alpha);
        assert!(
            series >= exact * (1.0 - 1e-9),
            "q {q} σ {sigma} α {alpha}: series {series} below {exact}"
        );
    }
    eprintln!(
        "dp_accounting's fractional series is at most {:.3}× the exact RDP (q {}, σ {}, α {})",
        loosest.0, loosest.1, loosest.2, loosest.3
    );
}

#[test]
fn the_forward_direction_dominates_at_every_reference_setting() {
    // The RDP accountant uses D_α(P‖Q) with P the mixture (as dp_accounting and Opacus do); at these
    // settings the reverse divergence is never larger (Mironov, Talwar & Zhang 2019 prove it for the
    // sampled Gaussian), so the add/remove-one relation is covered.
    for (&(q, sigma, alpha, forward), &(q2, sigma2, alpha2, reverse)) in RDP_FRACTIONAL_EXACT
        .iter()
        .zip(RDP_FRACTIONAL_EXACT_REVERSE)
    {
        assert_eq!((q, sigma, alpha), (q2, sigma2, alpha2));
        assert!(
            reverse <= forward * (1.0 + 1e-12),
            "q {q} σ {sigma} α {alpha}: {reverse} > {forward}"
        );
    }
}

#[test]
fn sigma_for_target_by_pld_needs_no_more_noise_than_dp_accounting() {
    for &(q, steps, delta, target, theirs) in DPSGD_SIGMA_FOR_EPS_PLD {
        let ours =
            sigma_for_epsilon(q, steps, delta, target, DEFAULT_INTERVAL, theirs * 1.05).unwrap();
        let at = dpsgd_epsilon(q, ours, steps, delta, DEFAULT_INTERVAL).unwrap_or(f64::NAN);
        assert!(
            at <= target,
            "q {q} T {steps} ε {target}: ε {at} at our σ {ours}"
        );
        assert!(
            ours <= theirs * (1.0 + 1e-3),
            "q {q} T {steps} ε {target}: {ours} vs dp_accounting {theirs}"
        );
    }
}

#[test]
fn continuous_orders_match_mpmath_for_zcdp() {
    for &(rho, delta, _grid, continuous) in ZCDP_CONTINUOUS_ALPHA {
        let (ours, _) = epsilon_continuous(|a| rho * a, delta);
        assert!(
            ours >= continuous * (1.0 - 1e-12),
            "ρ {rho} δ {delta}: {ours} below {continuous}"
        );
        assert!(
            ours <= continuous * (1.0 + 1e-6),
            "ρ {rho} δ {delta}: {ours} vs {continuous}"
        );
    }
}
