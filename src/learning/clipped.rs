//! A batch's sum of clipped per-example gradients, computed without forming them and kept exactly,
//! so that a batch split over any number of workers sums to the same bits.
//!
//! - **Without forming them.** A dense layer's per-example gradient is δaᵀ for its weights and δ for
//!   its biases (a its input, δ the loss's derivatives in its pre-activations), whose squared norm is
//!   ‖δ‖²(‖a‖² + 1): the norm that clipping needs costs O(inputs + units) per layer, and the clipped
//!   gradient is added straight into the sum, over the non-zero δₖ and aⱼ only (Goodfellow, "Efficient
//!   per-example gradient computations", 2015; Li et al., ICLR 2022, "ghost clipping"). On MNIST's
//!   pixels, a fifth of the inputs and half of the ReLU units are non-zero.
//! - **Exactly.** Each term is truncated toward zero to a multiple of 2⁻ᵇ and summed as an integer
//!   ([`FixedSum`]). Integer sums do not depend on their order, so the batch's sum is the same whatever
//!   the split. Truncating toward zero never grows a term, so each example's contribution still has
//!   norm at most C: the sensitivity the accountant assumes.
//! - **Noise too, split.** The step's Gaussian noise is drawn in blocks of [`NOISE_BLOCK`] coordinates,
//!   each from its own place in the step's stream, and rounded down onto the same grid
//!   ([`FixedSum::add_noise`]): each share adds the noise of its blocks, so that no worker draws all
//!   of it, and the noisy sum is still the same bits on any number of workers.

use super::model::{Architecture, Workspace};
use crate::error::{Error, Result};
use rand::Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Coordinates per block of a step's noise: a share adds whole blocks.
pub const NOISE_BLOCK: usize = 4096;

/// Standard deviations a noise draw is clamped to, and the room (in clipping norms, per unit of σ)
/// that a sum to be noised needs beside its terms. Never reached: the sampler's largest draw is
/// below 14.
pub const NOISE_ROOM: f64 = 64.0;

/// A sum of clipped gradients in fixed point: integers counting units of 2⁻ᵇ, b chosen so that no
/// sum of the batch can overflow.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FixedSum {
    /// b: the sum counts units of 2⁻ᵇ.
    bits: i32,
    values: Vec<i64>,
}

impl FixedSum {
    /// A zero sum of `len` coordinates for at most `terms` terms each at most `bound` in absolute
    /// value (a batch of at most `terms` gradients clipped to `bound`): b is the largest with
    /// terms · bound · 2ᵇ ≤ 2⁶², so every partial sum fits in an i64 with room to spare.
    pub fn new(len: usize, terms: usize, bound: f64) -> Self {
        let top = (terms.max(1) as f64 * bound).log2().ceil();
        let bits = if top.is_finite() {
            (62.0 - top).clamp(-1000.0, 1000.0) as i32
        } else {
            0
        };
        FixedSum {
            bits,
            values: vec![0; len],
        }
    }

    /// Coordinates.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether it has no coordinates.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// 2ᵇ.
    fn scale(&self) -> f64 {
        2f64.powi(self.bits)
    }

    /// Adds `other` (the same shape: another share of the same batch).
    ///
    /// # Errors
    /// A sum of another length or scale.
    pub fn merge(&mut self, other: &FixedSum) -> Result<()> {
        if other.bits != self.bits || other.len() != self.len() {
            return Err(Error::invalid(
                "shares",
                format!("{} × 2^-{}", other.len(), other.bits),
                format!("must be {} × 2^-{}", self.len(), self.bits),
            ));
        }
        for (s, o) in self.values.iter_mut().zip(&other.values) {
            *s += o;
        }
        Ok(())
    }

