//! A privacy number as people read it: one [`Guarantee`] value knows the run it is about, the
//! accountant that computed it, which side of the truth it lies on, and the sampler and relation it
//! assumes. Every headline, card, Markdown row and snippet comment that states such a number is
//! rendered from it, so that a claim can never drop its side or its condition on the way to the page.
//!
//! Displayed digits round outward ([`crate::link::format::sig_up`], [`crate::link::format::sig_down`]):
//! an upper bound's shown digits are never below its value, a lower bound's never above.

use crate::accounting::correlated::CorrelatedEvent;
use crate::accounting::entry::{Entry, Item};
use crate::accounting::event::{Neighbour, TrainingEvent};
use crate::accounting::samplers::{Sampler, SamplerEpsilon};
use crate::link::format::{sig, sig_down, sig_up};

/// Which side of the true ε a number lies on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Side {
    /// A certified upper bound: the true ε is at most this.
    Upper,
    /// A certified lower bound: the true ε is at least this (a pair of data sets that happens).
    Lower,
    /// An estimate, on neither side for sure.
    Estimate,
    /// What an audit's counts prove with its confidence: a lower bound on the ε of the code that ran.
    AuditLower,
}

impl Side {
    /// The relation a statement writes: ≤ (upper), ≥ (lower), ≈ (estimate).
    pub fn symbol(self) -> &'static str {
        match self {
            Side::Upper => "≤",
            Side::Lower | Side::AuditLower => "≥",
            Side::Estimate => "≈",
        }
    }

    /// The side in words.
    pub fn in_words(self) -> &'static str {
        match self {
            Side::Upper => "certified upper bound",
            Side::Lower => "lower bound",
            Side::Estimate => "estimate",
            Side::AuditLower => "audit lower bound",
        }
    }

    /// `x` with `digits` significant digits, rounded outward for this side.
    pub fn digits(self, x: f64, digits: usize) -> String {
        match self {
            Side::Upper => sig_up(x, digits),
            Side::Lower | Side::AuditLower => sig_down(x, digits),
            Side::Estimate => sig(x, digits),
        }
    }
}

/// The accountant behind a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Accountant {
    /// The privacy loss distribution, composed by FFT (connect-the-dots; both sides).
    Pld,
    /// Rényi DP on dp_accounting's grid of orders, improved conversion: the number dp_accounting's
    /// `RdpAccountant` prints for the same event.
    RdpDpAccounting,
    /// Rényi DP over every real order, fractional orders exact (ours; a little tighter).
    RdpEveryOrder,
    /// The run's sampler's own accountant ([`crate::accounting::samplers`]).
    SamplerOwn,
    /// The tightest of the closed-form accountants (basic, advanced, optimal homogeneous, RDP, zCDP).
    BestClosedForm,
    /// User-level DP-SGD with Poisson batches: the mixture-of-Gaussians PLD, or the group lemma on the
    /// record-level PLD where tighter ([`crate::accounting::samplers::users`]).
    UserLevel,
    /// A single mechanism's exact privacy profile (closed form).
    ExactProfile,
    /// Training in phases with Poisson batches: the PLD composed over the schedule's phases
    /// ([`crate::accounting::training::phases::schedule_report`]).
    Schedule,
    /// The best of a random number of Poisson training runs released: RDP on dp_accounting's orders
    /// with Papernot & Steinke's bound ([`crate::accounting::training::phases::tuning_report`]).
    Tuning,
}

