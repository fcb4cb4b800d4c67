//! The mechanisms lab's parameters and their query string (`?lab=mechanisms&mech=gaussian&eps=…`).

use crate::error::{Error, Result};
use crate::link::query::{
    fmt_f64, parse_number, parse_number_in, parse_seed, parse_whole_in, LinkParams, Notice, Query,
    Reader,
};
use crate::mechanisms::exponential::{MAX_CANDIDATES, MAX_SCORE};
use crate::mechanisms::many_queries::MAX_K;
use crate::mechanisms::{MAX_EPS, MAX_SENS, MIN_EPS};

/// What the page uses when a hand-set σ, scale or bad-set ε is refused.
const CALIBRATED: &str = "using the calibrated value instead";

/// Most draws of the sample histogram.
pub const MAX_DRAWS: usize = 1_000_000;

crate::choice! {
    /// Which mechanism the lab shows (`mech`).
    #[derive(Debug)]
    pub enum Mechanism {
        /// Laplace noise (pure ε-DP).
        Laplace = "laplace" | "lap" => "Laplace",
        /// Gaussian noise ((ε, δ)-DP).
        Gaussian = "gaussian" | "gauss" | "normal" => "Gaussian",
        /// Laplace noise on a bounded support ((ε, δ)-DP).
        TruncatedLaplace = "tlap" | "truncated-laplace" | "truncated" | "tlaplace" => "Truncated Laplace",
        /// The exponential mechanism over candidates.
        Exponential = "exponential" | "em" | "exp" => "Exponential mechanism",
    }
}

impl Mechanism {
    /// Parses `mech`, accepting common spellings (`lap`, `gauss`, `truncated-laplace`, `em`, …).
    ///
    /// # Errors
    /// An unknown name.
    pub fn parse(s: &str) -> Result<Self> {
        Self::from_key(s).ok_or_else(|| {
            let s = s.trim().to_ascii_lowercase().replace(['_', ' '], "-");
            Error::invalid(
                "mech",
                s,
                "is not a mechanism (laplace, gaussian, tlap, exponential)",
            )
        })
    }
}

/// One candidate of the exponential mechanism.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// Its name (`red`), or its position when the link gives none.
    pub name: String,
    /// Its utility score u(x, r).
    pub score: f64,
}

/// Everything a mechanisms link holds.
#[derive(Debug, Clone, PartialEq)]
pub struct MechParams {
    /// The mechanism shown (`mech`).
    pub mech: Mechanism,
    /// The target ε (`eps`).
    pub eps: f64,
    /// The target δ (`delta`).
    pub delta: f64,
    /// The query's sensitivity Δ, or the utility's sensitivity Δu for the exponential mechanism (`sens`).
    pub sens: f64,
    /// A Gaussian σ set by hand (`sigma`); `None` uses the analytic σ for (ε, δ).
    pub sigma: Option<f64>,
    /// A Laplace scale set by hand (`scale`); `None` uses Δ/ε.
    pub scale: Option<f64>,
    /// The ε at which the bad set is shaded (`bad_eps`); `None` uses `eps`.
    pub bad_eps: Option<f64>,
    /// Draws in the sample histogram (`draws`).
    pub draws: usize,
    /// Seed of every random draw (`seed`).
    pub seed: u64,
    /// The exponential mechanism's candidates (`cands=red:30,blue:28`).
    pub cands: Vec<Candidate>,
    /// Largest number of queries in the many-queries chart (`kmax`).
    pub kmax: usize,
}

impl Default for MechParams {
    fn default() -> Self {
        MechParams {
            mech: Mechanism::Gaussian,
            eps: 1.0,
            delta: 1e-5,
            sens: 1.0,
            sigma: None,
            scale: None,
            bad_eps: None,
            draws: 10_000,
            seed: 42,
            cands: default_candidates(),
            kmax: 1000,
        }
    }
}

/// Four colours and how many people named each their favourite: a plurality vote to release privately.
pub fn default_candidates() -> Vec<Candidate> {
    [
        ("red", 30.0),
        ("blue", 28.0),
        ("green", 12.0),
        ("yellow", 5.0),
    ]
    .into_iter()
    .map(|(name, score)| Candidate {
        name: name.into(),
        score,
    })
    .collect()
}

