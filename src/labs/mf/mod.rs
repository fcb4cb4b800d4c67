//! The correlated-noise lab (`?lab=mf`, issue 51): for a stream of T steps, each strategy's
//! sensitivity under the participation, the noise multiplier that meets a target ((ε, δ) or ρ), and
//! the error of the released prefix sums at it, side by side; the BLT optimised for the stream in the
//! worker pool, amplified BandMF's σ by the PLD, and the strategy matrices as heat maps. The maths is
//! [`crate::mechanisms::mf`] and [`crate::accounting::correlated`]; this folder reads the link and
//! assembles the report.

pub mod info;
pub mod jobs;
pub mod report;

pub use report::{heat_maps, report, Amplified, HeatMaps, MfReport, Row, CURVE_POINTS};

use crate::accounting::correlated::CorrelatedEvent;
use crate::accounting::pld::DEFAULT_INTERVAL;
use crate::accounting::training::SigmaGoal;
use crate::error::{Error, Result};
use crate::link::query::{fmt_f64, LinkParams, Notice, Query, Reader, Within};
use crate::mechanisms::mf::blt::Blt;
use crate::mechanisms::mf::{Participation, Strategy};
use serde::{Deserialize, Serialize};

/// This lab's link parameters.
pub type Params = MfParams;

/// Most steps the lab evaluates (every strategy here is O(T·bands) or O(T·buffers)).
pub const MAX_STEPS: u64 = 100_000;

/// Most steps the page evaluates itself within a frame; beyond, the report is a worker's job.
pub const PAGE_STEPS: u64 = 2_000;

/// Most steps the heat maps draw (the first steps of C and B).
pub const HEAT_STEPS: usize = 32;

/// A strategy of the lab, as its link and table name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// Independent noise (DP-SGD).
    Independent,
    /// The binary tree.
    Tree,
    /// The tree with Honaker's estimator.
    Honaker,
    /// Banded Toeplitz.
    Banded,
    /// The Toeplitz square root.
    Sqrt,
    /// The BLT optimised for the stream.
    Blt,
}

impl Kind {
    /// Every kind, in the table's order.
    pub const ALL: [Kind; 6] = [
        Kind::Independent,
        Kind::Tree,
        Kind::Honaker,
        Kind::Banded,
        Kind::Sqrt,
        Kind::Blt,
    ];

    /// Its link key and test id.
    pub const fn key(self) -> &'static str {
        match self {
            Kind::Independent => "independent",
            Kind::Tree => "tree",
            Kind::Honaker => "honaker",
            Kind::Banded => "banded",
            Kind::Sqrt => "sqrt",
            Kind::Blt => "blt",
        }
    }

    /// Its name in the table.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Independent => "Independent noise (DP-SGD)",
            Kind::Tree => "Binary tree",
            Kind::Honaker => "Binary tree, Honaker's estimator",
            Kind::Banded => "Banded Toeplitz (BandMF)",
            Kind::Sqrt => "Toeplitz square root",
            Kind::Blt => "BLT, optimised here",
        }
    }

    fn parse(s: &str) -> Result<Kind> {
        Kind::ALL.into_iter().find(|k| k.key() == s).ok_or_else(|| {
            Error::invalid(
                "matrix",
                s,
                "must be independent, tree, honaker, banded, sqrt or blt",
            )
        })
    }
}

/// The lab's parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MfParams {
    /// Steps T (`steps`).
    pub steps: u64,
    /// Passes over the data k (`epochs`): each record takes part k times, ⌊T/k⌋ steps apart.
    pub epochs: u64,
    /// The banded strategy's bands (`bands`).
    pub bands: u64,
    /// The target ε (`eps`).
    pub eps: f64,
    /// δ (`delta`).
    pub delta: f64,
    /// A ρ-zCDP target instead of ε (`rho`).
    pub rho: Option<f64>,
    /// Cyclic Poisson sampling: a record's probability in each of its group's rounds (`q`; 0: every
    /// record in every one of its rounds).
    pub q: f64,
    /// The strategy whose matrices the heat maps draw (`matrix`).
    pub matrix: Kind,
}

