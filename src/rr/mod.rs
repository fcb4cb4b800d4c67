//! K-ary randomized response (Warner 1965 for K = 2; Kairouz, Bonawitz & Ramage 2016 for K ≥ 2), its
//! unbiased frequency estimator and that estimator's closed-form variance.
//!
//! Each respondent reports their true category with probability p = e^ε/(K−1+e^ε) and each of the K−1
//! other categories with probability q = 1/(K−1+e^ε). The lecture slides (`differential-privacy-lecture-dpsgd.md`,
//! "Randomized responses") say "otherwise answer at random": that is ε-DP only if "at random" means one of
//! the *other* K−1 categories, as here; a uniform draw over all K categories would make the truthful report
//! more likely than p (see [`SLIDE_NOTE`]).

mod lab;
pub mod params;
pub mod share;
mod simulate;

pub use lab::{run, CategoryResult, EstimateHistogram, RrReport};
pub use params::{default_truth, format_truth, RrParams, MAX_N, MAX_REPS, MIN_REPS};
pub use simulate::{
    multinomial, simulate_reported_counts, simulate_survey, Respondent, Survey, PEOPLE_LIMIT,
};

use crate::error::{Error, Result};

/// The note the lab shows beside the slide's wording.
pub const SLIDE_NOTE: &str = "The slide's \"otherwise answer at random\" must mean \"report one of the \
other K−1 categories uniformly\": drawing uniformly from all K would report the truth with probability \
p + (1−p)/K, not p, and the privacy guarantee would no longer be the ε shown.";

/// The largest ε the lab accepts; beyond it the mechanism is indistinguishable from no privacy at all.
pub const MAX_EPS: f64 = 100.0;
/// The number of categories is between these bounds.
pub const MIN_K: usize = 2;
/// See [`MIN_K`].
pub const MAX_K: usize = 50;
/// Two-sided 95% normal quantile Φ⁻¹(0.975) (scipy.stats.norm.ppf(0.975) = 1.959963984540054).
pub const Z_95: f64 = 1.959_963_984_540_054;

/// K-ary randomized response with privacy parameter ε.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RandomizedResponse {
    eps: f64,
    k: usize,
}

impl RandomizedResponse {
    /// Builds the mechanism.
    ///
    /// # Errors
    /// `eps` must be finite and in (0, [`MAX_EPS`]]; `k` in [[`MIN_K`], [`MAX_K`]].
    pub fn new(eps: f64, k: usize) -> Result<Self> {
        check_eps(eps)?;
        check_k(k)?;
        Ok(RandomizedResponse { eps, k })
    }

    /// The privacy parameter ε.
    pub fn eps(&self) -> f64 {
        self.eps
    }

    /// The number of categories K.
    pub fn k(&self) -> usize {
        self.k
    }

    /// Probability of reporting the true category.
    ///
    /// # Formula
    /// p = e^ε / (K − 1 + e^ε) = 1 / (1 + (K − 1)·e^(−ε))   (second form: no overflow for large ε)
    ///
    /// # Reference
    /// Lecture slides, "Randomized responses"; Kairouz, Bonawitz & Ramage (ICML 2016), §2.
    ///
    /// ```
    /// # use dp_playground::rr::RandomizedResponse;
    /// let rr = RandomizedResponse::new(3f64.ln(), 2).unwrap();
    /// assert!((rr.p_truth() - 0.75).abs() < 1e-15);
    /// ```
    pub fn p_truth(&self) -> f64 {
        1.0 / (1.0 + (self.k as f64 - 1.0) * (-self.eps).exp())
    }

    /// Probability of reporting one given *other* category.
    ///
    /// # Formula
    /// q = 1 / (K − 1 + e^ε) = e^(−ε) / (1 + (K − 1)·e^(−ε))
    pub fn p_other(&self) -> f64 {
        let t = (-self.eps).exp();
        t / (1.0 + (self.k as f64 - 1.0) * t)
    }

    /// The gap p − q that the estimator divides by.
    ///
    /// # Formula
    /// p − q = (1 − e^(−ε)) / (1 + (K − 1)·e^(−ε)), with 1 − e^(−ε) = −expm1(−ε) so that tiny ε keeps
    /// its digits.
    pub fn gap(&self) -> f64 {
        -(-self.eps).exp_m1() / (1.0 + (self.k as f64 - 1.0) * (-self.eps).exp())
    }

    /// The worst-case likelihood ratio P[report = r | truth = a] / P[report = r | truth = b] over all
    /// reports r and true answers a ≠ b. It is p/q = e^ε exactly (r = a), which is what makes the mechanism
    /// ε-DP (local DP); the other ratios are q/q = 1 and q/p = e^(−ε).
    pub fn max_likelihood_ratio(&self) -> f64 {
        self.eps.exp()
    }

    /// The distribution of a report when true answers follow `truth` (which must sum to 1).
    ///
    /// # Formula
    /// λ_j = q + π_j·(p − q)
    pub fn reported_distribution(&self, truth: &[f64]) -> Vec<f64> {
        let (q, gap) = (self.p_other(), self.gap());
        truth.iter().map(|&pi| q + pi * gap).collect()
    }

    /// The unbiased estimate of a true frequency from an observed report frequency λ̂_j = c_j / n.
    ///
    /// # Formula
    /// π̂_j = (λ̂_j − q) / (p − q). Unbiased because E[λ̂_j] = λ_j; it can fall outside [0, 1].
    pub fn estimate(&self, reported_freq: f64) -> f64 {
        (reported_freq - self.p_other()) / self.gap()
    }

