//! The composition lab (`?lab=compose&list=gauss:3*10,lap:0.2*5&delta=1e-5`): a list of mechanisms, each
//! repeated, and every accountant's ε for the whole list side by side.

use crate::accounting::composition::{advanced, basic, optimal_homogeneous};
use crate::accounting::pld::{
    subsampled_gaussian_delta, Direction, Pld, DEFAULT_INTERVAL, DEFAULT_TAIL, MAX_POINTS,
};
use crate::accounting::rdp::{
    default_orders, epsilon_by_order, rdp_to_approx_dp, step_rdp, Conversion,
};
use crate::accounting::zcdp::zcdp_to_approx_dp;
use crate::error::{Error, Result};
use crate::mechanisms::gaussian::Gaussian;
use crate::query::{fmt_f64, read_param, Notice, Query};
use crate::special::ln_add_exp;

/// Most list entries, and most repetitions of one.
pub const MAX_ITEMS: usize = 20;
/// See [`MAX_ITEMS`].
pub const MAX_TIMES: u64 = 1_000_000;

/// One mechanism (sensitivity 1 where it has one).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Entry {
    /// Laplace noise calibrated to ε (`lap:ε`).
    Laplace { eps: f64 },
    /// Gaussian noise σ (`gauss:σ`).
    Gaussian { sigma: f64 },
    /// Binary randomized response (`rr:ε`).
    RandomizedResponse { eps: f64 },
    /// A Poisson-subsampled Gaussian step (`sgauss:q:σ`).
    SubsampledGaussian { q: f64, sigma: f64 },
    /// Any (ε, δ)-DP mechanism (`dp:ε:δ`).
    Raw { eps: f64, delta: f64 },
    /// An (ε, δ)-DP mechanism on a fixed-size subsample without replacement at rate m/n (`wor:m/n:ε:δ`).
    Subsampled { rate: f64, eps: f64, delta: f64 },
    /// A Gaussian (σ/Δ) on a fixed-size subsample without replacement at rate m/n (`wor:m/n:gauss:σ`),
    /// amplified along its whole privacy profile.
    WorGaussian { rate: f64, sigma: f64 },
}

/// An entry and how many times it runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Item {
    /// The mechanism.
    pub entry: Entry,
    /// Repetitions.
    pub times: u64,
}

impl Entry {
    /// A short description.
    pub fn describe(&self) -> String {
        match *self {
            Entry::Laplace { eps } => format!("Laplace, ε = {}", fmt_f64(eps)),
            Entry::Gaussian { sigma } => format!("Gaussian, σ/Δ = {}", fmt_f64(sigma)),
            Entry::RandomizedResponse { eps } => {
                format!("randomized response, ε = {}", fmt_f64(eps))
            }
            Entry::SubsampledGaussian { q, sigma } => format!(
                "Poisson-subsampled Gaussian, q = {}, σ = {}",
                fmt_f64(q),
                fmt_f64(sigma)
            ),
            Entry::Raw { eps, delta } => format!("(ε, δ) = ({}, {})", fmt_f64(eps), fmt_f64(delta)),
            Entry::Subsampled { rate, eps, delta } => format!(
                "({}, {}) on a subsample of rate {} without replacement",
                fmt_f64(eps),
                fmt_f64(delta),
                fmt_f64(rate)
            ),
            Entry::WorGaussian { rate, sigma } => format!(
                "Gaussian σ/Δ = {} on a subsample of rate {} without replacement",
                fmt_f64(sigma),
                fmt_f64(rate)
            ),
        }
    }

    /// The (ε, δ) an entry without amplification reduces to (for `wor`, the lecture's amplified pair
    /// ε′ = ln(1 + (m/n)(e^ε − 1)), δ′ = (m/n)δ, Balle, Barthe & Gaboardi 2018).
    fn raw_pair(&self) -> Option<(f64, f64)> {
        match *self {
            Entry::Raw { eps, delta } => Some((eps, delta)),
            Entry::Subsampled { rate, eps, delta } => {
                Some(((rate * eps.exp_m1()).ln_1p(), rate * delta))
            }
            _ => None,
        }
    }

