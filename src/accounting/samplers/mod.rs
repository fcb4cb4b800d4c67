//! How training really draws its batches, and the strongest ε statement known for each (Chua, Ghazi,
//! Kamath, Kumar, Manurangsi, Sinha & Zhang, ICML 2024; facts gathered in the samplers spec).
//!
//! b = round(1/q) batches make an epoch; T steps are T/b epochs. A record is seen ⌈T/b⌉ times at
//! most (the exact cyclic ε uses that) and in ⌊T/b⌋ complete epochs at least (the lower bounds use
//! those: a partial epoch only adds information).
//!
//! | sampler | statement |
//! |---|---|
//! | Poisson | certified band from the PLD (upper and lower; replace-one: [`crate::accounting::pld::replace_one`]) |
//! | cyclic | exact: the Gaussian mechanism at σ/√E |
//! | fixed size | under add/remove the Poisson pair with sensitivity 2 (a band tight to the grid); under replace-one the amplification of Balle, Barthe & Gaboardi (2018) on the Gaussian's profile above, a pair that happens below (no tight pair is known) |
//! | balls in bins | certified upper bound from the likelihood ratio's law ([`allocation`]; replace-one: removal then addition, or cyclic's), lower bound from [`max_statistic`] |
//! | shuffled, shuffled once | lower bound only ([`max_statistic`]) |
//! | truncated Poisson | certified upper bound from a flagged pair, lower bound from the Poisson pair at the rate a record survives the cut ([`truncated`]) |

pub mod allocation;
pub mod max_statistic;
pub mod schedule;
pub mod truncated;
pub mod users;

use crate::accounting::entry::Entry;
use crate::accounting::pld::dpsgd::{compose_capped, tails, Fit};
use crate::accounting::pld::subsampled::check_rate_and_noise;
use crate::accounting::pld::{
    dpsgd_epsilon_band, dpsgd_replace_one_band, Direction, Side, SigmaSearch,
};
use crate::error::{Error, Result};
use crate::mechanisms::gaussian::sigma_analytic;
use crate::numerics::roots::{bisect, Split, Until};
use allocation::{allocation_epsilon, allocation_replace_one_epsilon};
use max_statistic::MaxPair;
use serde::{Deserialize, Serialize};
use truncated::Truncated;

crate::choice! {
    /// How training draws its batches (the `sampler` key).
    #[derive(Debug, Serialize, Deserialize)]
    pub enum Sampler {
        /// Each record joins each batch independently with probability q.
        Poisson = "poisson" => "Poisson",
        /// A fresh permutation every epoch, cut into b batches.
        Shuffle = "shuffle" | "shuffled" | "reshuffle" => "shuffled each epoch",
        /// One permutation, the same order every epoch.
        ShuffleOnce = "shuffle-once" | "shuffled-once" => "shuffled once",
        /// A fixed order, each record once per epoch at a fixed position.
        Cyclic = "cyclic" | "fixed-order" | "sequential" => "cyclic (fixed order)",
        /// Each record in exactly one uniformly random step of each epoch (random allocation).
        Balls = "balls" | "balls-in-bins" | "random-allocation" => "balls in bins",
        /// A fixed-size batch drawn without replacement at each step.
        Fixed = "fixed" | "fixed-size" | "without-replacement" => "fixed size, without replacement",
        /// Poisson, with a batch above the cap B cut to a uniformly random B of its records.
        Truncated = "truncated" | "truncated-poisson" => "truncated Poisson (batches capped)",
    }
}

impl Sampler {
    /// Reads the `sampler` key's value.
    ///
    /// # Errors
    /// Anything but the six samplers (and their spellings).
    pub fn parse(s: &str) -> Result<Self> {
        Self::from_key(s).ok_or_else(|| {
            Error::invalid(
                "sampler",
                s,
                "must be poisson, shuffle, shuffle-once, cyclic, balls, fixed or truncated",
            )
        })
    }
}

/// What kind of number a sampler's headline ε is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// The exact ε (to rounding, never below it).
    Exact,
    /// A certified upper bound, with a certified lower bound beside it.
    Upper,
    /// A lower bound only: the true ε is at least this; no upper bound is known.
    Lower,
}