impl Accountant {
    /// Its name in a table cell, a word or two (the sentence's name is [`Accountant::name`]).
    pub fn short_name(self) -> &'static str {
        match self {
            Accountant::Pld => "PLD",
            Accountant::RdpDpAccounting | Accountant::RdpEveryOrder => "RDP",
            Accountant::SamplerOwn => "sampler's own",
            Accountant::BestClosedForm => "closed form",
            Accountant::UserLevel => "user-level PLD",
            Accountant::ExactProfile => "exact",
            Accountant::Schedule => "phased PLD",
            Accountant::Tuning => "tuning RDP",
        }
    }

    /// The accountant's name, for a sentence.
    pub fn name(self) -> &'static str {
        match self {
            Accountant::Pld => "the PLD accountant",
            Accountant::RdpDpAccounting => "RDP on dp_accounting's orders",
            Accountant::RdpEveryOrder => "RDP over every real order (this playground's, tighter)",
            Accountant::SamplerOwn => "the sampler's own accountant",
            Accountant::BestClosedForm => "the best closed-form accountant",
            Accountant::UserLevel => {
                "the user-level PLD accountant (a mixture of Gaussians, or group privacy where tighter)"
            }
            Accountant::ExactProfile => "the mechanism's exact privacy profile",
            Accountant::Schedule => "the PLD accountant over the schedule's phases",
            Accountant::Tuning => {
                "RDP with Papernot & Steinke's bound for the best of a random number of runs"
            }
        }
    }
}

/// What a number is about: a training run, or a list of mechanisms composed (one mechanism is a list
/// of one).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Event {
    /// A training run.
    Training(TrainingEvent),
    /// A list of mechanisms, each repeated ([`crate::accounting::entry`]).
    List(Vec<Item>),
    /// A correlated-noise (matrix-factorization) run ([`crate::accounting::correlated`]).
    Correlated(CorrelatedEvent),
}

impl Event {
    /// What the accountants composed for it: a correlated run is, where amplification is known, the
    /// DP-SGD run of [`CorrelatedEvent::amplified`], else one Gaussian mechanism at σ/Δ (a run whose
    /// sensitivity is not bounded here is a Gaussian of σ = 0: ε = ∞, never an understatement).
    pub fn accounted(&self) -> Event {
        match self {
            Event::Correlated(c) => match c.amplified() {
                Some(e) => Event::Training(e),
                None => Event::List(vec![Item {
                    entry: Entry::Gaussian {
                        sigma: c.gaussian_sigma().unwrap_or(0.0),
                    },
                    times: 1,
                }]),
            },
            other => other.clone(),
        }
    }
}

/// One privacy number with everything needed to state it honestly.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Guarantee {
    /// What it is about.
    pub event: Event,
    /// The accountant that computed it.
    pub accountant: Accountant,
    /// Which side of the truth it lies on.
    pub side: Side,
    /// The sampler the accountant assumed (Poisson for the PLD and RDP, whatever the run's sampler).
    pub assumes: Sampler,
    /// δ.
    pub delta: f64,
    /// ε.
    pub eps: f64,
}

/// Significant digits of a headline's ε.
pub const HEADLINE_DIGITS: usize = 4;

impl Guarantee {
    /// A number the Poisson record-level accountants computed for `event` (its Poisson view).
    pub fn poisson(
        event: &TrainingEvent,
        accountant: Accountant,
        side: Side,
        delta: f64,
        eps: f64,
    ) -> Guarantee {
        Guarantee {
            event: Event::Training(event.clone()),
            accountant,
            side,
            assumes: Sampler::Poisson,
            delta,
            eps,
        }
    }

    /// The same claim about what its accountant composed ([`Event::accounted`]): how statements,
    /// scales and snippets read a correlated run.
    pub fn accounted(&self) -> Guarantee {
        Guarantee {
            event: self.event.accounted(),
            ..self.clone()
        }
    }

    /// A correlated-noise run that sampling amplifies ([`CorrelatedEvent::amplified`]): `eps` is the
    /// PLD's certified upper bound for the amplified DP-SGD run it is accounted as.
    pub fn amplified(event: CorrelatedEvent, delta: f64, eps: f64) -> Guarantee {
        Guarantee {
            event: Event::Correlated(event),
            accountant: Accountant::Pld,
            side: Side::Upper,
            assumes: Sampler::Poisson,
            delta,
            eps,
        }
    }

