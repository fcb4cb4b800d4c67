//! The DP-SGD lab's background work: ε by the PLD and its curve, σ for the target ε. Each runs in its
//! own worker and streams its results as they are ready.

use super::{sigma_for_target, sigma_search_pld, DpsgdParams};
use crate::accounting::pld::{dpsgd_epsilon, dpsgd_epsilon_band, EpsilonBand, DEFAULT_INTERVAL};
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// Fractions of T at which the DP-SGD lab draws its PLD ε-against-steps curve.
pub const CURVE_FRACTIONS: [f64; 4] = [0.125, 0.25, 0.5, 0.75];

/// A result of a DP-SGD job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum DpsgdUpdate {
    /// What is being computed.
    Status(String),
    /// ε by the PLD after T steps, from both sides.
    Pld(Result<EpsilonBand>),
    /// (steps, certified ε) at a fraction of T.
    CurvePoint(f64, f64),
    /// σ for the target ε by RDP (dp_accounting's orders).
    SigmaRdp(Result<f64>),
    /// σ for the target ε by the PLD, as the link gives σ (replace-one doubled back).
    SigmaPld(Result<f64>),
}

/// What the PLD job reads of a link, and nothing else: the page reruns it only when one of these
/// changes (not on a target-ε move).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PldJob {
    /// Sampling rate q.
    pub rate: f64,
    /// Noise multiplier as the accountants see it (the link's σ over the relation's factor).
    pub sigma: f64,
    /// Steps T.
    pub steps: u64,
    /// δ.
    pub delta: f64,
    /// The PLD grid's width.
    pub grid: f64,
}

impl DpsgdParams {
    /// What the PLD job reads.
    pub fn pld_job(&self) -> PldJob {
        PldJob {
            rate: self.rate(),
            sigma: self.effective_sigma(),
            steps: self.total_steps(),
            delta: self.delta,
            grid: self.grid.unwrap_or(DEFAULT_INTERVAL),
        }
    }
}

/// The DP-SGD lab's PLD ε at T steps, then the curve at fractions of T.
pub fn dpsgd_pld(job: PldJob, emit: &mut dyn FnMut(DpsgdUpdate)) {
    let PldJob {
        rate,
        sigma,
        steps,
        delta,
        grid,
    } = job;
    emit(DpsgdUpdate::Pld(dpsgd_epsilon_band(
        rate, sigma, steps, delta, grid,
    )));
    for (i, fraction) in CURVE_FRACTIONS.into_iter().enumerate() {
        emit(DpsgdUpdate::Status(format!(
            "PLD accountant: the ε-versus-steps curve, {}/{}…",
            i + 1,
            CURVE_FRACTIONS.len()
        )));
        let t = ((steps as f64) * fraction).ceil().max(1.0) as u64;
        if let Ok(e) = dpsgd_epsilon(rate, sigma, t, delta, grid) {
            emit(DpsgdUpdate::CurvePoint(t as f64, e));
        }
    }
}

/// The DP-SGD lab's σ for the target ε: by RDP, then by the PLD seeded with RDP's σ.
pub fn dpsgd_sigma(p: &DpsgdParams, emit: &mut dyn FnMut(DpsgdUpdate)) {
    let rdp = sigma_for_target(p);
    emit(DpsgdUpdate::SigmaRdp(rdp.clone()));
    let seed = rdp.unwrap_or(p.sigma);
    let found = sigma_search_pld(p, seed).and_then(|mut search| loop {
        if let Some(sigma) = search.step()? {
            break Ok(sigma * p.neighbour.factor());
        }
        emit(DpsgdUpdate::Status(format!(
            "PLD accountant: σ for the target ε, {} evaluations…",
            search.evaluations
        )));
    });
    emit(DpsgdUpdate::SigmaPld(found));
}