impl Kind {
    /// Its name in the page's `data-value`.
    pub fn key(self) -> &'static str {
        match self {
            Kind::Exact => "exact",
            Kind::Upper => "upper",
            Kind::Lower => "lower",
        }
    }
}

/// One sampler's ε at δ.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SamplerEpsilon {
    /// Which sampler.
    pub sampler: Sampler,
    /// What kind of number the headline is.
    pub kind: Kind,
    /// A certified lower bound (the exact value for [`Kind::Exact`]).
    pub lower: f64,
    /// A certified upper bound where one is known (the exact value for [`Kind::Exact`]).
    pub upper: Option<f64>,
    /// The epochs the statement counts (⌈T/b⌉ for cyclic, ⌊T/b⌋ for the lower bounds, T/b otherwise).
    pub epochs: f64,
}

impl SamplerEpsilon {
    /// The headline: the upper bound where known, else the lower bound.
    pub fn headline(&self) -> f64 {
        self.upper.unwrap_or(self.lower)
    }
}

/// What every sampler's accountant reads.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SamplerSetting {
    /// The sampling rate q = batch / n (γ for fixed-size batches; 1/b per epoch for the others).
    pub q: f64,
    /// The noise multiplier σ as the link gives it (noise std / clipping norm).
    pub sigma: f64,
    /// Replace-one neighbours (the clipped sum moves by 2C) instead of add/remove.
    pub replace_one: bool,
    /// Steps T.
    pub steps: u64,
    /// δ.
    pub delta: f64,
    /// The PLD grid's width.
    pub interval: f64,
    /// The data set's size n (read by truncated Poisson only).
    pub n: u64,
    /// Truncated Poisson's batch cap B.
    pub cap: u64,
}

impl SamplerSetting {
    /// Batches per epoch b = round(1/q), at least 1.
    pub fn batches_per_epoch(&self) -> u64 {
        (1.0 / self.q).round().max(1.0) as u64
    }

    /// σ over the relation's sensitivity factor (2 under replace-one).
    fn unit_sigma(&self) -> f64 {
        if self.replace_one {
            self.sigma / 2.0
        } else {
            self.sigma
        }
    }

    /// Balls in bins' certified upper bound ([`allocation`], under the setting's relation) and the
    /// epochs it counts: a partial last epoch releases some of a whole epoch's steps (a
    /// post-processing), so ⌈T/b⌉.
    fn balls_upper(&self) -> Result<(f64, f64)> {
        let seen = self.epochs_seen();
        let bound = if self.replace_one {
            allocation_replace_one_epsilon
        } else {
            allocation_epsilon
        };
        let upper = bound(
            self.batches_per_epoch(),
            self.sigma,
            seen,
            self.delta,
            self.interval,
        )?;
        Ok((upper, seen as f64))
    }

    /// The epochs a record can be seen in, ⌈T/b⌉ (at least 1; in integers, so that b above 10⁹
    /// still counts a one-step partial epoch).
    fn epochs_seen(&self) -> u64 {
        self.steps.div_ceil(self.batches_per_epoch()).max(1)
    }

    /// Truncated Poisson's step at this setting.
    fn truncated(&self) -> Result<Truncated> {
        Truncated::new(self.n, self.q, self.cap, self.sigma, self.replace_one)
    }

    /// The lower-bound pair of one epoch for a shuffling or allocating sampler.
    fn max_pair(&self, sampler: Sampler, sigma: f64) -> MaxPair {
        // Shuffled (Chua et al. 2024, Section 4): the other records' gradients −C, the record's +C
        // against a zero-gradient record (add/remove read as zero-out: its slot stays) or −C
        // (replace-one). Balls in bins: the others 0, the record's +C against nothing or −C.
        let (mu_p, mu_q) = match (sampler, self.replace_one) {
            (Sampler::Balls, false) => (1.0, 0.0),
            (Sampler::Balls, true) => (1.0, -1.0),
            (_, false) => (2.0, 1.0),
            (_, true) => (2.0, 0.0),
        };
        MaxPair {
            batches: self.batches_per_epoch(),
            mu_p,
            mu_q,
            sigma,
        }
    }
}