    /// Variance of the estimate π̂_j for n respondents whose true answers are drawn from the population
    /// distribution (so each report is an independent draw from λ).
    ///
    /// # Formula
    /// Var(π̂_j) = λ_j(1 − λ_j) / (n (p − q)²),  λ_j = q + π_j(p − q)
    ///
    /// # Reference
    /// Wang, Blocki, Li & Jha (USENIX Security 2017), §4 (generalized randomized response): the binomial
    /// variance of the report count, divided by the squared gap.
    ///
    /// ```
    /// # use dp_playground::rr::RandomizedResponse;
    /// let rr = RandomizedResponse::new(3f64.ln(), 2).unwrap();
    /// // π = 0.3: λ = 0.25 + 0.3·0.5 = 0.4, Var = 0.24 / (100 · 0.25) = 0.0096
    /// assert!((rr.variance(0.3, 100) - 0.0096).abs() < 1e-15);
    /// ```
    pub fn variance(&self, truth_j: f64, n: u64) -> f64 {
        let lambda = self.p_other() + truth_j * self.gap();
        self.variance_from_reported(lambda, n)
    }

    /// The same variance written in terms of the report frequency λ_j; with λ̂_j plugged in it is the
    /// standard error an analyst who does not know the truth can compute.
    pub fn variance_from_reported(&self, lambda_j: f64, n: u64) -> f64 {
        let gap = self.gap();
        lambda_j * (1.0 - lambda_j) / (n as f64 * gap * gap)
    }
}

/// Checks ε ∈ (0, [`MAX_EPS`]].
pub(crate) fn check_eps(eps: f64) -> Result<()> {
    if eps.is_finite() && eps > 0.0 && eps <= MAX_EPS {
        Ok(())
    } else {
        Err(Error::invalid(
            "eps",
            eps,
            format!("must be a number greater than 0 and at most {MAX_EPS}"),
        ))
    }
}

/// Checks K ∈ [[`MIN_K`], [`MAX_K`]].
pub(crate) fn check_k(k: usize) -> Result<()> {
    if (MIN_K..=MAX_K).contains(&k) {
        Ok(())
    } else {
        Err(Error::invalid(
            "k",
            k,
            format!("must be a whole number of categories from {MIN_K} to {MAX_K}"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOL: f64 = 1e-14;

    fn rr(eps: f64, k: usize) -> RandomizedResponse {
        match RandomizedResponse::new(eps, k) {
            Ok(rr) => rr,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn truth_probability_hand_computed() {
        // ε = ln 3: e^ε = 3. K = 2: p = 3/4, q = 1/4. K = 3: p = 3/5, q = 1/5. K = 5: p = 3/7, q = 1/7.
        for (k, p, q) in [(2, 0.75, 0.25), (3, 0.6, 0.2), (5, 3.0 / 7.0, 1.0 / 7.0)] {
            let m = rr(3f64.ln(), k);
            assert!((m.p_truth() - p).abs() < TOL, "K={k}");
            assert!((m.p_other() - q).abs() < TOL, "K={k}");
            assert!((m.gap() - (p - q)).abs() < TOL, "K={k}");
            assert!((m.p_truth() + (k as f64 - 1.0) * m.p_other() - 1.0).abs() < TOL);
            assert!((m.max_likelihood_ratio() - m.p_truth() / m.p_other()).abs() < 1e-12);
        }
        // ε = 1, K = 2: p = e/(1+e) = 0.7310585786300049 (closed form, Python math.e/(1+math.e)).
        assert!((rr(1.0, 2).p_truth() - 0.731_058_578_630_004_9).abs() < TOL);
    }

    #[test]
    fn extreme_eps_stays_finite_and_accurate() {
        // ε = 1e-9, K = 2: p − q = tanh(ε/2) ≈ 5e-10 (mpmath: 4.99999999999999999958e-10).
        let m = rr(1e-9, 2);
        assert!((m.gap() / 5e-10 - 1.0).abs() < 1e-9);
        let big = rr(MAX_EPS, 50);
        assert!(big.p_truth() <= 1.0 && big.p_truth() > 1.0 - 1e-15);
        assert!(big.p_other() > 0.0 && big.variance(0.5, 10).is_finite());
    }

    #[test]
    fn variance_hand_computed() {
        // ε = ln 3, K = 3, π = 0.5, n = 1000: λ = 0.2 + 0.5·0.4 = 0.4; Var = 0.24 / (1000·0.16) = 0.0015.
        assert!((rr(3f64.ln(), 3).variance(0.5, 1000) - 0.0015).abs() < TOL);
        // The estimator inverts the report distribution exactly.
        let m = rr(0.7, 4);
        let truth = [0.1, 0.2, 0.3, 0.4];
        for (l, t) in m.reported_distribution(&truth).iter().zip(truth) {
            assert!((m.estimate(*l) - t).abs() < 1e-12);
        }
    }

    #[test]
    fn bad_inputs_are_typed_errors() {
        for eps in [0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 101.0] {
            assert_eq!(
                RandomizedResponse::new(eps, 2).map_err(|e| e.parameter()),
                Err("eps")
            );
        }
        for k in [0, 1, 51, usize::MAX] {
            assert_eq!(
                RandomizedResponse::new(1.0, k).map_err(|e| e.parameter()),
                Err("k")
            );
        }
    }
}
