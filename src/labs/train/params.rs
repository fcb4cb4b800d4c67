//! The training lab's parameters from the link: the data, the model, DP-SGD's knobs, the accountant's
//! δ and target, the seeds and the σ sweep.

use crate::accounting::event::{Neighbour, TrainingEvent};
use crate::accounting::samplers::Sampler;
use crate::accounting::training::StepRdp;
use crate::error::{Error, Result};
use crate::learning::correlated::Mechanism;
use crate::learning::datasets::Shape;
use crate::learning::model::{Activation, Architecture, MAX_UNITS};
use crate::link::query::{fmt_f64, parse_seed, LinkParams, Notice, Query, Reader, Within};
use serde::{Deserialize, Serialize};

/// Most steps a run takes.
pub const MAX_STEPS: u64 = 100_000;
/// Rows of the breast-cancer set.
pub const BREAST_CANCER_ROWS: usize = 569;
/// Rows of the Adult sample.
pub const ADULT_ROWS: usize = 8000;

crate::choice! {
    /// Where the rows come from.
    #[derive(Debug, Serialize, Deserialize)]
    pub enum DataKind {
        /// Breast Cancer Wisconsin (Diagnostic), 569 × 30: the default.
        BreastCancer = "breast-cancer" | "cancer" | "wdbc" => "Breast cancer (569 × 30)",
        /// A sample of UCI Adult, 8,000 × 47 one-hot: where privacy costs little.
        Adult = "adult" | "census" => "Adult census income (8,000 × 47)",
        /// Two Gaussian blobs (2-D).
        Gaussians = "gaussians" => "Two Gaussians (2-D)",
        /// A disc in a ring (2-D).
        Circle = "circle" => "Circle (2-D)",
        /// The four quadrants (2-D).
        Xor = "xor" => "Xor (2-D)",
        /// Two spirals (2-D).
        Spiral = "spiral" => "Spiral (2-D)",
        /// A high-dimensional logistic model.
        HighDim = "highdim" | "high-dim" => "High-dimensional logistic",
        /// The user's CSV (in the page only: never in the link).
        Csv = "csv" => "Your CSV (stays in the page)",
    }
}

impl DataKind {
    /// The 2-D shape, for the four TensorFlow Playground sets.
    pub fn shape(self) -> Option<Shape> {
        match self {
            DataKind::Gaussians => Some(Shape::Gaussians),
            DataKind::Circle => Some(Shape::Circle),
            DataKind::Xor => Some(Shape::Xor),
            DataKind::Spiral => Some(Shape::Spiral),
            _ => None,
        }
    }

    /// Reads the `data` key.
    ///
    /// # Errors
    /// An unknown set (Adult is named: it is not bundled yet).
    pub fn parse(s: &str) -> Result<Self> {
        Self::from_key(s.trim()).ok_or_else(|| {
            Error::invalid(
                "data",
                s,
                "must be breast-cancer, adult, gaussians, circle, xor, spiral, highdim or csv",
            )
        })
    }
}

crate::choice! {
    /// The model.
    #[derive(Debug, Serialize, Deserialize)]
    pub enum ModelKind {
        /// Logistic regression with a bias.
        Logistic = "logreg" | "logistic" => "Logistic regression",
        /// A small multilayer perceptron.
        Mlp = "mlp" => "Small MLP",
    }
}