    /// Pure ε-DP (δ = 0)?
    fn pure_eps(&self) -> Option<f64> {
        match *self {
            Entry::Laplace { eps } | Entry::RandomizedResponse { eps } => Some(eps),
            _ => self.raw_pair().filter(|p| p.1 == 0.0).map(|p| p.0),
        }
    }

    /// Exact δ(ε) (the larger of the two directions where they differ).
    pub fn delta(&self, eps: f64) -> f64 {
        match *self {
            Entry::Laplace { eps: e0 } => {
                if eps >= e0 {
                    0.0
                } else {
                    (-((eps - e0) / 2.0).exp_m1()).min(1.0)
                }
            }
            Entry::Gaussian { sigma } => Gaussian::new(sigma, 1.0).map_or(1.0, |g| g.delta(eps)),
            Entry::RandomizedResponse { eps: e } => raw_delta(e, 0.0, eps),
            Entry::SubsampledGaussian { q, sigma } => {
                subsampled_gaussian_delta(q, sigma, eps, Direction::Remove)
                    .max(subsampled_gaussian_delta(q, sigma, eps, Direction::Add))
            }
            Entry::WorGaussian { rate, sigma } => {
                // Balle, Barthe & Gaboardi (NeurIPS 2018), Theorem 9 applied at every point of the
                // Gaussian's profile: (ε, δ) ↦ (ln(1 + r(e^ε − 1)), rδ); below 0 by the symmetry
                // δ(−ε) = 1 − e^{−ε} + e^{−ε} δ(ε) of a symmetric pair.
                let amplified = |e: f64| {
                    let inner = (e.exp_m1() / rate).ln_1p();
                    rate * Gaussian::new(sigma, 1.0).map_or(1.0, |g| g.delta(inner))
                };
                if eps >= 0.0 {
                    amplified(eps).min(1.0)
                } else {
                    (-eps.exp_m1() + eps.exp() * amplified(-eps)).min(1.0)
                }
            }
            _ => self.raw_pair().map_or(1.0, |(e, d)| raw_delta(e, d, eps)),
        }
    }

    /// The smallest ε with δ(ε) ≤ `delta` (bisection, upper end), for basic and advanced composition.
    fn eps_for(&self, delta: f64) -> f64 {
        if let Some(e) = self.pure_eps() {
            return e;
        }
        if let Some((e, d)) = self.raw_pair() {
            return if d <= delta { e } else { f64::INFINITY };
        }
        let (mut lo, mut hi) = (0.0, 1.0);
        while self.delta(hi) > delta {
            hi *= 2.0;
            if hi > 1e6 {
                return f64::INFINITY;
            }
        }
        for _ in 0..80 {
            let mid = 0.5 * (lo + hi);
            if self.delta(mid) > delta {
                lo = mid
            } else {
                hi = mid
            }
        }
        hi
    }

    /// RDP at order α, where the entry has a Rényi curve.
    ///
    /// Laplace: Mironov (2017), Proposition 6; Gaussian α/(2σ²); randomized response: Mironov (2017),
    /// Proposition 5; subsampled Gaussian: [`step_rdp`]; pure ε-DP: min(ε, αε²/2) (Bun & Steinke 2016,
    /// Prop. 1.4). (ε, δ) with δ > 0 has none.
    fn rdp(&self, alpha: f64) -> Option<f64> {
        match *self {
            Entry::Laplace { eps } => Some(
                ln_add_exp(
                    (alpha / (2.0 * alpha - 1.0)).ln() + (alpha - 1.0) * eps,
                    ((alpha - 1.0) / (2.0 * alpha - 1.0)).ln() - alpha * eps,
                ) / (alpha - 1.0),
            ),
            Entry::Gaussian { sigma } => Some(alpha / (2.0 * sigma * sigma)),
            Entry::RandomizedResponse { eps } => {
                let (lp, lq) = (-(-eps).exp().ln_1p(), -eps.exp().ln_1p());
                Some(
                    ln_add_exp(
                        alpha * lp + (1.0 - alpha) * lq,
                        alpha * lq + (1.0 - alpha) * lp,
                    ) / (alpha - 1.0),
                )
            }
            Entry::SubsampledGaussian { q, sigma } => Some(step_rdp(q, sigma, alpha)),
            _ => self.pure_eps().map(|e| e.min(alpha * e * e / 2.0)),
        }
    }

