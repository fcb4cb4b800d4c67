//! A training run's privacy event: everything an accountant needs to know about a DP-SGD run, and
//! nothing about how a lab shows it (in the spirit of dp_accounting's `DpEvent`: "necessary and
//! sufficient for privacy accounting").
//!
//! Every lab that trains or accounts for training (DP-SGD, training, attacks) builds a
//! [`TrainingEvent`] from its link, and the accountants of [`crate::accounting::training`] take it.
//!
//! **σ has one meaning here and at every function boundary:** the noise multiplier, the noise's
//! standard deviation over the clipping norm C (as dp_accounting and Opacus define it). Under
//! replace-one the clipped sum moves by up to 2C; an accountant that reads the add/remove pair at σ/2
//! halves it inside, and never hands the halved value back.

use crate::accounting::rdp::tuning::Tuning;
use crate::accounting::samplers::schedule::Phase;
use crate::accounting::samplers::{Sampler, SamplerSetting};
use crate::error::{Error, Result};

/// Most steps a run may take (the labs' links refuse more).
pub const MAX_STEPS: u64 = 10_000_000;

crate::choice! {
    /// Which data sets are neighbours.
    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    pub enum Neighbour {
        /// One record added or removed (the accountants' native relation).
        AddRemove = "add-remove" | "addremove" | "add-or-remove" => "add or remove one record",
        /// One record replaced: the clipped sum can move by 2C (RDP: see
        /// [`crate::accounting::rdp::replace_one`]; the PLD: [`crate::accounting::pld::replace_one`]).
        ReplaceOne = "replace-one" | "replace" | "substitute" => "replace one record (the sum moves up to 2C)",
    }
}

impl Neighbour {
    /// Reads the `neighbour` key's value.
    ///
    /// # Errors
    /// Anything but the two relations (and their spellings).
    pub fn parse(s: &str) -> Result<Self> {
        Self::from_key(s)
            .ok_or_else(|| Error::invalid("neighbour", s, "must be add-remove or replace-one"))
    }

    /// The factor on the sensitivity (2C under replace-one).
    pub fn factor(self) -> f64 {
        match self {
            Neighbour::AddRemove => 1.0,
            Neighbour::ReplaceOne => 2.0,
        }
    }

    /// The relation in words, for a sentence about the guarantee.
    pub fn in_words(self) -> &'static str {
        match self {
            Neighbour::AddRemove => "add/remove one record",
            Neighbour::ReplaceOne => "replace one record",
        }
    }
}

/// A DP-SGD run as accountants see it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TrainingEvent {
    /// How batches are drawn.
    pub sampler: Sampler,
    /// The sampling rate q (batch / n; γ for fixed-size batches; 1/b per epoch for the orders).
    pub rate: f64,
    /// Records n (read by truncated Poisson).
    pub records: u64,
    /// Truncated Poisson's batch cap B.
    pub cap: u64,
    /// The noise multiplier σ: noise standard deviation over the clipping norm.
    pub sigma: f64,
    /// Which data sets are neighbours.
    pub neighbour: Neighbour,
    /// Steps T.
    pub steps: u64,
    /// Records per user k (1: record-level privacy).
    pub users: u32,
    /// Training in phases (each phase's σ a noise multiplier too), when the run has them.
    pub schedule: Option<Vec<Phase>>,
    /// Hyperparameter tuning accounted for, when the run has it.
    pub tuning: Option<Tuning>,
}

impl TrainingEvent {
    /// A record-level Poisson run: rate `q`, noise multiplier `sigma`, `steps` steps, under `neighbour`.
    pub fn poisson(rate: f64, sigma: f64, steps: u64, neighbour: Neighbour) -> TrainingEvent {
        TrainingEvent {
            sampler: Sampler::Poisson,
            rate,
            records: 0,
            cap: u64::MAX,
            sigma,
            neighbour,
            steps,
            users: 1,
            schedule: None,
            tuning: None,
        }
    }

    /// The same run stopped (or continued) at `steps` steps.
    pub fn with_steps(&self, steps: u64) -> TrainingEvent {
        TrainingEvent {
            steps,
            ..self.clone()
        }
    }

    /// The same run with noise multiplier `sigma`.
    pub fn with_sigma(&self, sigma: f64) -> TrainingEvent {
        TrainingEvent {
            sigma,
            ..self.clone()
        }
    }

    /// The Poisson record-level run of the same rate, σ, steps and relation: what the Poisson
    /// accountants (RDP, the PLD) account for, whatever this run's sampler.
    pub fn as_poisson(&self) -> TrainingEvent {
        TrainingEvent {
            sampler: Sampler::Poisson,
            users: 1,
            schedule: None,
            tuning: None,
            ..self.clone()
        }
    }

    /// Whether the run is exactly what the Poisson record-level accountants account for: Poisson
    /// batches, one record per user, one phase, no tuning.
    pub fn is_plain_poisson(&self) -> bool {
        self.sampler == Sampler::Poisson
            && self.users == 1
            && self.schedule.is_none()
            && self.tuning.is_none()
    }

    /// The run's phases: its schedule, or its one phase (rate, σ, steps). Each accountant reads them
    /// under the run's relation (replace-one is not a change of σ).
    pub fn phases(&self) -> Vec<Phase> {
        match &self.schedule {
            Some(phases) => phases.clone(),
            None => vec![Phase {
                q: self.rate,
                sigma: self.sigma,
                steps: self.steps,
            }],
        }
    }

    /// Whether the relation is replace-one.
    pub fn replace_one(&self) -> bool {
        self.neighbour == Neighbour::ReplaceOne
    }

    /// What the per-sampler accountants ([`crate::accounting::samplers`]) read, at `delta` on a PLD
    /// grid of width `interval`.
    pub fn sampler_setting(&self, delta: f64, interval: f64) -> SamplerSetting {
        SamplerSetting {
            q: self.rate,
            sigma: self.sigma,
            replace_one: self.replace_one(),
            steps: self.steps,
            delta,
            interval,
            n: self.records,
            cap: self.cap,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_poisson_view_keeps_rate_sigma_steps_and_relation() {
        let mut e = TrainingEvent::poisson(0.01, 1.1, 1000, Neighbour::ReplaceOne);
        assert!(e.is_plain_poisson());
        e.sampler = Sampler::Shuffle;
        e.users = 3;
        assert!(!e.is_plain_poisson());
        let p = e.as_poisson();
        assert!(p.is_plain_poisson());
        assert_eq!(
            (p.rate, p.sigma, p.steps, p.neighbour),
            (0.01, 1.1, 1000, Neighbour::ReplaceOne)
        );
        // σ crosses into the sampler accountants as the noise multiplier, never halved.
        assert_eq!(e.sampler_setting(1e-5, 1e-3).sigma, 1.1);
        assert_eq!(e.with_steps(7).steps, 7);
        assert_eq!(e.with_sigma(2.0).sigma, 2.0);
    }
}
