//! A convolutional front for the models ([`super::model::Architecture::front`]): convolution layers,
//! each followed by the model's activation and, optionally, a 2 × 2 max-pool of stride 1, feeding the
//! dense layers their flattened output. It is Papernot et al.'s MNIST network (Tempered sigmoid
//! activations for deep learning with differential privacy, AAAI 2021, §4 and Table 5) as Tramèr &
//! Boneh ran it (Differentially private learning needs better features, ICLR 2021, `MNIST_CNN` in
//! their code): 16 filters 8 × 8 of stride 2 and padding 2, pool, 32 filters 4 × 4 of stride 2, pool,
//! a dense layer of 32 and the 10 logits, tanh throughout: 26 010 parameters.
//!
//! Per-example gradients by backpropagation written out (as the dense layers': no autodiff crate
//! targets wasm32 without a runtime); each weight's gradient sums over the output positions in a
//! fixed order, so a seeded run is the same bit for bit wherever it runs. Checked against finite
//! differences in this module's tests.

use super::model::Activation;
use serde::{Deserialize, Serialize};

/// An image's shape: `planes` planes of `side` × `side` values, plane by plane, row by row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shape {
    /// Planes (channels).
    pub planes: usize,
    /// Side of each square plane.
    pub side: usize,
}

impl Shape {
    /// Values in all.
    pub fn len(&self) -> usize {
        self.planes * self.side * self.side
    }

    /// Whether it holds no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One convolution layer: `filters` filters of `kernel` × `kernel` over every input plane, moved by
/// `stride`, over the input padded with `pad` zeros on each side; then the activation; then, with
/// `pool`, the largest of each 2 × 2 window, moved by 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conv {
    /// Output planes.
    pub filters: usize,
    /// Side of each filter.
    pub kernel: usize,
    /// Step between two outputs.
    pub stride: usize,
    /// Zeros added on each side of the input.
    pub pad: usize,
    /// A 2 × 2 max-pool of stride 1 after the activation.
    pub pool: bool,
}

/// A convolutional front: the input image's shape and the layers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Front {
    /// The input's shape (its length is the model's features).
    pub input: Shape,
    /// The layers, first to last.
    pub layers: Vec<Conv>,
}

impl Conv {
    /// The side of the convolution's output on a plane of `side` (before the pool); `None` when the
    /// filter is larger than the padded input or the stride is 0.
    fn conv_side(&self, side: usize) -> Option<usize> {
        let padded = side + 2 * self.pad;
        (self.stride > 0 && self.kernel > 0 && self.kernel <= padded)
            .then(|| (padded - self.kernel) / self.stride + 1)
    }

    /// Weights then biases, on an input of `planes` planes.
    fn params(&self, planes: usize) -> usize {
        self.filters * (planes * self.kernel * self.kernel + 1)
    }
}

impl Front {
    /// Papernot et al.'s MNIST front (module docs) on one 28 × 28 plane.
    pub fn papernot_mnist() -> Self {
        Front {
            input: Shape {
                planes: 1,
                side: 28,
            },
            layers: vec![
                Conv {
                    filters: 16,
                    kernel: 8,
                    stride: 2,
                    pad: 2,
                    pool: true,
                },
                Conv {
                    filters: 32,
                    kernel: 4,
                    stride: 2,
                    pad: 0,
                    pool: true,
                },
            ],
        }
    }

    /// Each layer's input shape and its convolution's output shape (before the pool), and the
    /// front's output shape; `None` when a layer does not fit its input (or has no filter).
    fn shapes(&self) -> Option<(Vec<(Shape, Shape)>, Shape)> {
        let mut at = self.input;
        let mut out = Vec::with_capacity(self.layers.len());
        for c in &self.layers {
            let side = c.conv_side(at.side)?;
            let conv = Shape {
                planes: c.filters,
                side,
            };
            if c.filters == 0 || (c.pool && side < 2) {
                return None;
            }
            out.push((at, conv));
            at = Shape {
                planes: c.filters,
                side: side - usize::from(c.pool),
            };
        }
        Some((out, at))
    }

