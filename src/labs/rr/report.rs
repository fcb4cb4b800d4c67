//! Everything the randomized-response lab shows, computed from its parameters in one call.

use super::RrParams;
use crate::error::Result;
use crate::mechanisms::randomized_response::{
    fixed_counts, simulate_fixed_reported_counts, simulate_fixed_survey, simulate_reported_counts,
    simulate_survey, Population, RandomizedResponse, Survey, Z_95,
};
use crate::numerics::stats::{histogram, mean_sd, normal_pdf};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The lab's results for one category.
#[derive(Debug, Clone, PartialEq)]
pub struct CategoryResult {
    /// The true proportion the estimate is unbiased for: π_j (normalised) when respondents are drawn
    /// from the population, n_j/n for a fixed population (n·π_j rounded, see [`fixed_counts`]).
    pub truth: f64,
    /// Reported share λ̂_j = c_j / n in the simulated survey.
    pub reported: f64,
    /// Unbiased estimate π̂_j = (λ̂_j − q)/(p − q).
    pub estimate: f64,
    /// Closed-form standard error of the population model the simulation draws: `stderr_iid` or
    /// `stderr_fixed` (the histogram's normal curve uses it).
    pub stderr: f64,
    /// Standard error when respondents are drawn from the population, at `truth`:
    /// sqrt(λ_j(1 − λ_j)/n)/(p − q) ([`RandomizedResponse::variance`]).
    pub stderr_iid: f64,
    /// Standard error for a fixed group with these true proportions, at `truth`:
    /// sqrt((π_j p(1 − p) + (1 − π_j) q(1 − q))/n)/(p − q) ([`RandomizedResponse::variance_fixed`]);
    /// never above `stderr_iid`.
    pub stderr_fixed: f64,
    /// 95% interval π̂_j ± z·SE, with the SE an analyst can compute (λ̂_j plugged in for λ_j).
    pub ci: (f64, f64),
    /// Mean of the estimates over the repeated surveys.
    pub empirical_mean: f64,
    /// Sample standard deviation of the estimates over the repeated surveys.
    pub empirical_sd: f64,
}

/// Histogram of one category's estimates over the repeated surveys, beside its theoretical normal law.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EstimateHistogram {
    /// The category shown.
    pub category: usize,
    /// Bin edges (one more than bins).
    pub edges: Vec<f64>,
    /// Surveys whose estimate fell in each bin.
    pub counts: Vec<u64>,
    /// The normal curve N(π_j, SE²) scaled to expected surveys per bin, as (x, count) points.
    pub normal_curve: Vec<(f64, f64)>,
}

/// Everything the lab shows.
#[derive(Debug, Clone, PartialEq)]
pub struct RrReport {
    /// The parameters it was computed for (repetitions are applied only to a report of theirs).
    pub params: RrParams,
    /// The mechanism.
    pub mech: RandomizedResponse,
    /// Probability of a truthful report, p.
    pub p_truth: f64,
    /// Probability of each other report, q.
    pub p_other: f64,
    /// The largest likelihood ratio of a report under two different true answers: p/q = e^ε.
    pub max_ratio: f64,
    /// The survey drawn from the seed.
    pub survey: Survey,
    /// Results per category.
    pub categories: Vec<CategoryResult>,
    /// Spread of the chosen category's estimate.
    pub histogram: EstimateHistogram,
}

/// Points on the normal curve drawn over the histogram.
const CURVE_POINTS: usize = 121;

/// Repetition work (surveys × categories: one binomial draw each, about 1 µs in the page) up to which
/// the page simulates the repeated surveys itself, within a frame; beyond it they run in a worker
/// ([`repetitions`]) while the page shows everything else.
pub const ON_PAGE_REPETITION_WORK: usize = 5_000;

