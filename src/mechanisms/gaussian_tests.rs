//! Tests of the Gaussian mechanism against mpmath (120 digits) and dp_accounting 0.6.0; the tables are
#![allow(clippy::excessive_precision)] // reference values as mpmath printed them
//! printed by `scripts/reference/gaussian.py`.

use super::*;

/// (ε, δ, exact smallest σ for Δ = 1 by mpmath bisection at 120 digits, dp_accounting 0.6.0
/// `gaussian_mechanism.get_sigma_gaussian(ε, δ)`).
const SIGMA_REFERENCE: &[(f64, f64, f64, f64)] = &[
    (
        1.000000e-06,
        1.000000e-01,
        3.9789302808459648,
        3.978930280845962,
    ),
    (
        1.000000e-06,
        1.000000e-05,
        38021.98146874745,
        38021.98146873988,
    ),
    (
        1.000000e-06,
        1.000000e-10,
        3062226.806319281,
        3062226.8066495745,
    ),
    (
        1.000000e-06,
        1.000000e-50,
        13604968.874069378,
        13604968.710056055,
    ),
    (
        1.000000e-06,
        1.000000e-300,
        36475988.4809531,
        36475987.53079486,
    ),
    (
        1.000000e-02,
        1.000000e-01,
        3.8094438061099844,
        3.8094438061099813,
    ),
    (
        1.000000e-02,
        1.000000e-05,
        243.78543767567802,
        243.78543767569604,
    ),
    (
        1.000000e-02,
        1.000000e-10,
        501.29213292600074,
        501.29213292596626,
    ),
    (
        1.000000e-02,
        1.000000e-50,
        1425.6506700209406,
        1425.6506700187924,
    ),
    (
        1.000000e-02,
        1.000000e-300,
        3672.7201034055685,
        3672.720103334873,
    ),
    (
        1.000000e-01,
        1.000000e-01,
        2.8469244358473497,
        2.8469244358473493,
    ),
    (
        1.000000e-01,
        1.000000e-05,
        30.749566131977448,
        30.74956613197769,
    ),
    (
        1.000000e-01,
        1.000000e-10,
        54.206295836901266,
        54.20629583690245,
    ),
    (
        1.000000e-01,
        1.000000e-50,
        144.17913493187477,
        144.17913493188436,
    ),
    (
        1.000000e-01,
        1.000000e-300,
        367.90923857768499,
        367.90923857734924,
    ),
    (
        5.000000e-01,
        1.000000e-01,
        1.5562878953734973,
        1.5562878953733268,
    ),
    (
        5.000000e-01,
        1.000000e-05,
        7.0318266755824914,
        7.0318266755825,
    ),
    (
        5.000000e-01,
        1.000000e-10,
        11.436239995092029,
        11.436239995091947,
    ),
    (
        5.000000e-01,
        1.000000e-50,
        29.082244786265922,
        29.082244786265562,
    ),
    (
        5.000000e-01,
        1.000000e-300,
        73.679927509302922,
        73.67992750929827,
    ),
    (
        1.000000e+00,
        1.000000e-01,
        1.0858777651918565,
        1.0858777651918556,
    ),
    (
        1.000000e+00,
        1.000000e-05,
        3.7306316348159418,
        3.7306316348159374,
    ),
    (
        1.000000e+00,
        1.000000e-10,
        5.8677777496305264,
        5.867777749630524,
    ),
    (
        1.000000e+00,
        1.000000e-50,
        14.6049183417995,
        14.604918341799328,
    ),
    (
        1.000000e+00,
        1.000000e-300,
        36.8654978941111,
        36.86549789410979,
    ),
    (
        2.000000e+00,
        1.000000e-01,
        0.73195524333068828,
        0.7319552433306028,
    ),
    (
        2.000000e+00,
        1.000000e-05,
        1.9938124456435367,
        1.993812445643537,
    ),
    (
        2.000000e+00,
        1.000000e-10,
        3.0257935440946646,
        3.025793544094669,
    ),
    (
        2.000000e+00,
        1.000000e-50,
        7.34257996990977,
        7.342579969909788,
    ),
    (
        2.000000e+00,
        1.000000e-300,
        18.448885041775088,
        18.44888504177644,
    ),
    (
        5.000000e+00,
        1.000000e-01,
        0.42504157685166667,
        0.4250415768516667,
    ),
    (
        5.000000e+00,
        1.000000e-05,
        0.89186826495151803,
        0.8918682649514421,
    ),
    (
        5.000000e+00,
        1.000000e-10,
        1.2807779778932222,
        1.2807779778932202,
    ),
    (
        5.000000e+00,
        1.000000e-50,
        2.9691634337013465,
        2.969163433701344,
    ),
    (
        5.000000e+00,
        1.000000e-300,
        7.392600628656653,
        7.392600628656446,
    ),
    (
        1.000000e+01,
        1.000000e-01,
        0.28181207212613931,
        0.2818120721261393,
    ),
    (
        1.000000e+01,
        1.000000e-05,
        0.49988861970900851,
        0.4998886197090323,
    ),
    (
        1.000000e+01,
        1.000000e-10,
        0.68304396722748118,
        0.6830439672274813,
    ),
    (
        1.000000e+01,
        1.000000e-50,
        1.5053920473065626,
        1.5053920473065623,
    ),
    (
        1.000000e+01,
        1.000000e-300,
        3.7048918566247082,
        3.704891856624772,
    ),
    (
        5.000000e+01,
        1.000000e-01,
        0.11245824141277385,
        0.11245824141277284,
    ),
    (
        5.000000e+01,
        1.000000e-05,
        0.14976060756083602,
        0.14976060756083476,
    ),
    (
        5.000000e+01,
        1.000000e-10,
        0.18029422294241373,
        0.1802942229424107,
    ),
    (
        5.000000e+01,
        1.000000e-50,
        0.32688636684769905,
        0.3268863668476989,
    ),
    (
        5.000000e+01,
        1.000000e-300,
        0.75241655372730068,
        0.7524165537273017,
    ),
];