    /// Whether every layer fits its input.
    pub fn fits(&self) -> bool {
        self.shapes().is_some()
    }

    /// Values it gives the dense layers (0 when it does not fit).
    pub fn outputs(&self) -> usize {
        self.shapes().map_or(0, |(_, out)| out.len())
    }

    /// Its parameters: each layer's weights (filter by filter, plane by plane, row by row), then its
    /// biases.
    pub fn params(&self) -> usize {
        self.shapes().map_or(0, |(shapes, _)| {
            self.layers
                .iter()
                .zip(shapes)
                .map(|(c, (input, _))| c.params(input.planes))
                .sum()
        })
    }

    /// Which of its parameters are weights (true) or biases.
    pub fn penalised(&self) -> Vec<bool> {
        let mut mask = Vec::with_capacity(self.params());
        for (c, (input, _)) in self
            .layers
            .iter()
            .zip(self.shapes().map_or(Vec::new(), |s| s.0))
        {
            mask.extend(std::iter::repeat_n(
                true,
                c.params(input.planes) - c.filters,
            ));
            mask.extend(std::iter::repeat_n(false, c.filters));
        }
        mask
    }

    /// Each layer's fan-in (a filter's weights) and its number of weights and biases, for the
    /// initial parameters.
    pub fn fans(&self) -> Vec<(usize, usize, usize)> {
        self.layers
            .iter()
            .zip(self.shapes().map_or(Vec::new(), |s| s.0))
            .map(|(c, (input, _))| {
                let fan = input.planes * c.kernel * c.kernel;
                (fan, c.filters * fan, c.filters)
            })
            .collect()
    }

    /// Buffers for its passes.
    pub fn workspace(&self) -> FrontSpace {
        let shapes = self.shapes().map_or(Vec::new(), |s| s.0);
        let layer = |conv: Shape, pooled: usize| LayerSpace {
            pre: vec![0.0; conv.len()],
            post: vec![0.0; conv.len()],
            out: vec![0.0; pooled],
            argmax: vec![0; pooled],
            delta: vec![0.0; conv.len()],
        };
        let layers: Vec<LayerSpace> = self
            .layers
            .iter()
            .zip(&shapes)
            .map(|(c, &(_, conv))| {
                let side = conv.side - usize::from(c.pool);
                layer(conv, conv.planes * side * side)
            })
            .collect();
        let back = shapes
            .iter()
            .map(|(input, _)| vec![0.0; input.len()])
            .collect();
        FrontSpace { layers, back }
    }

    /// The forward pass on image `x` with the front's parameters `theta`: each layer's values into
    /// `ws`; the output is [`FrontSpace::output`].
    pub fn forward(&self, theta: &[f64], x: &[f64], act: Activation, ws: &mut FrontSpace) {
        let Some((shapes, _)) = self.shapes() else {
            return;
        };
        let mut offset = 0;
        for (l, (c, (input, conv))) in self.layers.iter().zip(shapes).enumerate() {
            let (before, after) = ws.layers.split_at_mut(l);
            let a: &[f64] = if l == 0 { x } else { &before[l - 1].out };
            let me = &mut after[0];
            let n = c.params(input.planes);
            let (w, b) = theta[offset..offset + n].split_at(n - c.filters);
            convolve(c, input, conv, w, b, a, &mut me.pre);
            for (v, z) in me.post.iter_mut().zip(&me.pre) {
                *v = match act {
                    Activation::Tanh => z.tanh(),
                    Activation::Relu => z.max(0.0),
                };
            }
            if c.pool {
                pool(conv, &me.post, &mut me.out, &mut me.argmax);
            } else {
                me.out.copy_from_slice(&me.post);
            }
            offset += n;
        }
    }