    /// ρ of zCDP, where the entry has one (Gaussian 1/(2σ²); pure ε-DP ε²/2).
    fn rho(&self) -> Option<f64> {
        match *self {
            Entry::Gaussian { sigma } => Some(1.0 / (2.0 * sigma * sigma)),
            Entry::SubsampledGaussian { .. } => None,
            _ => self.pure_eps().map(|e| e * e / 2.0),
        }
    }

    /// Its PLD in `direction` on a grid of width `interval`.
    fn pld(&self, direction: Direction, interval: f64, tail: f64) -> Result<Pld> {
        match *self {
            Entry::SubsampledGaussian { q, sigma } => {
                Pld::subsampled_gaussian(q, sigma, direction, interval, tail)
            }
            Entry::Gaussian { sigma } => {
                let mu = 1.0 / (2.0 * sigma * sigma);
                let spread = crate::special::normal_upper_quantile(tail) * (2.0 * mu).sqrt();
                Pld::from_profile(|e| self.delta(e), mu - spread, mu + spread, interval)
            }
            Entry::Laplace { eps } | Entry::RandomizedResponse { eps } => {
                Pld::from_profile(|e| self.delta(e), -eps, eps, interval)
            }
            Entry::WorGaussian { .. } => {
                let mut hi = 1.0;
                while self.delta(hi) > tail && hi < 1e4 {
                    hi *= 2.0;
                }
                Pld::from_profile(|e| self.delta(e), -hi, hi, interval)
            }
            _ => {
                let (eps, _) = self.raw_pair().unwrap_or((0.0, 0.0));
                Pld::from_profile(|e| self.delta(e), -eps, eps.max(interval), interval)
            }
        }
    }
}

/// δ(ε) of the dominating pair of an (ε_r, δ_r)-DP mechanism: δ_r + (1 − δ_r)(p − e^ε q) on [−ε_r, ε_r]
/// with p = e^{ε_r}/(1 + e^{ε_r}), q = 1 − p (Kairouz, Oh & Viswanath 2015, Theorem 2.1).
fn raw_delta(eps_r: f64, delta_r: f64, eps: f64) -> f64 {
    if eps >= eps_r {
        return delta_r;
    }
    let p = 1.0 / (1.0 + (-eps_r).exp());
    let q = 1.0 - p;
    let inner = if eps <= -eps_r {
        1.0 - eps.exp()
    } else {
        p - eps.exp() * q
    };
    (delta_r + (1.0 - delta_r) * inner).clamp(0.0, 1.0)
}

