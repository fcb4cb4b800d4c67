//! Balls in bins' certified upper bound (src/accounting/samplers/allocation/) against
//! scripts/reference/allocation_reference.py (its JSON beside it): the exact one-epoch ε of two steps by
//! quadrature in mpmath, and Feldman & Shenfeld's own upper bounds from their `random-allocation`
//! package 1.0.5; plus the checks that need no reference (one step is the Gaussian; every lower bound
//! and cyclic's exact ε bracket it; more noise never raises it).

use dp_playground::accounting::entry::Entry;
use dp_playground::accounting::samplers::allocation::{
    allocation_epsilon, allocation_replace_one_epsilon, RatioLaw,
};
use dp_playground::accounting::samplers::{sampler_epsilon, Kind, Sampler, SamplerSetting};
use dp_playground::mechanisms::gaussian::Gaussian;

const DELTA: f64 = 1e-5;

/// mpmath at 30 digits, quadrature of E[(Λ − e^ε)₊] and E[(1 − e^ε Λ)₊] with Λ = (Y₁ + Y₂)/2
/// (allocation_reference.json, "t2_exact"): (σ, remove ε, add ε) at δ = 10⁻⁵.
const TWO_STEPS: [(f64, f64, f64); 3] = [
    (0.8, 4.989959654837882, 4.029362692464685),
    (1.0, 3.6973852125403908, 3.0797325884857525),
    (2.0, 1.461945332117498, 1.380546813055099),
];

#[test]
fn two_steps_match_the_quadrature_from_above() {
    for (sigma, remove, add) in TWO_STEPS {
        let exact = remove.max(add);
        let ours = allocation_epsilon(2, sigma, 1, DELTA, 1e-4).unwrap();
        assert!(
            ours >= exact && ours - exact < 5e-5 * exact,
            "σ {sigma}: ours {ours}, exact {exact}"
        );
    }
}

#[test]
fn one_step_profiles_lie_above_the_gaussians_and_close_to_them() {
    // t = 1: Λ = Y, the Gaussian mechanism, both directions. The general law (not the closed form
    // allocation_epsilon takes at t = 1) must bound its profile from above at every ε.
    for sigma in [0.7, 1.0, 3.0] {
        let law = RatioLaw::new(1, sigma, 1, 1e-12).unwrap();
        let gauss = Gaussian::new(sigma, 1.0).unwrap();
        for k in -20..=60 {
            let eps = f64::from(k) / 10.0;
            let exact = gauss.delta(eps);
            let (remove, add) = (law.remove_delta(eps), law.add_delta(eps));
            assert!(
                remove >= exact && add >= exact,
                "σ {sigma} ε {eps}: {remove} {add} < {exact}"
            );
            // Close, apart from the allowance for the FFT's rounding (its ℓ² bound times the weights'
            // norm: ~1e-9 absolute at σ = 1, 1.7e-6 at σ = 0.7, whose heavy tail takes 10⁶ points).
            if exact > 1e-8 && sigma >= 1.0 {
                assert!(
                    remove <= exact * 1.01 + 2e-9,
                    "σ {sigma} ε {eps}: {remove} vs {exact}"
                );
            }
        }
    }
    // And the closed form at t = 1 is the Gaussian at σ/√E.
    let e = allocation_epsilon(1, 2.0, 4, DELTA, 1e-4).unwrap();
    assert_eq!(e, Entry::Gaussian { sigma: 1.0 }.eps_for(DELTA));
}

/// Feldman & Shenfeld's `random-allocation` 1.0.5 (allocation_reference.json): (t, σ, E, ε), their
/// decomposition bound (one epoch) and recursive bound (several), both directions, δ = 10⁻⁵.
const FELDMAN_SHENFELD: [(u64, f64, u64, f64); 6] = [
    (10, 1.0, 1, 3.380318549704409),
    (100, 1.0, 1, 1.0297780699797692),
    (234, 1.1, 1, 0.4703801529178367),
    (100, 2.0, 1, 0.2961936865135096),
    (234, 1.1, 60, 7.498855487175876),
    (100, 1.0, 10, 9.428420904170853),
];

#[test]
fn tighter_than_feldman_and_shenfelds_analytic_bounds() {
    for (t, sigma, epochs, theirs) in FELDMAN_SHENFELD {
        let ours = allocation_epsilon(t, sigma, epochs, DELTA, 1e-4).unwrap();
        assert!(
            ours < theirs,
            "t {t} σ {sigma} E {epochs}: ours {ours}, theirs {theirs}"
        );
    }
}

fn setting(q: f64, sigma: f64, steps: u64) -> SamplerSetting {
    SamplerSetting {
        q,
        sigma,
        replace_one: false,
        steps,
        delta: DELTA,
        interval: 1e-4,
        n: 60_000,
        cap: 60_000,
    }
}

