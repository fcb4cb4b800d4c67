//! Seeded simulation of randomized-response surveys.
//!
//! Large surveys are sampled as counts, never person by person: the true answers are a multinomial
//! draw, the truthful reports of each category a binomial draw, and the liars' reports a multinomial
//! draw over the other K − 1 categories. That is O(K²) binomial draws whatever n is. Small surveys
//! (n ≤ [`PEOPLE_LIMIT`]) are drawn person by person so the lab can show who told the truth; both paths give
//! reported counts with the same Multinomial(n, λ) law.
//!
//! A *fixed* population ([`simulate_fixed_survey`], [`simulate_fixed_reported_counts`]) skips the first
//! step: the true counts are given, and only the reports are drawn.

use super::RandomizedResponse;
use rand::Rng;
use rand_distr::{Binomial, Distribution};

/// Largest survey drawn person by person (and shown as a grid of respondents).
pub const PEOPLE_LIMIT: u64 = 400;

/// One respondent of a small survey.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Respondent {
    /// Their true category.
    pub truth: usize,
    /// What they reported; equal to `truth` exactly when they told the truth.
    pub report: usize,
}

/// The outcome of one simulated survey.
#[derive(Debug, Clone, PartialEq)]
pub struct Survey {
    /// How many respondents truly are in each category.
    pub true_counts: Vec<u64>,
    /// How many reported each category.
    pub reported_counts: Vec<u64>,
    /// How many reported their true category.
    pub truthful: u64,
    /// Every respondent, for surveys of at most [`PEOPLE_LIMIT`] people; empty otherwise.
    pub people: Vec<Respondent>,
}

/// Draws counts from Multinomial(n, probs) by conditional binomials: the i-th count is
/// Binomial(n − drawn so far, p_i / (mass left)). `probs` must be non-negative and sum to 1 (up to
/// rounding; the last category takes whatever is left).
pub fn multinomial<R: Rng + ?Sized>(rng: &mut R, n: u64, probs: &[f64]) -> Vec<u64> {
    let mut counts = vec![0; probs.len()];
    let (mut left, mut mass) = (n, 1.0_f64);
    for (i, &p) in probs.iter().enumerate() {
        if left == 0 {
            break;
        }
        if i + 1 == probs.len() {
            counts[i] = left;
            break;
        }
        let share = if mass > 0.0 {
            (p / mass).clamp(0.0, 1.0)
        } else {
            1.0
        };
        // `share` is clamped to [0, 1] and not NaN, so the binomial always exists.
        let drawn = Binomial::new(left, share).map_or(0, |b| b.sample(rng));
        counts[i] = drawn;
        left -= drawn;
        mass -= p;
    }
    counts
}

/// Simulates one survey of `n` respondents whose true answers are drawn from `truth` (summing to 1).
pub fn simulate_survey<R: Rng + ?Sized>(
    rng: &mut R,
    mech: &RandomizedResponse,
    n: u64,
    truth: &[f64],
) -> Survey {
    if n <= PEOPLE_LIMIT {
        simulate_people(rng, mech, n, truth)
    } else {
        simulate_counts(rng, mech, n, truth)
    }
}

/// Draws only the reported counts, Multinomial(n, λ): what the repeated surveys need.
pub fn simulate_reported_counts<R: Rng + ?Sized>(
    rng: &mut R,
    mech: &RandomizedResponse,
    n: u64,
    truth: &[f64],
) -> Vec<u64> {
    multinomial(rng, n, &mech.reported_distribution(truth))
}