/// Parses `kind:params*times` entries separated by commas.
///
/// # Errors
/// An unknown kind, a bad number, or too many entries.
pub fn parse_list(s: &str) -> Result<Vec<Item>> {
    let bad = |why: &str| Error::invalid("list", s, why.to_string());
    let items: Vec<&str> = s
        .split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .collect();
    if items.is_empty() || items.len() > MAX_ITEMS {
        return Err(bad(&format!(
            "must list 1 to {MAX_ITEMS} mechanisms such as gauss:3*10"
        )));
    }
    items
        .into_iter()
        .map(|item| {
            let (body, times) = match item.split_once('*') {
                Some((b, t)) => (b, t.trim().parse::<u64>().map_err(|_| bad("has a repeat count that is not a whole number"))?),
                None => (item, 1),
            };
            if !(1..=MAX_TIMES).contains(&times) {
                return Err(bad(&format!("repeats a mechanism {times} times; allowed 1 to {MAX_TIMES}")));
            }
            // wor:rate:<entry> subsamples another entry: lap and rr through their (ε, 0), a Gaussian
            // along its whole profile.
            let tokens: Vec<&str> = body.split(':').collect();
            if tokens.len() >= 3 && tokens[0].trim().eq_ignore_ascii_case("wor") && tokens[2].trim().parse::<f64>().is_err() {
                let rate = tokens[1].trim().parse::<f64>().ok().filter(|r| *r > 0.0 && *r <= 1.0)
                    .ok_or_else(|| bad("has a subsampling rate outside (0, 1]"))?;
                let inner = parse_list(&tokens[2..].join(":")).map_err(|_| bad(&format!("has \"{item}\": write wor:rate:lap:ε, wor:rate:rr:ε or wor:rate:gauss:σ")))?;
                let entry = match inner.first().map(|i| i.entry) {
                    Some(Entry::Laplace { eps } | Entry::RandomizedResponse { eps }) => Entry::Subsampled { rate, eps, delta: 0.0 },
                    Some(Entry::Gaussian { sigma }) => Entry::WorGaussian { rate, sigma },
                    Some(Entry::Raw { eps, delta }) => Entry::Subsampled { rate, eps, delta },
                    _ => return Err(bad(&format!("has \"{item}\": only lap, rr, gauss and dp entries can be subsampled without replacement"))),
                };
                return Ok(Item { entry, times });
            }
            let mut parts = body.split(':');
            let kind = parts.next().unwrap_or("").trim().to_ascii_lowercase();
            let nums: Vec<f64> = parts.map(|x| x.trim().parse::<f64>()).collect::<std::result::Result<_, _>>().map_err(|_| bad("has a parameter that is not a number"))?;
            let pos = |x: f64| x.is_finite() && x > 0.0;
            let entry = match (kind.as_str(), nums.as_slice()) {
                ("lap", &[e]) if pos(e) && e <= 100.0 => Entry::Laplace { eps: e },
                ("gauss", &[s]) if pos(s) && s <= 1e4 => Entry::Gaussian { sigma: s },
                ("rr", &[e]) if pos(e) && e <= 100.0 => Entry::RandomizedResponse { eps: e },
                ("sgauss", &[q, s]) if pos(q) && q <= 1.0 && pos(s) && s <= 1e4 => Entry::SubsampledGaussian { q, sigma: s },
                ("dp", &[e, d]) if (0.0..=100.0).contains(&e) && (0.0..1.0).contains(&d) => Entry::Raw { eps: e, delta: d },
                ("wor", &[r, e, d]) if pos(r) && r <= 1.0 && (0.0..=100.0).contains(&e) && (0.0..1.0).contains(&d) => Entry::Subsampled { rate: r, eps: e, delta: d },
                _ => return Err(bad(&format!("has \"{item}\": write lap:ε, gauss:σ, rr:ε, sgauss:q:σ, dp:ε:δ, wor:rate:ε:δ or wor:rate:gauss:σ, then *times"))),
            };
            Ok(Item { entry, times })
        })
        .collect()
}