#[test]
fn bracketed_by_the_lower_bound_and_cyclic_and_monotone_in_sigma() {
    // Cyclic batches reveal the record's step; balls in bins hide it among t, so their ε is at most
    // cyclic's exact ε over the same ⌈T/b⌉ epochs.
    for (q, sigma, steps) in [
        (0.01, 1.0, 500),
        (0.1, 3.0, 5000),
        (0.004, 0.7, 500),
        (0.05, 1.5, 2000),
    ] {
        let s = setting(q, sigma, steps);
        let balls = sampler_epsilon(&s, Sampler::Balls).unwrap();
        let cyclic = sampler_epsilon(&s, Sampler::Cyclic).unwrap().lower;
        let upper = balls.upper.unwrap();
        assert_eq!(balls.kind, Kind::Upper);
        assert!(
            balls.lower <= upper && upper <= cyclic * (1.0 + 1e-6),
            "{balls:?} {cyclic}"
        );
        let noisier = sampler_epsilon(&setting(q, sigma * 1.05, steps), Sampler::Balls).unwrap();
        assert!(noisier.upper.unwrap() < upper, "{noisier:?} {balls:?}");
    }
}

#[test]
fn abadi_et_als_settings_come_out_close_to_poisson() {
    // The spec: "close to Poisson with q = 1/t, slightly below" (here with ⌈T/b⌉ = 61 epochs against
    // Poisson's 60.1).
    let s = setting(256.0 / 60000.0, 1.1, 14063);
    let balls = sampler_epsilon(&s, Sampler::Balls).unwrap().upper.unwrap();
    let poisson = sampler_epsilon(&s, Sampler::Poisson)
        .unwrap()
        .upper
        .unwrap();
    assert!(
        balls < poisson && balls > 0.95 * poisson,
        "{balls} {poisson}"
    );
}

#[test]
fn tiny_noise_falls_back_to_the_lower_bound_and_huge_noise_is_tiny() {
    let tiny = sampler_epsilon(&setting(0.01, 0.3, 100), Sampler::Balls).unwrap();
    assert_eq!((tiny.kind, tiny.upper), (Kind::Lower, None));
    let huge = sampler_epsilon(&setting(0.01, 1e4, 1000), Sampler::Balls).unwrap();
    assert!(huge.upper.unwrap() < 1e-3, "{huge:?}");
    // Many steps per epoch: the window follows the sum instead of starting at 0.
    let wide = sampler_epsilon(&setting(1e-7, 1.0, 20_000_000), Sampler::Balls).unwrap();
    assert!(wide.upper.unwrap() < 0.01, "{wide:?}");
}

#[test]
fn the_composition_lists_balls_entry_composes_to_the_samplers_bound() {
    use dp_playground::accounting::entry::{format_list, parse_list};
    use dp_playground::labs::compose::ComposedPld;
    // balls:σ:t is one epoch of t steps; *E composes E epochs (its grid sized for E).
    let list = parse_list("balls:1.1:234*61").unwrap();
    assert_eq!(parse_list(&format_list(&list)).unwrap(), list);
    let band = ComposedPld::new(&list).unwrap().band(DELTA);
    let upper = allocation_epsilon(234, 1.1, 61, DELTA, 1e-4).unwrap();
    assert!(
        (band.upper / upper - 1.0).abs() < 1e-3 && band.lower <= band.upper,
        "{band:?} {upper}"
    );
    // One step per epoch is the Gaussian both ways.
    let one = ComposedPld::new(&parse_list("balls:2:1*4").unwrap())
        .unwrap()
        .band(DELTA);
    let gauss = Entry::Gaussian { sigma: 1.0 }.eps_for(DELTA);
    assert!(
        (one.upper - gauss).abs() < 1e-3 && one.lower <= gauss,
        "{one:?} {gauss}"
    );
    for bad in [
        "balls:0:10",
        "balls:1:2.5",
        "balls:1",
        "balls:1:0",
        "balls:nan:3",
    ] {
        assert!(parse_list(bad).is_err(), "{bad}");
    }
}

/// Feldman & Shenfeld's numerical PLD accountant, `PLD_accounting` 2.0's
/// `gaussian_allocation_epsilon_range` (allocation_reference.json, "pld_accounting"): (t, σ, E, its
/// lower, its upper), δ = 10⁻⁵. Both ends are certified, so the exact ε, and our upper bound above it,
/// lie between its lower end and ours; ours is the tighter upper bound.
const PLD_ACCOUNTING: [(u64, f64, u64, f64, f64); 4] = [
    (2, 1.0, 1, 3.655697772432379, 3.7367726495538904),
    (10, 1.0, 1, 2.166168564357366, 2.2089584288875757),
    (100, 0.8, 1, 1.3573879507071223, 1.392888407488369),
    (100, 1.0, 10, 1.6644107528241772, 1.7398246227821421),
];

