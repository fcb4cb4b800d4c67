//! The batch samplers' accountants against scripts/reference/samplers_reference.py (dp_accounting 0.6.0,
//! mpmath, scipy; each table's source in tests/reference/samplers.rs), upper bounds against upper bounds
//! and lower against lower, plus the exactness checks that need no reference.

#[path = "reference/samplers.rs"]
mod reference;

use dp_playground::accounting::samplers::max_statistic::MaxPair;
use dp_playground::accounting::samplers::{
    sampler_epsilon, sampler_sigma, Kind, Sampler, SamplerSetting,
};
use reference::*;

fn setting(q: f64, sigma: f64, steps: u64, replace_one: bool) -> SamplerSetting {
    SamplerSetting {
        q,
        sigma,
        replace_one,
        steps,
        delta: 1e-5,
        interval: 1e-4,
        n: 100_000,
        cap: (1.1 * q * 100_000.0).ceil() as u64,
    }
}

#[test]
fn the_replace_one_bound_dominates_every_pair_it_must() {
    // Fixed-size batches under replace-one: our one-step profile (Balle, Barthe & Gaboardi 2018,
    // Theorem 9, on the Gaussian at σ/2) lies above the pair of data sets that attains the Poisson
    // pair at σ/2 (every other gradient −C, x's +C, x′'s −C; both ways round), and above the centred
    // pair ((1 − γ)N(0) + γN(±1)) that dp_accounting's REPLACE_ONE builds (mpmath, the reference).
    use dp_playground::accounting::entry::Entry;
    use dp_playground::accounting::pld::{subsampled_gaussian_delta, Direction};
    for &(gamma, sigma, eps, centred) in FIXED_REPLACE_PROFILE {
        let ours = Entry::WorGaussian {
            rate: gamma,
            sigma: sigma / 2.0,
        }
        .delta(eps);
        assert!(
            ours >= centred * (1.0 - 1e-12),
            "γ {gamma} σ {sigma} ε {eps}: {ours} < {centred}"
        );
        for direction in [Direction::Remove, Direction::Add] {
            let attained = subsampled_gaussian_delta(gamma, sigma / 2.0, eps, direction);
            assert!(
                ours >= attained * (1.0 - 1e-12),
                "γ {gamma} σ {sigma} ε {eps} {direction:?}: {ours} < {attained}"
            );
        }
    }
}

#[test]
fn fixed_size_bands_hold_dp_accountings_upper_bounds() {
    // Add/remove: the Poisson pair at σ/2 in both directions, as dp_accounting builds it: both sides
    // certified, so our lower bound never exceeds its upper bound and the upper bounds agree to the
    // grids. Replace-one: ours bounds every pair, so it is never below the centred pair's ε.
    for &(q, sigma, steps, delta, upper) in FIXED_ADDREMOVE_UPPER {
        assert_eq!(delta, 1e-5);
        let e = sampler_epsilon(&setting(q, sigma, steps, false), Sampler::Fixed).unwrap();
        assert_eq!(e.kind, Kind::Upper);
        assert!(
            e.lower <= upper * (1.0 + 1e-9),
            "{q} {sigma} {steps}: {} > {upper}",
            e.lower
        );
        let ours = e.upper.unwrap();
        assert!(
            (ours / upper - 1.0).abs() < 2e-3,
            "q {q} σ {sigma} T {steps}: {ours} vs {upper}"
        );
    }
    for &(q, sigma, steps, _, centred) in FIXED_REPLACE_UPPER {
        let e = sampler_epsilon(&setting(q, sigma, steps, true), Sampler::Fixed).unwrap();
        let ours = e.upper.unwrap();
        assert!(
            ours >= centred && e.lower <= ours,
            "q {q} σ {sigma} T {steps}: {e:?} vs {centred}"
        );
    }
}

#[test]
fn cyclic_is_the_gaussian_closed_form_never_below() {
    for &(q, sigma, steps, replace_one, seen, delta, eps) in CYCLIC_EXACT {
        assert_eq!(delta, 1e-5);
        let e = sampler_epsilon(&setting(q, sigma, steps, replace_one), Sampler::Cyclic).unwrap();
        assert_eq!((e.kind, e.epochs), (Kind::Exact, seen as f64));
        assert!(
            e.lower >= eps * (1.0 - 1e-12) && e.lower < eps * (1.0 + 1e-9),
            "q {q} σ {sigma} T {steps}: {} vs {eps}",
            e.lower
        );
    }
}