    /// A correlated-noise run without amplification: the Gaussian mechanism at σ/Δ, `relative` = Δ
    /// in units of one participation's (the caller's, already computed); its ε at δ exact, bisected to
    /// the upper end ([`Entry::eps_for`]). Batches in a fixed order, as the participation assumes.
    pub fn unamplified(event: CorrelatedEvent, relative: f64, delta: f64) -> Guarantee {
        let eps = Entry::Gaussian {
            sigma: event.sigma / relative,
        }
        .eps_for(delta);
        Guarantee {
            event: Event::Correlated(event),
            accountant: Accountant::ExactProfile,
            side: Side::Upper,
            assumes: Sampler::Cyclic,
            delta,
            eps,
        }
    }

    /// The run's sampler's own statement ([`crate::accounting::samplers::sampler_epsilon`]): its
    /// certified upper bound where one is known (the exact value for cyclic batches), else its lower
    /// bound.
    pub fn from_sampler(event: &TrainingEvent, own: &SamplerEpsilon, delta: f64) -> Guarantee {
        let (side, eps) = match own.upper {
            Some(u) => (Side::Upper, u),
            None => (Side::Lower, own.lower),
        };
        Guarantee {
            event: Event::Training(event.clone()),
            accountant: Accountant::SamplerOwn,
            side,
            assumes: own.sampler,
            delta,
            eps,
        }
    }

    /// Whether the number holds for the run as it is: the accountant assumed the run's own sampler
    /// (and a record-level, single-phase, untuned run where it assumed Poisson).
    pub fn holds_for_run(&self) -> bool {
        let Event::Training(e) = &self.event else {
            return true;
        };
        match (self.assumes, self.accountant) {
            // The user-level accountant accounts for users of k records, and only for them.
            (Sampler::Poisson, Accountant::UserLevel) => {
                e.sampler == Sampler::Poisson && e.schedule.is_none() && e.tuning.is_none()
            }
            // The schedule's PLD accounts for phases of record-level Poisson steps, untuned.
            (Sampler::Poisson, Accountant::Schedule) => {
                e.sampler == Sampler::Poisson && e.users == 1 && e.tuning.is_none()
            }
            // The tuning bound accounts for the best of K record-level Poisson runs (phased or not).
            (Sampler::Poisson, Accountant::Tuning) => e.sampler == Sampler::Poisson && e.users == 1,
            (Sampler::Poisson, _) => e.is_plain_poisson(),
            (s, _) => s == e.sampler,
        }
    }

    /// Whether the run may be said to be certified at this ε: a certified upper bound that holds for
    /// the run as it is.
    pub fn certifies_run(&self) -> bool {
        self.side == Side::Upper && self.holds_for_run() && self.eps.is_finite()
    }

    /// ε's digits, rounded outward for its side.
    pub fn eps_text(&self, digits: usize) -> String {
        if self.eps.is_infinite() && self.side == Side::Upper {
            return "∞".into();
        }
        self.side.digits(self.eps, digits)
    }

    /// `ε ≤ 3.001`: the relation and the digits.
    pub fn inequality(&self, digits: usize) -> String {
        format!("ε {} {}", self.side.symbol(), self.eps_text(digits))
    }

    /// The condition the number needs and the run does not meet, in words; `None` when it holds for
    /// the run as it is.
    pub fn condition(&self) -> Option<String> {
        let Event::Training(e) = &self.event else {
            return None;
        };
        if self.holds_for_run() {
            return None;
        }
        let mut differs = Vec::new();
        if e.sampler != self.assumes {
            differs.push(format!("this run draws {}", sampler_assumption(e.sampler)));
        }
        if self.assumes == Sampler::Poisson {
            if e.users > 1 && self.accountant != Accountant::UserLevel {
                differs.push(format!("it protects users of {} records", e.users));
            }
            if e.schedule.is_some()
                && !matches!(self.accountant, Accountant::Schedule | Accountant::Tuning)
            {
                differs.push("it trains in phases".into());
            }
            if e.tuning.is_some() && self.accountant != Accountant::Tuning {
                differs.push("it releases the best of several tuning runs".into());
            }
        }
        Some(format!(
            "holds only for {}, one record per user, one phase and no tuning; {}",
            sampler_assumption(self.assumes),
            differs.join(", ")
        ))
    }