    /// After [`Front::forward`]: the gradient of the loss in the front's parameters into `grad`
    /// (overwritten), given its derivatives in the front's output, `d_out`.
    pub fn backward(
        &self,
        theta: &[f64],
        x: &[f64],
        act: Activation,
        d_out: &[f64],
        grad: &mut [f64],
        ws: &mut FrontSpace,
    ) {
        let Some((shapes, _)) = self.shapes() else {
            return;
        };
        let sizes: Vec<usize> = self
            .layers
            .iter()
            .zip(&shapes)
            .map(|(c, (input, _))| c.params(input.planes))
            .collect();
        let mut end: usize = sizes.iter().sum();
        for l in (0..self.layers.len()).rev() {
            let (c, (input, conv)) = (&self.layers[l], shapes[l]);
            let start = end - sizes[l];
            let (before, after) = ws.layers.split_at_mut(l);
            let me = &mut after[0];
            // The derivatives in this layer's output: the front's, or those the next layer sent back.
            let (back_mine, back_next) = ws.back.split_at_mut(l + 1);
            let given: &[f64] = back_next.first().map_or(d_out, |b| b);
            if c.pool {
                me.delta.fill(0.0);
                for (&i, d) in me.argmax.iter().zip(given) {
                    me.delta[i] += d;
                }
            } else {
                me.delta.copy_from_slice(given);
            }
            for ((d, z), v) in me.delta.iter_mut().zip(&me.pre).zip(&me.post) {
                *d *= match act {
                    Activation::Tanh => 1.0 - v * v,
                    Activation::Relu => f64::from(u8::from(*z > 0.0)),
                };
            }
            let a: &[f64] = if l == 0 { x } else { &before[l - 1].out };
            let (gw, gb) = grad[start..end].split_at_mut(sizes[l] - c.filters);
            let w = &theta[start..end - c.filters];
            let back = (l > 0).then_some(&mut back_mine[l][..]);
            correlate(c, input, conv, &me.delta, a, w, gw, gb, back);
            end = start;
        }
    }
}

/// Buffers for one layer's passes.
#[derive(Debug, Clone)]
struct LayerSpace {
    /// The convolution's values, before and after the activation.
    pre: Vec<f64>,
    post: Vec<f64>,
    /// The layer's output (pooled), and where in `post` each pooled value came from.
    out: Vec<f64>,
    argmax: Vec<usize>,
    /// The loss's derivatives in `pre`.
    delta: Vec<f64>,
}

/// Buffers for a front's passes (one per thread of work).
#[derive(Debug, Clone)]
pub struct FrontSpace {
    layers: Vec<LayerSpace>,
    /// The loss's derivatives in each layer's input (the first layer's is never needed).
    back: Vec<Vec<f64>>,
}

impl FrontSpace {
    /// The front's output after [`Front::forward`] (empty without layers).
    pub fn output(&self) -> &[f64] {
        self.layers.last().map_or(&[], |l| &l.out)
    }
}

/// The rows (or columns) of a `kernel`-wide filter that fall inside an input of `side` when its
/// output position is `o`: the filter's range, and the input's first row for it.
fn taps(o: usize, c: &Conv, side: usize) -> (std::ops::Range<usize>, usize) {
    let origin = o * c.stride; // in padded coordinates
    let first = c.pad.saturating_sub(origin);
    let last = (side + c.pad).saturating_sub(origin).min(c.kernel);
    (first..last.max(first), origin + first - c.pad)
}

/// out[f, oy, ox] = b[f] + Σ_{c, ky, kx} w[f, c, ky, kx] · a[c, oy·s + ky − p, ox·s + kx − p], the
/// taps outside the input skipped (zero padding), summed in that order.
fn convolve(c: &Conv, input: Shape, conv: Shape, w: &[f64], b: &[f64], a: &[f64], out: &mut [f64]) {
    let (k, side, n) = (c.kernel, input.side, input.side * input.side);
    let per_filter = input.planes * k * k;
    for f in 0..c.filters {
        let wf = &w[f * per_filter..(f + 1) * per_filter];
        for oy in 0..conv.side {
            let (ky, iy) = taps(oy, c, side);
            for ox in 0..conv.side {
                let (kx, ix) = taps(ox, c, side);
                let mut s = b[f];
                for p in 0..input.planes {
                    for (dy, ky) in ky.clone().enumerate() {
                        let row = &a[p * n + (iy + dy) * side + ix..][..kx.len()];
                        let wrow = &wf[(p * k + ky) * k + kx.start..][..kx.len()];
                        for (wv, av) in wrow.iter().zip(row) {
                            s += wv * av;
                        }
                    }
                }
                out[(f * conv.side + oy) * conv.side + ox] = s;
            }
        }
    }
}

