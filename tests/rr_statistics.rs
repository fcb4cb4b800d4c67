//! Randomized response against simulation: the estimator is unbiased and its spread matches the
//! closed-form variance, for both survey paths (person by person, n ≤ 400; counts, n > 400) and for the
//! direct multinomial draw the repeated surveys use; and, for a fixed population, the fixed-population
//! variance on all three of its paths, clearly below the i.i.d. one where they differ.
//!
//! False-failure rate: each check is a two-sided z-test at |z| ≤ 6. For a mean that is p ≈ 2·10⁻⁹; for
//! a variance ratio s²/σ² the sample variance's χ²-like right skew makes it at most 5·10⁻⁹ with
//! M − 1 = 3999 degrees of freedom (scipy.stats.chi2: 4.2·10⁻⁹ above, 1.6·10⁻¹⁰ below) and 1.2·10⁻⁸ with
//! 999 (1.2·10⁻⁸ above, 10⁻¹¹ below). 18 i.i.d. checks, 24 fixed-population checks (M = 4000) and 4
//! whole-lab checks (R = 1000) make the chance that a correct implementation fails below
//! 42·5·10⁻⁹ + 4·1.2·10⁻⁸ < 3·10⁻⁷ per run, were the seeds random; the 3 "below i.i.d." checks fail
//! only if s² lands near σ²_iid ≈ 5.5·σ²_fixed, about 200 standard deviations away. The seeds are
//! fixed, so the test is deterministic.
// An integration test crate: its helpers are test code too (clippy.toml covers only #[test] fns).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use dp_playground::labs::rr::{run, RrParams};
use dp_playground::mechanisms::randomized_response::{
    fixed_counts, simulate_fixed_reported_counts, simulate_fixed_survey, simulate_reported_counts,
    simulate_survey, Population, RandomizedResponse,
};
use dp_playground::numerics::stats::mean_sd;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Surveys per check.
const M: usize = 4000;
/// Critical |z|.
const Z: f64 = 6.0;

fn check_path(name: &str, n: u64, draw: impl Fn(&mut ChaCha8Rng) -> Vec<u64>) {
    let mech = RandomizedResponse::new(1.0, 3).unwrap();
    let truth = [0.5, 0.3, 0.2];
    let mut estimates: Vec<Vec<f64>> = (0..3).map(|_| Vec::with_capacity(M)).collect();
    for seed in 0..M as u64 {
        let counts = draw(&mut ChaCha8Rng::seed_from_u64(seed));
        for (e, c) in estimates.iter_mut().zip(counts) {
            e.push(mech.estimate(c as f64 / n as f64));
        }
    }
    for (j, &pi) in truth.iter().enumerate() {
        let sigma2 = mech.variance(pi, n);
        let (mean, sd) = mean_sd(&estimates[j]);
        // Unbiased: the mean of M estimates is within Z standard errors of π.
        let z = (mean - pi) / (sigma2 / M as f64).sqrt();
        assert!(
            z.abs() < Z,
            "{name}, category {j}: mean {mean} vs π = {pi} (z = {z})"
        );
        // Variance: s²/σ² has standard deviation ≈ sqrt((2 + excess kurtosis)/M); the estimate's excess
        // kurtosis is below 0.05 here (binomial with nλ(1−λ) > 60), so sqrt(2.05/M) is a safe scale.
        let ratio = sd * sd / sigma2;
        let z = (ratio - 1.0) / (2.05 / M as f64).sqrt();
        assert!(
            z.abs() < Z,
            "{name}, category {j}: variance ratio {ratio} (z = {z})"
        );
    }
}

#[test]
fn person_by_person_surveys_are_unbiased_with_the_closed_form_variance() {
    let mech = RandomizedResponse::new(1.0, 3).unwrap();
    check_path("people, n = 300", 300, |rng| {
        simulate_survey(rng, &mech, 300, &[0.5, 0.3, 0.2]).reported_counts
    });
}

#[test]
fn count_surveys_are_unbiased_with_the_closed_form_variance() {
    let mech = RandomizedResponse::new(1.0, 3).unwrap();
    check_path("counts, n = 5000", 5000, |rng| {
        simulate_survey(rng, &mech, 5000, &[0.5, 0.3, 0.2]).reported_counts
    });
}

#[test]
fn direct_multinomial_reports_are_unbiased_with_the_closed_form_variance() {
    let mech = RandomizedResponse::new(1.0, 3).unwrap();
    check_path("multinomial, n = 2000", 2000, |rng| {
        simulate_reported_counts(rng, &mech, 2000, &[0.5, 0.3, 0.2])
    });
}

/// Estimates of every category over M surveys, survey `seed` drawn from its own ChaCha8 stream.
fn estimates(
    mech: &RandomizedResponse,
    n: u64,
    draw: impl Fn(&mut ChaCha8Rng) -> Vec<u64>,
) -> Vec<Vec<f64>> {
    let mut out: Vec<Vec<f64>> = (0..mech.k()).map(|_| Vec::with_capacity(M)).collect();
    for seed in 0..M as u64 {
        let counts = draw(&mut ChaCha8Rng::seed_from_u64(seed));
        for (e, c) in out.iter_mut().zip(counts) {
            e.push(mech.estimate(c as f64 / n as f64));
        }
    }
    out
}