/// Everything a training link holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainParams {
    /// The data set.
    pub data: DataKind,
    /// Rows of a synthetic set.
    pub n: u64,
    /// Noise of a 2-D set, in [0, 0.5].
    pub noise: f64,
    /// Features of the high-dimensional set.
    pub dim: u64,
    /// Fraction of rows used for training.
    pub split: f64,
    /// The model.
    pub model: ModelKind,
    /// The MLP's hidden layers.
    pub hidden: Vec<usize>,
    /// The MLP's activation.
    pub act: Activation,
    /// The L2 term λ (weights only).
    pub lambda: f64,
    /// Learning rate η.
    pub lr: f64,
    /// Expected batch size m (q = m/n).
    pub batch: u64,
    /// Sampling rate set directly.
    pub q: Option<f64>,
    /// Noise multiplier σ.
    pub sigma: f64,
    /// Clipping norm C.
    pub clip: f64,
    /// Epochs (T = ⌈epochs/q⌉).
    pub epochs: f64,
    /// Steps set directly.
    pub steps: Option<u64>,
    /// δ.
    pub delta: f64,
    /// Target ε.
    pub target_eps: f64,
    /// Stop where the certified ε reaches the target.
    pub stop: bool,
    /// How the main run and the sweep draw their batches (`sampler`, as the DP-SGD lab's).
    pub sampler: Sampler,
    /// The training rows the run was planned for (`plan_n`: the DP-SGD lab's n, carried by its
    /// link), when they differ from this data set's: the page says what that changes.
    pub plan_n: Option<u64>,
    /// Truncated Poisson's batch cap B (`cap`; see [`TrainParams::cap`]).
    pub cap: Option<u64>,
    /// Seed of the data, the split, the initial parameters, the batches and the noise.
    pub seed: u64,
    /// Seeds per σ in the sweep.
    pub seeds: u64,
    /// The σ's of the privacy–utility sweep.
    pub sweep: Vec<f64>,
    /// The run's noise (`mech`): DP-SGD's independent noise, or a correlated-noise mechanism with
    /// the batches its guarantee needs.
    pub mech: Mechanism,
    /// Correlated-noise mechanisms to train beside DP-SGD at the same certified ε (`compare`, a comma
    /// list; empty: no comparison).
    pub compare: Vec<Mechanism>,
    /// The ε's the comparison calibrates to (`compare_eps`, a comma list; empty: the target ε).
    pub compare_eps: Vec<f64>,
    /// The audit's settings.
    pub audit: super::audit::AuditParams,
    /// The membership attack's settings.
    pub mia: super::mia::MiaParams,
}

impl Default for TrainParams {
    fn default() -> Self {
        TrainParams {
            data: DataKind::BreastCancer,
            n: 400,
            noise: 0.1,
            dim: 100,
            split: 0.8,
            model: ModelKind::Logistic,
            hidden: vec![8],
            act: Activation::Tanh,
            lambda: 1e-3,
            lr: 0.5,
            batch: 32,
            plan_n: None,
            q: None,
            sigma: 2.0,
            clip: 1.0,
            epochs: 30.0,
            steps: None,
            delta: 1e-5,
            target_eps: 3.0,
            stop: false,
            sampler: Sampler::Poisson,
            cap: None,
            seed: 1,
            seeds: 5,
            sweep: vec![0.5, 0.7, 1.0, 1.4, 2.0, 3.0, 5.0, 8.0],
            mech: Mechanism::DpSgd,
            compare: Vec::new(),
            compare_eps: Vec::new(),
            audit: super::audit::AuditParams::default(),
            mia: super::mia::MiaParams::default(),
        }
    }
}

/// Training rows out of `rows` for a training fraction (at least 2, leaving at least 2 for testing).
pub fn train_rows(rows: usize, fraction: f64) -> usize {
    ((rows as f64 * fraction).round() as usize).clamp(2, rows.saturating_sub(2).max(2))
}

impl TrainParams {
    /// Rows of the whole data set (`csv_rows` for a CSV: 0 before one is loaded).
    pub fn rows(&self, csv_rows: usize) -> usize {
        match self.data {
            DataKind::BreastCancer => BREAST_CANCER_ROWS,
            DataKind::Adult => ADULT_ROWS,
            DataKind::Csv => csv_rows,
            _ => self.n as usize,
        }
    }

    /// Training rows.
    pub fn train_rows(&self, csv_rows: usize) -> usize {
        train_rows(self.rows(csv_rows).max(4), self.split)
    }

    /// The sampling rate q = m/n (or the link's `q`), n the training rows.
    pub fn rate(&self, csv_rows: usize) -> f64 {
        self.q
            .unwrap_or((self.batch as f64 / self.train_rows(csv_rows) as f64).min(1.0))
    }

