//! Training with correlated noise (DP-FTRL and matrix-factorization DP-SGD; Kairouz et al. 2021,
//! Denisov et al. 2022, Choquette-Choo et al. 2023): step t adds w_t = (C⁻¹z)_t instead of a fresh
//! z_t, so that the running sum of the noisy gradients is A·g + B·z with B = A·C⁻¹, the
//! factorization's decoder. What is released is C⁻¹(C·g + z), post-processing of the Gaussian
//! mechanism on C·g, so the run is exactly the mechanism [`crate::mechanisms::mf`] evaluates and
//! [`crate::accounting::correlated::CorrelatedEvent`] accounts for.
//!
//! The noise is generated step by step in O(state) memory, never as a T × T matrix:
//! - a Toeplitz C whose generating function is N(x)/D(x) (a band: N = c, D = 1; a BLT: degree d
//!   each, [`crate::mechanisms::mf::blt::Blt::rational`]) gives w by the recurrence N(L)w = D(L)z, L the lag: the last deg N
//!   noises w and the last deg D draws z, O((b or d)·dim) numbers, carried in the checkpoint so a
//!   resumed run is the same run;
//! - the tree releases each complete dyadic block's noise once: the prefix's noise is the sum over
//!   t's blocks, and w_t is its difference from t − 1's. Each node's draw comes from its own seeded
//!   stream, so the tree needs no state.
//!
//! z has standard deviation Δ₁ (C's largest column norm) times σ·C_clip, so that σ is the noise
//! multiplier of the strategy scaled to column norm 1, as in the accountants.

use super::dpsgd::stream;
use crate::error::{Error, Result};
use crate::mechanisms::mf::{Participation, Strategy};
use rand::Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

/// How a training run's noise is correlated across steps (the training lab's `mech`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mechanism {
    /// Independent noise each step: DP-SGD.
    DpSgd,
    /// Binary-tree aggregation (DP-FTRL), batches in a fixed order, no amplification.
    Tree,
    /// Banded Toeplitz (BandMF) with `bands` bands, cyclic Poisson sampling over `bands` groups.
    BandMf {
        /// Bands b (and groups of records).
        bands: u32,
    },
    /// A BLT optimised for the run's steps and epochs, batches in a fixed order.
    Blt,
}

impl Mechanism {
    /// The link's text: `dpsgd`, `tree`, `bandmf:8`, `blt`.
    pub fn key(self) -> String {
        match self {
            Mechanism::DpSgd => "dpsgd".into(),
            Mechanism::Tree => "tree".into(),
            Mechanism::BandMf { bands } => format!("bandmf:{bands}"),
            Mechanism::Blt => "blt".into(),
        }
    }

    /// Reads the link's text.
    ///
    /// # Errors
    /// Anything but the four mechanisms, or a band count outside 1..=1 000.
    pub fn parse(s: &str) -> Result<Mechanism> {
        let bad = || {
            Error::invalid(
                "mech",
                s,
                "must be dpsgd, tree, bandmf:b (b from 1 to 1000) or blt",
            )
        };
        Ok(match s.trim() {
            "dpsgd" => Mechanism::DpSgd,
            "tree" => Mechanism::Tree,
            "blt" => Mechanism::Blt,
            other => {
                let b = other.strip_prefix("bandmf:").ok_or_else(bad)?;
                let bands: u32 = b.trim().parse().map_err(|_| bad())?;
                if !(1..=1000).contains(&bands) {
                    return Err(bad());
                }
                Mechanism::BandMf { bands }
            }
        })
    }

    /// The batches its guarantee needs, in words.
    pub fn batches(self) -> &'static str {
        match self {
            Mechanism::DpSgd => "Poisson batches",
            Mechanism::BandMf { .. } => {
                "cyclic Poisson batches (records in b groups, taken in turn)"
            }
            Mechanism::Tree | Mechanism::Blt => "batches in a fixed order",
        }
    }

    /// Its name on the page.
    pub fn title(self) -> String {
        match self {
            Mechanism::DpSgd => "DP-SGD (independent noise)".into(),
            Mechanism::Tree => "DP-FTRL, binary tree".into(),
            Mechanism::BandMf { bands } => format!("BandMF, {bands} bands"),
            Mechanism::Blt => "BLT, optimised for the run".into(),
        }
    }
}

/// Stream of a tree node's draw: far above the steps' and the epochs' streams.
const NODE_STREAM: u64 = 1 << 63;

