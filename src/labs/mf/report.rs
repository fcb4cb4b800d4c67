//! The lab's numbers: each strategy at the σ that meets the target, its errors, and the guarantee it
//! is read from; and the heat maps of one strategy's matrices.

use super::{Kind, MfParams, HEAT_STEPS};
use crate::accounting::correlated::CorrelatedEvent;
use crate::accounting::guarantee::Guarantee;
use crate::accounting::pld::EpsilonBand;
use crate::error::Result;
use crate::mechanisms::gaussian::sigma_analytic;
use crate::mechanisms::mf::optimise::OptimisedBlt;
use crate::mechanisms::mf::{toeplitz, tree, Participation, Strategy};
use serde::{Deserialize, Serialize};

/// Amplified BandMF's noise multiplier for the target (the PLD's σ search, never overshooting), and
/// its ε there from both sides.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Amplified {
    /// σ of the strategy with column norm 1.
    pub sigma: f64,
    /// ε at σ by the PLD, certified from both sides.
    pub band: EpsilonBand,
}

/// How sampling enters a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Amplification {
    /// The link does not sample (or targets ρ).
    Unsampled,
    /// Amplified BandMF's σ (Choquette-Choo et al. 2023, Theorem 4).
    Applied,
    /// Known for the strategy, its σ search still running: the unamplified σ meanwhile.
    Pending,
    /// No amplification result is known for the strategy: its unamplified σ.
    NotKnown,
}

/// One strategy's row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Which strategy.
    pub kind: Kind,
    /// Its name (the BLT's with its buffers).
    pub name: String,
    /// Its sensitivity under the participation, in units of one participation's.
    pub sensitivity: f64,
    /// The noise multiplier (on the strategy scaled to column norm 1) that meets the target, rounded
    /// up: σ_G·Δ with σ_G the Gaussian mechanism's, or amplified BandMF's σ.
    pub sigma: f64,
    /// The released prefix sums' root mean squared error at that σ, in clipping norms.
    pub rmse: f64,
    /// Their largest error std over the steps.
    pub max_error: f64,
    /// The error std at each step (at most [`CURVE_POINTS`] steps, evenly spread, the last included).
    pub curve: Vec<(f64, f64)>,
    /// How sampling enters it.
    pub amplification: Amplification,
    /// Its certified ε at the link's δ, with the event and accountant it rests on.
    pub guarantee: Guarantee,
    /// The PLD's lower bound on that ε, where the PLD accounted for it.
    pub lower: Option<f64>,
}

/// Points per error curve.
pub const CURVE_POINTS: usize = 400;

/// The lab's numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MfReport {
    /// The Gaussian mechanism's noise multiplier for the target on sensitivity 1 (rounded up).
    pub sigma_gaussian: f64,
    /// Its ρ-zCDP: 1/(2σ_G²).
    pub rho: f64,
    /// One row per strategy (the BLT's once optimised).
    pub rows: Vec<Row>,
}