#[test]
fn poisson_matches_dp_accounting() {
    // Add/remove: dp_accounting's PLD, upper against upper. Replace-one: the reference's rows are the
    // σ/2 pair's (sensitivity 2), which our guarantee may only undercut (removing then adding can be
    // smaller); our lower end is the mirrored pair ((1 − q)N(0) + qN(±1), dp_accounting's REPLACE_ONE
    // at sensitivity 1, FIXED_REPLACE_UPPER), tight to the grid, and never above our upper end.
    for &(q, sigma, steps, replace_one, delta, upper) in POISSON_UPPER {
        assert_eq!(delta, 1e-5);
        let e = sampler_epsilon(&setting(q, sigma, steps, replace_one), Sampler::Poisson).unwrap();
        let ours = e.upper.unwrap();
        if !replace_one {
            assert!(e.lower <= upper * (1.0 + 1e-9));
            assert!((ours / upper - 1.0).abs() < 2e-3, "{q} {sigma} {steps}");
            continue;
        }
        let mirrored = FIXED_REPLACE_UPPER
            .iter()
            .find(|r| (r.0, r.1, r.2) == (q, sigma, steps))
            .map(|r| r.4)
            .unwrap();
        assert!(ours <= upper * (1.0 + 2e-3), "{q} {sigma} {steps}: {e:?}");
        assert!(
            e.lower <= mirrored * (1.0 + 1e-9)
                && e.lower >= mirrored * (1.0 - 2e-3)
                && e.lower <= ours,
            "{q} {sigma} {steps}: {e:?} against the mirrored pair's {mirrored}"
        );
    }
}

#[test]
fn the_max_statistic_lower_bounds_match_an_independent_scipy_computation() {
    // One epoch: scipy's best threshold on a 200,001-point grid; ours reads ε off Y binned into at least
    // 4,000 bins (no grid of losses), so it may sit a little below or above (both are lower bounds).
    for &(batches, mu_p, mu_q, sigma, delta, eps) in MAX_THRESHOLD_LOWER_ONE_EPOCH {
        let pair = MaxPair {
            batches,
            mu_p,
            mu_q,
            sigma,
        };
        let ours = pair.lower_epsilon(1, delta, 1e-4).unwrap();
        assert!(
            (ours / eps - 1.0).abs() < 2e-3,
            "b {batches} σ {sigma}: {ours} vs {eps}"
        );
    }
    // Several epochs: scipy's bins composed by dp_accounting, which rounds each loss down (its
    // optimistic estimate), so it drifts below the binned pair's ε by up to E·h (h = 1e-4). Ours lowers
    // the profile by a second-order amount instead: within that drift above it, and hardly below.
    for &(batches, mu_p, mu_q, sigma, epochs, delta, eps) in MAX_BINNED_LOWER {
        let pair = MaxPair {
            batches,
            mu_p,
            mu_q,
            sigma,
        };
        let ours = pair.lower_epsilon(epochs, delta, 1e-4).unwrap();
        assert!(
            ours > eps * (1.0 - 2e-3) && ours < eps + epochs as f64 * 1e-4,
            "b {batches} E {epochs}: {ours} vs {eps}"
        );
    }
}

#[test]
fn chua_et_al_shuffling_is_an_order_of_magnitude_above_poisson() {
    // Chua et al. (ICML 2024): σ = 1, 1,000 batches, one epoch: the shuffled sampler's ε is provably at
    // least an order of magnitude above the Poisson ε people report.
    let s = setting(0.001, 1.0, 1000, false);
    let shuffled = sampler_epsilon(&s, Sampler::Shuffle).unwrap();
    let poisson = sampler_epsilon(&s, Sampler::Poisson).unwrap();
    assert_eq!((shuffled.kind, shuffled.upper), (Kind::Lower, None));
    assert!(shuffled.lower > 10.0 * poisson.upper.unwrap());
}

