//! The randomized-response lab's parameters and their query string (`?lab=rr&eps=…&k=…`).

use crate::error::{Error, Result};
pub use crate::link::query::parse_seed;
use crate::link::query::{fmt_f64, parse_number, parse_whole, LinkParams, Notice, Query, Reader};
use crate::mechanisms::check_eps;
use crate::mechanisms::randomized_response::{check_k, Population};

/// Most respondents one survey simulates.
pub const MAX_N: u64 = 10_000_000;
/// Repeated surveys: at least two (a spread needs two), at most this many.
pub const MAX_REPS: usize = 1000;
/// See [`MAX_REPS`].
pub const MIN_REPS: usize = 2;
/// How far the true proportions may sum from 1 (typed, rounded proportions such as 0.333,0.333,0.334);
/// the lab then normalises them exactly.
pub const TRUTH_SUM_TOL: f64 = 1e-3;

/// Everything a randomized-response link holds.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RrParams {
    /// Privacy parameter ε (`eps`).
    pub eps: f64,
    /// Number of categories K (`k`).
    pub k: usize,
    /// Respondents per survey (`n`).
    pub n: u64,
    /// True proportions of the K categories (`truth`), as written; [`RrParams::truth_normalised`] sums to 1.
    pub truth: Vec<f64>,
    /// Repeated surveys for the empirical spread (`reps`).
    pub reps: usize,
    /// Seed of every random draw (`seed`).
    pub seed: u64,
    /// Category whose estimates the histogram shows (`cat`, 0-based).
    pub cat: usize,
    /// Whether respondents are drawn from the population or fixed (`population`).
    pub population: Population,
    /// The shuffle model (`shuffle`, `delta`).
    pub shuffle: super::shuffle::ShuffleParams,
}

impl Default for RrParams {
    fn default() -> Self {
        RrParams {
            eps: 1.0,
            k: 2,
            n: 1000,
            truth: default_truth(2),
            reps: 200,
            seed: 42,
            cat: 0,
            population: Population::Iid,
            shuffle: super::shuffle::ShuffleParams::default(),
        }
    }
}

impl RrParams {
    /// Validates a full set of parameters.
    ///
    /// # Errors
    /// The first invalid parameter, as [`Error::InvalidParameter`].
    pub fn new(
        eps: f64,
        k: usize,
        n: u64,
        truth: Vec<f64>,
        reps: usize,
        seed: u64,
    ) -> Result<Self> {
        check_eps(eps)?;
        check_k(k)?;
        check_n(n)?;
        check_truth(&truth, k)?;
        check_reps(reps)?;
        Ok(RrParams {
            eps,
            k,
            n,
            truth,
            reps,
            seed,
            cat: 0,
            population: Population::Iid,
            shuffle: super::shuffle::ShuffleParams::default(),
        })
    }

    /// The true proportions scaled to sum to exactly 1.
    pub fn truth_normalised(&self) -> Vec<f64> {
        let sum: f64 = self.truth.iter().sum();
        self.truth.iter().map(|t| t / sum).collect()
    }
}

/// The default true proportions for K categories: 0.3, 0.7 for K = 2, otherwise decreasing weights
/// K, K−1, …, 1 normalised and rounded to three decimals, so that the bars differ and the link stays short.
pub fn default_truth(k: usize) -> Vec<f64> {
    if k == 2 {
        return vec![0.3, 0.7];
    }
    let weights: Vec<f64> = (0..k).map(|i| (k - i) as f64).collect();
    rounded_proportions(&weights, 3).unwrap_or_default()
}

/// `weights` scaled to sum to 1 and rounded to `decimals` places, the rounding remainder given to the
/// largest entry so that the printed values sum to 1. `None` if a weight is negative or not finite, or
/// all are zero.
pub fn rounded_proportions(weights: &[f64], decimals: i32) -> Option<Vec<f64>> {
    let sum: f64 = weights.iter().sum();
    if weights.iter().any(|w| !w.is_finite() || *w < 0.0) || !(sum > 0.0 && sum.is_finite()) {
        return None;
    }
    let unit = 10f64.powi(decimals);
    let mut out: Vec<f64> = weights
        .iter()
        .map(|w| (w / sum * unit).round() / unit)
        .collect();
    let largest = (0..out.len()).max_by(|&a, &b| out[a].total_cmp(&out[b]))?;
    let rest: f64 = out
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != largest)
        .map(|(_, v)| v)
        .sum();
    out[largest] = ((1.0 - rest) * unit).round() / unit;
    Some(out)
}