    /// The sum as bytes: b, then each coordinate (little-endian): a share as another worker reads
    /// it ([`FixedSum::add_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.byte_len());
        self.write_bytes(&mut out);
        out
    }

    /// [`FixedSum::to_bytes`]'s length.
    pub fn byte_len(&self) -> usize {
        4 + 8 * self.values.len()
    }

    /// Appends [`FixedSum::to_bytes`] to `out` (after a message's header, without a second copy).
    pub fn write_bytes(&self, out: &mut Vec<u8>) {
        out.reserve(self.byte_len());
        out.extend_from_slice(&self.bits.to_le_bytes());
        for v in &self.values {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }

    /// A sum from [`FixedSum::to_bytes`].
    ///
    /// # Errors
    /// Bytes of another length.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let (head, body) = bytes.split_at_checked(4).unwrap_or((&[], &[]));
        let (Ok(head), true) = (<[u8; 4]>::try_from(head), body.len() % 8 == 0) else {
            return Err(Error::Wire {
                reason: format!("a sum of {} bytes", bytes.len()),
            });
        };
        Ok(FixedSum {
            bits: i32::from_le_bytes(head),
            values: body
                .chunks_exact(8)
                .map(|c| i64::from_le_bytes(c.try_into().unwrap_or_default()))
                .collect(),
        })
    }

    /// Adds the sum in `share`'s bytes ([`FixedSum::to_bytes`]) to this one, read in place
    /// (integers: in any order, the same sum).
    ///
    /// # Errors
    /// Bytes that are not a sum of the same shape.
    pub fn add_bytes(&mut self, share: &[u8]) -> Result<()> {
        let same = share.len() == self.byte_len() && share[..4] == self.bits.to_le_bytes()[..];
        if !same {
            return Err(Error::Wire {
                reason: format!(
                    "a share of {} bytes, for a sum of {}",
                    share.len(),
                    self.byte_len()
                ),
            });
        }
        for (v, s) in self.values.iter_mut().zip(share[4..].chunks_exact(8)) {
            if let Ok(b) = <[u8; 8]>::try_from(s) {
                *v = v.wrapping_add(i64::from_le_bytes(b));
            }
        }
        Ok(())
    }

    /// Adds Gaussian noise of standard deviation `sd` to the coordinates in `range` (cut to the
    /// sum's length), each draw rounded down to the sum's unit 2⁻ᵇ. The sum S of truncated terms lies
    /// on that grid, so S + ⌊Z⌋ = ⌊S + Z⌋: the noisy sum is a function of the Gaussian mechanism's
    /// S + Z (post-processing), the release the accountant certifies, whichever share added which
    /// coordinates. Draws are clamped to ±[`NOISE_ROOM`] standard deviations, so that a sum made with
    /// room for them ([`FixedSum::new`] with `NOISE_ROOM` · σ more terms) cannot overflow.
    pub fn add_noise<R: Rng + ?Sized>(&mut self, range: Range<usize>, sd: f64, rng: &mut R) {
        if sd == 0.0 {
            return;
        }
        let unit = sd * self.scale();
        let end = range.end.min(self.values.len());
        for v in &mut self.values[range.start.min(end)..end] {
            let z: f64 = rng.sample(StandardNormal);
            *v += (unit * z.clamp(-NOISE_ROOM, NOISE_ROOM)).floor() as i64;
        }
    }

    /// The sum as floating-point numbers into `out` (rounded to nearest).
    pub fn write_to(&self, out: &mut [f64]) {
        let unit = 2f64.powi(-self.bits);
        for (o, v) in out.iter_mut().zip(&self.values) {
            *o = *v as f64 * unit;
        }
    }
}

/// Adds `scale` · δₖ · aⱼ for the non-zero aⱼ (at `nz`) to a layer's weights row by row, and
/// `scale` · δₖ to its biases (at `offset` + outputs · inputs).
fn add_layer(
    sum: &mut FixedSum,
    offset: usize,
    delta: &[f64],
    a: &[f64],
    nz: &[usize],
    scale: f64,
) {
    let n_in = a.len();
    let unit = scale * sum.scale();
    for (k, d) in delta.iter().enumerate() {
        if *d == 0.0 {
            continue;
        }
        let c = unit * d;
        let row = &mut sum.values[offset + k * n_in..offset + (k + 1) * n_in];
        for &j in nz {
            // `as` truncates toward zero (and saturates): a term never grows.
            row[j] += (c * a[j]) as i64;
        }
        sum.values[offset + delta.len() * n_in + k] += c as i64;
    }
}

