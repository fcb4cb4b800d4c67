//! A mechanism as an accountant sees it: [`Entry`] (sensitivity 1 where it has one) with its exact
//! privacy profile δ(ε), Rényi curve, ρ and PLD, each taken from the mechanism that owns the formula;
//! [`Item`] repeats it; the composition list syntax (`gauss:3*10,lap:0.2*5`) parses and prints lists.

use crate::accounting::pld::subsampled::{mixture_delta, symmetric_extension};
use crate::accounting::pld::{subsampled_gaussian_delta, Direction, Pld, Side};
use crate::accounting::rdp::step_rdp;
use crate::accounting::rdp::tight::step_rdp_exact;
use crate::accounting::samplers::allocation;
use crate::accounting::samplers::truncated::Truncated;
use crate::accounting::samplers::users::{UserMixture, MAX_USERS};
use crate::error::{Error, Result};
use crate::link::format::rate_text;
use crate::link::query::{fmt_f64, parse_number};
use crate::mechanisms::gaussian::{self, Gaussian};
use crate::mechanisms::laplace::Laplace;
use crate::mechanisms::randomized_response::{self, KaryRr};
use crate::mechanisms::{PrivacyCurves, MAX_EPS};
use crate::numerics::roots::{bisect, Split, Until};
use std::cmp::Ordering::Greater;

/// Most list entries, and most repetitions of one.
pub const MAX_ITEMS: usize = 20;
/// See [`MAX_ITEMS`].
pub const MAX_TIMES: u64 = 1_000_000;

/// One mechanism (sensitivity 1 where it has one).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Entry {
    /// Laplace noise calibrated to ε (`lap:ε`).
    Laplace { eps: f64 },
    /// Gaussian noise σ (`gauss:σ`).
    Gaussian { sigma: f64 },
    /// K-ary randomized response (`rr:ε`, binary, or `rr:ε:K`): the truth with probability
    /// e^ε/(e^ε + K − 1), each other answer with 1/(e^ε + K − 1).
    RandomizedResponse { eps: f64, k: u32 },
    /// A Poisson-subsampled Gaussian step (`sgauss:q:σ`).
    SubsampledGaussian { q: f64, sigma: f64 },
    /// Any (ε, δ)-DP mechanism (`dp:ε:δ`).
    Raw { eps: f64, delta: f64 },
    /// An (ε, δ)-DP mechanism on a fixed-size subsample without replacement at rate m/n (`wor:m/n:ε:δ`).
    Subsampled { rate: f64, eps: f64, delta: f64 },
    /// A Gaussian (σ/Δ) on a fixed-size subsample without replacement at rate m/n (`wor:m/n:gauss:σ`),
    /// amplified along its whole privacy profile.
    WorGaussian { rate: f64, sigma: f64 },
    /// A DP-SGD step on a fixed-size batch drawn without replacement at rate γ, replace-one neighbours
    /// (`fixed:γ:σ`): the clipped sum moves by up to 2C, so it is `wor:γ:gauss:σ/2`.
    FixedBatch { gamma: f64, sigma: f64 },
    /// A DP-SGD step protecting users of k records, each sampled at rate q (`users:k:q:σ`;
    /// [`UserMixture`]).
    Users { k: u32, q: f64, sigma: f64 },
    /// One epoch of t DP-SGD steps with balls-in-bins batches, add/remove (`balls:σ:t`): each record in
    /// exactly one uniformly random step ([`crate::accounting::samplers::allocation`]). Its profile and
    /// upper PLD are certified upper bounds (tight to the grid), its lower PLD the largest batch sum's.
    Balls { sigma: f64, steps: u64 },
    /// A DP-SGD step with truncated Poisson batches, add/remove (`trunc:n:q:B:σ`): n records, rate q,
    /// batches above B cut to B ([`crate::accounting::samplers::truncated`]). Its profile and upper
    /// PLD are the flagged pair's (certified), its lower PLD the Poisson pair at the rate a record
    /// survives, a pair that happens.
    Truncated {
        n: u64,
        q: f64,
        cap: u64,
        sigma: f64,
    },
}