/// A fixed population's check: unbiased for n_j/n, spread matching `variance_fixed`; with `below_iid`,
/// also a spread significantly below the i.i.d. variance. Checks `categories` (K = 2's second category
/// is one minus the first, so it adds nothing). Prints the measured numbers.
fn check_fixed(
    name: &str,
    mech: &RandomizedResponse,
    counts: &[u64],
    categories: usize,
    below_iid: bool,
    draw: impl Fn(&mut ChaCha8Rng) -> Vec<u64>,
) {
    let n: u64 = counts.iter().sum();
    let (p, q) = (mech.p_truth(), mech.p_other());
    let est = estimates(mech, n, draw);
    for j in 0..categories {
        let pi = counts[j] as f64 / n as f64;
        let (fixed, iid) = (mech.variance_fixed(pi, n), mech.variance(pi, n));
        let (mean, sd) = mean_sd(&est[j]);
        let z = (mean - pi) / (fixed / M as f64).sqrt();
        assert!(
            z.abs() < Z,
            "{name}, category {j}: mean {mean} vs {pi} (z = {z})"
        );
        // The count is a Poisson-binomial sum; each Bernoulli's fourth cumulant is at most its variance in
        // size, so the estimate's excess kurtosis is at most 1/Var(c_j) and s²/σ² has variance at most
        // 2/(M − 1) + (1/Var(c_j))/M.
        let count_var = counts[j] as f64 * p * (1.0 - p) + (n - counts[j]) as f64 * q * (1.0 - q);
        let scale = (2.0 / (M - 1) as f64 + 1.0 / (count_var * M as f64)).sqrt();
        let ratio = sd * sd / fixed;
        let z = (ratio - 1.0) / scale;
        println!(
            "{name}, category {j}: empirical variance {:.6e}, fixed formula {fixed:.6e} (ratio {ratio:.4}, \
             z = {z:.2}), i.i.d. formula {iid:.6e}",
            sd * sd
        );
        assert!(
            z.abs() < Z,
            "{name}, category {j}: variance ratio {ratio} (z = {z})"
        );
        if below_iid {
            let z_iid = (sd * sd / iid - 1.0) / scale;
            assert!(
                z_iid < -Z,
                "{name}, category {j}: not below the i.i.d. variance (z = {z_iid})"
            );
        }
    }
}

/// ε = 3, K = 2, π = 0.5: p(1 − p) = 0.0452 while λ(1 − λ) = 0.25, so the i.i.d. variance is 5.5 times
/// the fixed one (3.05·10⁻⁴ against 5.51·10⁻⁵ at n = 1000).
#[test]
fn fixed_population_spread_matches_its_formula_and_is_below_iid() {
    let mech = RandomizedResponse::new(3.0, 2).unwrap();
    let big = fixed_counts(1000, &[0.5, 0.5]);
    let small = fixed_counts(300, &[0.5, 0.5]);
    check_fixed("fixed, people, n = 300", &mech, &small, 1, true, |rng| {
        simulate_fixed_survey(rng, &mech, &small).reported_counts
    });
    check_fixed("fixed, counts, n = 1000", &mech, &big, 1, true, |rng| {
        simulate_fixed_survey(rng, &mech, &big).reported_counts
    });
    check_fixed("fixed, direct, n = 1000", &mech, &big, 1, true, |rng| {
        simulate_fixed_reported_counts(rng, &mech, &big)
    });
}

/// K = 3 exercises the liars' spread over the other categories and the direct draw's uniform part.
#[test]
fn fixed_population_spread_matches_its_formula_for_three_categories() {
    let mech = RandomizedResponse::new(1.0, 3).unwrap();
    let truth = [0.5, 0.3, 0.2];
    let (small, big) = (fixed_counts(300, &truth), fixed_counts(2000, &truth));
    check_fixed(
        "fixed, people, K = 3, n = 300",
        &mech,
        &small,
        3,
        false,
        |rng| simulate_fixed_survey(rng, &mech, &small).reported_counts,
    );
    check_fixed(
        "fixed, counts, K = 3, n = 2000",
        &mech,
        &big,
        3,
        false,
        |rng| simulate_fixed_survey(rng, &mech, &big).reported_counts,
    );
    check_fixed(
        "fixed, direct, K = 3, n = 2000",
        &mech,
        &big,
        3,
        false,
        |rng| simulate_fixed_reported_counts(rng, &mech, &big),
    );
}

/// The lab's own repeated surveys (R = 1000) spread as the model the link chose: `population=fixed`
/// matches the fixed standard error and `population=iid` the i.i.d. one, at ε = 3, K = 2, π = 0.5, n = 1000.
#[test]
fn the_lab_spreads_as_the_chosen_population_model() {
    let reps = 1000;
    for population in [Population::Fixed, Population::Iid] {
        for seed in [7, 8] {
            let params = RrParams {
                eps: 3.0,
                k: 2,
                n: 1000,
                truth: vec![0.5, 0.5],
                reps,
                seed,
                population,
                ..RrParams::default()
            };
            let r = run(&params).unwrap();
            let c = &r.categories[0];
            let chosen = match population {
                Population::Iid => c.stderr_iid,
                Population::Fixed => c.stderr_fixed,
            };
            assert_eq!(c.stderr, chosen);
            // Excess kurtosis below 0.03 either way (Var(c) ≥ 45), so 2.03 bounds the scale's numerator.
            let ratio = (c.empirical_sd / chosen).powi(2);
            let z = (ratio - 1.0) / (2.03 / (reps - 1) as f64).sqrt();
            println!(
                "lab, {population}, seed {seed}: empirical sd {:.6e}, stderr {chosen:.6e} (fixed \
                 {:.6e}, i.i.d. {:.6e}), variance ratio {ratio:.4}, z = {z:.2}",
                c.empirical_sd, c.stderr_fixed, c.stderr_iid
            );
            assert!(
                z.abs() < Z,
                "{population}, seed {seed}: ratio {ratio} (z = {z})"
            );
        }
    }
}