impl Architecture {
    /// Adds the gradient of the loss at (x, y), clipped to norm `clip` (scaled by min(1, C/‖g‖₂)), to
    /// `sum`; returns whether it was scaled. ‖g‖₂ is Σ over layers of ‖δ‖²(‖a‖² + 1) (module docs).
    /// A model with a convolutional front forms its gradient (its weights share each filter over the
    /// positions, so that identity does not hold) and adds each term the same way.
    pub fn add_clipped_gradient(
        &self,
        theta: &[f64],
        x: &[f64],
        y: f64,
        clip: f64,
        sum: &mut FixedSum,
        ws: &mut Workspace,
    ) -> bool {
        if self.front.is_some() {
            let mut grad = std::mem::take(&mut ws.scratch);
            grad.resize(self.params(), 0.0);
            self.gradient(theta, x, y, &mut grad, ws);
            let norm = grad.iter().map(|g| g * g).sum::<f64>().sqrt();
            let clipped = norm > clip;
            let unit = sum.scale() * if clipped { clip / norm } else { 1.0 };
            for (v, g) in sum.values.iter_mut().zip(grad.iter()) {
                // `as` truncates toward zero (and saturates): a term never grows.
                *v += (unit * g) as i64;
            }
            ws.scratch = grad;
            return clipped;
        }
        self.forward(theta, x, ws);
        self.output_delta(y, ws);
        self.hidden_deltas(theta, ws);
        let layers = self.layers();
        let input = |l: usize| -> &[f64] {
            if l == 0 {
                x
            } else {
                &ws.post[l - 1]
            }
        };
        let squares = |v: &[f64]| v.iter().map(|a| a * a).sum::<f64>();
        let norm = (0..layers.len())
            .map(|l| {
                let a = input(l);
                let a2: f64 = ws.nz[l].iter().map(|&j| a[j] * a[j]).sum();
                squares(ws.delta_of(l)) * (a2 + 1.0)
            })
            .sum::<f64>()
            .sqrt();
        let clipped = norm > clip;
        let scale = if clipped { clip / norm } else { 1.0 };
        let mut offset = 0;
        for (l, (n_in, n_out)) in layers.into_iter().enumerate() {
            add_layer(sum, offset, ws.delta_of(l), input(l), &ws.nz[l], scale);
            offset += n_out * (n_in + 1);
        }
        clipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learning::dpsgd::add_clipped;
    use crate::learning::model::Activation;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use rand_distr::StandardNormal;

    /// The fused sum equals the formed one (each gradient by backpropagation, its norm over every
    /// parameter, `dpsgd::add_clipped`) to within the fixed point's unit per term, for every shape,
    /// with sparse inputs, clipped and not; and any split of the batch, merged in any order, gives
    /// the same bits.
    #[test]
    fn fused_clipped_sums_match_formed_ones_and_any_split_gives_the_same_bits() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let shapes: [(Vec<usize>, Activation); 4] = [
            (vec![], Activation::Tanh),
            (vec![7], Activation::Relu),
            (vec![5, 4], Activation::Tanh),
            (vec![6, 3], Activation::Relu),
        ];
        for classes in [2, 10] {
            for (hidden, act) in shapes.clone() {
                let arch = Architecture::mlp(12, hidden, act).with_classes(classes);
                let mut ws = arch.workspace();
                let theta: Vec<f64> = arch
                    .init(&mut rng)
                    .iter()
                    .map(|t| t + 0.3 * rng.sample::<f64, _>(StandardNormal))
                    .collect();
                let rows: Vec<(Vec<f64>, f64)> = (0..40)
                    .map(|i| {
                        // Half the inputs zero, as pixels are.
                        let x = (0..12)
                            .map(|_| {
                                if rng.random::<bool>() {
                                    0.0
                                } else {
                                    rng.sample(StandardNormal)
                                }
                            })
                            .collect();
                        (x, (i % classes) as f64)
                    })
                    .collect();
                for clip in [0.05, 1e6] {
                    let mut formed = vec![0.0; arch.params()];
                    let mut grad = vec![0.0; arch.params()];
                    let mut whole = FixedSum::new(arch.params(), rows.len(), clip);
                    let mut shares = [
                        FixedSum::new(arch.params(), rows.len(), clip),
                        FixedSum::new(arch.params(), rows.len(), clip),
                    ];
                    for (i, (x, y)) in rows.iter().enumerate() {
                        arch.gradient(&theta, x, *y, &mut grad, &mut ws);
                        let was = add_clipped(&mut formed, &grad, Some(clip));
                        let is =
                            arch.add_clipped_gradient(&theta, x, *y, clip, &mut whole, &mut ws);
                        assert_eq!(was, is);
                        arch.add_clipped_gradient(
                            &theta,
                            x,
                            *y,
                            clip,
                            &mut shares[i % 3 / 2],
                            &mut ws,
                        );
                    }
                    let mut fused = vec![0.0; arch.params()];
                    whole.write_to(&mut fused);
                    let unit = 2f64.powi(-whole.bits) * rows.len() as f64;
                    for (a, b) in fused.iter().zip(&formed) {
                        assert!((a - b).abs() <= 1e-12 * b.abs() + unit, "{a} vs {b}");
                    }
                    let [first, second] = shares;
                    let mut merged = second.clone();
                    merged.merge(&first).unwrap();
                    assert_eq!(merged, whole);
                }
            }
        }
    }

