//! User-level privacy, hyperparameter tuning and schedules against
//! scripts/reference/users_tuning_reference.py (dp_accounting 0.6.0 and mpmath; each table's source
//! in tests/reference/users_tuning.rs): upper bounds against upper bounds.

// Generated tables: one tuple per row, as the script writes them.
#[allow(clippy::type_complexity)]
#[path = "reference/users_tuning.rs"]
mod reference;

use dp_playground::accounting::pld::Direction;
use dp_playground::accounting::rdp::tuning::{gamma_for_mean, tuned_rdp, Tuning};
use dp_playground::accounting::rdp::{default_orders, dpsgd_rdp, rdp_to_approx_dp, Conversion};
use dp_playground::accounting::samplers::schedule::{schedule_band, schedule_rdp, Phase};
use dp_playground::accounting::samplers::users::{user_epsilon, UserMixture};
use reference::*;

#[test]
fn the_user_level_profile_is_the_integral() {
    for &(k, q, sigma, eps, remove, add) in USERS_PROFILE {
        let m = UserMixture::new(k as u32, q, sigma).unwrap();
        for (direction, want) in [(Direction::Remove, remove), (Direction::Add, add)] {
            let ours = m.delta(eps, direction);
            assert!(
                (ours - want).abs() <= 1e-300 + 1e-9 * want,
                "k {k} q {q} σ {sigma} ε {eps} {direction:?}: {ours} vs mpmath {want}"
            );
        }
    }
}

#[test]
fn user_level_epsilons_match_dp_accounting() {
    // Upper bounds against upper bounds: the same to the grids (1e-4, widened for long runs); our
    // lower bound never above dp_accounting's upper bound.
    for (i, &(k, q, sigma, steps, delta, upper)) in USERS_PLD_UPPER.iter().enumerate() {
        let ours = user_epsilon(k as u32, q, sigma, steps, delta, 1e-4).unwrap();
        assert!(
            (ours.mixture.upper / upper - 1.0).abs() < 1e-3,
            "k {k}: {:?} vs {upper}",
            ours.mixture
        );
        assert!(ours.mixture.lower <= upper * (1.0 + 1e-9));
        let together = USERS_TOGETHER_UPPER[i];
        assert_eq!((together.0, together.3), (k, steps));
        assert!(
            (ours.together.upper / together.5 - 1.0).abs() < 1e-3,
            "k {k}: {:?}",
            ours.together
        );
        // The group lemma: the same search on a different grid; both certified.
        let group = GROUP_LEMMA[i];
        assert_eq!((group.0, group.3), (k, steps));
        assert!(
            (ours.group / group.5 - 1.0).abs() < 2e-3,
            "k {k}: {} vs {}",
            ours.group,
            group.5
        );
        if k == 1 {
            assert!((ours.mixture.upper - ours.together.upper).abs() < 1e-6);
        }
    }
}

#[test]
fn tuning_matches_dp_accountings_repeat_and_select_order_by_order() {
    let orders = default_orders();
    assert_eq!(orders, RDP_ORDERS);
    for &(mean, shape, gamma) in TUNING_GAMMA {
        let ours = if shape == 1.0 {
            1.0 / mean
        } else {
            gamma_for_mean(shape, mean)
        };
        assert!(
            (ours / gamma - 1.0).abs() < 2e-9,
            "η {shape} mean {mean}: {ours} vs {gamma}"
        );
    }
    let (q, sigma, steps, mean, shape, _) = TUNING_RDP_CURVE_CASE;
    let base = dpsgd_rdp(q, sigma, steps as f64, &orders);
    let tuned = tuned_rdp(&orders, &base, Tuning::NegativeBinomial { shape, mean });
    for (i, &(order, base_rdp, tuned_rdp)) in TUNING_RDP_CURVE.iter().enumerate() {
        assert_eq!(order, orders[i]);
        assert!(
            (base[i] / base_rdp - 1.0).abs() < 1e-9,
            "α {order}: {} vs {base_rdp}",
            base[i]
        );
        assert!(
            (tuned[i] / tuned_rdp - 1.0).abs() < 1e-9,
            "α {order}: {} vs {tuned_rdp}",
            tuned[i]
        );
    }
    for &(q, sigma, steps, mean, shape, delta, eps_tuned, eps_single, eps_naive) in TUNING_RDP {
        let tuning = if shape.is_infinite() {
            Tuning::Poisson { mean }
        } else {
            Tuning::NegativeBinomial { shape, mean }
        };
        let base = dpsgd_rdp(q, sigma, steps as f64, &orders);
        let eps = |curve: &[f64]| {
            rdp_to_approx_dp(&orders, curve, delta, Conversion::Improved)
                .unwrap()
                .0
        };
        let naive: Vec<f64> = base.iter().map(|r| r * mean.ceil()).collect();
        for (ours, want) in [
            (eps(&tuned_rdp(&orders, &base, tuning)), eps_tuned),
            (eps(&base), eps_single),
            (eps(&naive), eps_naive),
        ] {
            assert!(
                (ours / want - 1.0).abs() < 1e-8,
                "{tuning:?} q {q}: {ours} vs {want}"
            );
        }
    }
}

#[test]
fn a_tuned_pure_base_as_dp_accounting_computes_it() {
    // Laplace's RDP (Mironov 2017, Proposition 6), tuned: dp_accounting's values on its orders.
    let orders = default_orders();
    for &(eps_base, shape, mean, delta, eps_tuned) in TUNING_PURE {
        let rdp: Vec<f64> = orders
            .iter()
            .map(|&a| {
                eps_base
                    + ((a - 1.0) * (eps_base * (1.0 - 2.0 * a)).exp_m1() / (2.0 * a - 1.0)).ln_1p()
                        / (a - 1.0)
            })
            .collect();
        let tuned = tuned_rdp(&orders, &rdp, Tuning::NegativeBinomial { shape, mean });
        let ours = rdp_to_approx_dp(&orders, &tuned, delta, Conversion::Improved)
            .unwrap()
            .0;
        assert!(
            (ours / eps_tuned - 1.0).abs() < 1e-6,
            "ε {eps_base} η {shape}: {ours} vs {eps_tuned}"
        );
    }
}

#[test]
fn schedules_match_dp_accounting() {
    for (pld, rdp) in SCHEDULE_PLD_UPPER.iter().zip(SCHEDULE_RDP) {
        let phases: Vec<Phase> = pld
            .0
            .iter()
            .map(|&(q, sigma, steps)| Phase { q, sigma, steps })
            .collect();
        let band = schedule_band(&phases, pld.1, 1e-4).unwrap();
        assert!(
            (band.upper / pld.2 - 1.0).abs() < 1e-3,
            "{band:?} vs {}",
            pld.2
        );
        assert!(band.lower <= pld.2 * (1.0 + 1e-9));
        let ours = schedule_rdp(&phases, rdp.1, false).unwrap();
        assert!((ours / rdp.2 - 1.0).abs() < 1e-8, "{ours} vs {}", rdp.2);
    }
}