impl MechParams {
    /// ε at which the bad set is drawn.
    pub fn bad_eps(&self) -> f64 {
        self.bad_eps.unwrap_or(self.eps)
    }
}

/// Parses `name:score,name:score` (or bare scores, named by position).
///
/// # Errors
/// An empty list, more than [`MAX_CANDIDATES`], a score that is not a finite number within ±1e12, or a
/// name longer than 40 characters.
pub fn parse_candidates(s: &str) -> Result<Vec<Candidate>> {
    let items: Vec<&str> = s
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if items.is_empty() || items.len() > MAX_CANDIDATES {
        return Err(Error::invalid(
            "cands",
            s,
            format!("must list 1 to {MAX_CANDIDATES} candidates as name:score"),
        ));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let (name, score) = match item.rsplit_once(':') {
                Some((name, score)) => (name.trim().to_owned(), score),
                None => (i.to_string(), *item),
            };
            let score = parse_number("cands", score).ok().filter(|u| u.is_finite() && u.abs() <= MAX_SCORE);
            match score {
                Some(score) if name.chars().count() <= 40 => Ok(Candidate { name, score }),
                _ => Err(Error::invalid("cands", s, format!("has \"{item}\"; write name:score with a finite score within ±{MAX_SCORE:e}"))),
            }
        })
        .collect()
}

/// Prints candidates as the link writes them.
pub fn format_candidates(cands: &[Candidate]) -> String {
    cands
        .iter()
        .map(|c| format!("{}:{}", c.name, fmt_f64(c.score)))
        .collect::<Vec<_>>()
        .join(",")
}

#[derive(Clone)]
struct CandidateList(Vec<Candidate>);

impl std::fmt::Display for CandidateList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format_candidates(&self.0))
    }
}

/// A number in (lo, hi] (or (lo, hi) when `open_top`).
/// A number in (lo, hi] (or (lo, hi) when `open_top`).
fn in_range(name: &'static str, s: &str, lo: f64, hi: f64, open_top: bool) -> Result<f64> {
    parse_number_in(name, s, lo, hi, !open_top)
}

fn in_range_closed(name: &'static str, s: &str, lo: f64, hi: f64) -> Result<f64> {
    let x = parse_number(name, s)?;
    if x >= lo && x <= hi {
        Ok(x)
    } else {
        Err(Error::invalid(
            name,
            s,
            format!("must be a number in [{lo}, {hi}]"),
        ))
    }
}

fn whole_in(name: &'static str, s: &str, lo: usize, hi: usize) -> Result<usize> {
    parse_whole_in(name, s, lo as u64, hi as u64).map(|v| v as usize)
}

impl LinkParams for MechParams {
    fn from_query(query: &Query) -> (Self, Vec<Notice>) {
        let d = MechParams::default();
        let mut r = Reader::new(query);
        let mech = r.parse("mech", d.mech, Mechanism::parse);
        let eps = r.parse("eps", d.eps, |s| {
            let eps = parse_number("eps", s)?;
            crate::mechanisms::check_eps(eps).map_err(|_| {
                Error::invalid(
                    "eps",
                    s,
                    format!("must be a number in [{MIN_EPS:e}, {MAX_EPS}]"),
                )
            })?;
            Ok(eps)
        });
        let delta = r.parse("delta", d.delta, |s| in_range("delta", s, 0.0, 1.0, true));
        let sens = r.parse("sens", d.sens, |s| {
            in_range("sens", s, 0.0, MAX_SENS, false)
        });
        let sigma = r.optional(
            "sigma",
            |s| in_range("sigma", s, 0.0, 1e200, false),
            CALIBRATED,
        );
        let scale = r.optional(
            "scale",
            |s| in_range("scale", s, 0.0, 1e200, false),
            CALIBRATED,
        );
        let bad_eps = r.optional(
            "bad_eps",
            |s| in_range_closed("bad_eps", s, 0.0, MAX_EPS),
            CALIBRATED,
        );
        let draws = r.parse("draws", d.draws, |s| whole_in("draws", s, 1, MAX_DRAWS));
        let seed = r.parse("seed", d.seed, parse_seed);
        let cands = r
            .parse("cands", CandidateList(d.cands), |s| {
                parse_candidates(s).map(CandidateList)
            })
            .0;
        let kmax = r.parse("kmax", d.kmax, |s| whole_in("kmax", s, 2, MAX_K));
        r.finish(MechParams {
            mech,
            eps,
            delta,
            sens,
            sigma,
            scale,
            bad_eps,
            draws,
            seed,
            cands,
            kmax,
        })
    }

