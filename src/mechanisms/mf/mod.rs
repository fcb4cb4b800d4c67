//! Correlated noise for a stream (DP-FTRL and matrix-factorization mechanisms, issue 51): T steps'
//! gradients x released as prefix sums A·x through a factorization A = B·C, the mechanism adding
//! Gaussian noise to C·x and releasing B·(C·x + z). Independent noise (DP-SGD) is C = I; the others
//! correlate the noise over steps so that the prefix sums' error grows slower.
//!
//! What each number rests on:
//! - the error of the released prefix sums, per step, under unit-variance noise: e\[i\] = ‖B\[i, :\]‖²
//!   (exact; [`toeplitz::per_step_error`], [`tree::per_step_error`]);
//! - the sensitivity of C·x when a record's gradient (clipped to norm 1) enters once: C's largest
//!   column norm (exact), or k times at least b steps apart: Kalinin & Lampert (2024, Theorem 2) for
//!   non-negative non-increasing Toeplitz C, exact; an upper bound for the tree ([`tree::sensitivity`]);
//! - the privacy of the unamplified mechanism: the Gaussian mechanism with noise multiplier σ on that
//!   sensitivity (Denisov et al. 2022, Theorem 2.1: releasing B(Cx + z) is post-processing).
//!
//! The noise multiplier σ is, as everywhere, noise std over the clipping norm: z ~ N(0, σ² Δ²) with
//! Δ the strategy's sensitivity, so the released sums' error std at step i is σ·Δ·√e\[i\]. Reference
//! values: jax_privacy 2.0.0 (`tests/refs/mf_jax_privacy.json`, made by `mf_jax_privacy.py`).

pub mod blt;
pub mod optimise;
pub mod toeplitz;
pub mod tree;

#[cfg(test)]
mod tests;

use crate::error::{Error, Result};
use blt::Blt;
use serde::{Deserialize, Serialize};

/// A factorization of the prefix-sum workload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Strategy {
    /// C = I: independent noise each step (DP-SGD).
    Independent,
    /// Binary-tree aggregation, each prefix decoded from its dyadic blocks.
    Tree,
    /// The same tree, each block's sum estimated from its whole subtree (Honaker's estimator).
    HonakerTree,
    /// The optimal Toeplitz square root of A (Fichtenberger, Henzinger & Upadhyay 2023).
    SquareRoot,
    /// The square root's first `bands` coefficients, a banded Toeplitz C (BandMF's Toeplitz form).
    Banded {
        /// Bands (1: independent noise).
        bands: usize,
    },
    /// A buffered linear Toeplitz strategy (Dvijotham et al. 2024).
    Blt(Blt),
}

/// How often a record takes part: at most `k` times (`None`: as often as the separation allows), any
/// two participations at least `b` steps apart (Choquette-Choo et al. 2023's (k, b)-participation).
/// One epoch over the data in order is k = 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Participation {
    /// Most participations of one record.
    pub k: Option<usize>,
    /// Fewest steps between two of them.
    pub b: usize,
}

impl Participation {
    /// One participation.
    pub const ONCE: Participation = Participation { k: Some(1), b: 1 };
}

/// A strategy's numbers over n steps under unit noise multiplier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// Per step, the released prefix sum's error variance in units of σ²: Δ²·e\[i\].
    pub per_step: Vec<f64>,
    /// The sensitivity Δ of C·x under the participation.
    pub sensitivity: f64,
}

impl Evaluation {
    /// The root mean squared error of the released prefix sums, per unit σ: √(mean of Δ²·e\[i\]).
    pub fn rmse(&self) -> f64 {
        (self.per_step.iter().sum::<f64>() / self.per_step.len().max(1) as f64).sqrt()
    }

    /// The largest error std over the steps, per unit σ: √(max of Δ²·e\[i\]).
    pub fn max_error(&self) -> f64 {
        self.per_step.iter().fold(0.0f64, |m, &x| m.max(x)).sqrt()
    }
}

impl Strategy {
    /// Its name, for a sentence.
    pub fn name(&self) -> String {
        match self {
            Strategy::Independent => "independent noise (DP-SGD)".into(),
            Strategy::Tree => "binary tree".into(),
            Strategy::HonakerTree => "binary tree with Honaker's estimator".into(),
            Strategy::SquareRoot => "Toeplitz square root".into(),
            Strategy::Banded { bands } => format!("banded Toeplitz (BandMF, {bands} bands)"),
            Strategy::Blt(b) => format!("BLT ({} buffers)", b.decay.len()),
        }
    }

