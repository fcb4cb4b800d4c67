//! Optimising a BLT for a stream (Dvijotham et al. 2024, §5; jax_privacy's
//! `buffered_toeplitz.optimize`): the buffers' decays θ and output scales ω that minimise the loss
//! sensitivity² × (mean or max per-step error) for n steps under a participation.
//!
//! The search is over unconstrained u, v with θ_j = 1/(1 + e^(−u_j)) ∈ (0, 1) and
//! ω_j = e^(v_j)/(1 + Σ e^(v)) (so ω > 0 and Σω < 1: C's coefficients are positive and non-increasing,
//! which the min-sep sensitivity needs, the same region jax_privacy's barriers keep it in). It
//! minimises ln(loss) by BFGS on central-difference gradients with a backtracking line search: 2d
//! parameters (d ≤ 6), each loss O(n·d + n·k), so a gradient is 4d + 1 losses. Written here rather
//! than taken from a crate (argmin) because it is forty lines against a dependency tree in the
//! worker's module; jax_privacy differentiates exactly and uses L-BFGS, and the tests hold the loss
//! reached to its (`tests/refs/mf_jax_privacy.json`) within 1%.
//!
//! Every number of the result is the found BLT's own, evaluated exactly; the optimiser only chooses
//! which BLT, so a poor optimum costs error, never privacy.

use super::blt::Blt;
use super::toeplitz::{decoder, minsep_sensitivity, per_step_error, single_sensitivity};
use super::Participation;
use serde::{Deserialize, Serialize};

/// Which error over the steps the loss takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorMeasure {
    /// The mean per-step error (the RMSE's square).
    Mean,
    /// The largest per-step error (the last step's, for these Toeplitz strategies).
    Max,
}

/// An optimised BLT and its loss.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OptimisedBlt {
    /// The strategy.
    pub blt: Blt,
    /// Its loss: sensitivity² × the measured error, under unit noise multiplier.
    pub loss: f64,
}

/// What the optimiser reports as it goes: buffers being tried, BFGS iterations done, best loss.
pub type Progress<'a> = &'a mut dyn FnMut(usize, usize, f64);

/// Most buffers tried.
pub const MAX_BUFFERS: usize = 6;
/// BFGS iterations per number of buffers.
const ITERATIONS: usize = 400;

/// `blt`'s loss over `n` steps under `p`: sensitivity² × the mean or max of ‖B\[i, :\]‖². `None` where
/// the min-sep sensitivity does not hold (coefficients not non-increasing).
pub fn loss(blt: &Blt, n: usize, p: Participation, measure: ErrorMeasure) -> Option<f64> {
    let c = blt.coefs(n);
    let s = if p.k == Some(1) {
        single_sensitivity(&c, n)
    } else {
        minsep_sensitivity(&c, n, p.k, p.b)?
    };
    let e = per_step_error(&decoder(&blt.inverse_coefs(n)));
    let err = match measure {
        ErrorMeasure::Mean => e.iter().sum::<f64>() / n.max(1) as f64,
        ErrorMeasure::Max => e.last().copied().unwrap_or(0.0),
    };
    Some(s * s * err)
}

/// The best BLT with 1, 2, … buffers, stopping when one more buffer gains less than 1% (as
/// jax_privacy's `optimize`, rtol 1.01) or at [`MAX_BUFFERS`].
pub fn best_blt(
    n: usize,
    p: Participation,
    measure: ErrorMeasure,
    progress: Progress,
) -> OptimisedBlt {
    let mut best = optimise_blt(n, p, measure, 1, progress);
    for d in 2..=MAX_BUFFERS {
        let next = optimise_blt(n, p, measure, d, progress);
        let gain = best.loss / next.loss;
        if next.loss < best.loss {
            best = next;
        }
        if gain.is_nan() || gain <= 1.01 {
            break;
        }
    }
    best
}