    /// The claim in one line for exports: `ε ≤ 3.001 at δ = 10⁻⁵ (certified upper bound, the PLD
    /// accountant, Poisson sampling, add/remove one record)`, with the condition when the run does not
    /// meet it.
    pub fn claim(&self, digits: usize) -> String {
        let about = match &self.event {
            Event::Training(e) => format!(
                ", {}, {}",
                sampler_assumption(self.assumes),
                e.neighbour.in_words()
            ),
            Event::List(_) => String::new(),
            Event::Correlated(c) => format!(
                ", {} correlated noise, {}, {}",
                c.strategy.name(),
                match (c.sampling, c.amplified()) {
                    (Some(q), Some(_)) => format!(
                        "cyclic Poisson sampling (q = {} within {} groups)",
                        sig(q, 4),
                        c.participation.b
                    ),
                    _ => "no amplification by sampling".into(),
                },
                Neighbour::AddRemove.in_words()
            ),
        };
        let base = format!(
            "{} at δ = {} ({}, {}{about})",
            self.inequality(digits),
            sig(self.delta, 3),
            self.side.in_words(),
            self.accountant.name(),
        );
        match self.condition() {
            Some(c) => format!("{base}: {c}"),
            None => base,
        }
    }
}

/// What an accountant assumed of the batches, in words.
pub fn sampler_assumption(s: Sampler) -> String {
    match s {
        Sampler::Poisson => "Poisson sampling",
        Sampler::Shuffle => "batches shuffled each epoch",
        Sampler::ShuffleOnce => "batches shuffled once",
        Sampler::Cyclic => "cyclic batches (a fixed order)",
        Sampler::Balls => "balls-in-bins batches",
        Sampler::Fixed => "fixed-size batches drawn without replacement",
        Sampler::Truncated => "truncated Poisson batches (capped)",
    }
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A correlated run's claim is read as what was accounted: the amplified DP-SGD run, or one
    /// Gaussian at σ/Δ (never another correlated event, so the statement paths end).
    #[test]
    fn a_correlated_claim_reads_as_what_was_accounted() {
        use crate::mechanisms::mf::{Participation, Strategy};
        let run = CorrelatedEvent {
            strategy: Strategy::Banded { bands: 4 },
            steps: 100,
            sigma: 2.0,
            participation: Participation { k: None, b: 4 },
            sampling: Some(0.1),
        };
        let g = Guarantee::amplified(run.clone(), 1e-5, 1.0);
        assert!(matches!(g.accounted().event, Event::Training(e) if e.steps == 25));
        let u = Guarantee::unamplified(
            CorrelatedEvent {
                sampling: None,
                ..run
            },
            1.0,
            1e-5,
        );
        assert!(matches!(&u.accounted().event, Event::List(items) if items.len() == 1));
        assert!(u.eps.is_finite() && u.claim(4).contains("no amplification by sampling"));
    }

    fn pld(eps: f64, sampler: Sampler) -> Guarantee {
        let mut e = TrainingEvent::poisson(0.004_266_7, 0.693_734, 2_344, Neighbour::AddRemove);
        e.sampler = sampler;
        Guarantee::poisson(&e, Accountant::Pld, Side::Upper, 1e-5, eps)
    }

    #[test]
    fn a_poisson_number_for_a_shuffled_run_says_its_condition() {
        let g = pld(3.000_047_8, Sampler::Poisson);
        assert!(g.certifies_run() && g.condition().is_none());
        assert_eq!(g.inequality(4), "ε ≤ 3.001");
        let s = pld(3.000_047_8, Sampler::Shuffle);
        assert!(!s.certifies_run());
        let claim = s.claim(4);
        assert!(
            claim.contains("holds only for Poisson sampling")
                && claim.contains("shuffled each epoch"),
            "{claim}"
        );
        let lower = Guarantee {
            side: Side::Lower,
            ..pld(22.459, Sampler::Shuffle)
        };
        assert_eq!(lower.inequality(4), "ε ≥ 22.45");
        let mut users = pld(1.0, Sampler::Poisson);
        if let Event::Training(e) = &mut users.event {
            e.users = 4;
        }
        assert!(users.condition().unwrap().contains("users of 4 records"));
    }
}