/// What the "Normalise" button writes: the typed numbers, whatever they sum to, as proportions
/// (four decimals). `None` when the text holds no usable weights.
pub fn normalise_truth_text(raw: &str) -> Option<String> {
    let weights = raw
        .split(',')
        .map(|p| p.trim().parse::<f64>().ok())
        .collect::<Option<Vec<f64>>>()?;
    rounded_proportions(&weights, 4).map(|t| format_truth(&t))
}

/// Sets K in `query` from the text `raw`. When the new K is valid and the link's `truth` does not fit it,
/// `truth` becomes the default for that K, and a histogram category beyond K goes back to 0, so that
/// moving the K slider never leaves the page on fallbacks.
pub fn set_k(query: &mut Query, raw: &str) {
    query.set("k", raw);
    if let Ok(k) = parse_k(raw) {
        if query
            .get("truth")
            .is_some_and(|t| parse_truth(t, k).is_err())
        {
            query.set("truth", format_truth(&default_truth(k)));
        }
        if query.get("cat").is_some_and(|c| parse_cat(c, k).is_err()) {
            query.set("cat", "0");
        }
    }
}

/// Comma-separated proportions, as the link writes them.
pub fn format_truth(truth: &[f64]) -> String {
    truth
        .iter()
        .map(|t| fmt_f64(*t))
        .collect::<Vec<_>>()
        .join(",")
}

/// Parses ε.
pub fn parse_eps(s: &str) -> Result<f64> {
    let eps = parse_number("eps", s)?;
    // The link's text in the message, not the number's (1e-305 prints with 305 digits).
    check_eps(eps).map_err(|e| match e {
        Error::InvalidParameter { name, reason, .. } => Error::InvalidParameter {
            name,
            value: s.to_owned(),
            reason,
        },
        other => other,
    })?;
    Ok(eps)
}

/// Parses K.
pub fn parse_k(s: &str) -> Result<usize> {
    let k = parse_whole("k", s)?;
    check_k(usize::try_from(k).unwrap_or(usize::MAX))?;
    Ok(k as usize)
}

/// Parses n (also written as `1e6`).
pub fn parse_n(s: &str) -> Result<u64> {
    let n = parse_whole("n", s)?;
    check_n(n)?;
    Ok(n)
}

/// Parses the number of repeated surveys.
pub fn parse_reps(s: &str) -> Result<usize> {
    let reps = parse_whole("reps", s)?;
    check_reps(usize::try_from(reps).unwrap_or(usize::MAX))?;
    Ok(reps as usize)
}

/// Parses the histogram's category for K categories.
pub fn parse_cat(s: &str, k: usize) -> Result<usize> {
    let cat = parse_whole("cat", s)?;
    if cat < k as u64 {
        Ok(cat as usize)
    } else {
        Err(Error::invalid(
            "cat",
            s,
            format!("must be a category number from 0 to {}", k - 1),
        ))
    }
}

/// Parses K comma-separated proportions: each a finite number in [0, 1], summing to 1 within
/// [`TRUTH_SUM_TOL`].
pub fn parse_truth(s: &str, k: usize) -> Result<Vec<f64>> {
    let truth = s
        .split(',')
        .map(|part| {
            parse_number("truth", part).map_err(|_| {
                Error::invalid(
                    "truth",
                    s,
                    "must be comma-separated numbers such as 0.3,0.7",
                )
            })
        })
        .collect::<Result<Vec<f64>>>()?;
    check_truth(&truth, k).map_err(|e| match e {
        Error::InvalidParameter { name, reason, .. } => Error::InvalidParameter {
            name,
            value: s.to_owned(),
            reason,
        },
        other => other,
    })?;
    Ok(truth)
}

fn check_n(n: u64) -> Result<()> {
    if (1..=MAX_N).contains(&n) {
        Ok(())
    } else {
        Err(Error::invalid(
            "n",
            n,
            format!("must be a whole number of respondents from 1 to {MAX_N}"),
        ))
    }
}

fn check_reps(reps: usize) -> Result<()> {
    if (MIN_REPS..=MAX_REPS).contains(&reps) {
        Ok(())
    } else {
        Err(Error::invalid(
            "reps",
            reps,
            format!("must be from {MIN_REPS} to {MAX_REPS} repeated surveys"),
        ))
    }
}