/// The BLT with `buffers` buffers that minimises the loss, from a start that spreads the decays
/// log-evenly between 1/2 and 1 − 1/n (the square root's coefficients decay at every scale).
pub fn optimise_blt(
    n: usize,
    p: Participation,
    measure: ErrorMeasure,
    buffers: usize,
    progress: Progress,
) -> OptimisedBlt {
    let d = buffers.max(1);
    let n_f = n.max(2) as f64;
    let mut x = Vec::with_capacity(2 * d);
    for j in 0..d {
        let f = if d == 1 {
            0.5
        } else {
            j as f64 / (d - 1) as f64
        };
        let one_minus = (0.5f64.ln() + f * (1.0 / n_f).ln() - 0.5f64.ln() * f).exp();
        let theta = 1.0 - one_minus;
        x.push((theta / one_minus).ln());
    }
    for j in 0..d {
        // Each buffer's weight ∝ √(1 − θ), summing to 1/2.
        let theta = sigmoid(x[j]);
        x.push(0.5 * (1.0 - theta).ln() - (2.0 * d as f64).ln());
    }
    let f = |x: &[f64]| {
        loss(&from_unconstrained(x), n, p, measure)
            .filter(|l| l.is_finite() && *l > 0.0)
            .map_or(f64::INFINITY, f64::ln)
    };
    let x = bfgs(&f, x, ITERATIONS, &mut |i, fx| progress(d, i, fx.exp()));
    let blt = from_unconstrained(&x);
    let loss = loss(&blt, n, p, measure).unwrap_or(f64::INFINITY);
    OptimisedBlt { blt, loss }
}

fn sigmoid(u: f64) -> f64 {
    1.0 / (1.0 + (-u).exp())
}

/// (u, v) → the BLT: θ = sigmoid(u), ω = e^v/(1 + Σe^v).
fn from_unconstrained(x: &[f64]) -> Blt {
    let d = x.len() / 2;
    let (u, v) = x.split_at(d);
    let top = v.iter().fold(0.0f64, |m, &a| m.max(a));
    // e^v/(1 + Σe^v) with the largest exponent factored out, so no e^v overflows.
    let denom = (-top).exp() + v.iter().map(|a| (a - top).exp()).sum::<f64>();
    Blt {
        decay: u.iter().map(|&a| sigmoid(a)).collect(),
        scale: v.iter().map(|a| (a - top).exp() / denom).collect(),
    }
}

/// BFGS on `f` from `x` with central-difference gradients and an Armijo backtracking line search,
/// calling `each(iteration, f)` after every step; stops when a step no longer lowers f.
fn bfgs(
    f: &dyn Fn(&[f64]) -> f64,
    mut x: Vec<f64>,
    iterations: usize,
    each: &mut dyn FnMut(usize, f64),
) -> Vec<f64> {
    let m = x.len();
    let grad = |x: &[f64]| -> Vec<f64> {
        let mut y = x.to_vec();
        (0..m)
            .map(|i| {
                let h = 1e-6 * x[i].abs().max(1.0);
                y[i] = x[i] + h;
                let up = f(&y);
                y[i] = x[i] - h;
                let down = f(&y);
                y[i] = x[i];
                (up - down) / (2.0 * h)
            })
            .collect()
    };
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>();
    let identity = |m: usize| {
        let mut h = vec![0.0; m * m];
        (0..m).for_each(|i| h[i * m + i] = 1.0);
        h
    };
    let mut fx = f(&x);
    let mut g = grad(&x);
    let mut h = identity(m);
    for it in 0..iterations {
        if !fx.is_finite() || g.iter().any(|v| !v.is_finite()) {
            break;
        }
        let mut dir: Vec<f64> = (0..m).map(|i| -dot(&h[i * m..(i + 1) * m], &g)).collect();
        let mut slope = dot(&g, &dir);
        if slope >= 0.0 {
            h = identity(m);
            dir = g.iter().map(|v| -v).collect();
            slope = -dot(&g, &g);
        }
        let mut t = 1.0;
        let (next, f_next) = loop {
            let y: Vec<f64> = x.iter().zip(&dir).map(|(a, p)| a + t * p).collect();
            let fy = f(&y);
            if fy <= fx + 1e-4 * t * slope {
                break (y, fy);
            }
            t *= 0.5;
            if t < 1e-12 {
                return x;
            }
        };
        let g_next = grad(&next);
        let s: Vec<f64> = next.iter().zip(&x).map(|(a, b)| a - b).collect();
        let yv: Vec<f64> = g_next.iter().zip(&g).map(|(a, b)| a - b).collect();
        let sy = dot(&s, &yv);
        if sy > 1e-16 {
            // H ← (I − ρsyᵀ)H(I − ρysᵀ) + ρssᵀ, ρ = 1/sᵀy.
            let rho = 1.0 / sy;
            let hy: Vec<f64> = (0..m).map(|i| dot(&h[i * m..(i + 1) * m], &yv)).collect();
            let yhy = dot(&yv, &hy);
            for i in 0..m {
                for j in 0..m {
                    h[i * m + j] += -rho * (hy[i] * s[j] + s[i] * hy[j])
                        + (rho * rho * yhy + rho) * s[i] * s[j];
                }
            }
        }
        let gained = fx - f_next;
        x = next;
        fx = f_next;
        g = g_next;
        each(it + 1, fx);
        if gained < 1e-13 {
            break;
        }
    }
    x
}