    /// C's first `n` coefficients, for the Toeplitz strategies (`None` for the tree).
    pub fn coefs(&self, n: usize) -> Option<Vec<f64>> {
        match self {
            Strategy::Independent => Some(vec![1.0]),
            Strategy::Tree | Strategy::HonakerTree => None,
            Strategy::SquareRoot => Some(toeplitz::sqrt_coefs(n)),
            Strategy::Banded { bands } => Some(toeplitz::banded(
                &toeplitz::sqrt_coefs((*bands).min(n)),
                *bands,
            )),
            Strategy::Blt(b) => Some(b.coefs(n)),
        }
    }

    /// C⁻¹'s first `n` coefficients (the square root's and a BLT's in closed form, O(n); a band's
    /// by its recurrence, O(n·b)).
    fn noising(&self, c: &[f64], n: usize) -> Vec<f64> {
        match self {
            // (1 − x)^(1/2): d_k = c_k − c_{k−1}.
            Strategy::SquareRoot => (0..n)
                .map(|k| if k == 0 { 1.0 } else { c[k] - c[k - 1] })
                .collect(),
            Strategy::Blt(b) => b.inverse_coefs(n),
            _ => toeplitz::inverse(c, n),
        }
    }

    /// The strategy's sensitivity over `n` steps under the participation: its largest column norm
    /// for one participation, else the min-sep bound (O(n) on C's coefficients, no error vector).
    ///
    /// # Errors
    /// As [`Strategy::evaluate`].
    pub fn sensitivity(&self, n: usize, p: Participation) -> Result<f64> {
        self.check(n)?;
        match self.coefs(n) {
            None => Ok(tree::sensitivity(n, p.k, p.b)),
            Some(c) => self.toeplitz_sensitivity(&c, n, p),
        }
    }

    /// The strategy's error and sensitivity over `n` steps.
    ///
    /// # Errors
    /// No steps, no bands, or a participation whose sensitivity this module cannot bound (a Toeplitz
    /// C with negative or increasing coefficients under several participations).
    pub fn evaluate(&self, n: usize, p: Participation) -> Result<Evaluation> {
        self.check(n)?;
        let (errors, sensitivity) = match self.coefs(n) {
            None if *self == Strategy::HonakerTree => (
                tree::honaker_per_step_error(n),
                tree::sensitivity(n, p.k, p.b),
            ),
            None => (tree::per_step_error(n), tree::sensitivity(n, p.k, p.b)),
            Some(c) => {
                let s = self.toeplitz_sensitivity(&c, n, p)?;
                let b = toeplitz::decoder(&self.noising(&c, n));
                (toeplitz::per_step_error(&b), s)
            }
        };
        let s2 = sensitivity * sensitivity;
        Ok(Evaluation {
            per_step: errors.into_iter().map(|e| s2 * e).collect(),
            sensitivity,
        })
    }

    /// Steps and bands the strategies evaluate.
    fn check(&self, n: usize) -> Result<()> {
        if n == 0 {
            return Err(Error::invalid("steps", "0", "must be at least 1"));
        }
        if matches!(self, Strategy::Banded { bands: 0 }) {
            return Err(Error::invalid("bands", "0", "must be at least 1"));
        }
        Ok(())
    }

    /// A Toeplitz C's (first column `c`) sensitivity under the participation.
    fn toeplitz_sensitivity(&self, c: &[f64], n: usize, p: Participation) -> Result<f64> {
        let s = if p.k == Some(1) {
            Some(toeplitz::single_sensitivity(c, n))
        } else {
            toeplitz::minsep_sensitivity(c, n, p.k, p.b)
        };
        s.ok_or_else(|| {
            Error::invalid(
                "strategy",
                "blt",
                "has coefficients that are not non-increasing, whose sensitivity under several participations is not bounded here",
            )
        })
    }

    /// Whether amplification by sampling is known for it with `groups` groups of records under
    /// cyclic Poisson sampling (Choquette-Choo et al. 2023, Theorem 4): independent noise, and a
    /// band no wider than the groups. Not the tree, a BLT or the square root.
    pub fn amplification_known(&self, groups: usize) -> bool {
        match self {
            Strategy::Independent => true,
            Strategy::Banded { bands } => *bands <= groups.max(1),
            _ => false,
        }
    }
}
