//! Randomized response against simulation: the estimator is unbiased and its spread matches the
//! closed-form variance, for both survey paths (person by person, n ≤ 400; counts, n > 400) and for the
//! direct multinomial draw the repeated surveys use.
//!
//! False-failure rate: each check is a two-sided z-test at |z| ≤ 6 (p ≈ 2·10⁻⁹), 18 checks in all, so a
//! correct implementation fails with probability below 4·10⁻⁸ per run, were the seeds random. They are
//! fixed (0..M), so the test is deterministic.

use dp_playground::rr::{simulate_reported_counts, simulate_survey, RandomizedResponse};
use dp_playground::stats::mean_sd;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Surveys per check.
const M: usize = 4000;
/// Critical |z|.
const Z: f64 = 6.0;

fn check_path(name: &str, n: u64, draw: impl Fn(&mut ChaCha8Rng) -> Vec<u64>) {
    let mech = RandomizedResponse::new(1.0, 3).unwrap_or_else(|e| panic!("{e}"));
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
    let mech = RandomizedResponse::new(1.0, 3).unwrap_or_else(|e| panic!("{e}"));
    check_path("people, n = 300", 300, |rng| {
        simulate_survey(rng, &mech, 300, &[0.5, 0.3, 0.2]).reported_counts
    });
}

#[test]
fn count_surveys_are_unbiased_with_the_closed_form_variance() {
    let mech = RandomizedResponse::new(1.0, 3).unwrap_or_else(|e| panic!("{e}"));
    check_path("counts, n = 5000", 5000, |rng| {
        simulate_survey(rng, &mech, 5000, &[0.5, 0.3, 0.2]).reported_counts
    });
}

#[test]
fn direct_multinomial_reports_are_unbiased_with_the_closed_form_variance() {
    let mech = RandomizedResponse::new(1.0, 3).unwrap_or_else(|e| panic!("{e}"));
    check_path("multinomial, n = 2000", 2000, |rng| {
        simulate_reported_counts(rng, &mech, 2000, &[0.5, 0.3, 0.2])
    });
}