/// The noise of a run with correlated noise, step by step.
#[derive(Debug, Clone, PartialEq)]
pub enum NoiseGen {
    /// A Toeplitz C = N(x)/D(x): w by N(L)w = D(L)z.
    Rational {
        /// N's coefficients (N₀ ≠ 0).
        num: Vec<f64>,
        /// D's coefficients.
        den: Vec<f64>,
        /// Δ₁: z's standard deviation per unit σ·C_clip.
        scale: f64,
    },
    /// The binary tree over `levels` levels.
    Tree {
        /// Δ₁ = √levels.
        scale: f64,
    },
}

impl NoiseGen {
    /// The generator of `strategy` over `steps` steps; `None` for the square root (its C has no finite
    /// recurrence) and Honaker's tree (its estimator needs nodes of the future).
    pub fn new(strategy: &Strategy, steps: usize) -> Option<NoiseGen> {
        let steps = steps.max(1);
        // Δ₁, the largest column norm: the strategy's own single-participation sensitivity.
        let scale = strategy.sensitivity(steps, Participation::ONCE).ok()?;
        let (num, den) = match strategy {
            Strategy::Independent | Strategy::Banded { .. } => (strategy.coefs(steps)?, vec![1.0]),
            Strategy::Blt(b) => b.rational(),
            Strategy::Tree => return Some(NoiseGen::Tree { scale }),
            Strategy::SquareRoot | Strategy::HonakerTree => return None,
        };
        Some(NoiseGen::Rational { num, den, scale })
    }

    /// Numbers of state per coordinate: the last deg N noises and the last deg D draws.
    pub fn state_len(&self, dim: usize) -> usize {
        match self {
            NoiseGen::Rational { num, den, .. } => (num.len() - 1 + den.len() - 1) * dim,
            NoiseGen::Tree { .. } => 0,
        }
    }

    /// Step t's noise (t from 1) per unit σ·C_clip into `out` (`dim` long): z_t drawn from the step's
    /// `rng`, or the tree's nodes from `seed`'s node streams; `state` is [`NoiseGen::state_len`] long.
    pub fn next<R: Rng + ?Sized>(
        &self,
        t: u64,
        seed: u64,
        rng: &mut R,
        state: &mut [f64],
        out: &mut [f64],
    ) {
        match self {
            NoiseGen::Rational { scale, .. } => {
                let z: Vec<f64> = (0..out.len())
                    .map(|_| scale * rng.sample::<f64, _>(StandardNormal))
                    .collect();
                self.advance(&z, state, out);
            }
            NoiseGen::Tree { scale } => {
                out.fill(0.0);
                let mut add = |t: u64, sign: f64| {
                    for_blocks(t, |h, j| {
                        let mut r = stream(seed, NODE_STREAM | (h << 48) | j);
                        for o in out.iter_mut() {
                            *o += sign * scale * r.sample::<f64, _>(StandardNormal);
                        }
                    });
                };
                add(t, 1.0);
                add(t - 1, -1.0);
            }
        }
    }

    /// The recurrence's step: w_t = (Σ_k D_k z_{t−k} − Σ_{k≥1} N_k w_{t−k})/N₀ for one z_t, the state
    /// holding w_{t−1}, …, w_{t−deg N}, then z_{t−1}, …, z_{t−deg D}, each `z.len()` long (zeros
    /// before the first step).
    fn advance(&self, z: &[f64], state: &mut [f64], out: &mut [f64]) {
        let NoiseGen::Rational { num, den, .. } = self else {
            return;
        };
        let dim = z.len();
        let (ws, zs) = state.split_at_mut((num.len() - 1) * dim);
        for i in 0..dim {
            let mut s = den[0] * z[i];
            for k in 1..den.len() {
                s += den[k] * zs[(k - 1) * dim + i];
            }
            for k in 1..num.len() {
                s -= num[k] * ws[(k - 1) * dim + i];
            }
            out[i] = s / num[0];
        }
        // Shift the histories by one step, newest first.
        if !ws.is_empty() {
            ws.copy_within(0..ws.len() - dim, dim);
            ws[..dim].copy_from_slice(out);
        }
        if !zs.is_empty() {
            zs.copy_within(0..zs.len() - dim, dim);
            zs[..dim].copy_from_slice(z);
        }
    }
}

/// Calls `f(h, j)` for each dyadic block (level h, index j) whose sum the prefix of t steps adds.
fn for_blocks(t: u64, mut f: impl FnMut(u64, u64)) {
    let mut start = 0u64;
    for h in (0..64u64).rev().filter(|h| t >> h & 1 == 1) {
        f(h, start >> h);
        start += 1 << h;
    }
}