/// (σ, ε, δ(ε) by mpmath at 120 digits), Δ = 1.
const DELTA_REFERENCE: &[(f64, f64, f64)] = &[
    (0.1, 0.0, 0.99999942669685624),
    (0.1, 0.5, 0.99999926472176653),
    (0.1, 1.0, 0.99999905917978014),
    (0.1, 4.0, 0.99999606831045192),
    (0.5, 0.0, 0.6826894921370859),
    (0.5, 0.5, 0.59918561853393326),
    (0.5, 1.0, 0.50986166005467015),
    (0.5, 4.0, 0.084953318671071063),
    (1.0, 0.0, 0.38292492254802621),
    (1.0, 0.5, 0.23842170813487663),
    (1.0, 1.0, 0.12693673750664395),
    (1.0, 4.0, 4.7122412007931199e-5),
    (3.0, 0.0, 0.13236766522180731),
    (3.0, 0.5, 0.012418249399426047),
    (3.0, 1.0, 0.00020751220205273613),
    (3.0, 4.0, 3.548324682698379e-34),
    (20.0, 0.0, 0.019945036390476086),
    (20.0, 0.5, 4.797291362662317e-26),
    (20.0, 1.0, 1.129033227097697e-91),
];

#[test]
fn analytic_sigma_is_never_below_the_exact_minimum_and_barely_above_it() {
    for &(eps, delta, exact, _) in SIGMA_REFERENCE {
        let sigma = sigma_analytic(eps, delta, 1.0).unwrap();
        assert!(
            sigma >= exact,
            "ε={eps} δ={delta}: σ={sigma} below the exact {exact}"
        );
        // ε = 1e-6 is where floating point loses most (see sigma_analytic's doc).
        let tolerance = if eps < 0.05 { 1e-5 } else { 1e-10 };
        assert!(
            sigma / exact - 1.0 < tolerance,
            "ε={eps} δ={delta}: σ={sigma} vs {exact}"
        );
    }
}

#[test]
fn analytic_sigma_agrees_with_dp_accounting() {
    // dp_accounting stops its root search at an absolute tolerance of 1e-12 and evaluates δ with scipy's
    // logcdf: within 1e-7 relative of the exact σ on this grid (it is slightly *below* it at ε = 1e-6).
    for &(eps, delta, _, dp) in SIGMA_REFERENCE {
        let sigma = sigma_analytic(eps, delta, 1.0).unwrap();
        let tolerance = if eps < 1e-3 { 1e-5 } else { 1e-9 };
        assert!(
            (sigma / dp - 1.0).abs() < tolerance,
            "ε={eps} δ={delta}: {sigma} vs dp_accounting {dp}"
        );
    }
}

#[test]
fn sigma_scales_with_sensitivity() {
    let unit = sigma_analytic(0.7, 1e-6, 1.0).unwrap();
    let big = sigma_analytic(0.7, 1e-6, 1e9).unwrap();
    assert!((big / (unit * 1e9) - 1.0).abs() < 1e-12);
}

#[test]
fn exact_delta_matches_mpmath() {
    for &(sigma, eps, want) in DELTA_REFERENCE {
        let got = Gaussian::new(sigma, 1.0).unwrap().delta(eps);
        assert!(
            ((got - want) / want).abs() < 1e-10,
            "σ={sigma} ε={eps}: {got} vs {want}"
        );
        // The error bound the calibration relies on does cover the actual error.
        let (ln_delta, bound) = ln_delta_unit_with_error(sigma, eps);
        assert!(
            (ln_delta - want.ln()).abs() <= bound,
            "σ={sigma} ε={eps}: bound {bound} too small"
        );
    }
    // Far beyond double range δ underflows to 0 but ln δ stays finite.
    let g = Gaussian::new(20.0, 1.0).unwrap();
    assert_eq!(g.delta(4.0), 0.0);
    assert!(g.ln_delta(4.0).is_finite() && g.ln_delta(4.0) < -3000.0);
}