/// Prints the list as the link writes it.
pub fn format_list(items: &[Item]) -> String {
    items
        .iter()
        .map(|it| {
            let body = match it.entry {
                Entry::Laplace { eps } => format!("lap:{}", fmt_f64(eps)),
                Entry::Gaussian { sigma } => format!("gauss:{}", fmt_f64(sigma)),
                Entry::RandomizedResponse { eps } => format!("rr:{}", fmt_f64(eps)),
                Entry::SubsampledGaussian { q, sigma } => {
                    format!("sgauss:{}:{}", fmt_f64(q), fmt_f64(sigma))
                }
                Entry::Raw { eps, delta } => format!("dp:{}:{}", fmt_f64(eps), fmt_f64(delta)),
                Entry::Subsampled { rate, eps, delta } => {
                    format!("wor:{}:{}:{}", fmt_f64(rate), fmt_f64(eps), fmt_f64(delta))
                }
                Entry::WorGaussian { rate, sigma } => {
                    format!("wor:{}:gauss:{}", fmt_f64(rate), fmt_f64(sigma))
                }
            };
            format!("{body}*{}", it.times)
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The lab's parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct ComposeParams {
    /// The mechanisms.
    pub list: Vec<Item>,
    /// The δ at which every accountant reports ε.
    pub delta: f64,
}

#[derive(Clone)]
struct ListText(Vec<Item>);

impl std::fmt::Display for ListText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format_list(&self.0))
    }
}

impl ComposeParams {
    /// Reads `list` and `delta`; never fails.
    pub fn from_query(query: &Query) -> (Self, Vec<Notice>) {
        let mut notices = Vec::new();
        let default = parse_list("gauss:3*10,lap:0.2*5").unwrap_or_default();
        let list = read_param(
            query,
            "list",
            ListText(default),
            |s| parse_list(s).map(ListText),
            &mut notices,
        )
        .0;
        let delta = read_param(
            query,
            "delta",
            1e-5,
            |s| crate::query::parse_number_in("delta", s, 0.0, 1.0, false),
            &mut notices,
        );
        (ComposeParams { list, delta }, notices)
    }

    /// Prints the query.
    pub fn to_query(&self) -> Query {
        Query::default()
            .with("lab", "compose")
            .with("list", format_list(&self.list))
            .with("delta", fmt_f64(self.delta))
    }
}

/// Every accountant's ε at one δ (`None` where an accountant does not apply).
#[derive(Debug, Clone, PartialEq)]
pub struct Accountants {
    /// Basic composition.
    pub basic: f64,
    /// Advanced composition (Dwork–Rothblum–Vadhan).
    pub advanced: Option<f64>,
    /// Optimal composition of k identical mechanisms (Kairouz–Oh–Viswanath).
    pub optimal: Option<f64>,
    /// RDP with the improved conversion, and its order.
    pub rdp: Option<(f64, f64)>,
    /// RDP with the classical conversion.
    pub rdp_classical: Option<f64>,
    /// zCDP.
    pub zcdp: Option<f64>,
    /// (α, the ε at δ that order alone gives): the RDP conversion's curve, minimal at the best order.
    pub rdp_by_order: Vec<(f64, f64)>,
}