/// The strongest ε statement known for `sampler` at the setting's σ, q, T and δ.
///
/// # Errors
/// σ, q, δ or T out of the accountants' domain.
pub fn sampler_epsilon(s: &SamplerSetting, sampler: Sampler) -> Result<SamplerEpsilon> {
    check_rate_and_noise(s.q, s.sigma)?;
    let b = s.batches_per_epoch() as f64;
    let exact_epochs = s.steps as f64 / b;
    let complete = (exact_epochs + 1e-9).floor();
    let band = |q: f64, sigma: f64| dpsgd_epsilon_band(q, sigma, s.steps, s.delta, s.interval);
    let (kind, lower, upper, epochs) = match sampler {
        Sampler::Poisson => {
            // Under replace-one: the smaller of the σ/2 pair's bound and removing then adding, above
            // the add/remove pair at σ ([`dpsgd_replace_one_band`]).
            let e = if s.replace_one {
                dpsgd_replace_one_band(s.q, s.sigma, s.steps, s.delta, s.interval)?
            } else {
                band(s.q, s.sigma)?
            };
            (Kind::Upper, e.lower, Some(e.upper), exact_epochs)
        }
        Sampler::Cyclic => {
            tails(s.steps, s.delta)?;
            let seen = s.epochs_seen() as f64;
            let eps = Entry::Gaussian {
                sigma: s.unit_sigma() / seen.sqrt(),
            }
            .eps_for(s.delta);
            (Kind::Exact, eps, Some(eps), seen)
        }
        Sampler::Fixed if !s.replace_one => {
            // Removing x hands its slot to another record y: the sum moves by g(x) − g(y), norm ≤ 2C,
            // when the slot is drawn (probability γ): ((1 − γ)N(0, σ²) + γN(2, σ²), N(0, σ²)), the
            // Poisson pair at σ/2 (add: the reverse, the same γ, conservative).
            let e = band(s.q, s.sigma / 2.0)?;
            (Kind::Upper, e.lower, Some(e.upper), exact_epochs)
        }
        Sampler::Fixed => {
            // Replace-one: Balle, Barthe & Gaboardi (NeurIPS 2018), Theorem 9 (sampling without
            // replacement, substitution) at every point of the Gaussian's profile with sensitivity 2C
            // (σ/2), extended below 0 by symmetry: the composition lab's `wor:γ:gauss:σ/2`. The lower
            // bound is a pair that happens: every other record's gradient −C, x's +C and x′'s −C
            // give ((1 − γ)N(0) + γN(2), N(0)) at each step (either way round), the Poisson pair at σ/2.
            let (step_tail, _) = tails(s.steps, s.delta)?;
            let entry = Entry::WorGaussian {
                rate: s.q,
                sigma: s.sigma / 2.0,
            };
            let upper = compose_capped(
                &|width, side| entry.pld(Direction::Remove, width, step_tail, side, s.steps),
                s.steps,
                s.delta,
                s.interval,
                Side::Upper,
                Fit::Widen,
            )?
            .epsilon_for_delta(s.delta);
            let lower = band(s.q, s.sigma / 2.0)?.lower.min(upper);
            (Kind::Upper, lower, Some(upper), exact_epochs)
        }
        Sampler::Shuffle | Sampler::Balls => {
            tails(s.steps, s.delta)?;
            let lower =
                s.max_pair(sampler, s.sigma)
                    .lower_epsilon(complete as u64, s.delta, s.interval)?;
            // Balls in bins also has an upper bound, unless σ is so small that it would need too
            // fine a grid (then the lower bound alone).
            let upper = (sampler == Sampler::Balls)
                .then(|| s.balls_upper().ok())
                .flatten();
            match upper {
                Some((upper, seen)) => (Kind::Upper, lower.min(upper), Some(upper), seen),
                None => (Kind::Lower, lower, None, complete),
            }
        }
        Sampler::Truncated => {
            let e = s.truncated()?.band(s.steps, s.delta, s.interval)?;
            (Kind::Upper, e.lower, Some(e.upper), exact_epochs)
        }
        Sampler::ShuffleOnce => {
            // The same order every epoch: the record's batch is the same each time, so the E epochs'
            // sums at each position add up to one epoch's at σ/√E (a sufficient statistic).
            let sigma = s.sigma / complete.max(1.0).sqrt();
            let runs = u64::from(complete >= 1.0);
            tails(s.steps, s.delta)?;
            let lower = s
                .max_pair(sampler, sigma)
                .lower_epsilon(runs, s.delta, s.interval)?;
            (Kind::Lower, lower, None, complete)
        }
    };
    Ok(SamplerEpsilon {
        sampler,
        kind,
        lower,
        upper,
        epochs,
    })
}

