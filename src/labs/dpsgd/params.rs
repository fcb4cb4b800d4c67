//! The DP-SGD lab's parameters from the link: data set size, batch, σ, epochs or steps, δ, the target
//! ε, the neighbouring relation and the PLD grid.

use crate::accounting::event::{Neighbour, TrainingEvent, MAX_STEPS};
use crate::accounting::pld::DEFAULT_INTERVAL;
use crate::accounting::rdp::tuning::Tuning;
use crate::accounting::samplers::schedule::{format_schedule, parse_schedule, Phase};
use crate::accounting::samplers::users::MAX_USERS;
use crate::accounting::samplers::Sampler;
use crate::accounting::training::SigmaGoal;
use crate::link::query::{fmt_f64, LinkParams, Notice, Query, Reader, Within};

/// Everything a DP-SGD link holds. `q` and `steps`, when present, override batch/n and epochs.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DpsgdParams {
    /// Data set size n.
    pub n: u64,
    /// Expected batch size m.
    pub batch: u64,
    /// Sampling rate set directly (`q`).
    pub q: Option<f64>,
    /// Noise multiplier σ (noise std / clipping norm).
    pub sigma: f64,
    /// Epochs.
    pub epochs: f64,
    /// Steps set directly (`steps`).
    pub steps: Option<u64>,
    /// Target δ.
    pub delta: f64,
    /// Target ε for the inverse (`target_eps`).
    pub target_eps: f64,
    /// Neighbouring relation.
    pub neighbour: Neighbour,
    /// The PLD grid's width when the link sets one (`grid`).
    pub grid: Option<f64>,
    /// How the training code draws its batches (`sampler`, printed when not Poisson).
    pub sampler: Sampler,
    /// Truncated Poisson's batch cap B (`cap`, printed when the link sets it; see [`Self::cap`]).
    pub cap: Option<u64>,
    /// Records per user k (`users`, printed when above 1): the user-level accountants run when k ≥ 2.
    pub users: u32,
    /// Training in phases (`schedule=q:σ:T,…`), σ as the link gives it.
    pub schedule: Option<Vec<Phase>>,
    /// Hyperparameter tuning: how many runs, of which the best is released (`tuning`).
    pub tuning: Option<Tuning>,
}

impl Default for DpsgdParams {
    /// Abadi et al. (CCS 2016)'s MNIST setting.
    fn default() -> Self {
        DpsgdParams {
            n: 60_000,
            batch: 256,
            q: None,
            sigma: 1.1,
            epochs: 60.0,
            steps: None,
            delta: 1e-5,
            target_eps: 2.0,
            neighbour: Neighbour::AddRemove,
            grid: None,
            sampler: Sampler::Poisson,
            cap: None,
            users: 1,
            schedule: None,
            tuning: None,
        }
    }
}

impl DpsgdParams {
    /// The sampling rate q = m/n (or the link's `q`).
    pub fn rate(&self) -> f64 {
        self.q
            .unwrap_or((self.batch as f64 / self.n as f64).min(1.0))
    }

    /// Steps T = ⌈epochs / q⌉ (or the link's `steps`), at least 1.
    pub fn total_steps(&self) -> u64 {
        self.steps.unwrap_or_else(|| {
            (self.epochs / self.rate())
                .ceil()
                .clamp(1.0, MAX_STEPS as f64) as u64
        })
    }

    /// Truncated Poisson's batch cap B: the link's `cap`, else 10% above the mean batch q·n (rounded
    /// up, at least 1), a cap that cuts a batch now and then, as a fixed-shape training step would.
    pub fn cap(&self) -> u64 {
        self.cap
            .unwrap_or_else(|| (1.1 * self.rate() * self.n as f64).ceil().max(1.0) as u64)
    }

    /// The run this link describes, as accountants take it.
    pub fn event(&self) -> TrainingEvent {
        TrainingEvent {
            sampler: self.sampler,
            rate: self.rate(),
            records: self.n,
            cap: self.cap(),
            sigma: self.sigma,
            neighbour: self.neighbour,
            steps: self.total_steps(),
            users: self.users,
            schedule: self.schedule.clone(),
            tuning: self.tuning,
        }
    }

    /// The attack lab's link for this run, with q written as the exact ratio `batch/n` when the link
    /// derives it from them (`q=256/60000` reads better than `0.004266666666666667` and parses back to
    /// the same float).
    pub fn attack_link(&self) -> Query {
        let mut link = crate::link::handoff::attack_link_for_run(&self.event(), self.delta);
        if self.q.is_none() && self.batch < self.n {
            link.set("q", format!("{}/{}", self.batch, self.n));
        }
        link
    }

    /// The PLD grid's width: the link's, or the default.
    pub fn grid_width(&self) -> f64 {
        self.grid.unwrap_or(DEFAULT_INTERVAL)
    }

