//! One audit's numbers from its scores, beside the guarantee: what the training lab's Audit section
//! shows. The attack's ROC (TPR at low FPR, AUC), the Clopper–Pearson lower bound and the Gaussian-DP
//! estimate, the score histograms, and the contradiction flag when a lower bound held with confidence
//! exceeds the certified upper bound (an implementation bug, or a confidence level's bad luck).

use crate::accounting::samplers::{Kind, Sampler};
use crate::attacks::audit::Counts;
use crate::attacks::estimators::{best_counts, epsilon_clopper_pearson, gdp_epsilon, gdp_mu};
use crate::attacks::scores::Sweep;
use crate::error::Result;
use crate::numerics::stats::histogram;
use serde::{Deserialize, Serialize};

/// Bins of each score histogram.
pub const HISTOGRAM_BINS: usize = 40;

/// The accountant's statement an audit is set beside: the ε of the mechanism the audit's runs
/// execute, for the sampler they draw their batches by.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AccountantStatement {
    /// The sampler the statement (and the audit's runs) are about.
    pub sampler: Sampler,
    /// What kind of number `eps` is: only a certified upper bound can be contradicted.
    pub kind: Kind,
    /// ε at the audit's δ.
    pub eps: f64,
}

impl AccountantStatement {
    /// A certified upper bound `eps` for Poisson batches (the accountant's PLD bound).
    pub fn poisson(eps: f64) -> Self {
        AccountantStatement {
            sampler: Sampler::Poisson,
            kind: Kind::Upper,
            eps,
        }
    }
}

/// An audit's numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditSummary {
    /// Runs with the canary (and as many without).
    pub runs: u64,
    /// ε lower bound, Clopper–Pearson at the confidence, Bonferroni over the frontier.
    pub eps_cp: f64,
    /// The Gaussian-DP μ the scores support, and its ε at δ (an estimate).
    pub gdp_mu: f64,
    /// See [`AuditSummary::gdp_mu`].
    pub eps_gdp: f64,
    /// The accountant's ε for the same sampler, q, σ, T, δ (what kind of number: `theory_kind`).
    pub eps_theory: f64,
    /// What kind of number `eps_theory` is.
    pub theory_kind: Kind,
    /// The sampler the runs drew their batches by (and `eps_theory` is about).
    pub sampler: Sampler,
    /// The last-iterate heuristic's ε (an adversary who sees the final model only).
    pub eps_last_iterate: f64,
    /// TPR at FPR 0.1% and 1% (on the ROC hull).
    pub tpr_low_fpr: (f64, f64),
    /// Area under the ROC hull.
    pub auc: f64,
    /// The lower bound exceeds the guarantee, a certified upper bound (never claimed against a lower
    /// bound or a value that holds for other neighbours).
    pub contradiction: bool,
    /// The counts at the threshold whose bound is largest (the audit's point on a trade-off chart).
    pub best: Counts,
    /// The ROC hull's points (FPR, TPR).
    pub roc: Vec<(f64, f64)>,
    /// Histogram bin edges (shared by both sides), then the IN and OUT counts.
    pub edges: Vec<f64>,
    /// See [`AuditSummary::edges`].
    pub hist_in: Vec<u64>,
    /// See [`AuditSummary::edges`].
    pub hist_out: Vec<u64>,
}