    /// Truncated Poisson's batch cap B: the link's `cap`, else 10% above the mean batch q·n (rounded
    /// up, at least 1), as the DP-SGD lab's.
    pub fn cap(&self, csv_rows: usize) -> u64 {
        self.cap.unwrap_or_else(|| {
            (1.1 * self.rate(csv_rows) * self.train_rows(csv_rows) as f64)
                .ceil()
                .max(1.0) as u64
        })
    }

    /// Steps T = ⌈epochs/q⌉ (or the link's `steps`), in [1, [`MAX_STEPS`]].
    pub fn total_steps(&self, csv_rows: usize) -> u64 {
        self.steps.unwrap_or_else(|| {
            (self.epochs / self.rate(csv_rows))
                .ceil()
                .clamp(1.0, MAX_STEPS as f64) as u64
        })
    }

    /// Whether the link trains on a CSV that is not loaded (`csv_rows` = 0): no run exists, so no ε
    /// or accuracy may be stated (the rate and steps would be a 4-row placeholder's).
    pub fn awaits_csv(&self, csv_rows: usize) -> bool {
        self.data == DataKind::Csv && csv_rows == 0
    }

    /// The steps the run takes: T, or with `stop`, the most steps whose certified ε for the run's
    /// sampler is within the target ([`super::run::steps_within_target`]).
    ///
    /// # Errors
    /// No CSV loaded for `data=csv` ([`TrainParams::awaits_csv`]), a target below one step's ε, or
    /// `stop` with a sampler that has no certified upper bound (the link's reader turns `stop` off for
    /// those, with a notice).
    pub fn planned_steps(&self, csv_rows: usize) -> Result<u64> {
        if self.awaits_csv(csv_rows) {
            return Err(Error::invalid("data", "csv", NO_CSV));
        }
        let steps = self.total_steps(csv_rows);
        if !self.stop {
            return Ok(steps);
        }
        if self.mech != Mechanism::DpSgd {
            return Err(Error::invalid("stop", "1", NO_STOP_CORRELATED));
        }
        match StepRdp::for_run(&self.event(csv_rows, steps)) {
            Some(rule) => {
                super::run::steps_within_target(&rule, steps, self.delta, self.target_eps)
            }
            None => Err(Error::invalid("stop", "1", no_stop_rule(self.sampler))),
        }
    }

    /// What the page's accountants take for the run over `steps` steps: DP-SGD's [`TrainParams::event`];
    /// for BandMF the DP-SGD run amplified BandMF is as private as (Poisson at q·b over ⌈T/b⌉ rounds,
    /// [`crate::accounting::correlated::CorrelatedEvent::amplified`]; each of its steps is b of the
    /// run's, [`TrainParams::steps_per_accounted_step`]); for the tree and a BLT, whose ε is exact and
    /// comes with the run, DP-SGD at the same σ with Poisson batches, shown as what it is: not this
    /// run's.
    pub fn accounting_event(&self, csv_rows: usize, steps: u64) -> TrainingEvent {
        match self.mech {
            Mechanism::DpSgd => self.event(csv_rows, steps),
            Mechanism::BandMf { bands } => TrainingEvent {
                sampler: Sampler::Poisson,
                rate: (self.rate(csv_rows) * f64::from(bands)).min(1.0),
                steps: steps.div_ceil(u64::from(bands)),
                ..self.event(csv_rows, steps)
            },
            Mechanism::Tree | Mechanism::Blt => TrainingEvent {
                sampler: Sampler::Poisson,
                ..self.event(csv_rows, steps)
            },
        }
    }

    /// The run's steps per step of [`TrainParams::accounting_event`]: b for BandMF, else 1.
    pub fn steps_per_accounted_step(&self) -> u64 {
        match self.mech {
            Mechanism::BandMf { bands } => u64::from(bands),
            _ => 1,
        }
    }

