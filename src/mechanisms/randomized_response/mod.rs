//! K-ary randomized response (Warner 1965 for K = 2; Kairouz, Bonawitz & Ramage 2016 for K ≥ 2), its
//! unbiased frequency estimator and that estimator's closed-form variance.
//!
//! Each respondent reports their true category with probability p = e^ε/(K−1+e^ε) and each of the K−1
//! other categories with probability q = 1/(K−1+e^ε). The lecture slides (`differential-privacy-lecture-dpsgd.md`,
//! "Randomized responses") say "otherwise answer at random": that is ε-DP only if "at random" means one of
//! the *other* K−1 categories, as here; a uniform draw over all K categories would make the truthful report
//! more likely than p (see [`SLIDE_NOTE`]).

pub mod shuffle;
mod simulate;

pub use simulate::{
    multinomial, simulate_fixed_reported_counts, simulate_fixed_survey, simulate_reported_counts,
    simulate_survey, Respondent, Survey, PEOPLE_LIMIT,
};

use super::check_eps;
use crate::error::{Error, Result};
use crate::numerics::special::ln_add_exp;

/// The note the lab shows beside the slide's wording.
pub const SLIDE_NOTE: &str = "The slide's \"otherwise answer at random\" must mean \"report one of the \
other K−1 categories uniformly\": drawing uniformly from all K would report the truth with probability \
p + (1−p)/K, not p, and the privacy guarantee would no longer be the ε shown.";

/// The number of categories is between these bounds.
pub const MIN_K: usize = 2;
/// See [`MIN_K`].
pub const MAX_K: usize = 50;
/// Two-sided 95% normal quantile Φ⁻¹(0.975) (scipy.stats.norm.ppf(0.975) = 1.959963984540054).
pub const Z_95: f64 = 1.959_963_984_540_054;

crate::choice! {
    /// Who the survey asks (`population`), which decides what varies from one survey to the next.
    #[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
    pub enum Population {
        /// Each respondent is drawn from the population (`iid`, the default): their true answers vary
        /// between surveys too, and reports are i.i.d. with law λ.
        #[default]
        Iid = "iid" | "i.i.d." | "random" | "sampled" => "drawn from the population (i.i.d.)",
        /// These exact n people (`fixed`): the true counts are n·π rounded to sum to n
        /// ([`fixed_counts`]), and only the coin flips vary.
        Fixed = "fixed" => "a fixed group of people",
    }
}

