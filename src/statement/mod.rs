//! A guarantee statement people can publish: the paragraph for a paper or a model card, the same
//! content as a versioned JSON record ([`SCHEMA`], documented in `docs/statement.md`), the guarantee on
//! other scales ([`scales`]), the Python that reproduces its numbers ([`reproduce`]), and published
//! deployments on the same axes ([`deployments`]).
//!
//! A [`Statement`] is built from one [`Guarantee`] (the page's, rendered by the lab's claims) and the
//! [`RunFacts`] a lab knows that do not change ε (the clipping norm, the data set's size, whether the
//! features were standardised on the training rows, an audit's result). Every number it states is the
//! guarantee's, rounded outward for its side ([`Guarantee::eps_text`]); a guarantee that does not certify
//! the run (a sampler with no known upper bound, or a Poisson number for another sampler) yields a
//! statement that says what is known and states no certified ε.
//!
//! Reporting follows Ponomareva et al., "How to DP-fy ML" (JAIR 2023), Section 5.3: the unit of
//! privacy, the neighbouring relation, the mechanism and its sampling, the accountant, δ and ε, and what
//! the guarantee does not cover.

pub mod deployments;
mod deployments_data;
pub mod html;
pub mod jobs;
pub mod reproduce;
pub mod scales;
mod text;

use crate::accounting::entry::{format_list, Item};
use crate::accounting::event::TrainingEvent;
use crate::accounting::guarantee::{sampler_assumption, Accountant, Event, Guarantee, Side};
use crate::link::format::sig;
use scales::Scales;
use serde::{Deserialize, Serialize};

pub use text::{model_card, paragraph};

/// The record's schema name and version: bump the number on any change a reader would notice.
pub const SCHEMA: &str = "dp-playground.statement/1";

/// Significant digits of a statement's numbers (rounded outward).
pub const DIGITS: usize = 4;

/// The tool that computed a statement: its name, version and the commit it was built from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tool {
    /// `dp-playground`.
    pub name: String,
    /// The crate's version.
    pub version: String,
    /// The git commit of the build (`unknown` outside a checkout).
    pub commit: String,
}

impl Tool {
    /// This build.
    pub fn this_build() -> Tool {
        Tool {
            name: "dp-playground".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            commit: env!("DP_PLAYGROUND_COMMIT").into(),
        }
    }
}

/// What a lab knows of its run beyond the event: none of it changes ε, all of it belongs in a report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunFacts {
    /// The lab's key (`dpsgd`, `train`, `compose`, `mechanisms`).
    pub lab: String,
    /// The page's query, which reproduces the page.
    pub link: String,
    /// Records in the training set, where the lab knows them.
    pub records: Option<u64>,
    /// Epochs, where the lab counts them.
    pub epochs: Option<f64>,
    /// The clipping norm C, where the lab has one (the accountant labs do not: they state σ only).
    pub clip: Option<f64>,
    /// The features were standardised with means and deviations of the training rows (not private).
    pub standardised_on_training_rows: bool,
    /// A single mechanism's query and noise in words (the mechanisms lab), e.g. "Gaussian noise of
    /// σ = 4.84 on a query of sensitivity 1".
    pub mechanism: Option<String>,
    /// An audit the page ran on this run, with its threat model.
    pub audit: Option<AuditFact>,
}

/// What an audit in the page proved: a lower bound on the ε of the code that ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditFact {
    /// ε the counts prove at `confidence` (an audit lower bound).
    pub eps_lower: f64,
    /// The confidence of the bound.
    pub confidence: f64,
    /// The threat model in words.
    pub threat_model: String,
}

/// The unit of privacy: what one person's data is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Unit {
    /// One record.
    Record,
    /// One user, who holds up to `records_per_user` records.
    User {
        /// Records per user k.
        records_per_user: u32,
    },
}