    /// What changes when the run was planned for another data size (`plan_n`, from the DP-SGD lab's
    /// link) than this data set's training rows: `None` when they agree (to 1%) or no plan is
    /// carried. With the plan's q the ε is the plan's but a batch holds q·n of these rows; with the
    /// batch size kept (no `q`) the batches are the plan's size and q, so ε, are this data's.
    pub fn plan_note(&self, csv_rows: usize) -> Option<String> {
        use crate::link::format::{count, sig};
        let planned = self.plan_n? as f64;
        let rows = self.train_rows(csv_rows) as f64;
        if self.awaits_csv(csv_rows) || (planned - rows).abs() <= 0.01 * planned {
            return None;
        }
        let q = self.rate(csv_rows);
        Some(match self.q {
            Some(_) => format!(
                "Planned for {} records; this data set has {} training rows, so at the plan's q = {} a batch holds \
                 about {} rows (the plan's held {}). ε is the plan's; the accuracy is what {} rows give, not {}.",
                count(planned as u64),
                count(rows as u64),
                sig(q, 4),
                sig(q * rows, 3),
                sig(q * planned, 4),
                count(rows as u64),
                count(planned as u64),
            ),
            None => format!(
                "Planned for {} records; here the planned batch of {} out of {} training rows makes q = {}, so ε is \
                 this run's, not the plan's.",
                count(planned as u64),
                self.batch,
                count(rows as u64),
                sig(q, 4),
            ),
        })
    }

    /// The ε's the comparison calibrates to: `compare_eps`, else the target.
    pub fn compare_targets(&self) -> Vec<f64> {
        if self.compare_eps.is_empty() {
            vec![self.target_eps]
        } else {
            self.compare_eps.clone()
        }
    }

    /// The model's shape for `dim` features.
    pub fn architecture(&self, dim: usize) -> Architecture {
        match self.model {
            ModelKind::Logistic => Architecture::logistic(dim),
            ModelKind::Mlp => Architecture::mlp(dim, self.hidden.clone(), self.act),
        }
    }

    /// The run as accountants take it, stopped at `steps` steps: the link's sampler, rate, σ and the
    /// training rows, add/remove, record level. The DP-SGD lab's link for the same event gives the same
    /// numbers ([`crate::link::handoff`]).
    pub fn event(&self, csv_rows: usize, steps: u64) -> TrainingEvent {
        TrainingEvent {
            sampler: self.sampler,
            // A fixed-size batch holds at least one row: its rate is at least 1/n.
            rate: if self.sampler == Sampler::Fixed {
                self.rate(csv_rows)
                    .max(1.0 / self.train_rows(csv_rows) as f64)
            } else {
                self.rate(csv_rows)
            },
            records: self.train_rows(csv_rows) as u64,
            cap: self.cap(csv_rows),
            sigma: self.sigma,
            neighbour: Neighbour::AddRemove,
            steps,
            users: 1,
            schedule: None,
            tuning: None,
        }
    }
}

/// Why a `data=csv` link without its file has no run (and so no ε).
pub const NO_CSV: &str =
    "needs your CSV file: no data is loaded yet, so nothing is trained and no ε is stated. Choose a file above (it stays in the page)";

/// Why `stop=1` does not apply to correlated noise.
pub const NO_STOP_CORRELATED: &str = "stop=1 follows DP-SGD's per-step accountant; a correlated-noise strategy is \
     built for all T steps (its sensitivity, and a BLT's coefficients, depend on T), so the run takes all \
     its steps: choose the epochs to meet the target, or mech=dpsgd to stop at it.";

/// Why `stop=1` cannot hold with `sampler`: no certified upper bound on its ε under add/remove is known
/// (or computed).
fn no_stop_rule(sampler: Sampler) -> String {
    let why = match sampler {
        Sampler::Cyclic => {
            "have an exact ε only for zero-out neighbours (under add/remove a removed row moves every \
             later row to another batch)"
        }
        Sampler::Balls => {
            "have a certified bound only for whole epochs (the exact law of an epoch's likelihood \
             ratio), with no per-step curve the rule could follow"
        }
        _ => "have only a lower bound",
    };
    format!(
        "stop=1 needs a certified upper bound on ε, and batches drawn as `sampler={}` {why}: the run \
         takes all its steps (choose poisson, fixed or truncated to stop at the target).",
        sampler.key()
    )
}

mod query;
#[cfg(test)]
mod tests;