    /// What the σ search reads: the run, δ, the target ε and the grid.
    pub fn sigma_goal(&self) -> SigmaGoal {
        SigmaGoal {
            event: self.event(),
            delta: self.delta,
            target_eps: self.target_eps,
            grid: self.grid_width(),
        }
    }

    /// Why the PLD band can stay wide on any grid: under replace-one its two ends come from different
    /// bounds ([`crate::accounting::pld::replace_one`]).
    pub fn band_gap(&self) -> Option<String> {
        (self.neighbour == Neighbour::ReplaceOne).then(|| {
            "Replace-one has no proven tight pair. The guarantee is the smaller of two certified \
             bounds: one step at a time (each step's record drawn is one clipped gradient from the \
             record not drawn and two from its replacement: advanced joint convexity, either way \
             round), and removing a record, then adding another at σ (the two directions' ε added). The lower bound is the larger of \
             two pairs that happen: the add/remove pair at σ (a replacement with a zero gradient) and \
             the mirrored pair (the record's gradient +C replaced by −C, every other 0), which \
             dp_accounting takes as replace-one's. The exact ε lies between, and a finer grid will not \
             close the gap."
                .to_string()
        })
    }
}

impl LinkParams for DpsgdParams {
    fn from_query(query: &Query) -> (Self, Vec<Notice>) {
        let d = DpsgdParams::default();
        let mut r = Reader::new(query);
        let n = r.whole("n", d.n, 1, 10_000_000_000);
        let batch = r.whole("batch", d.batch, 1, 10_000_000_000);
        let q = r.optional_number("q", Within::up_to(0.0, 1.0), "ignoring it");
        let sigma = r.number("sigma", d.sigma, Within::below(0.0, 1e4));
        let epochs = r.number("epochs", d.epochs, Within::below(0.0, 1e7));
        let steps = r.optional_whole("steps", 1, MAX_STEPS, "ignoring it");
        let delta = r.number("delta", d.delta, Within::below(0.0, 1.0));
        let target_eps = r.number("target_eps", d.target_eps, Within::below(0.0, 1e3));
        let neighbour = r.parse("neighbour", d.neighbour, Neighbour::parse);
        let grid = r.optional_number("grid", Within::up_to(1e-7, 0.1), "using the default grid");
        let sampler = r.parse("sampler", d.sampler, Sampler::parse);
        let cap = r.optional_whole("cap", 1, 10_000_000_000, "using 10% above the mean batch");
        let users = r.whole("users", u64::from(d.users), 1, u64::from(MAX_USERS)) as u32;
        let schedule = r.optional("schedule", parse_schedule, "leaving the schedule out");
        let tuning = r.optional("tuning", Tuning::parse, "leaving tuning out");
        let mut p = DpsgdParams {
            n,
            batch,
            q,
            sigma,
            epochs,
            steps,
            delta,
            target_eps,
            neighbour,
            grid,
            sampler,
            cap,
            users,
            schedule,
            tuning,
        };
        if p.q.is_none() && p.batch > p.n {
            // Never a silent q = 1 (issue 29: a link with n = 100 and the default batch read ε = 54).
            r.notice(
                "batch",
                format!(
                    "batch = {} exceeds the data set (n = {}): every record is in every batch, q = 1.",
                    p.batch, p.n
                ),
            );
        }
        if p.steps.is_none() && p.epochs / p.rate() > MAX_STEPS as f64 {
            r.notice(
                "epochs",
                format!(
                    "{} epochs at q = {} exceed {MAX_STEPS} steps; using {MAX_STEPS} steps.",
                    fmt_f64(p.epochs),
                    fmt_f64(p.rate())
                ),
            );
            p.steps = Some(MAX_STEPS);
        }
        r.finish(p)
    }

    fn to_query(&self) -> Query {
        let mut q = Query::default()
            .with("lab", "dpsgd")
            .with("n", self.n.to_string())
            .with("batch", self.batch.to_string())
            .with("sigma", fmt_f64(self.sigma))
            .with("epochs", fmt_f64(self.epochs))
            .with("delta", fmt_f64(self.delta))
            .with("target_eps", fmt_f64(self.target_eps))
            .with("neighbour", self.neighbour.key());
        if let Some(rate) = self.q {
            q.set("q", fmt_f64(rate));
        }
        if let Some(t) = self.steps {
            q.set("steps", t.to_string());
        }
        if let Some(g) = self.grid {
            q.set("grid", fmt_f64(g));
        }
        if self.sampler != Sampler::Poisson {
            q.set("sampler", self.sampler.key());
        }
        if let Some(cap) = self.cap {
            q.set("cap", cap.to_string());
        }
        if self.users > 1 {
            q.set("users", self.users.to_string());
        }
        if let Some(phases) = &self.schedule {
            q.set("schedule", format_schedule(phases));
        }
        if let Some(t) = self.tuning {
            q.set("tuning", t.to_string());
        }
        q
    }
}