impl Population {
    /// Parses `population` (`iid`, `i.i.d.`, `random`; `fixed`).
    ///
    /// # Errors
    /// Any other value.
    pub fn parse(s: &str) -> Result<Self> {
        Self::from_key(s).ok_or_else(|| Error::invalid("population", s, "must be iid or fixed"))
    }
}

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
    /// `eps` must be finite and in (0, [`MAX_EPS`](super::MAX_EPS)]; `k` in [[`MIN_K`], [`MAX_K`]].
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
    /// # use dp_playground::mechanisms::randomized_response::RandomizedResponse;
    /// let rr = RandomizedResponse::new(3f64.ln(), 2).unwrap();
    /// assert!((rr.p_truth() - 0.75).abs() < 1e-15);
    /// ```
    pub fn p_truth(&self) -> f64 {
        probabilities(self.eps, self.k as f64).0
    }

    /// Probability of reporting one given *other* category.
    ///
    /// # Formula
    /// q = 1 / (K − 1 + e^ε) = e^(−ε) / (1 + (K − 1)·e^(−ε))
    pub fn p_other(&self) -> f64 {
        probabilities(self.eps, self.k as f64).1
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
    /// # use dp_playground::mechanisms::randomized_response::RandomizedResponse;
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

    /// Variance of the estimate π̂_j for a *fixed* population: these exact n people, of whom
    /// n_j = n·π_j truly are in category j; only the coin flips vary.
    ///
    /// # Formula
    /// The report count c_j is a sum of n independent Bernoullis (Poisson-binomial): n_j with success
    /// probability p and n − n_j with q, so Var(c_j) = n_j p(1 − p) + (n − n_j) q(1 − q) and
    ///
    /// Var(π̂_j) = [π_j p(1 − p) + (1 − π_j) q(1 − q)] / (n (p − q)²),  π_j = n_j / n.
    ///
    /// Never larger than the i.i.d. [`variance`](Self::variance): by the law of total variance over a
    /// respondent's random truth, λ_j(1 − λ_j) = π_j p(1 − p) + (1 − π_j) q(1 − q) + π_j(1 − π_j)(p − q)²,
    /// so Var_iid − Var_fixed = π_j(1 − π_j)/n ≥ 0, the variance of the drawn truth itself.
    ///
    /// # Reference
    /// Wang, Blocki, Li & Jha (USENIX Security 2017), §4, for the i.i.d. case; the fixed case is the
    /// variance of a Poisson-binomial sum (independent, non-identical Bernoullis).
    ///
    /// ```
    /// # use dp_playground::mechanisms::randomized_response::RandomizedResponse;
    /// let rr = RandomizedResponse::new(3f64.ln(), 2).unwrap();
    /// // p = 3/4, q = 1/4: p(1 − p) = q(1 − q) = 3/16, Var = 0.1875 / (100 · 0.25) = 0.0075 for any π.
    /// assert!((rr.variance_fixed(0.3, 100) - 0.0075).abs() < 1e-15);
    /// // The i.i.d. variance exceeds it by π(1 − π)/n = 0.21/100.
    /// assert!((rr.variance(0.3, 100) - rr.variance_fixed(0.3, 100) - 0.0021).abs() < 1e-15);
    /// ```
    pub fn variance_fixed(&self, truth_j: f64, n: u64) -> f64 {
        let (p, q, gap) = (self.p_truth(), self.p_other(), self.gap());
        (truth_j * p * (1.0 - p) + (1.0 - truth_j) * q * (1.0 - q)) / (n as f64 * gap * gap)
    }

    /// The variance of π̂_j under the chosen population model: [`variance`](Self::variance) for
    /// [`Population::Iid`], [`variance_fixed`](Self::variance_fixed) for [`Population::Fixed`].
    pub fn variance_for(&self, population: Population, truth_j: f64, n: u64) -> f64 {
        match population {
            Population::Iid => self.variance(truth_j, n),
            Population::Fixed => self.variance_fixed(truth_j, n),
        }
    }

    /// The standard error √Var of [`variance_for`](Self::variance_for), without overflow: (p − q)²
    /// underflows below ε ≈ 1e-154, which made the variance, the interval and the chart's axis
    /// infinite (and froze the page). Bit for bit `variance_for(..).sqrt()` wherever (p − q)² is a
    /// normal float and the variance finite; √(numerator/n)/(p − q) otherwise, finite for every ε the
    /// lab accepts.
    pub fn stderr_for(&self, population: Population, truth_j: f64, n: u64) -> f64 {
        let numerator = match population {
            Population::Iid => {
                let lambda = self.p_other() + truth_j * self.gap();
                lambda * (1.0 - lambda)
            }
            Population::Fixed => {
                let (p, q) = (self.p_truth(), self.p_other());
                truth_j * p * (1.0 - p) + (1.0 - truth_j) * q * (1.0 - q)
            }
        };
        self.stderr_of(numerator, n)
    }

    /// The standard error √Var of [`variance_from_reported`](Self::variance_from_reported), as
    /// [`stderr_for`](Self::stderr_for) computes it.
    pub fn stderr_from_reported(&self, lambda_j: f64, n: u64) -> f64 {
        self.stderr_of(lambda_j * (1.0 - lambda_j), n)
    }

    /// √(numerator / (n (p − q)²)), the variances' common form.
    fn stderr_of(&self, numerator: f64, n: u64) -> f64 {
        let gap = self.gap();
        let variance = numerator / (n as f64 * gap * gap);
        if (gap * gap).is_normal() && variance.is_finite() {
            variance.sqrt()
        } else {
            (numerator / n as f64).sqrt() / gap
        }
    }
}