/// The smallest σ (as a link gives it) whose certified upper ε meets `target` at the setting's q, T and
/// δ, for the samplers with an upper bound; `None` for those with a lower bound only. Never
/// overshoots: the σ returned was checked to meet the target (cyclic: the analytic Gaussian
/// calibration, rounded up).
///
/// # Errors
/// A target that is not positive, or the setting out of the accountants' domain.
pub fn sampler_sigma(s: &SamplerSetting, sampler: Sampler, target: f64) -> Result<Option<f64>> {
    let factor = if s.replace_one { 2.0 } else { 1.0 };
    let poisson_sigma = |q: f64| {
        SigmaSearch::new(q, s.steps, s.delta, target, s.interval, 1.0).and_then(SigmaSearch::run)
    };
    Ok(Some(match sampler {
        Sampler::Poisson if s.replace_one => {
            SigmaSearch::new(s.q, s.steps, s.delta, target, s.interval, 2.0)?
                .under_replace_one()
                .run()?
        }
        Sampler::Poisson => poisson_sigma(s.q)?,
        Sampler::Cyclic => {
            tails(s.steps, s.delta)?;
            let seen = s.epochs_seen() as f64;
            factor * seen.sqrt() * sigma_analytic(target, s.delta, 1.0)?
        }
        // The Poisson pair at σ/2 (see `sampler_epsilon`).
        Sampler::Fixed if !s.replace_one => 2.0 * poisson_sigma(s.q)?,
        Sampler::Fixed => search_sigma(target, |sigma| {
            let e = sampler_epsilon(&SamplerSetting { sigma, ..*s }, Sampler::Fixed)?;
            Ok(e.headline())
        })?,
        Sampler::Balls => search_sigma(target, |sigma| {
            Ok(SamplerSetting { sigma, ..*s }.balls_upper()?.0)
        })?,
        Sampler::Truncated => search_sigma(target, |sigma| {
            let s = SamplerSetting { sigma, ..*s };
            Ok(s.truncated()?.band(s.steps, s.delta, s.interval)?.upper)
        })?,
        Sampler::Shuffle | Sampler::ShuffleOnce => return Ok(None),
    }))
}

/// The smallest σ (to a ratio of 1e-4, the safe end) whose certified upper ε, `upper(σ)`, meets
/// `target`: doubling to a bracket, then bisection on a geometric scale.
fn search_sigma(target: f64, upper: impl Fn(f64) -> Result<f64>) -> Result<f64> {
    if !(target > 0.0 && target.is_finite()) {
        return Err(Error::invalid(
            "target_eps",
            target,
            "must be a finite number > 0",
        ));
    }
    let meets = |sigma: f64| -> Result<bool> { Ok(upper(sigma)? <= target) };
    let mut hi = 1.0;
    // A σ too small for the accountant to bound counts as missing the target; an error that
    // persists to σ = 10⁴ (δ out of range) is the answer.
    loop {
        let failed = match meets(hi) {
            Ok(true) => break,
            Ok(false) => None,
            Err(e) => Some(e),
        };
        hi *= 2.0;
        if hi > 1e4 {
            return Err(
                failed.unwrap_or_else(|| Error::invalid("target_eps", target, "needs σ above 10⁴"))
            );
        }
    }
    let mut lo = hi / 2.0;
    // A σ too small for an accountant to bound counts as not meeting the target.
    while meets(lo).unwrap_or(false) {
        hi = lo;
        lo /= 2.0;
        if lo < 1e-3 {
            return Ok(hi);
        }
    }
    // hi always met the target: the safe end.
    Ok(bisect(lo, hi, Split::Geometric, Until::Ratio(1e-4), |x| {
        meets(x).unwrap_or(false)
    })
    .hi)
}