/// The audit's numbers from the IN and OUT scores at `delta` and confidence `conf`, beside the
/// accountant's statement and the last-iterate ε computed by the caller for the same setting.
///
/// # Errors
/// Empty or NaN scores, `conf` or δ out of range.
pub fn summarise(
    ins: &[f64],
    outs: &[f64],
    delta: f64,
    conf: f64,
    theory: AccountantStatement,
    eps_last_iterate: f64,
) -> Result<AuditSummary> {
    let sweep = Sweep::new(ins, outs)?;
    let alpha = 1.0 - conf;
    let eps_cp = epsilon_clopper_pearson(&sweep, delta, alpha)?;
    let mu = gdp_mu(&sweep, delta, alpha)?;
    let finite = || ins.iter().chain(outs).copied().filter(|s| s.is_finite());
    let lo = finite().fold(f64::INFINITY, f64::min);
    let hi = finite().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo < hi {
        (lo, hi)
    } else {
        (lo - 0.5, lo + 0.5)
    };
    let (edges, hist_in) = histogram(ins, lo, hi, HISTOGRAM_BINS);
    let (_, hist_out) = histogram(outs, lo, hi, HISTOGRAM_BINS);
    Ok(AuditSummary {
        runs: ins.len() as u64,
        eps_cp,
        gdp_mu: mu,
        eps_gdp: gdp_epsilon(mu, delta),
        eps_theory: theory.eps,
        theory_kind: theory.kind,
        sampler: theory.sampler,
        eps_last_iterate,
        tpr_low_fpr: (sweep.tpr_at_fpr(0.001), sweep.tpr_at_fpr(0.01)),
        auc: sweep.auc(),
        contradiction: theory.kind == Kind::Upper && eps_cp > theory.eps,
        best: best_counts(&sweep, delta, alpha),
        roc: sweep.roc(),
        edges,
        hist_in,
        hist_out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separated_scores_prove_much_and_flag_a_small_guarantee() {
        let ins: Vec<f64> = (0..1000).map(|i| 10.0 + i as f64 / 1000.0).collect();
        let outs: Vec<f64> = (0..1000).map(|i| i as f64 / 1000.0).collect();
        let s = summarise(
            &ins,
            &outs,
            1e-5,
            0.95,
            AccountantStatement::poisson(1.0),
            0.5,
        )
        .unwrap();
        assert_eq!(s.auc, 1.0);
        assert_eq!(s.tpr_low_fpr, (1.0, 1.0));
        // A perfect attack with 1,000 runs a side proves about ln 1000 − ln ln(2/α) ≈ 5.6 at most.
        assert!(s.eps_cp > 4.0 && s.eps_cp < 6.0, "{}", s.eps_cp);
        assert!(
            s.contradiction,
            "ε ≥ {} contradicts a guarantee of 1",
            s.eps_cp
        );
        // Beside a lower bound (shuffled batches) or a value for other neighbours, nothing is
        // contradicted.
        for kind in [Kind::Lower, Kind::Exact] {
            let theory = AccountantStatement {
                sampler: Sampler::Shuffle,
                kind,
                eps: 1.0,
            };
            let s = summarise(&ins, &outs, 1e-5, 0.95, theory, 0.5).unwrap();
            assert!(!s.contradiction && s.sampler == Sampler::Shuffle && s.theory_kind == kind);
        }
        assert_eq!(s.hist_in.iter().sum::<u64>(), 1000);
        assert_eq!(s.hist_out.iter().sum::<u64>(), 1000);
        assert_eq!(s.edges.len(), HISTOGRAM_BINS + 1);
    }

    #[test]
    fn identical_scores_prove_nothing() {
        let xs: Vec<f64> = (0..500).map(|i| (i as f64 * 0.37).sin()).collect();
        let s = summarise(&xs, &xs, 1e-5, 0.95, AccountantStatement::poisson(1.0), 0.5).unwrap();
        assert_eq!((s.eps_cp, s.eps_gdp, s.contradiction), (0.0, 0.0, false));
        assert!((s.auc - 0.5).abs() < 1e-12);
        assert!(summarise(&[], &xs, 1e-5, 0.95, AccountantStatement::poisson(1.0), 0.5).is_err());
        assert!(summarise(&xs, &xs, 1e-5, 1.5, AccountantStatement::poisson(1.0), 0.5).is_err());
        // All scores equal: one bin range around them, no panic.
        let same = summarise(
            &[2.0; 10],
            &[2.0; 10],
            1e-5,
            0.95,
            AccountantStatement::poisson(1.0),
            0.5,
        )
        .unwrap();
        assert_eq!(same.hist_in.iter().sum::<u64>(), 10);
    }
}