/// K-ary randomized response as an accountant sees it: ε and any K ≥ 2 (the composition lab's entries
/// go to 10⁶ categories; [`RandomizedResponse`] checks its survey's limits).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KaryRr {
    /// ε.
    pub eps: f64,
    /// The number of answers K.
    pub k: f64,
}

impl crate::mechanisms::PrivacyCurves for KaryRr {
    fn delta(&self, eps: f64) -> f64 {
        profile(self.eps, self.k, eps)
    }

    fn rdp(&self, alpha: f64) -> Option<f64> {
        Some(rdp(self.eps, self.k, alpha))
    }

    fn pure_eps(&self) -> Option<f64> {
        Some(self.eps)
    }
}

/// The report probabilities (p, q) of K-ary randomized response: the true answer with p, each other
/// answer with q. Any K ≥ 2 (the composition lab's entries go to 10⁶; [`RandomizedResponse`] to
/// [`MAX_K`]).
///
/// # Formula
/// p = e^ε/(K − 1 + e^ε) = 1/(1 + (K − 1)e^{−ε}),  q = 1/(K − 1 + e^ε) = e^{−ε}/(1 + (K − 1)e^{−ε});
/// the second forms cannot overflow.
///
/// # Reference
/// Lecture slides, "Randomized responses"; Kairouz, Bonawitz & Ramage (ICML 2016), §2.
pub fn probabilities(eps: f64, k: f64) -> (f64, f64) {
    let t = (-eps).exp();
    let km1 = k - 1.0;
    (1.0 / (1.0 + km1 * t), t / (1.0 + km1 * t))
}

/// δ(ε) of K-ary randomized response with parameter ε_r, for every real ε.
///
/// # Formula
/// Σ_j (P_j − e^ε Q_j)₊ over the pair of true answers a ≠ b, P = (p, q, q, …), Q = (q, p, q, …):
/// (p − e^ε q)₊ + (q − e^ε p)₊ + (K − 2) q (1 − e^ε)₊.
///
/// # Reference
/// Exact (every pair of answers is alike); for K = 2 the binary pair of Kairouz, Oh & Viswanath
/// (ICML 2015), Theorem 2.1. Clamped to [0, 1].
pub fn profile(eps_r: f64, k: f64, eps: f64) -> f64 {
    let (p, q) = probabilities(eps_r, k);
    let x = eps.exp();
    let sum =
        (p - x * q).max(0.0) + (q - x * p).max(0.0) + (k - 2.0) * q * (-eps.exp_m1()).max(0.0);
    sum.clamp(0.0, 1.0)
}

/// RDP of order α > 1 of K-ary randomized response with parameter ε.
///
/// # Formula
/// (1/(α − 1)) ln( p^α q^{1−α} + q^α p^{1−α} + (K − 2) q ), in log space with
/// ln q = −ln(e^ε + K − 1), ln p = ε + ln q: the K − 2 other answers have ratio 1.
///
/// # Reference
/// Mironov (CSF 2017), Proposition 5 for K = 2; the K-ary sum is the same definition. Exact to rounding.
pub fn rdp(eps: f64, k: f64, alpha: f64) -> f64 {
    let km1 = k - 1.0;
    let lq = -ln_add_exp(eps, km1.ln());
    let lp = eps + lq;
    let mut sum = ln_add_exp(
        alpha * lp + (1.0 - alpha) * lq,
        alpha * lq + (1.0 - alpha) * lp,
    );
    if k > 2.0 {
        sum = ln_add_exp(sum, (km1 - 1.0).ln() + lq);
    }
    sum / (alpha - 1.0)
}