/// The mechanism, as the record states it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Mechanism {
    /// DP-SGD: per-example clipping, Gaussian noise of std σ·C on the sum, the run's sampler.
    DpSgd {
        /// The run's sampler (its link key) and in words.
        sampler: String,
        /// See `sampler`.
        sampler_words: String,
        /// The sampling rate q.
        sampling_rate: f64,
        /// Expected batch size q·n, where n is known.
        expected_batch: Option<f64>,
        /// σ: noise standard deviation over the clipping norm.
        noise_multiplier: f64,
        /// C, where the lab has one.
        clipping_norm: Option<f64>,
        /// Steps T.
        steps: u64,
        /// Epochs, where counted.
        epochs: Option<f64>,
        /// Records n, where known.
        records: Option<u64>,
        /// Training in phases (each phase's q, σ, steps), where the run has them.
        phases: Option<Vec<(f64, f64, u64)>>,
        /// Hyper-parameter tuning accounted for, in words, where the run has it.
        tuning: Option<String>,
    },
    /// A list of mechanisms composed (one mechanism is a list of one).
    Composition {
        /// The list as the link writes it.
        list: String,
        /// Each item in words.
        items: Vec<String>,
        /// The single mechanism in words (the mechanisms lab).
        description: Option<String>,
    },
}

/// ε as the statement gives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EpsilonFact {
    /// The guarantee's ε at full precision.
    pub value: f64,
    /// Its shown digits, rounded outward for its side.
    pub shown: String,
    /// Which side of the truth it lies on.
    pub side: Side,
    /// The accountant that computed it (a key), and in words.
    pub accountant: Accountant,
    /// See `accountant`.
    pub accountant_words: String,
    /// The sampler the accountant assumed, in words.
    pub assumes: String,
    /// Whether this is a certified upper bound for the run as it is: only then may it be published as
    /// the run's guarantee.
    pub certified: bool,
    /// The condition the number needs and the run does not meet, when it does not certify the run.
    pub condition: Option<String>,
}

/// δ and how it was chosen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeltaFact {
    /// δ.
    pub value: f64,
    /// The rule, in words (where n is known: how δ compares with 1/n).
    pub rule: String,
}

/// One thing the guarantee does or does not cover.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Caveat {
    /// A stable key (`tuning`, `checkpoints`, `standardisation`, `floating-point`, `sensitivity`,
    /// `several-records`).
    pub id: String,
    /// The sentence.
    pub text: String,
}

/// A guarantee statement: everything the paragraph says, as data (the JSON record).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Statement {
    /// [`SCHEMA`].
    pub schema: String,
    /// The tool and build.
    pub tool: Tool,
    /// The lab and the link that reproduce the page.
    pub lab: String,
    /// See `lab`.
    pub link: String,
    /// The unit of privacy.
    pub unit: Unit,
    /// The neighbouring relation (a key), and in words.
    pub relation: String,
    /// See `relation`.
    pub relation_words: String,
    /// The mechanism.
    pub mechanism: Mechanism,
    /// δ.
    pub delta: DeltaFact,
    /// ε.
    pub epsilon: EpsilonFact,
    /// What the guarantee covers beyond the obvious (every intermediate model, an accounted tuning).
    pub covered: Vec<Caveat>,
    /// What it does not cover.
    pub not_covered: Vec<Caveat>,
    /// The same guarantee on other scales, once computed (only for a guarantee that certifies its run).
    pub scales: Option<Scales>,
    /// An audit's result, where one ran.
    pub audit: Option<AuditFact>,
}

impl Statement {
    /// The statement of `g`, with the lab's `facts` and, once computed, `g`'s `scales`.
    pub fn new(g: &Guarantee, facts: &RunFacts, scales: Option<Scales>) -> Statement {
        let (unit, relation, relation_words, mechanism) = match &g.event {
            Event::Training(e) => (
                if e.users > 1 {
                    Unit::User {
                        records_per_user: e.users,
                    }
                } else {
                    Unit::Record
                },
                e.neighbour.key().to_string(),
                e.neighbour.in_words().to_string(),
                dpsgd(e, facts),
            ),
            Event::List(items) => (
                Unit::Record,
                "add-remove-or-replace".into(),
                "data sets that differ in one record, each query's value moving by at most its \
                 sensitivity Δ"
                    .into(),
                composition(items, facts),
            ),
            // Stated as what its accountant composed (the amplified DP-SGD run, or the Gaussian).
            Event::Correlated(_) => return Statement::new(&g.accounted(), facts, scales),
        };
        let certified = g.certifies_run();
        let epsilon = EpsilonFact {
            value: g.eps,
            shown: g.eps_text(DIGITS),
            side: g.side,
            accountant: g.accountant,
            accountant_words: g.accountant.name().into(),
            assumes: sampler_assumption(g.assumes),
            certified,
            condition: g.condition(),
        };
        let (covered, not_covered) = text::caveats(g, facts);
        Statement {
            schema: SCHEMA.into(),
            tool: Tool::this_build(),
            lab: facts.lab.clone(),
            link: facts.link.clone(),
            unit,
            relation,
            relation_words,
            mechanism,
            delta: DeltaFact {
                value: g.delta,
                rule: delta_rule(g.delta, facts.records),
            },
            epsilon,
            covered,
            not_covered,
            scales: if certified { scales } else { None },
            audit: facts.audit.clone(),
        }
    }