/// An entry and how many times it runs.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
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
            Entry::RandomizedResponse { eps, k: 2 } => {
                format!("randomized response, ε = {}", fmt_f64(eps))
            }
            Entry::RandomizedResponse { eps, k } => {
                format!("{k}-ary randomized response, ε = {}", fmt_f64(eps))
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
            Entry::FixedBatch { gamma, sigma } => format!(
                "DP-SGD step, fixed-size batch at rate {} without replacement, σ = {}, replace-one",
                fmt_f64(gamma),
                fmt_f64(sigma)
            ),
            Entry::Users { k, q, sigma } => format!(
                "DP-SGD step for users of {k} records, q = {}, σ = {}",
                fmt_f64(q),
                fmt_f64(sigma)
            ),
            Entry::Balls { sigma, steps } => format!(
                "DP-SGD epoch of {steps} steps, balls-in-bins batches, σ = {}",
                fmt_f64(sigma)
            ),
            Entry::Truncated { n, q, cap, sigma } => format!(
                "DP-SGD step, truncated Poisson batches (n = {n}, q = {}, cap {cap}), σ = {}",
                fmt_f64(q),
                fmt_f64(sigma)
            ),
        }
    }

    /// The (ε, δ) an entry without amplification reduces to (for `wor`, the lecture's amplified pair
    /// ε′ = ln(1 + (m/n)(e^ε − 1)), δ′ = (m/n)δ, Balle, Barthe & Gaboardi 2018).
    pub(crate) fn raw_pair(&self) -> Option<(f64, f64)> {
        match *self {
            Entry::Raw { eps, delta } => Some((eps, delta)),
            Entry::Subsampled { rate, eps, delta } => {
                Some(((rate * eps.exp_m1()).ln_1p(), rate * delta))
            }
            _ => None,
        }
    }

    /// Whether its PLD's two sides come from different pairs because no tight pair is known: subsampling
    /// without replacement bounds from above by Balle et al.'s amplification and from below by a pair
    /// that happens (see `Entry::pld`), so part of the band's width is not the grid's.
    pub fn sides_apart(&self) -> bool {
        match *self {
            Entry::WorGaussian { rate, .. } | Entry::Subsampled { rate, .. } => rate < 1.0,
            Entry::FixedBatch { gamma, .. } => gamma < 1.0,
            Entry::Truncated { n, q, cap, .. } => {
                Truncated::new(n, q, cap, 1.0, false).is_ok_and(|t| t.cut(n).chance_hi > 0.0)
            }
            _ => false,
        }
    }

    /// Pure ε-DP (δ = 0)?
    pub(crate) fn pure_eps(&self) -> Option<f64> {
        match *self {
            Entry::Laplace { .. } | Entry::RandomizedResponse { .. } => {
                self.with_mechanism(|m| m.pure_eps()).flatten()
            }
            _ => self.raw_pair().filter(|p| p.1 == 0.0).map(|p| p.0),
        }
    }

    /// Calls `f` with the mechanism behind the entry, where the mechanisms module owns it (Laplace,
    /// Gaussian, randomized response); `None` for the others (or a Gaussian with an invalid σ).
    fn with_mechanism<T>(&self, f: impl FnOnce(&dyn PrivacyCurves) -> T) -> Option<T> {
        match *self {
            Entry::Laplace { eps } => Some(f(&Laplace::with_eps0(eps))),
            Entry::Gaussian { sigma } => Gaussian::new(sigma, 1.0).ok().map(|g| f(&g)),
            Entry::RandomizedResponse { eps, k } => Some(f(&KaryRr {
                eps,
                k: f64::from(k),
            })),
            _ => None,
        }
    }

    /// Exact δ(ε) for every real ε (the larger of the two directions where they differ), from the
    /// mechanism's own profile.
    pub fn delta(&self, eps: f64) -> f64 {
        match *self {
            Entry::Laplace { .. } | Entry::Gaussian { .. } | Entry::RandomizedResponse { .. } => {
                self.with_mechanism(|m| m.delta(eps)).unwrap_or(1.0)
            }
            Entry::SubsampledGaussian { q, sigma } => {
                subsampled_gaussian_delta(q, sigma, eps, Direction::Remove)
                    .max(subsampled_gaussian_delta(q, sigma, eps, Direction::Add))
            }
            Entry::FixedBatch { gamma, sigma } => Entry::WorGaussian {
                rate: gamma,
                sigma: sigma / 2.0,
            }
            .delta(eps),
            Entry::Users { .. } | Entry::Truncated { .. } => self.profile()(eps),
            // The Gaussian mechanism's profile (σ, sensitivity 1), a certified upper bound in closed
            // form: an adversary told the record's step sees exactly that mechanism, and hiding the
            // step is a post-processing of it. For basic and advanced composition, which run on the
            // page; the tight bound is the PLD's ([`Entry::pld`], in the worker pool).
            Entry::Balls { sigma, .. } => Entry::Gaussian { sigma }.delta(eps),
            Entry::WorGaussian { rate, sigma } => {
                // Balle, Barthe & Gaboardi (NeurIPS 2018), Theorem 9 applied at every point of the
                // Gaussian's profile: (ε, δ) ↦ (ln(1 + r(e^ε − 1)), rδ); below 0 by the symmetry
                // δ(−ε) = 1 − e^{−ε} + e^{−ε} δ(ε) of a symmetric pair.
                symmetric_extension(eps, |e: f64| {
                    let inner = (e.exp_m1() / rate).ln_1p();
                    rate * Gaussian::new(sigma, 1.0).map_or(1.0, |g| g.delta(inner))
                })
            }
            _ => self.raw_pair().map_or(1.0, |(e, d)| raw_delta(e, d, eps)),
        }
    }

    /// [`Entry::delta`] as a function, with what the entry's profile precomputes done once (a user
    /// mixture's weights; a truncated step's binomial tails, O(√(nq)) terms each): [`Entry::eps_for`]
    /// reads the profile ~100 times, on the page's thread.
    fn profile(&self) -> Box<dyn Fn(f64) -> f64 + '_> {
        let both = |d: &dyn Fn(Direction) -> f64| d(Direction::Remove).max(d(Direction::Add));
        match *self {
            Entry::Users { k, q, sigma } => match UserMixture::new(k, q, sigma) {
                Ok(m) => Box::new(move |e| both(&|d| m.delta(e, d))),
                Err(_) => Box::new(|_| 1.0),
            },
            Entry::Truncated { n, q, cap, sigma } => {
                match Truncated::new(n, q, cap, sigma, false) {
                    Ok(t) => Box::new(move |e| both(&|d| t.delta(e, d))),
                    Err(_) => Box::new(|_| 1.0),
                }
            }
            _ => Box::new(move |e| self.delta(e)),
        }
    }

    /// The smallest ε with δ(ε) ≤ `delta` (bisection, upper end), for basic and advanced composition.
    pub fn eps_for(&self, delta: f64) -> f64 {
        if let Some(e) = self.pure_eps() {
            return e;
        }
        if let Some((e, d)) = self.raw_pair() {
            return if d <= delta { e } else { f64::INFINITY };
        }
        let profile = self.profile();
        let (lo, mut hi) = (0.0, 1.0);
        // Every profile without mass at +∞ reaches any δ > 0 at some finite ε (a Gaussian of σ = 10⁻³
        // needs ε ≈ 10⁶ at δ = 10⁻³): double without a cap below f64's range.
        while profile(hi) > delta {
            hi *= 2.0;
            if hi > 1e300 {
                return f64::INFINITY;
            }
        }
        // The upper end: δ(hi) ≤ δ as evaluated, so the ε returned is never below the smallest one.
        bisect(lo, hi, Split::Middle, Until::Steps(80), |e| {
            profile(e).partial_cmp(&delta) != Some(Greater)
        })
        .hi
    }

    /// RDP at order α, where the entry has a Rényi curve.
    ///
    /// Laplace: Mironov (2017), Proposition 6; Gaussian α/(2σ²); randomized response: Mironov (2017),
    /// Proposition 5; subsampled Gaussian: [`step_rdp`]; pure ε-DP: min(ε, αε²/2) (Bun & Steinke 2016,
    /// Prop. 1.4). (ε, δ) with δ > 0 has none.
    pub(crate) fn rdp(&self, alpha: f64) -> Option<f64> {
        match *self {
            Entry::Laplace { .. } | Entry::Gaussian { .. } | Entry::RandomizedResponse { .. } => {
                self.with_mechanism(|m| m.rdp(alpha)).flatten()
            }
            Entry::SubsampledGaussian { q, sigma } => Some(step_rdp(q, sigma, alpha)),
            _ => self.pure_eps().map(|e| e.min(alpha * e * e / 2.0)),
        }
    }

    /// RDP at any real order α > 1, never below the exact value: [`Entry::rdp`] with the subsampled
    /// Gaussian's fractional orders by integration ([`step_rdp_exact`]) instead of the series.
    pub(crate) fn rdp_exact(&self, alpha: f64) -> Option<f64> {
        match *self {
            Entry::SubsampledGaussian { q, sigma } => Some(step_rdp_exact(q, sigma, alpha)),
            _ => self.rdp(alpha),
        }
    }

    /// ρ of zCDP, where the entry has one (Gaussian 1/(2σ²); pure ε-DP ε²/2).
    pub(crate) fn rho(&self) -> Option<f64> {
        match *self {
            Entry::Laplace { .. } | Entry::Gaussian { .. } | Entry::RandomizedResponse { .. } => {
                self.with_mechanism(|m| m.rho()).flatten()
            }
            Entry::SubsampledGaussian { .. } => None,
            _ => self.pure_eps().map(|e| e * e / 2.0),
        }
    }

    /// Its PLD in `direction` on a grid of width `interval`, from `side`; `tail` bounds the mass the
    /// grid leaves out on either end.
    pub(crate) fn pld(
        &self,
        direction: Direction,
        interval: f64,
        tail: f64,
        side: Side,
        times: u64,
    ) -> Result<Pld> {
        let profile = |e| self.delta(e);
        match *self {
            Entry::SubsampledGaussian { q, sigma } => {
                Pld::subsampled_gaussian(q, sigma, direction, interval, tail, side)
            }
            Entry::Gaussian { sigma } => {
                let mu = gaussian::rho(sigma, 1.0);
                let spread =
                    crate::numerics::special::normal_upper_quantile(tail) * (2.0 * mu).sqrt();
                Pld::from_profile(profile, mu - spread, mu + spread, interval, side, 0.0)
            }
            Entry::Laplace { eps } | Entry::RandomizedResponse { eps, .. } => {
                Pld::from_profile(profile, -eps, eps, interval, side, 0.0)
            }
            Entry::FixedBatch { gamma, sigma } => Entry::WorGaussian {
                rate: gamma,
                sigma: sigma / 2.0,
            }
            .pld(direction, interval, tail, side, times),
            // The profile below is Balle et al.'s bound, not a pair that happens, so its lower side
            // would not bound the mechanism's ε from below. A pair that happens: the replaced record's
            // query value is Δ, its replacement's and every other record's 0, so the output is
            // (1 − γ)N(0, σ²) + γN(Δ, σ²) against N(0, σ²) (either way round, swapping the two): the
            // Poisson-subsampled Gaussian's pair at rate γ.
            Entry::WorGaussian { rate, sigma } if side == Side::Lower => {
                Pld::subsampled_gaussian(rate, sigma, direction, interval, tail, side)
            }
            Entry::Users { k, q, sigma } => {
                UserMixture::new(k, q, sigma)?.pld(direction, interval, tail, side)
            }
            Entry::Truncated { n, q, cap, sigma } => {
                let step = Truncated::new(n, q, cap, sigma, false)?;
                match side {
                    Side::Upper => step.pld(direction, interval, tail, side),
                    Side::Lower => {
                        let rate = step.effective_rate();
                        Pld::subsampled_gaussian(rate, sigma, direction, interval, tail, side)
                    }
                }
            }
            Entry::Balls { sigma, steps } => {
                allocation::entry_pld(steps, sigma, times, direction, interval, tail, side)
            }
            Entry::WorGaussian { .. } => {
                let mut hi = 1.0;
                while self.delta(hi) > tail && hi < 1e4 {
                    hi *= 2.0;
                }
                Pld::from_profile(profile, -hi, hi, interval, side, 0.0)
            }
            // As for the Gaussian: the amplified (ε, δ) pair is Balle et al.'s bound, not a pair that
            // happens. One that does: the base mechanism's pair (A, B) (Kairouz et al.'s, realised by
            // randomized response) mixed as the replaced record's output with probability γ and its
            // replacement's otherwise: ((1 − γ)B + γA, B), either way round. Its losses are those of
            // the base's outcomes, ln(1 − γ + γe^l), plus ln(1 − γ) and +∞ for the δ outcomes.
            Entry::Subsampled { rate, eps, delta } if side == Side::Lower && rate < 1.0 => {
                let profile =
                    |e: f64| mixture_delta(rate, |b| raw_delta(eps, delta, b), e, direction);
                let mix = |l: f64| (1.0 - rate + rate * l.exp()).ln();
                let floor = if delta > 0.0 {
                    (-rate).ln_1p()
                } else {
                    mix(-eps)
                };
                let (lo, hi, infinite) = match direction {
                    Direction::Remove => (floor, mix(eps), rate * delta),
                    Direction::Add => (-mix(eps), -floor, 0.0),
                };
                Pld::from_profile(profile, lo, hi.max(lo + interval), interval, side, infinite)
            }
            _ => {
                let (eps, delta) = self.raw_pair().unwrap_or((0.0, 0.0));
                Pld::from_profile(profile, -eps, eps.max(interval), interval, side, delta)
            }
        }
    }
}