fn check_truth(truth: &[f64], k: usize) -> Result<()> {
    let text = format_truth(truth);
    if truth.len() != k {
        return Err(Error::invalid(
            "truth",
            text,
            format!(
                "must list {k} proportions, one per category (it lists {})",
                truth.len()
            ),
        ));
    }
    if let Some(bad) = truth
        .iter()
        .find(|t| !(t.is_finite() && (0.0..=1.0).contains(*t)))
    {
        return Err(Error::invalid(
            "truth",
            text,
            format!("has {bad}, but each proportion must be between 0 and 1"),
        ));
    }
    let sum: f64 = truth.iter().sum();
    if (sum - 1.0).abs() > TRUTH_SUM_TOL {
        return Err(Error::invalid(
            "truth",
            text,
            format!("sums to {}, but proportions must sum to 1", round6(sum)),
        ));
    }
    Ok(())
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// A truth list that prints the way the link writes it (for the fallback notice).
#[derive(Clone)]
struct TruthList(Vec<f64>);

impl std::fmt::Display for TruthList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format_truth(&self.0))
    }
}

impl LinkParams for RrParams {
    fn from_query(query: &Query) -> (Self, Vec<Notice>) {
        let d = RrParams::default();
        let mut r = Reader::new(query);
        let eps = r.parse("eps", d.eps, parse_eps);
        let k = r.parse("k", d.k, parse_k);
        let n = r.parse("n", d.n, parse_n);
        let truth = r
            .parse("truth", TruthList(default_truth(k)), |s| {
                parse_truth(s, k).map(TruthList)
            })
            .0;
        let reps = r.parse("reps", d.reps, parse_reps);
        let seed = r.parse("seed", d.seed, parse_seed);
        let cat = r.parse("cat", d.cat, |s| parse_cat(s, k));
        let population = r.parse("population", d.population, Population::parse);
        let shuffle = super::shuffle::ShuffleParams::read(&mut r);
        r.finish(RrParams {
            eps,
            k,
            n,
            truth,
            reps,
            seed,
            cat,
            population,
            shuffle,
        })
    }