/// The closed-form and RDP accountants at `delta` (cheap; the PLD is [`ComposedPld`]).
pub fn accountants(items: &[Item], delta: f64) -> Accountants {
    let approx: u64 = items
        .iter()
        .filter(|it| it.entry.pure_eps().is_none())
        .map(|it| it.times)
        .sum();
    let per = |share: f64| -> Vec<(f64, f64)> {
        items
            .iter()
            .flat_map(|it| {
                let pair = match it.entry.pure_eps() {
                    Some(e) => (e, 0.0),
                    None => {
                        let d = share / approx as f64;
                        (it.entry.eps_for(d), d)
                    }
                };
                std::iter::repeat_n(pair, it.times.min(100_000) as usize)
            })
            .collect()
    };
    let basic_eps = basic(&per(delta)).0;
    let (mech_share, slack) = if approx > 0 {
        (delta / 2.0, delta / 2.0)
    } else {
        (0.0, delta)
    };
    let advanced_eps = advanced(&per(mech_share), slack)
        .ok()
        .map(|x| x.0)
        .filter(|e| e.is_finite());
    let optimal = match items {
        [only] => {
            let (e, d) = match only.entry.pure_eps() {
                Some(e) => (e, 0.0),
                None => (
                    only.entry.eps_for(delta / (2.0 * only.times as f64)),
                    delta / (2.0 * only.times as f64),
                ),
            };
            if only.times <= 10_000 {
                optimal_homogeneous(e, d, only.times, delta)
            } else {
                None
            }
        }
        _ => None,
    };
    let orders = default_orders();
    let curve: Option<Vec<f64>> = orders
        .iter()
        .map(|&a| {
            items
                .iter()
                .map(|it| it.entry.rdp(a).map(|r| r * it.times as f64))
                .sum::<Option<f64>>()
        })
        .collect();
    let rdp = curve
        .as_ref()
        .and_then(|c| rdp_to_approx_dp(&orders, c, delta, Conversion::Improved).ok());
    let rdp_classical = curve
        .as_ref()
        .and_then(|c| rdp_to_approx_dp(&orders, c, delta, Conversion::Classical).ok())
        .map(|x| x.0);
    let rdp_by_order = curve
        .as_ref()
        .map(|c| epsilon_by_order(&orders, c, delta))
        .unwrap_or_default();
    let rho: Option<f64> = items
        .iter()
        .map(|it| it.entry.rho().map(|r| r * it.times as f64))
        .sum();
    let zcdp = rho.and_then(|r| zcdp_to_approx_dp(r, delta).ok());
    Accountants {
        basic: basic_eps,
        advanced: advanced_eps,
        optimal,
        rdp,
        rdp_classical,
        zcdp,
        rdp_by_order,
    }
}

/// The composed PLD in both directions (heavier: computed once per list, then read at any δ).
#[derive(Debug, Clone, PartialEq)]
pub struct ComposedPld {
    /// Remove and add directions.
    pub directions: Vec<Pld>,
}

impl ComposedPld {
    /// Composes the list's PLDs (grid 1e-4, widened when the composition would exceed
    /// [`MAX_POINTS`]).
    ///
    /// # Errors
    /// A mechanism whose PLD cannot be built.
    pub fn new(items: &[Item]) -> Result<Self> {
        let mut directions = Vec::new();
        for direction in [Direction::Remove, Direction::Add] {
            let mut interval = DEFAULT_INTERVAL;
            for _ in 0..2 {
                let plds = items
                    .iter()
                    .map(|it| it.entry.pld(direction, interval, DEFAULT_TAIL))
                    .collect::<Result<Vec<_>>>()?;
                let parts: Vec<(&Pld, u64)> = plds
                    .iter()
                    .zip(items)
                    .map(|(p, it)| (p, it.times))
                    .collect();
                let points = Pld::window_points(&parts, DEFAULT_TAIL);
                if points > MAX_POINTS as f64 && interval == DEFAULT_INTERVAL {
                    interval *= (points / MAX_POINTS as f64).ceil();
                    continue;
                }
                directions.push(Pld::compose_many(&parts, DEFAULT_TAIL));
                break;
            }
        }
        Ok(ComposedPld { directions })
    }