/// Simulates one survey of a fixed population: `true_counts[i]` people truly in category i, one entry
/// per category of `mech` (see [`fixed_counts`](super::fixed_counts)); only their reports are random. Surveys of at most
/// [`PEOPLE_LIMIT`] people are drawn person by person, listed by true category.
pub fn simulate_fixed_survey<R: Rng + ?Sized>(
    rng: &mut R,
    mech: &RandomizedResponse,
    true_counts: &[u64],
) -> Survey {
    let n: u64 = true_counts.iter().sum();
    if n > PEOPLE_LIMIT {
        return reports_given_truth(rng, mech, true_counts.to_vec());
    }
    let k = true_counts.len();
    let mut survey = Survey {
        true_counts: true_counts.to_vec(),
        reported_counts: vec![0; k],
        truthful: 0,
        people: Vec::with_capacity(n as usize),
    };
    for (t, &n_t) in true_counts.iter().enumerate() {
        for _ in 0..n_t {
            let report = draw_report(rng, mech, t, k);
            survey.truthful += u64::from(report == t);
            survey.reported_counts[report] += 1;
            survey.people.push(Respondent { truth: t, report });
        }
    }
    survey
}

/// Draws only the reported counts of a fixed population (what its repeated surveys need), in 2K
/// binomial draws instead of K².
///
/// # Formula
/// A report's law given truth i is q·𝟙 + (p − q)·e_i, and q·K = 1 − (p − q), so it is the mixture
/// "with probability p − q report i, otherwise report a uniform draw from all K categories". Hence
/// F_i ~ Binomial(n_i, p − q) forced truths per category, and the other Σ(n_i − F_i) reports are
/// Multinomial(Σ(n_i − F_i), 1/K each); c_j = F_j + U_j has the same law as person-by-person draws.
pub fn simulate_fixed_reported_counts<R: Rng + ?Sized>(
    rng: &mut R,
    mech: &RandomizedResponse,
    true_counts: &[u64],
) -> Vec<u64> {
    let k = true_counts.len();
    let gap = mech.gap();
    let mut counts: Vec<u64> = true_counts
        .iter()
        // gap ∈ (0, 1) for a valid mechanism, so the binomial exists.
        .map(|&n_i| Binomial::new(n_i, gap).map_or(0, |b| b.sample(rng)))
        .collect();
    let uniform: u64 = true_counts
        .iter()
        .zip(&counts)
        .map(|(n_i, f)| n_i - f)
        .sum();
    for (c, u) in counts
        .iter_mut()
        .zip(multinomial(rng, uniform, &vec![1.0 / k as f64; k]))
    {
        *c += u;
    }
    counts
}

fn simulate_counts<R: Rng + ?Sized>(
    rng: &mut R,
    mech: &RandomizedResponse,
    n: u64,
    truth: &[f64],
) -> Survey {
    let true_counts = multinomial(rng, n, truth);
    reports_given_truth(rng, mech, true_counts)
}

/// The reports of a survey whose true counts are known: truthful reports Binomial(n_j, p) per
/// category, the liars of each category spread Multinomial over the other K − 1.
fn reports_given_truth<R: Rng + ?Sized>(
    rng: &mut R,
    mech: &RandomizedResponse,
    true_counts: Vec<u64>,
) -> Survey {
    let k = true_counts.len();
    let mut reported_counts = vec![0; k];
    let mut truthful = 0;
    let uniform_others = vec![1.0 / (k as f64 - 1.0); k - 1];
    for (j, &n_j) in true_counts.iter().enumerate() {
        let honest = Binomial::new(n_j, mech.p_truth()).map_or(n_j, |b| b.sample(rng));
        truthful += honest;
        reported_counts[j] += honest;
        // Liars of category j report one of the other K − 1 categories uniformly.
        let lies = multinomial(rng, n_j - honest, &uniform_others);
        for (other, c) in (0..k).filter(|&i| i != j).zip(lies) {
            reported_counts[other] += c;
        }
    }
    Survey {
        true_counts,
        reported_counts,
        truthful,
        people: Vec::new(),
    }
}

fn simulate_people<R: Rng + ?Sized>(
    rng: &mut R,
    mech: &RandomizedResponse,
    n: u64,
    truth: &[f64],
) -> Survey {
    let k = truth.len();
    let mut survey = Survey {
        true_counts: vec![0; k],
        reported_counts: vec![0; k],
        truthful: 0,
        people: Vec::with_capacity(n as usize),
    };
    for _ in 0..n {
        let t = draw_category(rng, truth);
        let report = draw_report(rng, mech, t, k);
        survey.truthful += u64::from(report == t);
        survey.true_counts[t] += 1;
        survey.reported_counts[report] += 1;
        survey.people.push(Respondent { truth: t, report });
    }
    survey
}