#[test]
fn samplers_order_as_the_theory_says() {
    // T a whole number of epochs: every shuffled sampler is a mixture of fixed orders, so its true ε is
    // at most cyclic's exact ε, and so are its lower bounds; cyclic does not depend on b at fixed E;
    // fixed-size under add/remove is the Poisson pair at σ/2.
    for (q, sigma, epochs) in [(0.01, 1.0, 5), (0.1, 3.0, 50), (0.004, 0.7, 2)] {
        let b = (1.0f64 / q).round() as u64;
        let s = setting(q, sigma, b * epochs, false);
        let cyclic = sampler_epsilon(&s, Sampler::Cyclic).unwrap().lower;
        for sampler in [Sampler::Shuffle, Sampler::ShuffleOnce, Sampler::Balls] {
            let lower = sampler_epsilon(&s, sampler).unwrap().lower;
            assert!(
                lower > 0.0 && lower <= cyclic,
                "{sampler}: {lower} > {cyclic}"
            );
        }
        let other_b = sampler_epsilon(
            &setting(q / 2.0, sigma, 2 * b * epochs, false),
            Sampler::Cyclic,
        );
        assert_eq!(other_b.unwrap().lower, cyclic);
        let fixed = sampler_epsilon(&s, Sampler::Fixed).unwrap();
        let half = sampler_epsilon(
            &setting(q, sigma / 2.0, b * epochs, false),
            Sampler::Poisson,
        );
        assert_eq!(fixed.upper, half.unwrap().upper);
    }
}

#[test]
fn sigma_for_a_target_meets_it_for_every_sampler_with_an_upper_bound() {
    for replace_one in [false, true] {
        let s = setting(0.02, 1.0, 500, replace_one);
        for sampler in Sampler::ALL {
            let found = sampler_sigma(&s, sampler, 3.0).unwrap();
            let e = sampler_epsilon(&s, sampler).unwrap();
            let Some(sigma) = found else {
                assert_eq!(e.kind, Kind::Lower, "{sampler}");
                continue;
            };
            let at = sampler_epsilon(&SamplerSetting { sigma, ..s }, sampler)
                .unwrap()
                .headline();
            let below = sampler_epsilon(
                &SamplerSetting {
                    sigma: sigma * 0.995,
                    ..s
                },
                sampler,
            )
            .unwrap()
            .headline();
            assert!(
                at <= 3.0 && below > 3.0,
                "{sampler} {replace_one}: σ {sigma}, ε {at}, {below}"
            );
        }
    }
}

#[test]
fn ugly_inputs_give_errors_or_numbers_never_panics() {
    let base = setting(0.01, 1.0, 1000, false);
    for bad in [
        SamplerSetting {
            sigma: f64::NAN,
            ..base
        },
        SamplerSetting { delta: 0.0, ..base },
        SamplerSetting {
            delta: 1e-13,
            ..base
        },
        SamplerSetting { steps: 0, ..base },
    ] {
        for sampler in Sampler::ALL {
            assert!(sampler_epsilon(&bad, sampler).is_err(), "{sampler} {bad:?}");
        }
    }
    // Extremes: fewer steps than an epoch (no complete epoch: lower bound 0), b = 10⁷ batches, q = 1,
    // tiny and huge σ. Each is a number or a typed error.
    for odd in [
        SamplerSetting { steps: 10, ..base },
        SamplerSetting {
            q: 1e-7,
            steps: 20_000_000,
            ..base
        },
        SamplerSetting { q: 1.0, ..base },
        SamplerSetting {
            sigma: 1e-3,
            ..base
        },
        SamplerSetting { sigma: 1e4, ..base },
    ] {
        for sampler in Sampler::ALL {
            if let Ok(e) = sampler_epsilon(&odd, sampler) {
                assert!(
                    e.lower >= 0.0 && e.upper.is_none_or(|u| u >= e.lower),
                    "{sampler} {odd:?}: {e:?}"
                );
            }
        }
    }
    let short = sampler_epsilon(&SamplerSetting { steps: 10, ..base }, Sampler::Shuffle).unwrap();
    assert_eq!(short.lower, 0.0);
    assert!(sampler_sigma(&base, Sampler::Fixed, f64::NAN).is_err());
}