/// The repeated surveys' part of the report: each category's empirical mean and spread, and the
/// chosen category's histogram.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Repetitions {
    /// The parameters they were simulated for: a worker's result can arrive, or still be held, after
    /// the link has changed (a smaller K), and must not be applied to another report.
    pub params: RrParams,
    /// (mean, standard deviation) of each category's estimate over the surveys.
    pub empirical: Vec<(f64, f64)>,
    /// The chosen category's histogram.
    pub histogram: EstimateHistogram,
}

/// Whether the repeated surveys of `params` fit on the page ([`ON_PAGE_REPETITION_WORK`]).
pub fn repetitions_fit_on_page(params: &RrParams) -> bool {
    params.reps.saturating_mul(params.k) <= ON_PAGE_REPETITION_WORK
}

/// Runs the lab: one seeded survey, its estimates, and `reps` further surveys for the empirical spread
/// (drawn from a second stream of the same seed, so changing `reps` leaves the first survey alone).
/// The same numbers as [`run_without_repetitions`] completed by [`repetitions`].
///
/// With [`Population::Fixed`] every survey asks the same people ([`fixed_counts`]); only the reports
/// are redrawn.
///
/// # Errors
/// If the parameters are invalid (they are valid whenever they came from [`LinkParams::from_query`](crate::link::query::LinkParams::from_query)).
pub fn run(params: &RrParams) -> Result<RrReport> {
    Ok(run_without_repetitions(params)?.with_repetitions(&repetitions(params)?))
}

/// Everything but the repeated surveys: their means and spreads are NaN and the histogram has no
/// counts until [`RrReport::with_repetitions`] fills them in.
///
/// # Errors
/// As [`run`].
pub fn run_without_repetitions(params: &RrParams) -> Result<RrReport> {
    let (p, mech, counts, truth) = setup(params)?;
    let population = params.population;
    let n = p.n as f64;
    let mut rng = ChaCha8Rng::seed_from_u64(p.seed);
    let survey = match population {
        Population::Iid => simulate_survey(&mut rng, &mech, p.n, &truth),
        Population::Fixed => simulate_fixed_survey(&mut rng, &mech, &counts),
    };
    let categories: Vec<CategoryResult> = (0..p.k)
        .map(|j| {
            let reported = survey.reported_counts[j] as f64 / n;
            let estimate = mech.estimate(reported);
            let half = Z_95 * mech.stderr_from_reported(reported, p.n);
            CategoryResult {
                truth: truth[j],
                reported,
                estimate,
                stderr: mech.stderr_for(population, truth[j], p.n),
                stderr_iid: mech.stderr_for(Population::Iid, truth[j], p.n),
                stderr_fixed: mech.stderr_for(Population::Fixed, truth[j], p.n),
                ci: (estimate - half, estimate + half),
                empirical_mean: f64::NAN,
                empirical_sd: f64::NAN,
            }
        })
        .collect();
    let cat = params.cat.min(p.k - 1);
    let histogram = estimate_histogram(cat, &[], truth[cat], categories[cat].stderr);
    Ok(RrReport {
        params: params.clone(),
        mech,
        p_truth: mech.p_truth(),
        p_other: mech.p_other(),
        max_ratio: mech.max_likelihood_ratio(),
        survey,
        categories,
        histogram,
    })
}

/// The repeated surveys alone: the heavy part of [`run`], which a worker runs for large settings.
///
/// # Errors
/// As [`run`].
pub fn repetitions(params: &RrParams) -> Result<Repetitions> {
    let (p, mech, counts, truth) = setup(params)?;
    let n = p.n as f64;
    let mut rep_rng = ChaCha8Rng::seed_from_u64(p.seed);
    rep_rng.set_stream(1);
    let mut estimates = vec![Vec::with_capacity(p.reps); p.k];
    for _ in 0..p.reps {
        let reported = match params.population {
            Population::Iid => simulate_reported_counts(&mut rep_rng, &mech, p.n, &truth),
            Population::Fixed => simulate_fixed_reported_counts(&mut rep_rng, &mech, &counts),
        };
        for (est, c) in estimates.iter_mut().zip(reported) {
            est.push(mech.estimate(c as f64 / n));
        }
    }
    let cat = params.cat.min(p.k - 1);
    let stderr = mech.stderr_for(params.population, truth[cat], p.n);
    Ok(Repetitions {
        params: params.clone(),
        empirical: estimates.iter().map(|e| mean_sd(e)).collect(),
        histogram: estimate_histogram(cat, &estimates[cat], truth[cat], stderr),
    })
}