    /// The scale leaves room for a batch of every row at the clipping norm, and sums of other shapes
    /// are refused.
    #[test]
    fn the_scale_cannot_overflow_and_mismatched_shares_are_refused() {
        let s = FixedSum::new(3, 60_000, 4.0);
        assert!(60_000.0 * 4.0 * s.scale() <= 2f64.powi(62));
        assert!(60_000.0 * 4.0 * s.scale() > 2f64.powi(61));
        for (terms, bound) in [(0, 0.0), (1, f64::MIN_POSITIVE), (usize::MAX, f64::MAX)] {
            let s = FixedSum::new(1, terms, bound);
            assert!(s.scale().is_finite() && s.scale() > 0.0);
        }
        let mut a = FixedSum::new(3, 10, 1.0);
        a.values = vec![-5, 0, i64::MAX / 2];
        assert_eq!(FixedSum::from_bytes(&a.to_bytes()).unwrap(), a);
        for cut in [0, 3, 5, 27] {
            assert!(FixedSum::from_bytes(&a.to_bytes()[..cut]).is_err(), "{cut}");
        }
        assert!(a.merge(&FixedSum::new(4, 10, 1.0)).is_err());
        assert!(a.merge(&FixedSum::new(3, 10, 100.0)).is_err());
        // Added as bytes, the same sum as merged.
        let mut b = FixedSum::new(3, 10, 1.0);
        b.values = vec![7, -3, 1];
        let mut added = a.clone();
        added.add_bytes(&b.to_bytes()).unwrap();
        a.merge(&b).unwrap();
        assert_eq!(added, a);
        let mut written = vec![9];
        a.write_bytes(&mut written);
        assert_eq!(written[1..], a.to_bytes()[..]);
        for other in [FixedSum::new(4, 10, 1.0), FixedSum::new(3, 10, 100.0)] {
            assert!(added.add_bytes(&other.to_bytes()).is_err());
        }
        for cut in [0, 3, 27] {
            assert!(added.add_bytes(&b.to_bytes()[..cut]).is_err(), "{cut}");
        }
        assert_eq!(added, a, "a refused share adds nothing");
    }