#[test]
fn the_composition_lists_fixed_and_users_entries_match_the_dpsgd_accountants() {
    use dp_playground::accounting::entry::{format_list, parse_list};
    use dp_playground::accounting::samplers::users::user_epsilon;
    use dp_playground::labs::compose::ComposedPld;
    // fixed:γ:σ is the replace-one fixed-size step; users:k:q:σ the user-level mixture.
    let list = parse_list("fixed:0.02:1.5*500").unwrap();
    assert_eq!(parse_list(&format_list(&list)).unwrap(), list);
    let composed = ComposedPld::new(&list).unwrap().band(1e-5);
    let sampler = sampler_epsilon(&setting(0.02, 1.5, 500, true), Sampler::Fixed).unwrap();
    assert!(
        (composed.upper / sampler.upper.unwrap() - 1.0).abs() < 1e-3,
        "{composed:?} {sampler:?}"
    );
    let list = parse_list("users:3:0.01:1*1000").unwrap();
    let composed = ComposedPld::new(&list).unwrap().band(1e-5);
    let users = user_epsilon(3, 0.01, 1.0, 1000, 1e-5, 1e-4).unwrap();
    assert!(
        (composed.upper / users.mixture.upper - 1.0).abs() < 1e-3,
        "{composed:?} {users:?}"
    );
    // trunc:n:q:B:σ is truncated Poisson's flagged pair (upper) and the pair at q_eff (lower).
    let list = parse_list("trunc:1000:0.01:12:1*1000").unwrap();
    assert_eq!(parse_list(&format_list(&list)).unwrap(), list);
    let composed = ComposedPld::new(&list).unwrap().band(1e-5);
    let truncated = sampler_epsilon(
        &SamplerSetting {
            n: 1000,
            cap: 12,
            ..setting(0.01, 1.0, 1000, false)
        },
        Sampler::Truncated,
    )
    .unwrap();
    assert!(
        (composed.upper / truncated.upper.unwrap() - 1.0).abs() < 1e-3
            && (composed.lower / truncated.lower - 1.0).abs() < 1e-2,
        "{composed:?} {truncated:?}"
    );
    for bad in [
        "trunc:0:0.1:5:1",
        "trunc:100:0.1:0:1",
        "trunc:100:0.1:5.5:1",
        "trunc:100:1.5:5:1",
        "trunc:100:0.1:5",
        "trunc:10000000000:0.5:5000000000:1",
        "fixed:0:1",
        "fixed:0.1",
        "users:0:0.1:1",
        "users:2.5:0.1:1",
        "users:3:2:1",
    ] {
        assert!(parse_list(bad).is_err(), "{bad}");
    }
}

#[test]
fn jax_privacys_published_poisson_values() {
    // jax_privacy's accounting doctests (PLD, the samplers spec): σ = 3, T = 512, q = 0.1, δ = 10⁻⁶:
    // ε = 3.769686581455342; σ for ε = 1 is 9.661830163438806; the largest T for ε = 2 at σ = 3 is
    // 155. Ours on the same grid width (1e-4), as certified bounds: the band holds ε, σ is within the
    // searches' tolerance, and T = 155 meets ε = 2 while 156 does not.
    use dp_playground::accounting::pld::{dpsgd_epsilon_band, sigma_for_epsilon};
    let band = dpsgd_epsilon_band(0.1, 3.0, 512, 1e-6, 1e-4).unwrap();
    assert!(
        band.lower <= 3.769686581455342 + 1e-6
            && (band.upper / 3.769686581455342 - 1.0).abs() < 1e-3,
        "{band:?}"
    );
    let sigma = sigma_for_epsilon(0.1, 512, 1e-6, 1.0, 1e-4, 9.0).unwrap();
    assert!((sigma / 9.661830163438806 - 1.0).abs() < 1e-3, "σ {sigma}");
    let at = |t| dpsgd_epsilon_band(0.1, 3.0, t, 1e-6, 1e-4).unwrap().upper;
    assert!(at(155) <= 2.0 && at(156) > 2.0, "{} {}", at(155), at(156));
}

#[test]
fn poisson_under_replace_one_is_the_better_of_two_guarantees_above_two_pairs_that_happen() {
    // Upper end: the smaller of the one-step route's ε and removing then adding at σ. Lower end: the
    // larger of the add/remove pair's lower ε at σ (a zero-gradient replacement) and the mirrored
    // pair's.
    use dp_playground::accounting::pld::{
        dpsgd_epsilon_band, dpsgd_plds, dpsgd_plds_replace_one, remove_then_add,
    };
    let s = setting(256.0 / 60000.0, 1.1, 14063, true);
    let e = sampler_epsilon(&s, Sampler::Poisson).unwrap();
    let at_sigma = dpsgd_epsilon_band(s.q, 1.1, s.steps, s.delta, s.interval).unwrap();
    let one_step = dpsgd_plds_replace_one(s.q, 1.1, s.steps, s.delta, s.interval)
        .unwrap()
        .one_step[0]
        .epsilon_for_delta(s.delta);
    let (upper, _) = dpsgd_plds(s.q, 1.1, s.steps, s.delta, s.interval).unwrap();
    let through = remove_then_add(&upper[0], &upper[1], s.delta);
    assert_eq!(e.upper, Some(one_step.min(through)));
    // Abadi et al.'s settings: removing then adding (5.10) is below the one-step route (5.74; the
    // σ/2 pair before it, 14.72), at most the two directions' ε added at split δ, and above the
    // mirrored pair (dp_accounting, 4.2215).
    assert!(through < 0.9 * one_step && through > 4.2215, "{through}");
    assert!(
        e.lower >= at_sigma.lower && e.lower > 4.21 && e.lower <= 4.2216,
        "{e:?}"
    );
}