    fn to_query(&self) -> Query {
        let mut q = Query::default()
            .with("lab", "mechanisms")
            .with("mech", self.mech.key())
            .with("eps", fmt_f64(self.eps))
            .with("delta", fmt_f64(self.delta))
            .with("sens", fmt_f64(self.sens));
        for (key, value) in [
            ("sigma", self.sigma),
            ("scale", self.scale),
            ("bad_eps", self.bad_eps),
        ] {
            if let Some(v) = value {
                q.set(key, fmt_f64(v));
            }
        }
        q.with("draws", self.draws.to_string())
            .with("seed", self.seed.to_string())
            .with("cands", format_candidates(&self.cands))
            .with("kmax", self.kmax.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_round_trip() {
        let d = MechParams::default();
        let (back, notices) = MechParams::from_query(&d.to_query());
        assert_eq!(back, d);
        assert!(notices.is_empty());
        let set = MechParams {
            sigma: Some(2.5),
            scale: Some(0.1),
            bad_eps: Some(0.0),
            ..d
        };
        assert_eq!(MechParams::from_query(&set.to_query()).0, set);
    }

    #[test]
    fn aliases_and_shared_link() {
        let q = Query::parse("lab=mechanisms&mech=gauss&eps=0.5&delta=1e-6&sens=2&sigma=3&seed=7");
        let (p, notices) = MechParams::from_query(&q);
        assert!(notices.is_empty());
        assert_eq!(
            (p.mech, p.eps, p.delta, p.sens, p.sigma, p.seed),
            (Mechanism::Gaussian, 0.5, 1e-6, 2.0, Some(3.0), 7)
        );
        for (raw, m) in [
            ("Truncated_Laplace", Mechanism::TruncatedLaplace),
            ("em", Mechanism::Exponential),
            ("lap", Mechanism::Laplace),
        ] {
            assert_eq!(Mechanism::parse(raw).ok(), Some(m));
        }
    }

    #[test]
    fn ugly_values_fall_back_with_one_notice_each() {
        let q = Query::parse("mech=foo&eps=NaN&delta=1&sens=-1&sigma=inf&scale=0&bad_eps=-2&draws=0&seed=-1&cands=a:x&kmax=1e9");
        let (p, notices) = MechParams::from_query(&q);
        let d = MechParams::default();
        assert_eq!(p, d);
        let keys: Vec<&str> = notices.iter().map(|n| n.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "mech", "eps", "delta", "sens", "sigma", "scale", "bad_eps", "draws", "seed",
                "cands", "kmax"
            ]
        );
        for (eps, ok) in [
            ("1e-6", true),
            ("50", true),
            ("100", true),
            ("100.1", false),
            ("0", false),
            ("1e400", false),
        ] {
            let (_, n) = MechParams::from_query(&Query::parse(&format!("eps={eps}")));
            assert_eq!(n.is_empty(), ok, "eps={eps}");
        }
        let (p, n) = MechParams::from_query(&Query::parse("delta=1e-300&sens=1e9"));
        assert!(n.is_empty() && p.delta == 1e-300 && p.sens == 1e9);
    }

    #[test]
    fn candidates_parse_with_and_without_names() {
        let c = parse_candidates("a:1, b : 2.5 ,3").unwrap();
        assert_eq!(c.len(), 3);
        assert_eq!(
            (c[1].name.as_str(), c[1].score, c[2].name.as_str()),
            ("b", 2.5, "2")
        );
        assert!(parse_candidates("").is_err());
        assert!(parse_candidates("a:1e13").is_err());
        assert!(parse_candidates(&vec!["1"; 51].join(",")).is_err());
    }
}