#[test]
fn lecture_and_classical_sigma_are_closed_forms_and_safe_for_small_eps() {
    // σ = √(2 ln(2/δ))/ε and √(2 ln(1.25/δ))/ε; at ε = 1, δ = 1e-5: 4.9482... and 4.8448... (closed form).
    let lecture = sigma_lecture(1.0, 1e-5, 1.0).unwrap();
    let classical = sigma_classical(1.0, 1e-5, 1.0).unwrap();
    assert!((lecture - (2.0 * (2e5f64).ln()).sqrt()).abs() < 1e-14);
    assert!((classical - (2.0 * (1.25e5f64).ln()).sqrt()).abs() < 1e-14);
    for eps in [0.01, 0.3, 0.99] {
        for delta in [1e-2, 1e-8, 1e-100] {
            let exact = sigma_analytic(eps, delta, 1.0).unwrap();
            for s in [
                sigma_lecture(eps, delta, 1.0),
                sigma_classical(eps, delta, 1.0),
            ] {
                let s = s.unwrap();
                assert!(s >= exact, "ε={eps} δ={delta}: {s} < analytic {exact}");
            }
        }
    }
}

#[test]
fn bad_set_bounds_the_exact_delta() {
    // Lemma 1.4 certifies P[bad] ≥ δ(ε); both sides of the threshold agree with the set's definition.
    let g = Gaussian::new(2.0, 1.5).unwrap();
    for eps in [0.0, 0.3, 1.0, 3.0] {
        assert!(g.bad_probability(eps) >= g.delta(eps));
        let t = g.bad_threshold(eps);
        let ratio = |y: f64| (g.density(y, 0.0) / g.density(y, 1.5)).ln();
        assert!(ratio(t - 1e-6) > eps && ratio(t + 1e-6) < eps);
    }
}

#[test]
fn tradeoff_is_gdp_curve() {
    // μ = Δ/σ = 1: β(0.05) = Φ(1.6448536 − 1) = 0.7404889771585558 (scipy.stats.norm.cdf(norm.ppf(0.95) - 1)).
    let g = Gaussian::new(1.0, 1.0).unwrap();
    assert!((g.tradeoff(0.05) - 0.740_488_977_158_555_8).abs() < 1e-12);
    assert_eq!(g.tradeoff(0.0), 1.0);
    assert_eq!(g.tradeoff(1.0), 0.0);
}

#[test]
fn loss_is_normal_with_mean_mu_and_variance_two_mu() {
    let g = Gaussian::new(2.0, 1.0).unwrap();
    assert!((g.loss_mean() - 0.125).abs() < 1e-15);
    let loss = g.loss(401);
    let mass: f64 = loss
        .density
        .windows(2)
        .map(|w| (w[1].0 - w[0].0) * 0.5 * (w[0].1 + w[1].1))
        .sum();
    assert!((mass - 1.0).abs() < 1e-6);
}

#[test]
fn ugly_inputs_are_refused_with_the_key() {
    for (eps, delta, sens, key) in [
        (f64::NAN, 1e-5, 1.0, "eps"),
        (0.0, 1e-5, 1.0, "eps"),
        (f64::INFINITY, 1e-5, 1.0, "eps"),
        (1.0, 0.0, 1.0, "delta"),
        (1.0, 1.0, 1.0, "delta"),
        (1.0, f64::NAN, 1.0, "delta"),
        (1.0, 1e-5, -1.0, "sens"),
        (1.0, 1e-5, f64::INFINITY, "sens"),
    ] {
        for f in [sigma_lecture, sigma_classical, sigma_analytic] {
            let err = f(eps, delta, sens)
                .err()
                .unwrap_or_else(|| panic!("{eps} {delta} {sens} accepted"));
            assert_eq!(err.parameter(), key);
        }
    }
    assert!(Gaussian::new(0.0, 1.0).is_err() && Gaussian::new(1.0, f64::NAN).is_err());
}

#[test]
fn extreme_inputs_give_finite_sigmas() {
    for (eps, delta, sens) in [
        (1e-6, 1e-300, 1e9),
        (50.0, 1e-300, 1e9),
        (100.0, 0.999, 1e-9),
    ] {
        for f in [sigma_lecture, sigma_classical, sigma_analytic] {
            let s = f(eps, delta, sens).unwrap();
            assert!(s.is_finite() && s > 0.0, "{eps} {delta} {sens}: {s}");
        }
    }
}