#[test]
fn inside_feldman_and_shenfelds_numerical_bracket() {
    for (t, sigma, epochs, lower, upper) in PLD_ACCOUNTING {
        let ours = allocation_epsilon(t, sigma, epochs, DELTA, 1e-4).unwrap();
        assert!(
            lower <= ours && ours <= upper,
            "t {t} σ {sigma} E {epochs}: ours {ours}, theirs [{lower}, {upper}]"
        );
    }
}

#[test]
fn the_rounded_laws_second_moment_is_the_order_two_renyi_moment() {
    // The samplers spec: at order 2 the remove direction's Rényi divergence is
    // ln(1 + (e^{1/σ²} − 1)/t), i.e. E_Q[Λ²] = 1 + (e^{1/σ²} − 1)/t in closed form. The rounded law
    // adds at most w²/(4t) (its spread), the truncation removes a negligible tail.
    for (t, sigma) in [(2u64, 1.0), (10, 1.5), (234, 1.1), (1000, 3.0)] {
        let law = RatioLaw::new(t, sigma, 1, 1e-12).unwrap();
        let exact = 1.0 + (1.0 / (sigma * sigma)).exp_m1() / t as f64;
        let ours = law.second_moment();
        assert!(
            (ours / exact - 1.0).abs() < 1e-3,
            "t {t} σ {sigma}: E[Λ²] {ours} against {exact}"
        );
    }
}

/// δ(ε) of one epoch of two steps under replace-one, by a midpoint rule on a 2-D grid (no reference
/// package needed): P = ½N(e₁, σ²I) + ½N(e₂, σ²I) against Q = ½N(−e₁, σ²I) + ½N(−e₂, σ²I).
fn two_step_replace_one_delta(sigma: f64, eps: f64) -> f64 {
    let (span, n) = (14.0 * sigma + 2.0, 2400);
    let h = 2.0 * span / n as f64;
    let phi =
        |z: f64| (-0.5 * (z / sigma).powi(2)).exp() / (sigma * (2.0 * std::f64::consts::PI).sqrt());
    let mut delta = 0.0;
    for i in 0..n {
        let x = -span + (i as f64 + 0.5) * h;
        for j in 0..n {
            let y = -span + (j as f64 + 0.5) * h;
            let p = 0.5 * (phi(x - 1.0) * phi(y) + phi(x) * phi(y - 1.0));
            let q = 0.5 * (phi(x + 1.0) * phi(y) + phi(x) * phi(y + 1.0));
            delta += (p - eps.exp() * q).max(0.0);
        }
    }
    delta * h * h
}

#[test]
fn replace_one_is_certified_against_the_two_step_integral_and_bracketed() {
    // Two steps, one epoch: at our ε the pair's exact δ (a 2-D integral) is at most δ.
    for sigma in [0.8, 1.5] {
        let ours = allocation_replace_one_epsilon(2, sigma, 1, DELTA, 1e-4).unwrap();
        let exact_delta = two_step_replace_one_delta(sigma, ours);
        assert!(
            exact_delta <= DELTA * 1.001,
            "σ {sigma}: δ at our ε {ours} is {exact_delta}"
        );
    }
    // One step: x and x′ share it, the Gaussian with sensitivity 2 (closed form), exactly.
    let one = allocation_replace_one_epsilon(1, 2.0, 4, DELTA, 1e-4).unwrap();
    let gauss = Entry::Gaussian { sigma: 0.5 }.eps_for(DELTA);
    assert_eq!(one, gauss);
    // Abadi et al.'s settings: above the lower bound (the largest batch sum's pair), and below cyclic's
    // exact ε (both through sampler_epsilon), and above the add/remove bound.
    for sigma in [1.1, 4.0] {
        let s = SamplerSetting {
            q: 1.0 / 234.0,
            sigma,
            steps: 234 * 61,
            replace_one: true,
            delta: DELTA,
            interval: 1e-4,
            n: 60_000,
            cap: 60_000,
        };
        let balls = sampler_epsilon(&s, Sampler::Balls).unwrap();
        let cyclic = sampler_epsilon(&s, Sampler::Cyclic).unwrap();
        let upper = balls.upper.unwrap();
        assert_eq!(balls.kind, Kind::Upper);
        assert!(
            balls.lower <= upper && upper <= cyclic.upper.unwrap(),
            "{balls:?} {cyclic:?}"
        );
        let add_remove = allocation_epsilon(234, sigma, 61, DELTA, 1e-4).unwrap();
        assert!(upper >= add_remove, "{upper} < {add_remove}");
    }
}