impl Default for MfParams {
    fn default() -> Self {
        MfParams {
            steps: 256,
            epochs: 1,
            bands: 8,
            eps: 1.0,
            delta: 1e-6,
            rho: None,
            q: 0.0,
            matrix: Kind::Sqrt,
        }
    }
}

impl MfParams {
    /// The participation: k passes, ⌊T/k⌋ steps apart.
    pub fn participation(&self) -> Participation {
        let k = self.epochs.clamp(1, self.steps.max(1));
        Participation {
            k: Some(k as usize),
            b: (self.steps / k).max(1) as usize,
        }
    }

    /// The strategy of `kind` (the BLT's when one was optimised).
    pub fn strategy(&self, kind: Kind, blt: Option<&Blt>) -> Option<Strategy> {
        Some(match kind {
            Kind::Independent => Strategy::Independent,
            Kind::Tree => Strategy::Tree,
            Kind::Honaker => Strategy::HonakerTree,
            Kind::Banded => Strategy::Banded {
                bands: self.bands as usize,
            },
            Kind::Sqrt => Strategy::SquareRoot,
            Kind::Blt => Strategy::Blt(blt?.clone()),
        })
    }

    /// The σ search amplified BandMF needs (Choquette-Choo et al. 2023, Theorem 4: DP-SGD at rate q
    /// over ⌈T/b⌉ = k rounds), when the link samples and targets (ε, δ); `None` otherwise.
    pub fn amplified_goal(&self) -> Option<SigmaGoal> {
        if self.q <= 0.0 || self.rho.is_some() {
            return None;
        }
        // Independent noise's amplified run: the one every amplifiable row shares (Theorem 4's
        // rounds are read where the theorem is, CorrelatedEvent::amplified).
        let run = CorrelatedEvent {
            strategy: Strategy::Independent,
            steps: self.steps,
            sigma: 1.0,
            participation: self.participation(),
            sampling: Some(self.q),
        };
        Some(SigmaGoal {
            event: run.amplified()?,
            delta: self.delta,
            target_eps: self.eps,
            grid: DEFAULT_INTERVAL,
        })
    }
}

impl LinkParams for MfParams {
    fn from_query(query: &Query) -> (Self, Vec<Notice>) {
        let d = MfParams::default();
        let mut r = Reader::new(query);
        let steps = r.whole("steps", d.steps, 1, MAX_STEPS);
        let epochs = r.whole("epochs", d.epochs, 1, 1_000);
        let bands = r.whole("bands", d.bands, 1, 1_000);
        let eps = r.number("eps", d.eps, Within::up_to(0.0, 100.0));
        let delta = r.number("delta", d.delta, Within::below(0.0, 1.0));
        let rho = r.optional_number("rho", Within::up_to(0.0, 1e4), "targeting ε instead");
        // Absent: no sampling (the link leaves `q` out then).
        let q = r
            .optional_number("q", Within::up_to(0.0, 1.0), "without sampling")
            .unwrap_or(d.q);
        let matrix = r.parse_with("matrix", d.matrix, |k| k.key().into(), Kind::parse);
        let mut p = MfParams {
            steps,
            epochs,
            bands,
            eps,
            delta,
            rho,
            q,
            matrix,
        };
        if p.epochs > p.steps {
            r.notice(
                "epochs",
                format!(
                    "epochs = {} is more than the {} steps: using {}.",
                    p.epochs, p.steps, p.steps
                ),
            );
            p.epochs = p.steps;
        }
        if p.rho.is_some() && p.q > 0.0 {
            r.notice(
                "q",
                "amplified BandMF is accounted in (ε, δ): with a ρ target every strategy shows its \
                 unamplified σ."
                    .into(),
            );
        }
        r.finish(p)
    }

    fn to_query(&self) -> Query {
        let mut q = Query::default()
            .with("lab", "mf")
            .with("steps", self.steps.to_string())
            .with("epochs", self.epochs.to_string())
            .with("bands", self.bands.to_string())
            .with("eps", fmt_f64(self.eps))
            .with("delta", fmt_f64(self.delta));
        if let Some(rho) = self.rho {
            q = q.with("rho", fmt_f64(rho));
        }
        if self.q > 0.0 {
            q = q.with("q", fmt_f64(self.q));
        }
        q.with("matrix", self.matrix.key())
    }
}

#[cfg(test)]
mod tests;