impl RrReport {
    /// The report with the repeated surveys' numbers filled in, when `reps` were simulated for this
    /// report's parameters ([`Repetitions::belong_to`]); a report of other parameters is returned as it
    /// is, its repetitions still to come (they once filled a K = 2 report with a K = 50 histogram,
    /// whose category 49 the page then read out of bounds).
    pub fn with_repetitions(mut self, reps: &Repetitions) -> RrReport {
        if !reps.belong_to(&self.params) || reps.empirical.len() != self.categories.len() {
            return self;
        }
        for (c, &(mean, sd)) in self.categories.iter_mut().zip(&reps.empirical) {
            c.empirical_mean = mean;
            c.empirical_sd = sd;
        }
        self.histogram = reps.histogram.clone();
        self
    }

    /// Whether the repeated surveys' numbers are in (false until [`RrReport::with_repetitions`] has
    /// applied the repetitions of these parameters).
    pub fn has_repetitions(&self) -> bool {
        self.categories.iter().all(|c| !c.empirical_mean.is_nan())
    }
}

impl Repetitions {
    /// Whether these repetitions were simulated for `params`: every key but the shuffle model's, which
    /// the repeated surveys do not read.
    pub fn belong_to(&self, params: &RrParams) -> bool {
        let survey = |p: &RrParams| RrParams {
            shuffle: Default::default(),
            ..p.clone()
        };
        survey(&self.params) == survey(params)
    }
}

/// The validated parameters, the mechanism, the fixed population's counts and the true proportions.
fn setup(params: &RrParams) -> Result<(RrParams, RandomizedResponse, Vec<u64>, Vec<f64>)> {
    let p = RrParams::new(
        params.eps,
        params.k,
        params.n,
        params.truth.clone(),
        params.reps,
        params.seed,
    )?;
    let mech = RandomizedResponse::new(p.eps, p.k)?;
    let counts = fixed_counts(p.n, &p.truth_normalised());
    let truth = match params.population {
        Population::Iid => p.truth_normalised(),
        Population::Fixed => {
            let n = p.n as f64;
            counts.iter().map(|&c| c as f64 / n).collect()
        }
    };
    Ok((p, mech, counts, truth))
}