#[test]
fn the_mirrored_pair_profile_matches_mpmath() {
    // The profile in closed form (the likelihood-ratio threshold as a quadratic's root) against the
    // reference's quadrature, and the mirror symmetry δ(−ε) = 1 − e^{−ε} + e^{−ε}δ(ε).
    use dp_playground::accounting::pld::replace_one::replace_pair_delta;
    for &(gamma, sigma, eps, exact) in FIXED_REPLACE_PROFILE {
        let ours = replace_pair_delta(gamma, sigma, eps);
        assert!(
            (ours / exact - 1.0).abs() < 1e-10,
            "γ {gamma} σ {sigma} ε {eps}: {ours} vs {exact}"
        );
        let mirrored = -(-eps).exp_m1() + (-eps).exp() * ours;
        assert!((replace_pair_delta(gamma, sigma, -eps) - mirrored).abs() < 1e-14);
    }
    // ε = 0: the total variation of two mixtures q apart at ±1, q·(2Φ(1/σ) − 1).
    let tv = 0.3 * (2.0 * dp_playground::numerics::special::normal_cdf(1.0 / 0.7) - 1.0);
    assert!((replace_pair_delta(0.3, 0.7, 0.0) - tv).abs() < 1e-14);
}

#[test]
fn removing_then_adding_is_never_below_the_exact_gaussian() {
    // At q = 1 replace-one is exactly the Gaussian with sensitivity 2 (closed form, Balle & Wang
    // 2018): removing then adding is a certified bound on it, so never below; the σ/2 pair is it.
    use dp_playground::accounting::entry::Entry;
    use dp_playground::accounting::pld::{dpsgd_plds, dpsgd_replace_one_band, remove_then_add};
    for (sigma, steps) in [(3.0, 10u64), (1.0, 1), (10.0, 300)] {
        let exact = Entry::Gaussian {
            sigma: sigma / (2.0 * (steps as f64).sqrt()),
        }
        .eps_for(1e-5);
        let (upper, _) = dpsgd_plds(1.0, sigma, steps, 1e-5, 1e-4).unwrap();
        let through = remove_then_add(&upper[0], &upper[1], 1e-5);
        let band = dpsgd_replace_one_band(1.0, sigma, steps, 1e-5, 1e-4).unwrap();
        assert!(
            through >= exact && band.lower <= exact && band.upper >= exact,
            "σ {sigma} T {steps}: {through} {band:?} vs {exact}"
        );
        assert!(band.upper / exact - 1.0 < 1e-3, "{band:?} vs {exact}");
    }
}

#[test]
fn replace_one_needs_only_the_half_sigma_pair_and_stays_ordered_at_the_extremes() {
    // Wherever the σ/2 pair's band exists, the replace-one band does, ordered, and no higher than the
    // σ/2 route's own bound (the symmetric pair composed).
    use dp_playground::accounting::pld::{
        dpsgd_epsilon_band, dpsgd_plds_replace_one, dpsgd_replace_one_band,
    };
    for sigma in [0.5, 30.0] {
        for q in [1e-6, 0.3, 0.999, 1.0] {
            for steps in [1u64, 1000] {
                let Ok(half) = dpsgd_epsilon_band(q, sigma / 2.0, steps, 1e-5, 1e-4) else {
                    continue;
                };
                let band = dpsgd_replace_one_band(q, sigma, steps, 1e-5, 1e-4).unwrap();
                let route = dpsgd_plds_replace_one(q, sigma, steps, 1e-5, 1e-4)
                    .unwrap()
                    .one_step[0]
                    .epsilon_for_delta(1e-5);
                assert!(
                    band.lower <= band.upper && band.upper <= route && band.lower >= 0.0,
                    "q {q} σ {sigma} T {steps}: {band:?} {half:?} {route}"
                );
            }
        }
    }
}