/// δ(ε) of the dominating pair of an (ε_r, δ_r)-DP mechanism: δ_r + (1 − δ_r)(p − e^ε q) on [−ε_r, ε_r]
/// with binary randomized response's p = e^{ε_r}/(1 + e^{ε_r}), q = 1/(1 + e^{ε_r}) (Kairouz, Oh &
/// Viswanath 2015, Theorem 2.1).
fn raw_delta(eps_r: f64, delta_r: f64, eps: f64) -> f64 {
    if eps >= eps_r {
        return delta_r;
    }
    let (p, q) = randomized_response::probabilities(eps_r, 2.0);
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
                Some((b, t)) => (b, t.trim().parse::<u64>().map_err(|_| bad(&format!("has \"{item}\", whose repeat count is not a whole number")))?),
                None => (item, 1),
            };
            if !(1..=MAX_TIMES).contains(&times) {
                return Err(bad(&format!("has \"{item}\", repeated {times} times; allowed 1 to {MAX_TIMES}")));
            }
            // wor:rate:<entry> subsamples another entry: lap and rr through their (ε, 0), a Gaussian
            // along its whole profile.
            let tokens: Vec<&str> = body.split(':').collect();
            if tokens.len() >= 3 && tokens[0].trim().eq_ignore_ascii_case("wor") && tokens[2].trim().parse::<f64>().is_err() {
                let rate = parse_number("rate", tokens[1]).ok().filter(|r| *r > 0.0 && *r <= 1.0)
                    .ok_or_else(|| bad(&format!("has \"{item}\", whose subsampling rate is outside (0, 1]")))?;
                let inner = parse_list(&tokens[2..].join(":")).map_err(|_| bad(&format!("has \"{item}\": write wor:rate:lap:ε, wor:rate:rr:ε or wor:rate:gauss:σ")))?;
                let entry = match inner.first().map(|i| i.entry) {
                    Some(Entry::Laplace { eps } | Entry::RandomizedResponse { eps, .. }) => Entry::Subsampled { rate, eps, delta: 0.0 },
                    Some(Entry::Gaussian { sigma }) => Entry::WorGaussian { rate, sigma },
                    Some(Entry::Raw { eps, delta }) => Entry::Subsampled { rate, eps, delta },
                    _ => return Err(bad(&format!("has \"{item}\": only lap, rr, gauss and dp entries can be subsampled without replacement"))),
                };
                return Ok(Item { entry, times });
            }
            let mut parts = body.split(':');
            let kind = parts.next().unwrap_or("").trim().to_ascii_lowercase();
            // Numbers as links write them, ratios included (`sgauss:8/1875:1.1`).
            let nums: Vec<f64> = parts.map(|x| parse_number("parameter", x)).collect::<std::result::Result<_, _>>().map_err(|e| {
                let why = match e { Error::InvalidParameter { reason, .. } => reason, other => other.to_string() };
                bad(&format!("has \"{item}\", with a parameter that {why}"))
            })?;
            let pos = |x: f64| x.is_finite() && x > 0.0;
            let entry = match (kind.as_str(), nums.as_slice()) {
                ("lap", &[e]) if pos(e) && e <= MAX_EPS => Entry::Laplace { eps: e },
                ("gauss", &[s]) if pos(s) && s <= 1e4 => Entry::Gaussian { sigma: s },
                ("rr", &[e]) if pos(e) && e <= MAX_EPS => Entry::RandomizedResponse { eps: e, k: 2 },
                ("rr", &[e, k]) if pos(e) && e <= MAX_EPS && k.fract() == 0.0 && (2.0..=1e6).contains(&k) => Entry::RandomizedResponse { eps: e, k: k as u32 },
                ("sgauss", &[q, s]) if pos(q) && q <= 1.0 && pos(s) && s <= 1e4 => Entry::SubsampledGaussian { q, sigma: s },
                ("dp", &[e, d]) if (0.0..=MAX_EPS).contains(&e) && (0.0..1.0).contains(&d) => Entry::Raw { eps: e, delta: d },
                ("wor", &[r, e, d]) if pos(r) && r <= 1.0 && (0.0..=MAX_EPS).contains(&e) && (0.0..1.0).contains(&d) => Entry::Subsampled { rate: r, eps: e, delta: d },
                ("fixed", &[g, s]) if pos(g) && g <= 1.0 && pos(s) && s <= 1e4 => Entry::FixedBatch { gamma: g, sigma: s },
                ("users", &[k, q, s]) if k.fract() == 0.0 && (1.0..=f64::from(MAX_USERS)).contains(&k) && pos(q) && q <= 1.0 && pos(s) && s <= 1e4 => Entry::Users { k: k as u32, q, sigma: s },
                // The profile's binomial tails cost O(√(nq)) terms, read on the page's thread.
                ("trunc" | "truncated", &[n, q, _, _]) if n * q > 1e6 => return Err(bad(&format!("has \"{item}\": a mean batch q·n above 10⁶ records"))),
                ("trunc" | "truncated", &[n, q, b, s]) if n.fract() == 0.0 && (1.0..=1e10).contains(&n) && pos(q) && q <= 1.0 && b.fract() == 0.0 && (1.0..=1e10).contains(&b) && pos(s) && s <= 1e4 => Entry::Truncated { n: n as u64, q, cap: b as u64, sigma: s },
                ("balls", &[s, t]) if pos(s) && s <= 1e4 && t.fract() == 0.0 && (1.0..=1e7).contains(&t) => Entry::Balls { sigma: s, steps: t as u64 },
                _ => return Err(bad(&format!("has \"{item}\": write lap:ε, gauss:σ, rr:ε, rr:ε:K, sgauss:q:σ, dp:ε:δ, wor:rate:ε:δ, wor:rate:gauss:σ, fixed:γ:σ, users:k:q:σ, balls:σ:t or trunc:n:q:B:σ, then *times"))),
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
                Entry::RandomizedResponse { eps, k: 2 } => format!("rr:{}", fmt_f64(eps)),
                Entry::RandomizedResponse { eps, k } => format!("rr:{}:{k}", fmt_f64(eps)),
                Entry::SubsampledGaussian { q, sigma } => {
                    format!("sgauss:{}:{}", rate_text(q), fmt_f64(sigma))
                }
                Entry::Raw { eps, delta } => format!("dp:{}:{}", fmt_f64(eps), fmt_f64(delta)),
                Entry::Subsampled { rate, eps, delta } => {
                    format!(
                        "wor:{}:{}:{}",
                        rate_text(rate),
                        fmt_f64(eps),
                        fmt_f64(delta)
                    )
                }
                Entry::WorGaussian { rate, sigma } => {
                    format!("wor:{}:gauss:{}", rate_text(rate), fmt_f64(sigma))
                }
                Entry::FixedBatch { gamma, sigma } => {
                    format!("fixed:{}:{}", rate_text(gamma), fmt_f64(sigma))
                }
                Entry::Users { k, q, sigma } => {
                    format!("users:{k}:{}:{}", rate_text(q), fmt_f64(sigma))
                }
                Entry::Balls { sigma, steps } => format!("balls:{}:{steps}", fmt_f64(sigma)),
                Entry::Truncated { n, q, cap, sigma } => {
                    format!("trunc:{n}:{}:{cap}:{}", rate_text(q), fmt_f64(sigma))
                }
            };
            format!("{body}*{}", it.times)
        })
        .collect::<Vec<_>>()
        .join(",")
}