/// Step t's batch under cyclic Poisson sampling (Choquette-Choo et al. 2023): the rows i with
/// i ≡ t − 1 (mod groups), each with probability `q` (the row order is the split's seeded shuffle,
/// so the groups do not depend on the data).
pub fn cyclic_poisson_batch<R: Rng + ?Sized>(
    t: u64,
    n: usize,
    groups: usize,
    q: f64,
    rng: &mut R,
    out: &mut Vec<usize>,
) {
    out.clear();
    let groups = groups.max(1);
    let g = ((t - 1) % groups as u64) as usize;
    out.extend((g..n).step_by(groups).filter(|_| rng.random::<f64>() < q));
}

/// The strategy a mechanism trains with over `steps` steps under `participation` (a BLT optimised
/// for them, for the mean error).
pub fn strategy(m: Mechanism, steps: u64, participation: Participation) -> Strategy {
    use crate::mechanisms::mf::optimise::{best_blt, ErrorMeasure};
    match m {
        Mechanism::DpSgd => Strategy::Independent,
        Mechanism::Tree => Strategy::Tree,
        Mechanism::BandMf { bands } => Strategy::Banded {
            bands: bands as usize,
        },
        Mechanism::Blt => Strategy::Blt(
            best_blt(
                steps as usize,
                participation,
                ErrorMeasure::Mean,
                &mut |_, _, _| {},
            )
            .blt,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mechanisms::mf::blt::Blt;
    use crate::mechanisms::mf::toeplitz;

    /// A unit impulse at step 1 gives C⁻¹'s first column times Δ₁, for a band and a BLT: the
    /// recurrence is C⁻¹ (whose coefficients the module tests hold to jax_privacy).
    #[test]
    fn the_recurrence_is_c_inverse() {
        let n = 40;
        let blt = Blt {
            decay: vec![0.9, 0.5],
            scale: vec![0.3, 0.1],
        };
        for s in [
            Strategy::Banded { bands: 5 },
            Strategy::Blt(blt),
            Strategy::Independent,
        ] {
            let g = NoiseGen::new(&s, n).unwrap();
            let NoiseGen::Rational { scale, .. } = g else {
                panic!()
            };
            let want = match &s {
                Strategy::Blt(b) => b.inverse_coefs(n),
                _ => toeplitz::inverse(&s.coefs(n).unwrap(), n),
            };
            let mut state = vec![0.0; g.state_len(1)];
            for (t, w) in want.iter().enumerate() {
                let z = [if t == 0 { scale } else { 0.0 }];
                let mut out = [0.0];
                g.advance(&z, &mut state, &mut out);
                assert!((out[0] - scale * w).abs() < 1e-12, "{s:?} t = {t}");
            }
        }
    }

    /// The tree's noises sum, over steps 1..=t, to the sum of t's blocks' node draws.
    #[test]
    fn the_trees_noise_sums_to_the_blocks() {
        let g = NoiseGen::new(&Strategy::Tree, 64).unwrap();
        let mut total = [0.0; 2];
        for t in 1..=64u64 {
            let mut out = [0.0; 2];
            g.next(t, 9, &mut stream(9, 100 + t), &mut [], &mut out);
            total[0] += out[0];
            total[1] += out[1];
            let mut blocks = [0.0; 2];
            for_blocks(t, |h, j| {
                let mut r = stream(9, NODE_STREAM | (h << 48) | j);
                for b in &mut blocks {
                    *b += (7f64).sqrt() * r.sample::<f64, _>(StandardNormal);
                }
            });
            for i in 0..2 {
                assert!((total[i] - blocks[i]).abs() < 1e-9, "t = {t}");
            }
        }
    }

    #[test]
    fn mechanisms_read_and_print_their_links() {
        for m in [
            Mechanism::DpSgd,
            Mechanism::Tree,
            Mechanism::BandMf { bands: 16 },
            Mechanism::Blt,
        ] {
            assert_eq!(Mechanism::parse(&m.key()).unwrap(), m);
        }
        for bad in ["bandmf:0", "bandmf:x", "sqrt", "", "bandmf:1001"] {
            assert!(Mechanism::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn cyclic_poisson_takes_its_groups_rows_only() {
        let mut out = Vec::new();
        let mut rng = stream(1, 1);
        let mut count = 0;
        for t in 1..=400u64 {
            cyclic_poisson_batch(t, 1000, 8, 0.5, &mut rng, &mut out);
            assert!(out.iter().all(|&i| i % 8 == ((t - 1) % 8) as usize));
            count += out.len();
        }
        // 400 steps × 125 rows × ½ = 25 000 expected; sd ≈ 112, so ±1 000 fails with p < 1e-18.
        assert!((count as i64 - 25_000).abs() < 1_000, "{count}");
    }
}