/// Bins cover the estimates and the normal law's ±4 SE; Rice's rule (2·R^(1/3)) picks the bin count.
fn estimate_histogram(category: usize, estimates: &[f64], mu: f64, se: f64) -> EstimateHistogram {
    let lo = estimates.iter().copied().fold(mu - 4.0 * se, f64::min);
    let hi = estimates.iter().copied().fold(mu + 4.0 * se, f64::max);
    let bins = (2.0 * (estimates.len() as f64).cbrt())
        .ceil()
        .clamp(5.0, 40.0) as usize;
    let (edges, counts) = histogram(estimates, lo, hi, bins);
    let width = (hi - lo) / bins as f64;
    let scale = estimates.len() as f64 * width;
    let normal_curve = (0..CURVE_POINTS)
        .map(|i| {
            let x = lo + (hi - lo) * i as f64 / (CURVE_POINTS - 1) as f64;
            (x, scale * normal_pdf(x, mu, se))
        })
        .collect();
    EstimateHistogram {
        category,
        edges,
        counts,
        normal_curve,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::query::LinkParams;

    fn report(params: &RrParams) -> RrReport {
        run(params).unwrap()
    }

    #[test]
    fn default_report_is_consistent() {
        let r = report(&RrParams::default());
        assert_eq!(r.categories.len(), 2);
        assert!((r.max_ratio - r.p_truth / r.p_other).abs() < 1e-12);
        let total: f64 = r.categories.iter().map(|c| c.estimate).sum();
        assert!(
            (total - 1.0).abs() < 1e-12,
            "estimates of all categories sum to 1"
        );
        assert_eq!(r.histogram.counts.iter().sum::<u64>(), 200);
        for c in &r.categories {
            assert!(c.ci.0 < c.estimate && c.estimate < c.ci.1);
        }
    }

    #[test]
    fn changing_reps_keeps_the_first_survey() {
        let a = report(&RrParams::default());
        let b = report(&RrParams {
            reps: 50,
            ..RrParams::default()
        });
        assert_eq!(a.survey, b.survey);
    }

    /// Seeded i.i.d. runs keep the numbers they had before the `population` key existed (values printed
    /// by this crate at commit f99691a, for `seed=7`, R = 50 and the default truth for K).
    #[test]
    fn iid_runs_are_value_stable() {
        type Pinned<'a> = (u64, usize, &'a [u64], &'a [u64], u64, &'a [f64]);
        let pinned: [Pinned; 2] = [
            (
                120,
                2,
                &[39, 81],
                &[49, 71],
                86,
                &[0.120_722_095_792_060_42],
            ),
            (
                5000,
                3,
                &[2503, 1651, 846],
                &[1946, 1674, 1380],
                2861,
                &[0.019_589_808_579_247_02, 0.020_881_759_454_649_994],
            ),
        ];
        for (n, k, truths, reports, truthful, sds) in pinned {
            let r = report(&RrParams {
                n,
                k,
                truth: super::super::default_truth(k),
                reps: 50,
                seed: 7,
                ..RrParams::default()
            });
            assert_eq!(r.survey.true_counts, truths, "n = {n}");
            assert_eq!(r.survey.reported_counts, reports, "n = {n}");
            assert_eq!(r.survey.truthful, truthful, "n = {n}");
            for (c, sd) in r.categories.iter().zip(sds) {
                assert_eq!(c.empirical_sd, *sd, "n = {n}");
            }
        }
    }

    #[test]
    fn fixed_population_asks_the_same_people() {
        for n in [7, 120, 5000] {
            let iid = RrParams {
                n,
                k: 3,
                truth: vec![0.5, 0.3, 0.2],
                reps: 30,
                seed: 3,
                ..RrParams::default()
            };
            let fixed = RrParams {
                population: Population::Fixed,
                ..iid.clone()
            };
            let (a, b) = (report(&iid), report(&fixed));
            let counts = fixed_counts(n, &[0.5, 0.3, 0.2]);
            assert_eq!(b.survey.true_counts, counts, "n = {n}");
            assert_eq!(
                b.survey.people.is_empty(),
                n > crate::mechanisms::randomized_response::PEOPLE_LIMIT
            );
            for (j, (ci, cf)) in a.categories.iter().zip(&b.categories).enumerate() {
                assert_eq!(cf.truth, counts[j] as f64 / n as f64);
                assert_eq!((ci.stderr, cf.stderr), (ci.stderr_iid, cf.stderr_fixed));
                assert!(cf.stderr_fixed < cf.stderr_iid && ci.stderr_fixed < ci.stderr_iid);
            }
            // The histogram's normal curve is the chosen model's.
            let c = b.histogram.category;
            let peak = b
                .histogram
                .normal_curve
                .iter()
                .map(|p| p.1)
                .fold(0.0, f64::max);
            let width = b.histogram.edges[1] - b.histogram.edges[0];
            let expected =
                30.0 * width / (b.categories[c].stderr_fixed * (2.0 * std::f64::consts::PI).sqrt());
            assert!(
                (peak / expected - 1.0).abs() < 1e-2,
                "n = {n}: {peak} vs {expected}"
            );
        }
    }

    /// A worker's repetitions for K = 50 (histogram on category 49) arriving at, or still held by, a
    /// page whose link has gone back to K = 2 are not applied: the report keeps K = 2's shape and its
    /// histogram's category is one of its own (it was 49, and the page indexed out of bounds).
    #[test]
    fn repetitions_apply_only_to_their_own_parameters() {
        use crate::link::query::Query;
        let (big, _) = RrParams::from_query(&Query::parse("k=50&cat=49&reps=1000"));
        let (small, _) = RrParams::from_query(&Query::parse("k=2&reps=1000"));
        let stale = repetitions(&big).unwrap();
        let page = run_without_repetitions(&small).unwrap();
        let report = page.clone().with_repetitions(&stale);
        // NaN ≠ NaN: compared as printed.
        assert_eq!(format!("{report:?}"), format!("{page:?}"));
        assert!(!report.has_repetitions());
        assert!(report.histogram.category < report.categories.len());
        let own = page.with_repetitions(&repetitions(&small).unwrap());
        assert!(own.has_repetitions());
        assert_eq!(own, run(&small).unwrap());
        // The shuffle model's keys do not change the repeated surveys.
        let (shuffled, _) = RrParams::from_query(&Query::parse("k=2&reps=1000&shuffle=on"));
        assert!(repetitions(&small).unwrap().belong_to(&shuffled));
        assert!(!stale.belong_to(&small));
    }

    /// ε down to 1e-300 (and K = 50, n = 1) keeps every number finite: the variance (p − q)² once
    /// underflowed below ε ≈ 1e-154, the interval became (−∞, ∞), and the frequency chart's axis with
    /// it, which froze the page.
    #[test]
    fn tiny_eps_keeps_every_number_finite() {
        use crate::link::query::Query;
        for link in [
            "eps=1e-300",
            "eps=1e-160&n=10",
            "eps=1e-300&k=50&n=1&cat=49&population=fixed",
            "eps=1e-300&k=50&n=10000000&reps=2",
        ] {
            let (p, notices) = RrParams::from_query(&Query::parse(link));
            assert!(notices.is_empty(), "{link}: {notices:?}");
            let r = report(&p);
            for c in &r.categories {
                let numbers = [
                    c.estimate,
                    c.stderr,
                    c.stderr_iid,
                    c.stderr_fixed,
                    c.ci.0,
                    c.ci.1,
                ];
                assert!(numbers.iter().all(|x| x.is_finite()), "{link}: {c:?}");
                assert!(
                    c.empirical_mean.is_finite() && c.empirical_sd.is_finite(),
                    "{link}: {c:?}"
                );
            }
            let h = &r.histogram;
            assert!(
                h.edges.iter().all(|x| x.is_finite()),
                "{link}: {:?}",
                h.edges
            );
            assert!(h
                .normal_curve
                .iter()
                .all(|(x, y)| x.is_finite() && y.is_finite()));
        }
    }

    /// Below ε = 1e-300, K/ε leaves f64's range (at 2.3e-308 and K = 50 the estimate was −4e307 and
    /// its standard error ∞): the link refuses it, with its own text in the message.
    #[test]
    fn eps_below_the_floor_is_refused() {
        use crate::link::query::Query;
        let (p, notices) = RrParams::from_query(&Query::parse("eps=2.3e-308&k=50"));
        assert_eq!(p.eps, RrParams::default().eps);
        assert!(
            notices[0]
                .message
                .starts_with("eps = \"2.3e-308\" must be a number in [1e-300, 100]"),
            "{notices:?}"
        );
        assert!(run(&RrParams {
            eps: 2.3e-308,
            ..RrParams::default()
        })
        .is_err());
    }

    #[test]
    fn invalid_parameters_are_refused() {
        let bad = RrParams {
            eps: f64::NAN,
            ..RrParams::default()
        };
        assert!(run(&bad).is_err());
    }

    #[test]
    fn extreme_settings_stay_finite() {
        let tiny = RrParams {
            eps: 1e-6,
            k: 50,
            n: 1,
            truth: super::super::default_truth(50),
            reps: 2,
            seed: 0,
            cat: 49,
            population: Population::Fixed,
            shuffle: Default::default(),
        };
        let huge = RrParams {
            eps: 100.0,
            k: 2,
            n: 10_000_000,
            truth: vec![1.0, 0.0],
            reps: 3,
            seed: 1,
            cat: 1,
            population: Population::Iid,
            shuffle: Default::default(),
        };
        let huge_fixed = RrParams {
            population: Population::Fixed,
            ..huge.clone()
        };
        for p in [tiny, huge, huge_fixed] {
            let r = report(&p);
            for c in &r.categories {
                assert!(
                    c.estimate.is_finite() && c.stderr.is_finite() && c.empirical_sd.is_finite()
                );
                assert!(c.stderr_fixed <= c.stderr_iid && c.stderr_iid.is_finite());
            }
            assert!(r
                .histogram
                .normal_curve
                .iter()
                .all(|(x, y)| x.is_finite() && y.is_finite()));
        }
    }

    #[test]
    fn split_run_keeps_the_numbers_of_the_single_run() {
        // Values printed by `run` before it was split into the page's part and the worker's part
        // (commit 7d536b3): the same streams give the same bits, whichever side simulates.
        use crate::link::query::Query;
        type Case<'a> = (&'a str, [(f64, f64); 2], &'a [u64]);
        let cases: [Case; 3] = [
            (
                "",
                [
                    (0.299_498_896_450_045_2, 0.033_465_931_975_193_146),
                    (0.700_501_103_549_955_1, 0.033_465_931_975_193_215),
                ],
                &[0, 3, 2, 11, 37, 40, 61, 29, 13, 4, 0, 0],
            ),
            (
                "k=5&n=1000&reps=300&seed=7&population=fixed&cat=3",
                [
                    (0.339_608_908_066_403_5, 0.052_328_846_210_648_5),
                    (0.259_195_636_710_008_06, 0.049_342_763_568_291_15),
                ],
                &[0, 2, 1, 2, 34, 54, 48, 64, 60, 22, 9, 3, 0, 1],
            ),
            (
                "n=10000000&k=50&reps=1000&seed=1",
                [
                    (0.038_970_757_147_834_18, 0.001_364_972_693_029_803_4),
                    (0.038_007_151_963_963_82, 0.001_387_887_984_766_451_3),
                ],
                &[
                    0, 0, 1, 4, 24, 34, 60, 112, 117, 146, 136, 151, 106, 66, 26, 11, 4, 1, 0, 1,
                ],
            ),
        ];
        for (query, empirical, counts) in cases {
            let (p, _) = RrParams::from_query(&Query::parse(query));
            let page = run_without_repetitions(&p).unwrap();
            assert!(
                page.categories.iter().all(|c| c.empirical_sd.is_nan()),
                "{query}"
            );
            let worker = repetitions(&p).unwrap();
            let full = page.with_repetitions(&worker);
            assert_eq!(full, report(&p), "{query}");
            for (c, (mean, sd)) in full.categories.iter().zip(empirical) {
                assert_eq!((c.empirical_mean, c.empirical_sd), (mean, sd), "{query}");
            }
            assert_eq!(full.histogram.counts, counts, "{query}");
        }
        // The default link simulates on the page; the heavy one in a worker.
        assert!(repetitions_fit_on_page(&RrParams::default()));
        let (heavy, _) = RrParams::from_query(&Query::parse("k=50&reps=1000"));
        assert!(!repetitions_fit_on_page(&heavy));
    }
}
