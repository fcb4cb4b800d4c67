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

use super::model::{Architecture, Workspace};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

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

    /// The sum as bytes: b, then each coordinate (little-endian), so that a page passing sums
    /// between workers adds them without a serialiser.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 + 8 * self.values.len());
        out.extend_from_slice(&self.bits.to_le_bytes());
        for v in &self.values {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
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
    pub fn add_clipped_gradient(
        &self,
        theta: &[f64],
        x: &[f64],
        y: f64,
        clip: f64,
        sum: &mut FixedSum,
        ws: &mut Workspace,
    ) -> bool {
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
    }
}