    fn to_query(&self) -> Query {
        let mut q = Query::default()
            .with("lab", "rr")
            .with("eps", fmt_f64(self.eps))
            .with("k", self.k.to_string())
            .with("n", self.n.to_string())
            .with("truth", format_truth(&self.truth))
            .with("reps", self.reps.to_string())
            .with("seed", self.seed.to_string())
            .with("cat", self.cat.to_string())
            .with("population", self.population.key());
        self.shuffle.write(&mut q);
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_truths_are_valid_for_every_k() {
        for k in 2..=crate::mechanisms::randomized_response::MAX_K {
            let t = default_truth(k);
            assert!(check_truth(&t, k).is_ok(), "k = {k}: {t:?}");
            assert!(parse_truth(&format_truth(&t), k) == Ok(t));
        }
    }

    #[test]
    fn k_changes_keep_the_page_valid() {
        let mut q = Query::parse("lab=rr&k=2&truth=0.3,0.7&cat=1&eps=2");
        set_k(&mut q, "4");
        assert_eq!(q.get("truth"), Some("0.4,0.3,0.2,0.1"));
        assert_eq!(q.get("cat"), Some("1"));
        set_k(&mut q, "7x");
        assert_eq!(
            (q.get("k"), q.get("truth")),
            (Some("7x"), Some("0.4,0.3,0.2,0.1"))
        );
        let mut q = Query::parse("cat=3&truth=0.25,0.25,0.25,0.25");
        set_k(&mut q, "2");
        assert_eq!((q.get("truth"), q.get("cat")), (Some("0.3,0.7"), Some("0")));
        let (p, notices) = RrParams::from_query(&q);
        assert!(notices.is_empty() && p.k == 2);
    }

    #[test]
    fn normalising_typed_weights() {
        assert_eq!(
            normalise_truth_text("1, 1, 1").as_deref(),
            Some("0.3333,0.3333,0.3334")
        );
        assert_eq!(normalise_truth_text("2,6").as_deref(), Some("0.25,0.75"));
        assert_eq!(normalise_truth_text("0,0"), None);
        assert_eq!(normalise_truth_text("1,-1,3"), None);
        assert_eq!(normalise_truth_text("a,b"), None);
        let t = rounded_proportions(&[1.0; 7], 4).unwrap_or_default();
        assert!(check_truth(&t, 7).is_ok());
    }

    #[test]
    fn query_round_trips() {
        let p = RrParams {
            eps: 0.123456789,
            k: 4,
            n: 10_000_000,
            truth: vec![0.1, 0.2, 0.3, 0.4],
            reps: 1000,
            seed: u64::MAX,
            cat: 3,
            population: Population::Fixed,
            shuffle: Default::default(),
        };
        let (back, notices) = RrParams::from_query(&Query::parse(&p.to_query().to_query_string()));
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(back, p);
        for population in Population::ALL {
            let p = RrParams {
                population,
                ..RrParams::default()
            };
            let (back, notices) = RrParams::from_query(&p.to_query());
            assert!(notices.is_empty() && back == p, "{population}");
        }
        let (d, notices) = RrParams::from_query(&Query::parse(""));
        assert!(notices.is_empty());
        assert_eq!(d, RrParams::default());
    }

    #[test]
    fn population_key_parses_and_falls_back_to_iid() {
        let read = |q: &str| RrParams::from_query(&Query::parse(q));
        assert_eq!(
            read("lab=rr").0.population,
            Population::Iid,
            "old links keep i.i.d."
        );
        assert_eq!(read("population=fixed").0.population, Population::Fixed);
        for alias in ["iid", "IID", "i.i.d.", " random "] {
            assert_eq!(Population::parse(alias), Ok(Population::Iid), "{alias}");
        }
        let (p, notices) = read("population=bogus&eps=2");
        assert_eq!((p.population, p.eps), (Population::Iid, 2.0));
        assert_eq!(notices.len(), 1);
        assert_eq!(notices[0].key, "population");
        assert_eq!(
            notices[0].message,
            "population = \"bogus\" must be iid or fixed; using iid instead."
        );
    }

    #[test]
    fn bad_values_fall_back_one_by_one() {
        let q = Query::parse("eps=-1&k=3&n=0&truth=0.5,0.6,0.1&reps=abc&seed=-4&cat=7&junk=1");
        let (p, notices) = RrParams::from_query(&q);
        let keys: Vec<&str> = notices.iter().map(|n| n.key.as_str()).collect();
        assert_eq!(keys, ["eps", "n", "truth", "reps", "seed", "cat"]);
        assert_eq!(p.k, 3, "the good key is kept");
        assert_eq!(p.truth, default_truth(3));
        assert_eq!((p.eps, p.n, p.reps, p.seed, p.cat), (1.0, 1000, 200, 42, 0));
        assert!(
            notices[2].message.contains("sums to 1.2"),
            "{}",
            notices[2].message
        );
    }

    #[test]
    fn every_bad_input_is_a_typed_error() {
        let e = |r: Result<RrParams>| r.map_err(|e| e.parameter().to_owned());
        let t = || vec![0.5, 0.5];
        assert_eq!(
            e(RrParams::new(0.0, 2, 10, t(), 10, 1)),
            Err("eps".to_owned())
        );
        assert_eq!(
            e(RrParams::new(f64::NAN, 2, 10, t(), 10, 1)),
            Err("eps".to_owned())
        );
        assert_eq!(
            e(RrParams::new(1.0, 1, 10, vec![1.0], 10, 1)),
            Err("k".to_owned())
        );
        assert_eq!(e(RrParams::new(1.0, 2, 0, t(), 10, 1)), Err("n".to_owned()));
        assert_eq!(
            e(RrParams::new(1.0, 2, MAX_N + 1, t(), 10, 1)),
            Err("n".to_owned())
        );
        assert_eq!(
            e(RrParams::new(1.0, 2, 10, vec![0.5, 0.4], 10, 1)),
            Err("truth".to_owned())
        );
        assert_eq!(
            e(RrParams::new(1.0, 2, 10, vec![1.5, -0.5], 10, 1)),
            Err("truth".to_owned())
        );
        assert_eq!(
            e(RrParams::new(1.0, 2, 10, vec![f64::NAN, 0.5], 10, 1)),
            Err("truth".to_owned())
        );
        assert_eq!(
            e(RrParams::new(1.0, 2, 10, vec![1.0], 10, 1)),
            Err("truth".to_owned())
        );
        assert_eq!(
            e(RrParams::new(1.0, 2, 10, t(), 1, 1)),
            Err("reps".to_owned())
        );
        assert_eq!(
            e(RrParams::new(1.0, 2, 10, t(), 1001, 1)),
            Err("reps".to_owned())
        );
        assert!(RrParams::new(1.0, 2, 10, t(), 10, 1).is_ok());
        for (s, name) in [
            ("eps", "eps"),
            ("1e400", "eps"),
            ("nan", "eps"),
            ("inf", "eps"),
        ] {
            assert_eq!(
                parse_eps(s).map_err(|e| e.parameter().to_owned()),
                Err(name.to_owned())
            );
        }
        assert!(
            parse_k("2.5").is_err()
                && parse_k("1").is_err()
                && parse_k("99999999999999999999").is_err()
        );
        assert_eq!(parse_n("1e6"), Ok(1_000_000));
        assert!(parse_n("1e7").is_ok() && parse_n("1.5e7").is_err() && parse_n("-3").is_err());
        assert!(parse_truth("0.5;0.5", 2).is_err() && parse_truth("a,b", 2).is_err());
        assert!(parse_truth("0.333,0.333,0.334", 3).is_ok());
    }
}