/// The largest of each 2 × 2 window of `post` (moved by 1) into `out`, and where it came from (the
/// first of equals, row by row).
fn pool(conv: Shape, post: &[f64], out: &mut [f64], argmax: &mut [usize]) {
    let (side, o) = (conv.side, conv.side - 1);
    for p in 0..conv.planes {
        for y in 0..o {
            for x in 0..o {
                let at = |dy: usize, dx: usize| (p * side + y + dy) * side + x + dx;
                let mut best = at(0, 0);
                for i in [at(0, 1), at(1, 0), at(1, 1)] {
                    if post[i] > post[best] {
                        best = i;
                    }
                }
                out[(p * o + y) * o + x] = post[best];
                argmax[(p * o + y) * o + x] = best;
            }
        }
    }
}

/// The backward pass of [`convolve`] given δ (the loss's derivatives in its output): the weights'
/// gradient δ ⋆ a into `gw`, the biases' Σ δ into `gb` (both overwritten), and, when asked, the
/// input's derivatives wᵀ δ into `back` (overwritten); every sum over the output positions in order.
#[allow(clippy::too_many_arguments)]
fn correlate(
    c: &Conv,
    input: Shape,
    conv: Shape,
    delta: &[f64],
    a: &[f64],
    w: &[f64],
    gw: &mut [f64],
    gb: &mut [f64],
    mut back: Option<&mut [f64]>,
) {
    let (k, side, n) = (c.kernel, input.side, input.side * input.side);
    let per_filter = input.planes * k * k;
    gw.fill(0.0);
    if let Some(back) = back.as_deref_mut() {
        back.fill(0.0);
    }
    for f in 0..c.filters {
        let (gf, wf) = (
            &mut gw[f * per_filter..(f + 1) * per_filter],
            &w[f * per_filter..(f + 1) * per_filter],
        );
        let mut bias = 0.0;
        for oy in 0..conv.side {
            let (ky, iy) = taps(oy, c, side);
            for ox in 0..conv.side {
                let d = delta[(f * conv.side + oy) * conv.side + ox];
                bias += d;
                if d == 0.0 {
                    continue;
                }
                let (kx, ix) = taps(ox, c, side);
                for p in 0..input.planes {
                    for (dy, ky) in ky.clone().enumerate() {
                        let at = p * n + (iy + dy) * side + ix;
                        let wat = (p * k + ky) * k + kx.start;
                        let row = &a[at..at + kx.len()];
                        for (g, av) in gf[wat..wat + kx.len()].iter_mut().zip(row) {
                            *g += d * av;
                        }
                        if let Some(back) = back.as_deref_mut() {
                            let wrow = &wf[wat..wat + kx.len()];
                            for (bv, wv) in back[at..at + kx.len()].iter_mut().zip(wrow) {
                                *bv += d * wv;
                            }
                        }
                    }
                }
            }
        }
        gb[f] = bias;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learning::clipped::FixedSum;
    use crate::learning::model::Architecture;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use rand_distr::StandardNormal;

    /// Two small layers (padding, stride 2, pool; then no padding, no pool) on two planes of 7 × 7.
    fn small() -> Front {
        Front {
            input: Shape { planes: 2, side: 7 },
            layers: vec![
                Conv {
                    filters: 3,
                    kernel: 3,
                    stride: 2,
                    pad: 1,
                    pool: true,
                },
                Conv {
                    filters: 2,
                    kernel: 2,
                    stride: 1,
                    pad: 0,
                    pool: false,
                },
            ],
        }
    }

    /// Papernot et al.'s network has their 26 010 parameters (Tramèr & Boneh's count too) and gives
    /// the dense layers 4 × 4 × 32 values; a front that does not fit its image is refused.
    #[test]
    fn papernot_front_has_the_published_size() {
        let f = Front::papernot_mnist();
        assert_eq!(f.outputs(), 512);
        let arch = Architecture::mlp(784, vec![32], Activation::Tanh)
            .with_classes(10)
            .with_front(f.clone());
        assert_eq!(arch.params(), 26_010);
        assert!(arch.validate().is_ok());
        assert_eq!(
            arch.penalised().iter().filter(|w| !**w).count(),
            16 + 32 + 32 + 10
        );
        let wrong = Architecture {
            dim: 783,
            ..arch.clone()
        };
        assert!(wrong.validate().is_err());
        let mut big = f;
        big.layers[1].kernel = 40;
        assert!(!big.fits() && arch.clone().with_front(big).validate().is_err());
    }

    /// Every parameter's gradient (filters, biases, dense layers) matches central finite differences,
    /// for tanh and ReLU, two and three classes.
    #[test]
    fn gradients_match_finite_differences() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for act in [Activation::Tanh, Activation::Relu] {
            for classes in [2, 3] {
                let arch = Architecture::mlp(98, vec![4], act)
                    .with_classes(classes)
                    .with_front(small());
                let mut ws = arch.workspace();
                for trial in 0..4 {
                    let mut theta = arch.init(&mut rng);
                    for t in theta.iter_mut() {
                        *t += 0.2 * rng.sample::<f64, _>(StandardNormal);
                    }
                    let x: Vec<f64> = (0..98).map(|_| rng.sample(StandardNormal)).collect();
                    let y = (trial % classes) as f64;
                    let mut grad = vec![0.0; arch.params()];
                    let loss = arch.gradient(&theta, &x, y, &mut grad, &mut ws);
                    let at = |t: &[f64], ws: &mut _| arch.loss_and_class(t, &x, y, ws).0;
                    assert!((loss - at(&theta, &mut ws)).abs() < 1e-14);
                    let scale = grad.iter().fold(1e-3f64, |m, g| m.max(g.abs()));
                    for i in 0..theta.len() {
                        let h = 1e-6;
                        let (mut plus, mut minus) = (theta.clone(), theta.clone());
                        plus[i] += h;
                        minus[i] -= h;
                        let fd = (at(&plus, &mut ws) - at(&minus, &mut ws)) / (2.0 * h);
                        assert!(
                            (fd - grad[i]).abs() < 1e-6 * scale,
                            "{act:?} {classes} classes θ[{i}]: {fd} vs {}",
                            grad[i]
                        );
                    }
                }
            }
        }
    }

    /// The clipped sum of a model with a front is each gradient scaled by min(1, C/‖g‖₂), every term
    /// truncated onto the sum's grid.
    #[test]
    fn clipped_sums_scale_each_whole_gradient() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let arch = Architecture::mlp(98, vec![4], Activation::Tanh)
            .with_classes(3)
            .with_front(small());
        let theta = arch.init(&mut rng);
        let mut ws = arch.workspace();
        for clip in [1e-3, 1e3] {
            let x: Vec<f64> = (0..98).map(|_| rng.sample(StandardNormal)).collect();
            let mut sum = FixedSum::new(arch.params(), 1, clip);
            let scaled = arch.add_clipped_gradient(&theta, &x, 1.0, clip, &mut sum, &mut ws);
            let mut g = vec![0.0; arch.params()];
            arch.gradient(&theta, &x, 1.0, &mut g, &mut ws);
            let norm = g.iter().map(|v| v * v).sum::<f64>().sqrt();
            assert_eq!(scaled, norm > clip);
            // FixedSum::new's scale for one term of at most `clip`: 2ᵇ, b = 62 − ⌈log₂ C⌉.
            let scale = 2f64.powi(62 - clip.log2().ceil() as i32);
            let unit = scale * (clip / norm).min(1.0);
            let want: Vec<f64> = g.iter().map(|v| (unit * v) as i64 as f64 / scale).collect();
            let mut got = vec![0.0; arch.params()];
            sum.write_to(&mut got);
            assert_eq!(got, want);
        }
    }
}