    /// ε at δ (the larger direction); never below the true ε.
    pub fn epsilon(&self, delta: f64) -> f64 {
        self.directions
            .iter()
            .map(|p| p.epsilon_for_delta(delta))
            .fold(0.0, f64::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_round_trips_and_rejects_nonsense() {
        let s = "gauss:3*10,lap:0.2*5,rr:1*2,sgauss:0.01:1.1*100,dp:0.5:0.000001*3,wor:0.1:1:0*4";
        let items = parse_list(s).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(format_list(&items), s);
        for bad in [
            "",
            "gauss",
            "gauss:-1",
            "lap:1*0",
            "foo:1",
            "dp:1:1",
            "gauss:1*x",
        ] {
            assert!(parse_list(bad).is_err(), "{bad}");
        }
        let (p, n) = ComposeParams::from_query(&Query::parse(&format!("list={s}&delta=1e-6")));
        assert!(n.is_empty());
        assert_eq!(ComposeParams::from_query(&p.to_query()).0, p);
    }

    #[test]
    fn pure_laplace_basic_is_tight_and_the_others_agree_in_order() {
        // 10 × Laplace(ε = 0.1): basic gives exactly 1.
        let items = parse_list("lap:0.1*10").unwrap_or_else(|e| panic!("{e}"));
        let a = accountants(&items, 1e-5);
        assert!((a.basic - 1.0).abs() < 1e-12);
        let opt = a.optimal.unwrap_or(f64::INFINITY);
        assert!(opt <= a.basic + 1e-12);
        let pld = ComposedPld::new(&items)
            .unwrap_or_else(|e| panic!("{e}"))
            .epsilon(1e-5);
        assert!(pld <= a.basic + 1e-3 && pld > 0.0, "{pld}");
    }

    #[test]
    fn subsampling_without_replacement_wraps_entries_and_amplifies() {
        let items =
            parse_list("wor:0.1:gauss:2*10,wor:0.1:lap:1*3").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            items[0].entry,
            Entry::WorGaussian {
                rate: 0.1,
                sigma: 2.0
            }
        );
        assert_eq!(
            items[1].entry,
            Entry::Subsampled {
                rate: 0.1,
                eps: 1.0,
                delta: 0.0
            }
        );
        assert_eq!(parse_list(&format_list(&items)).unwrap_or_default(), items);
        assert!(
            parse_list("wor:2:gauss:1").is_err() && parse_list("wor:0.1:sgauss:0.1:1").is_err()
        );
        // One amplified Gaussian: at any ε ≥ 0, δ′(ε) = r·δ(ln(1 + (e^ε − 1)/r)) — below the unamplified δ(ε).
        let wor = Entry::WorGaussian {
            rate: 0.1,
            sigma: 2.0,
        };
        let plain = Entry::Gaussian { sigma: 2.0 };
        for eps in [0.0, 0.1, 0.5, 1.0] {
            assert!(wor.delta(eps) < plain.delta(eps), "ε = {eps}");
        }
        // The PLD of ten amplified Gaussians is never below the exact profile of one, and at most basic composition.
        let one = parse_list("wor:0.1:gauss:2*1").unwrap_or_default();
        let eps1 = ComposedPld::new(&one)
            .unwrap_or_else(|e| panic!("{e}"))
            .epsilon(1e-5);
        assert!(
            eps1 >= wor.eps_for(1e-5) - 1e-3,
            "{eps1} vs {}",
            wor.eps_for(1e-5)
        );
        let a = accountants(&items[..1], 1e-5);
        let ten = ComposedPld::new(&items[..1])
            .unwrap_or_else(|e| panic!("{e}"))
            .epsilon(1e-5);
        assert!(ten > 0.0 && ten <= a.basic, "{ten} vs basic {}", a.basic);
    }

    #[test]
    fn gaussian_composition_matches_the_closed_form() {
        // 10 × Gaussian(σ = 3) = one Gaussian with σ/√10: exact ε from Balle & Wang; PLD within 1%, RDP above.
        let items = parse_list("gauss:3*10").unwrap_or_else(|e| panic!("{e}"));
        let one = Entry::Gaussian {
            sigma: 3.0 / 10f64.sqrt(),
        };
        let exact = one.eps_for(1e-5);
        let pld = ComposedPld::new(&items)
            .unwrap_or_else(|e| panic!("{e}"))
            .epsilon(1e-5);
        assert!(
            pld >= exact - 1e-9 && pld <= exact * 1.01,
            "{pld} vs {exact}"
        );
        let a = accountants(&items, 1e-5);
        let rdp = a.rdp.map_or(f64::NAN, |x| x.0);
        assert!(
            rdp >= exact && a.zcdp.unwrap_or(0.0) >= rdp - 1e-9 && a.basic >= rdp,
            "{a:?}"
        );
    }
}