/// The true counts of a fixed population of n people with proportions `truth`: n·π_i rounded so that
/// they sum to exactly n.
///
/// # Formula
/// Largest-remainder (Hamilton) method: n_i = ⌊n·π_i⌋, then the n − Σ⌊n·π_i⌋ people left over go one
/// each to the categories with the largest fractional parts n·π_i − ⌊n·π_i⌋ (ties to the lower index).
/// Each n_i is ⌊n·π_i⌋ or ⌈n·π_i⌉ when the π_i sum to 1.
///
/// # Reference
/// Hamilton's apportionment method (Balinski & Young, *Fair Representation*, 2nd ed. 2001, ch. 2).
///
/// `truth` should be non-negative and sum to 1 (as `RrParams::truth_normalised` gives it); it is rescaled to
/// sum 1, a negative or non-finite share counts as 0, and an all-zero list puts everyone in category 0.
///
/// ```
/// # use dp_playground::mechanisms::randomized_response::fixed_counts;
/// assert_eq!(fixed_counts(10, &[1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0]), [4, 3, 3]);
/// assert_eq!(fixed_counts(7, &[0.3, 0.7]), [2, 5]);
/// ```
pub fn fixed_counts(n: u64, truth: &[f64]) -> Vec<u64> {
    let shares: Vec<f64> = truth
        .iter()
        .map(|&t| if t.is_finite() && t > 0.0 { t } else { 0.0 })
        .collect();
    let sum: f64 = shares.iter().sum();
    if shares.is_empty() {
        return Vec::new();
    }
    if !(sum > 0.0 && sum.is_finite()) {
        let mut counts = vec![0; shares.len()];
        counts[0] = n;
        return counts;
    }
    let exact: Vec<f64> = shares.iter().map(|s| n as f64 * (s / sum)).collect();
    // ⌊x⌋ ≤ n here (x ≤ n up to rounding; the `min` guards the last ulp), so the cast is exact.
    let mut counts: Vec<u64> = exact.iter().map(|x| (x.floor() as u64).min(n)).collect();
    // Categories by fractional part, largest first; the sort is stable, so ties keep the lower index.
    let mut order: Vec<usize> = (0..exact.len()).collect();
    order.sort_by(|&a, &b| (exact[b] - exact[b].floor()).total_cmp(&(exact[a] - exact[a].floor())));
    let mut assigned: u64 = counts.iter().sum();
    // Fewer than n assigned: at most K left over (one per category), more only if rounding lost a whole
    // person, so cycling the order is enough.
    let short = usize::try_from(n.saturating_sub(assigned)).unwrap_or(usize::MAX);
    for &i in order.iter().cycle().take(short) {
        counts[i] += 1;
        assigned += 1;
    }
    // More than n (a share rounded up across an integer): take back from the smallest fractional parts.
    // Some count is positive while assigned > n, so each pass over the order removes at least one.
    let mut back = order.iter().rev().cycle();
    while assigned > n {
        match back.next() {
            Some(&i) if counts[i] > 0 => {
                counts[i] -= 1;
                assigned -= 1;
            }
            Some(_) => {}
            None => break,
        }
    }
    counts
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
        let big = rr(crate::mechanisms::MAX_EPS, 50);
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
    fn fixed_variance_hand_computed_and_never_above_iid() {
        // ε = ln 3, K = 3: p = 0.6, q = 0.2. π = 0.5, n = 1000:
        // (0.5·0.24 + 0.5·0.16) / (1000·0.16) = 0.00125; the i.i.d. 0.0015 is 0.5·0.5/1000 more.
        let m = rr(3f64.ln(), 3);
        assert!((m.variance_fixed(0.5, 1000) - 0.00125).abs() < TOL);
        assert!((m.variance_for(Population::Fixed, 0.5, 1000) - 0.00125).abs() < TOL);
        assert!((m.variance_for(Population::Iid, 0.5, 1000) - 0.0015).abs() < TOL);
        for eps in [1e-3, 0.1, 1.0, 3.0, 10.0] {
            for k in [2, 3, 10, 50] {
                let m = rr(eps, k);
                let (p, q, gap) = (m.p_truth(), m.p_other(), m.gap());
                for n in [1, 7, 1000] {
                    for i in 0..=n {
                        let pi = i as f64 / n as f64;
                        let (iid, fixed) = (m.variance(pi, n), m.variance_fixed(pi, n));
                        // The Poisson-binomial variance of the count, summed person by person.
                        let count_var = i as f64 * p * (1.0 - p) + (n - i) as f64 * q * (1.0 - q);
                        let direct = count_var / (n as f64 * n as f64 * gap * gap);
                        assert!(
                            (fixed / direct - 1.0).abs() < 1e-12,
                            "ε={eps} K={k} n={n} i={i}"
                        );
                        // Equal at π ∈ {0, 1}, where the two roundings may differ by an ulp or two.
                        assert!(
                            fixed <= iid * (1.0 + 4.0 * f64::EPSILON),
                            "ε={eps} K={k} n={n} i={i}"
                        );
                        // Var_iid − Var_fixed = π(1 − π)/n, up to rounding: 1 − λ loses digits as
                        // λ → 1 (relative error ≈ 2⁻⁵³/(1 − λ)), hence the tolerance's 1/(λ(1 − λ)).
                        let diff = pi * (1.0 - pi) / n as f64;
                        let lambda = m.reported_distribution(&[pi])[0];
                        assert!(
                            ((iid - fixed) - diff).abs() <= 1e-14 * iid / (lambda * (1.0 - lambda)),
                            "ε={eps} K={k} n={n} i={i}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn fixed_counts_sum_to_n_by_largest_remainder() {
        assert_eq!(fixed_counts(1000, &[0.5, 0.5]), [500, 500]);
        assert_eq!(
            fixed_counts(1, &[0.5, 0.5]),
            [1, 0],
            "a tie goes to the lower index"
        );
        assert_eq!(fixed_counts(10, &[0.14, 0.14, 0.72]), [2, 1, 7]);
        assert_eq!(fixed_counts(5, &[0.0, 1.0, 0.0]), [0, 5, 0]);
        assert_eq!(fixed_counts(3, &[f64::NAN, -1.0, 2.0]), [0, 0, 3]);
        assert_eq!(fixed_counts(3, &[0.0, 0.0]), [3, 0]);
        assert_eq!(fixed_counts(3, &[]), Vec::<u64>::new());
        assert_eq!(fixed_counts(0, &[0.3, 0.7]), [0, 0]);
        // Sum n exactly, each count the floor or the ceiling of n·π: every K's decreasing shares (the
        // lab's default truth's shape) and a spread of awkward shares, for n up to the lab's largest.
        for k in MIN_K..=MAX_K {
            let decreasing: Vec<f64> = (0..k).map(|i| (k - i) as f64).collect();
            let total: f64 = decreasing.iter().sum();
            let mut cases = vec![decreasing.iter().map(|x| x / total).collect::<Vec<f64>>()];
            let w: Vec<f64> = (0..k).map(|i| ((i * 7919) % 13) as f64 + 0.1).collect();
            let sum: f64 = w.iter().sum();
            cases.push(w.iter().map(|x| x / sum).collect());
            cases.push(vec![1.0 / k as f64; k]);
            for truth in &cases {
                let sum: f64 = truth.iter().sum();
                for n in [1, 2, 3, 49, 400, 401, 999_983, 10_000_000] {
                    let c = fixed_counts(n, truth);
                    assert_eq!(c.iter().sum::<u64>(), n, "k={k} n={n}");
                    for (ci, t) in c.iter().zip(truth) {
                        let x = n as f64 * (t / sum);
                        assert!(
                            *ci == x.floor() as u64 || *ci == x.ceil() as u64,
                            "k={k} n={n}: {ci} vs {x}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn bad_inputs_are_typed_errors() {
        for eps in [0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 101.0] {
            assert_eq!(
                RandomizedResponse::new(eps, 2).map_err(|e| e.parameter().to_owned()),
                Err("eps".to_owned())
            );
        }
        for k in [0, 1, 51, usize::MAX] {
            assert_eq!(
                RandomizedResponse::new(1.0, k).map_err(|e| e.parameter().to_owned()),
                Err("k".to_owned())
            );
        }
    }
}