    /// The JSON record (pretty-printed). ∞ and NaN, which JSON lacks, are written `null`.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// The DP-SGD mechanism of a run.
fn dpsgd(e: &TrainingEvent, facts: &RunFacts) -> Mechanism {
    Mechanism::DpSgd {
        sampler: e.sampler.key().into(),
        sampler_words: sampler_assumption(e.sampler),
        sampling_rate: e.rate,
        expected_batch: facts.records.map(|n| e.rate * n as f64),
        noise_multiplier: e.sigma,
        clipping_norm: facts.clip,
        steps: e.steps,
        epochs: facts.epochs,
        records: facts.records,
        phases: e
            .schedule
            .as_ref()
            .map(|p| p.iter().map(|p| (p.q, p.sigma, p.steps)).collect()),
        tuning: e.tuning.as_ref().map(tuning_words),
    }
}

/// A tuning's random number of runs, in words (Papernot & Steinke, ICLR 2022).
fn tuning_words(t: &crate::accounting::rdp::tuning::Tuning) -> String {
    use crate::accounting::rdp::tuning::Tuning;
    match *t {
        Tuning::Poisson { mean } => format!(
            "the best of K training runs, K ~ Poisson with mean {} (Papernot & Steinke 2022)",
            sig(mean, 4)
        ),
        Tuning::NegativeBinomial { shape, mean } => format!(
            "the best of K training runs, K ~ truncated negative binomial with shape {} and mean {} \
             (Papernot & Steinke 2022)",
            sig(shape, 4),
            sig(mean, 4)
        ),
    }
}

/// A composition list's mechanism.
fn composition(items: &[Item], facts: &RunFacts) -> Mechanism {
    Mechanism::Composition {
        list: format_list(items),
        items: items
            .iter()
            .map(|it| {
                if it.times == 1 {
                    it.entry.describe()
                } else {
                    format!("{} × {}", it.entry.describe(), it.times)
                }
            })
            .collect(),
        description: facts.mechanism.clone(),
    }
}

/// How δ compares with 1/n, the rule of thumb (δ well below 1/n: a mechanism that publishes one
/// record in the clear with probability δ each would otherwise be allowed).
fn delta_rule(delta: f64, records: Option<u64>) -> String {
    if delta == 0.0 {
        return "δ = 0: pure ε-differential privacy".into();
    }
    match records {
        Some(n) if n > 0 => {
            let inv = 1.0 / n as f64;
            let verdict = if delta * (n as f64) <= 0.1 {
                "well below 1/n, as the usual rule asks (δ ≪ 1/n)"
            } else if delta < inv {
                "below 1/n but not by a factor of 10 (the usual rule asks δ ≪ 1/n)"
            } else {
                "NOT below 1/n: a mechanism that leaks a whole record with probability δ would meet \
                 this δ; choose δ ≪ 1/n"
            };
            format!(
                "δ = {} was chosen on the page; with n = {}, 1/n = {} (δ·n = {}): {verdict}",
                sig(delta, 3),
                crate::link::format::count(n),
                sig(inv, 3),
                sig(delta * n as f64, 3)
            )
        }
        _ => format!(
            "δ = {} was chosen on the page; it should be well below 1/n for the data set's size n",
            sig(delta, 3)
        ),
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod reference_tests;