/// The report: each strategy at the σ that makes the whole stream meet the target; with sampling,
/// amplified BandMF and independent noise at `amplified`'s σ once its search is done.
///
/// # Errors
/// A target the Gaussian mechanism cannot meet, or a strategy the participation has no bound for.
pub fn report(
    p: &MfParams,
    blt: Option<&OptimisedBlt>,
    amplified: Option<&Amplified>,
) -> Result<MfReport> {
    let sigma_gaussian = match p.rho {
        // ρ = 1/(2σ²) for sensitivity 1; rounded up, so the ρ met is at most the target.
        Some(rho) => (0.5 / rho).sqrt().next_up(),
        None => sigma_analytic(p.eps, p.delta, 1.0)?,
    };
    let n = p.steps as usize;
    let participation = p.participation();
    let sampled = p.amplified_goal().is_some();
    let mut rows = Vec::new();
    for kind in Kind::ALL {
        let Some(strategy) = p.strategy(kind, blt.map(|b| &b.blt)) else {
            continue;
        };
        let e = strategy.evaluate(n, participation)?;
        // In units of one participation's sensitivity: the σ of the strategy with column norm 1.
        let relative = e.sensitivity / strategy.sensitivity(n, Participation::ONCE)?;
        let known = strategy.amplification_known(participation.b);
        let (amplification, sigma, scale) = match (sampled, known, amplified) {
            (true, true, Some(a)) => (Amplification::Applied, a.sigma, a.sigma / relative),
            (true, true, None) => (
                Amplification::Pending,
                sigma_gaussian * relative,
                sigma_gaussian,
            ),
            (true, false, _) => (
                Amplification::NotKnown,
                sigma_gaussian * relative,
                sigma_gaussian,
            ),
            (false, ..) => (
                Amplification::Unsampled,
                sigma_gaussian * relative,
                sigma_gaussian,
            ),
        };
        // Rounded up: a σ pasted from the page still meets the target.
        let sigma = sigma.next_up();
        let stride = n.div_ceil(CURVE_POINTS).max(1);
        let curve = (0..n)
            .filter(|i| i % stride == 0 || *i == n - 1)
            .map(|i| ((i + 1) as f64, scale * e.per_step[i].sqrt()))
            .collect();
        let event = CorrelatedEvent {
            strategy: strategy.clone(),
            steps: p.steps,
            sigma,
            participation,
            sampling: sampled.then_some(p.q),
        };
        let (guarantee, lower) = guarantee(event, relative, amplification, amplified, p.delta);
        rows.push(Row {
            kind,
            name: match &strategy {
                Strategy::Blt(b) => format!("BLT, optimised here ({} buffers)", b.decay.len()),
                _ => kind.name().into(),
            },
            sensitivity: relative,
            sigma,
            rmse: scale * e.rmse(),
            max_error: scale * e.max_error(),
            curve,
            amplification,
            guarantee,
            lower,
        });
    }
    Ok(MfReport {
        sigma_gaussian,
        rho: 1.0 / (2.0 * sigma_gaussian * sigma_gaussian),
        rows,
    })
}

/// A row's guarantee: amplified, the PLD's band at its σ (upper side; the lower returned beside);
/// else the Gaussian mechanism at σ/Δ.
fn guarantee(
    event: CorrelatedEvent,
    relative: f64,
    amplification: Amplification,
    amplified: Option<&Amplified>,
    delta: f64,
) -> (Guarantee, Option<f64>) {
    match (amplification, amplified) {
        (Amplification::Applied, Some(a)) => (
            Guarantee::amplified(event, delta, a.band.upper),
            Some(a.band.lower),
        ),
        _ => (Guarantee::unamplified(event, relative, delta), None),
    }
}

/// One strategy's matrices over the first steps, row-major, for heat maps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HeatMaps {
    /// The strategy's name.
    pub name: String,
    /// Steps drawn (C's columns, B's rows).
    pub steps: usize,
    /// C's rows (the steps for a Toeplitz C, the tree's nodes for the tree).
    pub c_rows: usize,
    /// C, `c_rows` × `steps`.
    pub c: Vec<f64>,
    /// B = A·C⁻¹ (the decoder), `steps` × `c_rows`; `None` for Honaker's, whose decoder is a
    /// least-squares fit not drawn here.
    pub b: Option<Vec<f64>>,
}

/// The heat maps of the link's `matrix` over the first min(T, [`HEAT_STEPS`]) steps (a Toeplitz
/// strategy's top-left block is the same for any T); `None` for the BLT before it is optimised.
pub fn heat_maps(p: &MfParams, blt: Option<&OptimisedBlt>) -> Option<HeatMaps> {
    let m = (p.steps as usize).clamp(1, HEAT_STEPS);
    let strategy = p.strategy(p.matrix, blt.map(|b| &b.blt))?;
    let name = strategy.name();
    let toeplitz_square = |col: &[f64]| {
        (0..m * m)
            .map(|k| {
                let (i, j) = (k / m, k % m);
                if j <= i {
                    col.get(i - j).copied().unwrap_or(0.0)
                } else {
                    0.0
                }
            })
            .collect::<Vec<f64>>()
    };
    match strategy.coefs(m) {
        Some(c) => {
            let mut full = c.clone();
            full.resize(m, 0.0);
            let b = toeplitz::decoder(&toeplitz::inverse(&full, m));
            Some(HeatMaps {
                name,
                steps: m,
                c_rows: m,
                c: toeplitz_square(&full),
                b: Some(toeplitz_square(&b)),
            })
        }
        None => {
            let (c, nodes) = tree::matrix(m);
            let b = (strategy == Strategy::Tree).then(|| tree::decoder(m));
            Some(HeatMaps {
                name,
                steps: m,
                c_rows: nodes,
                c,
                b,
            })
        }
    }
}
