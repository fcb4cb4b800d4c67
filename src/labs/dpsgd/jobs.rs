//! The DP-SGD lab's background work: ε by the PLD and its curve, σ for the target ε. Each runs in its
//! own worker and streams its results as they are ready.

use super::{pld_epsilon, sigma_for_target, sigma_search_pld, DpsgdParams};
use crate::accounting::pld::{dpsgd_epsilon, EpsilonBand, DEFAULT_INTERVAL};
use crate::link::query::Query;
use serde::{Deserialize, Serialize};

/// Fractions of T at which the DP-SGD lab draws its PLD ε-against-steps curve.
pub const CURVE_FRACTIONS: [f64; 4] = [0.125, 0.25, 0.5, 0.75];

/// A result of a DP-SGD job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum DpsgdUpdate {
    /// What is being computed.
    Status(String),
    /// ε by the PLD after T steps, from both sides.
    Pld(Result<EpsilonBand, String>),
    /// (steps, certified ε) at a fraction of T.
    CurvePoint(f64, f64),
    /// σ for the target ε by RDP (dp_accounting's orders).
    SigmaRdp(Result<f64, String>),
    /// σ for the target ε by the PLD, as the link gives σ (replace-one doubled back).
    SigmaPld(Result<f64, String>),
}

/// The DP-SGD lab's PLD ε at T steps, then the curve at fractions of T.
pub fn dpsgd_pld(query: &str, emit: &mut dyn FnMut(DpsgdUpdate)) {
    let (p, _) = DpsgdParams::from_query(&Query::parse(query));
    let steps = p.total_steps();
    emit(DpsgdUpdate::Pld(
        pld_epsilon(&p, steps).map_err(|e| e.to_string()),
    ));
    let grid = p.grid.unwrap_or(DEFAULT_INTERVAL);
    for (i, fraction) in CURVE_FRACTIONS.into_iter().enumerate() {
        emit(DpsgdUpdate::Status(format!(
            "PLD accountant: the ε-versus-steps curve, {}/{}…",
            i + 1,
            CURVE_FRACTIONS.len()
        )));
        let t = ((steps as f64) * fraction).ceil().max(1.0) as u64;
        if let Ok(e) = dpsgd_epsilon(p.rate(), p.effective_sigma(), t, p.delta, grid) {
            emit(DpsgdUpdate::CurvePoint(t as f64, e));
        }
    }
}

/// The DP-SGD lab's σ for the target ε: by RDP, then by the PLD seeded with RDP's σ.
pub fn dpsgd_sigma(query: &str, emit: &mut dyn FnMut(DpsgdUpdate)) {
    let (p, _) = DpsgdParams::from_query(&Query::parse(query));
    let rdp = sigma_for_target(&p).map_err(|e| e.to_string());
    emit(DpsgdUpdate::SigmaRdp(rdp.clone()));
    let seed = rdp.unwrap_or(p.sigma);
    let found = sigma_search_pld(&p, seed).and_then(|mut search| loop {
        if let Some(sigma) = search.step()? {
            break Ok(sigma * p.neighbour.factor());
        }
        emit(DpsgdUpdate::Status(format!(
            "PLD accountant: σ for the target ε, {} evaluations…",
            search.evaluations
        )));
    });
    emit(DpsgdUpdate::SigmaPld(found.map_err(|e| e.to_string())));
}