/// One respondent's report given their truth `t` among `k` categories: the truth with probability p,
/// else one of the other K − 1 uniformly.
fn draw_report<R: Rng + ?Sized>(
    rng: &mut R,
    mech: &RandomizedResponse,
    t: usize,
    k: usize,
) -> usize {
    if rng.random::<f64>() < mech.p_truth() {
        t
    } else {
        let r = rng.random_range(0..k - 1);
        if r >= t {
            r + 1
        } else {
            r
        }
    }
}

/// Inverse-CDF draw of a category from `probs` (summing to 1; rounding lands on the last non-zero one).
fn draw_category<R: Rng + ?Sized>(rng: &mut R, probs: &[f64]) -> usize {
    let u: f64 = rng.random();
    let mut acc = 0.0;
    let mut last = 0;
    for (i, &p) in probs.iter().enumerate() {
        if p > 0.0 {
            last = i;
            acc += p;
            if u < acc {
                return i;
            }
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn counts_add_up_and_zero_categories_stay_empty() {
        let mech = RandomizedResponse::new(2.0, 4).map_err(|e| e.to_string());
        let mech = mech.unwrap();
        let truth = [0.0, 0.5, 0.5, 0.0];
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for n in [1, 399, 400, 401, 10_000_000] {
            let s = simulate_survey(&mut rng, &mech, n, &truth);
            assert_eq!(s.true_counts.iter().sum::<u64>(), n);
            assert_eq!(s.reported_counts.iter().sum::<u64>(), n);
            assert_eq!((s.true_counts[0], s.true_counts[3]), (0, 0));
            assert!(s.truthful <= n);
            assert_eq!(s.people.len() as u64, if n <= PEOPLE_LIMIT { n } else { 0 });
            for p in &s.people {
                assert!(p.report < 4 && (p.truth == 1 || p.truth == 2));
            }
        }
    }

    #[test]
    fn fixed_surveys_keep_their_true_counts() {
        let mech = RandomizedResponse::new(2.0, 4).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for counts in [
            vec![0, 1, 0, 0],
            vec![100, 0, 200, 100],
            vec![101, 0, 200, 100],
            vec![0, 5_000_000, 5_000_000, 0],
        ] {
            let n: u64 = counts.iter().sum();
            let s = simulate_fixed_survey(&mut rng, &mech, &counts);
            assert_eq!(s.true_counts, counts);
            assert_eq!(s.reported_counts.iter().sum::<u64>(), n);
            assert!(s.truthful <= n);
            assert_eq!(s.people.len() as u64, if n <= PEOPLE_LIMIT { n } else { 0 });
            // Person by person: listed by true category, and the counts are those of the people.
            assert!(s.people.windows(2).all(|w| w[0].truth <= w[1].truth));
            if n <= PEOPLE_LIMIT {
                for (t, &c) in counts.iter().enumerate() {
                    assert_eq!(s.people.iter().filter(|p| p.truth == t).count() as u64, c);
                }
            }
            let direct = simulate_fixed_reported_counts(&mut rng, &mech, &counts);
            assert_eq!(direct.iter().sum::<u64>(), n);
        }
        // With no privacy left (ε = 100) every report is the truth.
        let exact = RandomizedResponse::new(100.0, 3).unwrap();
        let counts = [7, 0, 1_000_000];
        assert_eq!(
            simulate_fixed_reported_counts(&mut rng, &exact, &counts),
            counts
        );
        assert_eq!(
            simulate_fixed_survey(&mut rng, &exact, &counts).reported_counts,
            counts
        );
    }

    #[test]
    fn seeded_runs_are_reproducible() {
        let mech = RandomizedResponse::new(1.0, 3).unwrap();
        let draw = |seed| {
            simulate_survey(
                &mut ChaCha8Rng::seed_from_u64(seed),
                &mech,
                5000,
                &[0.2, 0.3, 0.5],
            )
        };
        assert_eq!(draw(3), draw(3));
        assert_ne!(draw(3), draw(4));
    }
}