    /// An exact trainer's noise, drawn in blocks by the shares: the noisy share minus the same share
    /// without noise is N(0, (σC)²) on every coordinate, block by block (9 901 coordinates in three
    /// blocks: each block's mean within 5.9 sd of its mean's spread, its variance's relative error
    /// within 5.9·√(2/m), and consecutive blocks uncorrelated within 5.9/√m, m its size; Bonferroni
    /// over the nine checks: below 10⁻⁶ in all), each coordinate on the grid below the Gaussian's
    /// draw; and shares of any split, merged, are the one share's bits.
    #[test]
    fn shares_add_their_blocks_of_gaussian_noise() {
        use crate::learning::data::Dataset;
        use crate::learning::dpsgd::{Checkpoint, Hyper, Trainer};
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let x: Vec<f64> = (0..200 * 30).map(|_| rng.sample(StandardNormal)).collect();
        let y = (0..200).map(|i| (i % 2) as f64).collect();
        let data = Dataset {
            x,
            y,
            dim: 30,
            names: Vec::new(),
        };
        let arch = Architecture::mlp(30, vec![300], Activation::Relu);
        assert_eq!(arch.params().div_ceil(NOISE_BLOCK), 3);
        let hyper = Hyper {
            q: 0.2,
            sigma: 1.5,
            clip: 0.7,
            lr: 0.1,
            lambda: 0.0,
        };
        let at = Checkpoint::start(&arch, 2);
        let share = |sigma: f64, part: usize, parts: usize| {
            let mut t = Trainer::new(&arch, &data, Hyper { sigma, ..hyper }, 8)
                .unwrap()
                .exact();
            t.share(&at, part, parts).0
        };
        let noisy = share(hyper.sigma, 0, 1);
        let mut clean = vec![0.0; arch.params()];
        let mut with = clean.clone();
        share(0.0, 0, 1).write_to(&mut clean);
        noisy.write_to(&mut with);
        let sd = hyper.sigma * hyper.clip;
        let noise: Vec<f64> = with.iter().zip(&clean).map(|(a, b)| (a - b) / sd).collect();
        let z = 5.9;
        let blocks: Vec<&[f64]> = noise.chunks(NOISE_BLOCK).collect();
        for (k, b) in blocks.iter().enumerate() {
            let m = b.len() as f64;
            let mean = b.iter().sum::<f64>() / m;
            let var = b.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / m;
            assert!(mean.abs() < z / m.sqrt(), "block {k}: mean {mean}");
            assert!(
                (var - 1.0).abs() < z * (2.0 / m).sqrt(),
                "block {k}: var {var}"
            );
        }
        for k in 1..blocks.len() {
            let m = blocks[k].len() as f64;
            let r = blocks[k]
                .iter()
                .zip(blocks[k - 1])
                .map(|(a, b)| a * b)
                .sum::<f64>()
                / m;
            assert!(r.abs() < z / m.sqrt(), "blocks {k} and {}: {r}", k - 1);
        }
        // Two or three shares, merged: the same bits, noise and all.
        for parts in [2, 3] {
            let mut merged = share(hyper.sigma, 0, parts);
            for part in 1..parts {
                merged.merge(&share(hyper.sigma, part, parts)).unwrap();
            }
            assert_eq!(merged, noisy, "{parts} parts");
        }
        // A part past the last adds nothing: no gradient or noise counted twice.
        assert!(share(hyper.sigma, 2, 2).values.iter().all(|&v| v == 0));
    }

    /// Noise rounds down onto the grid: added to a sum on the grid, each draw moves it by ⌊σC·z⌋ units.
    #[test]
    fn noise_rounds_down_onto_the_grid() {
        let mut s = FixedSum::new(NOISE_BLOCK, 10, 1.0);
        s.add_noise(0..usize::MAX, 0.0, &mut ChaCha8Rng::seed_from_u64(1));
        assert!(s.values.iter().all(|&v| v == 0));
        s.add_noise(5..NOISE_BLOCK + 9, 3.0, &mut ChaCha8Rng::seed_from_u64(1));
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for (j, &v) in s.values.iter().enumerate() {
            if j < 5 {
                assert_eq!(v, 0);
            } else {
                let z: f64 = rng.sample(StandardNormal);
                assert_eq!(v, (3.0 * z * s.scale()).floor() as i64);
            }
        }
    }
}
