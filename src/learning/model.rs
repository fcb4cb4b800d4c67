//! The models the training lab fits: logistic regression with a bias, and a multilayer perceptron
//! (one or two hidden layers, tanh or ReLU) ending in the same logistic output; for K > 2 classes
//! (the image data) the output is K logits under a softmax. Both give exact per-example gradients of
//! the log-loss, f(θ; x, y) = ln(1 + e^z) − y·z for two classes (z the model's logit; the lecture's
//! −ln p(y | z, θ)) and the cross-entropy ln Σₖ e^{zₖ} − z_y for K, by backpropagation written out for
//! these shapes (no autodiff crate targets wasm32 without a runtime, and two layers are a few lines).
//! The image lab's CNN puts a convolutional front before the dense layers ([`super::conv`]).

use super::conv::{Front, FrontSpace};
use crate::error::{Error, Result};
use rand::Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

/// Most hidden units per layer in the training lab's own models (its link's `hidden`).
pub const MAX_UNITS: usize = 16;
/// Most hidden units per layer any model may have (Abadi et al.'s MNIST network has 1 000).
pub const MAX_WIDE_UNITS: usize = 4096;
/// Most classes.
pub const MAX_CLASSES: usize = 100;

crate::choice! {
    /// The hidden layers' activation.
    #[derive(Debug, Serialize, Deserialize)]
    pub enum Activation {
        /// tanh.
        Tanh = "tanh" => "tanh",
        /// max(0, x).
        Relu = "relu" => "ReLU",
    }
}

/// A model's shape: the input dimension, the hidden layers' widths (none: logistic regression) and
/// the classes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Architecture {
    /// Features per row.
    pub dim: usize,
    /// Hidden layers' widths (0–2 layers of 1–[`MAX_WIDE_UNITS`] units).
    pub hidden: Vec<usize>,
    /// Their activation.
    pub act: Activation,
    /// Classes, labelled 0..classes: 2 gives one logit under the logistic function, K > 2 gives K
    /// logits under a softmax (multinomial logistic regression without hidden layers).
    pub classes: usize,
    /// Convolution layers before the dense ones, on the features as an image (none: the dense layers
    /// read the features).
    #[serde(default)]
    pub front: Option<Front>,
}

/// The log-loss ln(1 + e^z) − y·z, stable for every z (softplus as max(z, 0) + ln(1 + e^−|z|)).
pub fn log_loss(z: f64, y: f64) -> f64 {
    z.max(0.0) + (-z.abs()).exp().ln_1p() - y * z
}

/// The logistic function 1/(1 + e^−z), without overflow for large |z|.
pub fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

impl Architecture {
    /// Logistic regression on `dim` features.
    pub fn logistic(dim: usize) -> Self {
        Architecture::mlp(dim, Vec::new(), Activation::Tanh)
    }

    /// A two-class model with `hidden` layers of `act` on `dim` features.
    pub fn mlp(dim: usize, hidden: Vec<usize>, act: Activation) -> Self {
        Architecture {
            dim,
            hidden,
            act,
            classes: 2,
            front: None,
        }
    }

    /// The same dense layers after the convolutional `front` (on the `dim` features as its image).
    pub fn with_front(mut self, front: Front) -> Self {
        self.front = Some(front);
        self
    }

    /// Parameters of the convolutional front (first in θ), 0 without one.
    pub(crate) fn front_params(&self) -> usize {
        self.front.as_ref().map_or(0, Front::params)
    }

    /// The same layers ending in `classes` outputs.
    pub fn with_classes(mut self, classes: usize) -> Self {
        self.classes = classes;
        self
    }

    /// Checks the widths and the classes.
    ///
    /// # Errors
    /// More than two hidden layers, a layer of 0 or more than [`MAX_WIDE_UNITS`] units, or fewer than
    /// 2 or more than [`MAX_CLASSES`] classes.
    pub fn validate(&self) -> Result<()> {
        if self.hidden.len() > 2 || self.hidden.iter().any(|&h| h == 0 || h > MAX_WIDE_UNITS) {
            return Err(Error::invalid(
                "hidden",
                format!("{:?}", self.hidden),
                format!("must be one or two layers of 1 to {MAX_WIDE_UNITS} units (e.g. 8 or 8,8)"),
            ));
        }
        if let Some(front) = &self.front {
            if !front.fits() || front.input.len() != self.dim {
                return Err(Error::invalid(
                    "front",
                    format!("{front:?}"),
                    format!("its layers must fit an image of the {} features", self.dim),
                ));
            }
        }
        if !(2..=MAX_CLASSES).contains(&self.classes) {
            return Err(Error::invalid(
                "classes",
                self.classes,
                format!("must be 2 to {MAX_CLASSES}"),
            ));
        }
        Ok(())
    }

    /// Logits the output layer gives: one for two classes, K for K > 2.
    pub fn outputs(&self) -> usize {
        if self.classes > 2 {
            self.classes
        } else {
            1
        }
    }

    /// Each dense layer's (inputs, outputs), the output layer last.
    pub(crate) fn layers(&self) -> Vec<(usize, usize)> {
        let mut sizes = vec![self.front.as_ref().map_or(self.dim, Front::outputs)];
        sizes.extend(&self.hidden);
        sizes.push(self.outputs());
        sizes.windows(2).map(|w| (w[0], w[1])).collect()
    }

    /// Parameters in all: the front's ([`Front::params`]), then each dense layer's weights (outputs ×
    /// inputs, row-major) then its biases.
    pub fn params(&self) -> usize {
        self.front_params()
            + self
                .layers()
                .iter()
                .map(|(i, o)| o * (i + 1))
                .sum::<usize>()
    }

    /// Which parameters the L2 term λ/2·‖θ‖² penalises: the weights, not the biases (as
    /// scikit-learn's `LogisticRegression`).
    pub fn penalised(&self) -> Vec<bool> {
        let mut mask = Vec::with_capacity(self.params());
        if let Some(front) = &self.front {
            mask.extend(front.penalised());
        }
        for (i, o) in self.layers() {
            mask.extend(std::iter::repeat_n(true, i * o));
            mask.extend(std::iter::repeat_n(false, o));
        }
        mask
    }

    /// Initial parameters: zeros for (multinomial) logistic regression (its loss is convex); for the MLP, weights
    /// N(0, g/fan_in) with g = 1 for tanh and 2 for ReLU (LeCun and He), biases 0.
    /// A convolutional front's filters are drawn the same way (fan-in: a filter's weights), first.
    pub fn init<R: Rng + ?Sized>(&self, rng: &mut R) -> Vec<f64> {
        let gain = match self.act {
            Activation::Tanh => 1.0,
            Activation::Relu => 2.0,
        };
        let mut theta = Vec::with_capacity(self.params());
        for (fan, weights, biases) in self.front.as_ref().map_or(Vec::new(), Front::fans) {
            let sd = (gain / fan as f64).sqrt();
            theta.extend((0..weights).map(|_| sd * rng.sample::<f64, _>(StandardNormal)));
            theta.extend(std::iter::repeat_n(0.0, biases));
        }
        if self.hidden.is_empty() {
            theta.resize(self.params(), 0.0);
            return theta;
        }
        for (i, o) in self.layers() {
            let sd = (gain / i as f64).sqrt();
            theta.extend((0..i * o).map(|_| sd * rng.sample::<f64, _>(StandardNormal)));
            theta.extend(std::iter::repeat_n(0.0, o));
        }
        theta
    }

    /// A workspace for [`Architecture::logit`] and [`Architecture::gradient`].
    pub fn workspace(&self) -> Workspace {
        Workspace {
            pre: self.hidden.iter().map(|&h| vec![0.0; h]).collect(),
            post: self.hidden.iter().map(|&h| vec![0.0; h]).collect(),
            delta: self.hidden.iter().map(|&h| vec![0.0; h]).collect(),
            out: vec![0.0; self.outputs()],
            nz: vec![Vec::new(); self.hidden.len() + 1],
            front: self.front.as_ref().map(Front::workspace),
            front_delta: vec![0.0; self.front.as_ref().map_or(0, Front::outputs)],
            scratch: Vec::new(),
        }
    }

    /// The forward pass: the hidden layers' values into `ws`, the output logits into `ws.out`, and
    /// which inputs of each layer are non-zero into `ws.nz`. Each weighted sum runs over the non-zero
    /// inputs only, in order: the same sum, term for term, as over all of them (a zero input adds ±0),
    /// and five times fewer terms on MNIST's pixels.
    /// A convolutional front runs first, on θ's first parameters; the dense layers read its output.
    pub(crate) fn forward(&self, theta: &[f64], x: &[f64], ws: &mut Workspace) {
        match (&self.front, ws.front.take()) {
            (Some(front), Some(mut fs)) => {
                let (tf, td) = theta.split_at(self.front_params());
                front.forward(tf, x, self.act, &mut fs);
                self.dense_forward(td, fs.output(), ws);
                ws.front = Some(fs);
            }
            (_, fs) => {
                ws.front = fs;
                self.dense_forward(theta, x, ws);
            }
        }
    }

    /// The dense layers' forward pass on their input `x`, with their parameters `theta`.
    fn dense_forward(&self, theta: &[f64], x: &[f64], ws: &mut Workspace) {
        let mut offset = 0;
        nonzero(x, &mut ws.nz[0]);
        for (l, &h) in self.hidden.iter().enumerate() {
            let (before, after) = ws.post.split_at_mut(l);
            let input: &[f64] = if l == 0 { x } else { &before[l - 1] };
            let n_in = input.len();
            let (w, rest) = theta[offset..].split_at(h * n_in);
            let b = &rest[..h];
            affine(w, input, &ws.nz[l], b, &mut ws.pre[l]);
            for (z, v) in ws.pre[l].iter().zip(after[0].iter_mut()) {
                *v = match self.act {
                    Activation::Tanh => z.tanh(),
                    Activation::Relu => z.max(0.0),
                };
            }
            nonzero(&after[0], &mut ws.nz[l + 1]);
            offset += h * (n_in + 1);
        }
        let input: &[f64] = self
            .hidden
            .last()
            .map_or(x, |_| &ws.post[self.hidden.len() - 1]);
        let (w, b) = theta[offset..].split_at(ws.out.len() * input.len());
        affine(w, input, &ws.nz[self.hidden.len()], b, &mut ws.out);
    }

    /// The logit z(θ; x) of a two-class model (the first logit of a K-class one).
    pub fn logit(&self, theta: &[f64], x: &[f64], ws: &mut Workspace) -> f64 {
        self.forward(theta, x, ws);
        ws.out[0]
    }

    /// The loss at (x, y) and the class predicted (z ≥ 0 for two classes; the largest logit, the
    /// first of equals, for K).
    pub fn loss_and_class(
        &self,
        theta: &[f64],
        x: &[f64],
        y: f64,
        ws: &mut Workspace,
    ) -> (f64, usize) {
        self.forward(theta, x, ws);
        if self.classes > 2 {
            (cross_entropy(&ws.out, y as usize), argmax(&ws.out))
        } else {
            (log_loss(ws.out[0], y), usize::from(ws.out[0] >= 0.0))
        }
    }

    /// The loss at (x, y), writing its gradient in θ into `grad` (overwritten). y is 0 or 1 for two
    /// classes, the class 0..K for K.
    pub fn gradient(
        &self,
        theta: &[f64],
        x: &[f64],
        y: f64,
        grad: &mut [f64],
        ws: &mut Workspace,
    ) -> f64 {
        self.forward(theta, x, ws);
        let loss = self.output_delta(y, ws);
        self.hidden_deltas(theta, ws);
        let fp = self.front_params();
        let fs = ws.front.take();
        let x0: &[f64] = fs.as_ref().map_or(x, FrontSpace::output);
        // Each dense layer's gradient: δ aᵀ for its weights (a its input), δ for its biases.
        let mut offset = fp;
        for (l, (n_in, n_out)) in self.layers().into_iter().enumerate() {
            let input: &[f64] = if l == 0 { x0 } else { &ws.post[l - 1] };
            let delta = ws.delta_of(l);
            for (k, d) in delta.iter().enumerate() {
                for (g, a) in grad[offset + k * n_in..offset + (k + 1) * n_in]
                    .iter_mut()
                    .zip(input)
                {
                    *g = d * a;
                }
                grad[offset + n_out * n_in + k] = *d;
            }
            offset += n_out * (n_in + 1);
        }
        if let (Some(front), Some(mut fs)) = (&self.front, fs) {
            // The loss's derivatives in the front's output: the first dense layer's wᵀδ.
            let (n_in, n_out) = self.layers()[0];
            let w = &theta[fp..fp + n_out * n_in];
            let mut back = std::mem::take(&mut ws.front_delta);
            let delta = ws.delta_of(0);
            for (j, b) in back.iter_mut().enumerate() {
                *b = back_to_input(w, n_in, delta, j);
            }
            let (tf, _) = theta.split_at(fp);
            front.backward(tf, x, self.act, &back, &mut grad[..fp], &mut fs);
            ws.front = Some(fs);
            ws.front_delta = back;
        }
        loss
    }

    /// After [`Architecture::forward`]: the loss at y, and its derivatives in the logits into
    /// `ws.out` (σ(z) − y for two classes, softmax(z)ₖ − [k = y] for K).
    pub(crate) fn output_delta(&self, y: f64, ws: &mut Workspace) -> f64 {
        if self.classes > 2 {
            let y = y as usize;
            let loss = cross_entropy(&ws.out, y);
            let top = ws.out.iter().fold(f64::NEG_INFINITY, |m, &z| m.max(z));
            let mut total = 0.0;
            for z in ws.out.iter_mut() {
                *z = (*z - top).exp();
                total += *z;
            }
            for (k, z) in ws.out.iter_mut().enumerate() {
                *z = *z / total - f64::from(u8::from(k == y));
            }
            loss
        } else {
            let z = ws.out[0];
            ws.out[0] = sigmoid(z) - y;
            log_loss(z, y)
        }
    }

    /// After [`Architecture::output_delta`]: the loss's derivatives in each hidden layer's
    /// pre-activations into `ws.delta`, last layer first (backpropagation).
    pub(crate) fn hidden_deltas(&self, theta: &[f64], ws: &mut Workspace) {
        let theta = &theta[self.front_params()..];
        let layers = self.layers();
        let mut offset: usize = layers.iter().map(|(i, o)| o * (i + 1)).sum();
        for l in (0..self.hidden.len()).rev() {
            // Layer l + 1 (the output layer when l is the last) feeds back into layer l.
            let (n_in, n_out) = layers[l + 1];
            offset -= n_out * (n_in + 1);
            let w = &theta[offset..offset + n_out * n_in];
            let (mine, after) = ws.delta.split_at_mut(l + 1);
            let next: &[f64] = after.first().map_or(&ws.out, |d| d);
            for (j, (d, pre)) in mine[l].iter_mut().zip(&ws.pre[l]).enumerate() {
                *d = back_to_input(w, n_in, next, j) * self.derivative(*pre);
            }
        }
    }

    fn derivative(&self, pre: f64) -> f64 {
        match self.act {
            Activation::Tanh => {
                let t = pre.tanh();
                1.0 - t * t
            }
            Activation::Relu => {
                if pre > 0.0 {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }
}

/// Buffers for one forward and backward pass (one per thread of work).
#[derive(Debug, Clone)]
pub struct Workspace {
    pub(crate) pre: Vec<Vec<f64>>,
    pub(crate) post: Vec<Vec<f64>>,
    pub(crate) delta: Vec<Vec<f64>>,
    /// The output logits, then the loss's derivatives in them.
    pub(crate) out: Vec<f64>,
    /// Each layer's non-zero inputs (the output layer's last).
    pub(crate) nz: Vec<Vec<usize>>,
    /// A convolutional front's buffers, and the loss's derivatives in its output.
    front: Option<FrontSpace>,
    front_delta: Vec<f64>,
    /// A whole gradient, for a model whose clipped sum forms it ([`Architecture::add_clipped_gradient`]).
    pub(crate) scratch: Vec<f64>,
}

impl Workspace {
    /// Layer l's δ (the loss's derivatives in its pre-activations; the output layer's after the
    /// hidden ones).
    pub(crate) fn delta_of(&self, l: usize) -> &[f64] {
        self.delta.get(l).unwrap_or(&self.out)
    }
}

/// (wᵀδ)ⱼ for a layer's weights `w` (outputs × `n_in`, row-major): the loss's derivative in its
/// input j, summed over the outputs in order.
fn back_to_input(w: &[f64], n_in: usize, delta: &[f64], j: usize) -> f64 {
    delta
        .iter()
        .enumerate()
        .map(|(k, d)| w[k * n_in + j] * d)
        .sum()
}

/// The indices of `a`'s non-zero entries, in order.
fn nonzero(a: &[f64], out: &mut Vec<usize>) {
    out.clear();
    out.extend(
        a.iter()
            .enumerate()
            .filter(|(_, v)| **v != 0.0)
            .map(|(j, _)| j),
    );
}

/// A layer's pre-activations: out[k] = Σⱼ w[k·n + j]·a[j] + b[k] (n = a's length), each sum over the
/// non-zero aⱼ (at `nz`) in order, so the same sum as [`dot`]'s term for term (a zero aⱼ adds ±0; the
/// same start, −0). Four units at a time: their sums are independent, so the processor overlaps them
/// rather than waiting on one chain of additions.
fn affine(w: &[f64], a: &[f64], nz: &[usize], b: &[f64], out: &mut [f64]) {
    let n = a.len();
    let done = out.len() / 4 * 4;
    let mut rows = w.chunks_exact(n);
    let mut outs = out.chunks_exact_mut(4);
    for (k, o) in (&mut outs).enumerate() {
        let r: [&[f64]; 4] = std::array::from_fn(|_| rows.next().unwrap_or_default());
        let mut s = [-0.0f64; 4];
        for &j in nz {
            let x = a[j];
            for (s, r) in s.iter_mut().zip(r) {
                *s += r[j] * x;
            }
        }
        for (i, (o, s)) in o.iter_mut().zip(s).enumerate() {
            *o = s + b[4 * k + i];
        }
    }
    for (k, o) in out.iter_mut().enumerate().skip(done) {
        *o = nz.iter().map(|&j| w[k * n + j] * a[j]).sum::<f64>() + b[k];
    }
}

/// The cross-entropy ln Σₖ e^{zₖ} − z_y, stable for every z (the largest logit taken out first).
pub fn cross_entropy(z: &[f64], y: usize) -> f64 {
    let top = z.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v));
    let total: f64 = z.iter().map(|v| (v - top).exp()).sum();
    top + total.ln() - z.get(y).copied().unwrap_or(f64::NAN)
}

/// The index of the largest value (the first of equals).
pub fn argmax(z: &[f64]) -> usize {
    let mut best = 0;
    for (k, v) in z.iter().enumerate() {
        if *v > z[best] {
            best = k;
        }
    }
    best
}

/// Σ aᵢbᵢ.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Every per-example gradient matches central finite differences of the loss (step 1e-6,
    /// tolerance 1e-6 relative to the gradient's scale), for (multinomial) logistic regression and
    /// MLPs of one and two layers with both activations, with two classes and with four (ReLU's kinks
    /// avoided: inputs are random, so a pre-activation within 1e-6 of 0 has probability ~1e-6 per
    /// unit).
    #[test]
    fn gradients_match_finite_differences() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let shapes: [(Vec<usize>, Activation); 5] = [
            (vec![], Activation::Tanh),
            (vec![5], Activation::Tanh),
            (vec![4, 3], Activation::Tanh),
            (vec![6], Activation::Relu),
            (vec![3, 4], Activation::Relu),
        ];
        for classes in [2, 4] {
            for (hidden, act) in shapes.clone() {
                let arch = Architecture::mlp(3, hidden, act).with_classes(classes);
                let mut ws = arch.workspace();
                for trial in 0..20 {
                    let mut theta = arch.init(&mut rng);
                    for t in theta.iter_mut() {
                        *t += 0.3 * rng.sample::<f64, _>(StandardNormal);
                    }
                    let x: Vec<f64> = (0..3).map(|_| rng.sample(StandardNormal)).collect();
                    let y = (trial % classes) as f64;
                    let mut grad = vec![0.0; arch.params()];
                    let loss = arch.gradient(&theta, &x, y, &mut grad, &mut ws);
                    let at = |t: &[f64], ws: &mut Workspace| arch.loss_and_class(t, &x, y, ws).0;
                    assert!((loss - at(&theta, &mut ws)).abs() < 1e-14);
                    let scale = grad.iter().fold(1e-3f64, |m, g| m.max(g.abs()));
                    for i in 0..theta.len() {
                        let h = 1e-6;
                        let mut plus = theta.clone();
                        plus[i] += h;
                        let mut minus = theta.clone();
                        minus[i] -= h;
                        let fd = (at(&plus, &mut ws) - at(&minus, &mut ws)) / (2.0 * h);
                        assert!(
                            (fd - grad[i]).abs() < 1e-6 * scale,
                            "{classes} classes {:?} {act:?} θ[{i}]: {fd} vs {}",
                            arch.hidden,
                            grad[i]
                        );
                    }
                }
            }
        }
    }

    /// The two-class loss is the log-loss of the logit; the K-class loss is the cross-entropy, which
    /// for K logits (0, z) is the two-class log-loss of z (a closed form), and stays finite far out.
    #[test]
    fn losses_agree_and_predict_the_largest_logit() {
        for z in [-800.0, -3.0, 0.0, 0.5, 40.0, 800.0] {
            for y in [0usize, 1] {
                let two = log_loss(z, y as f64);
                let k = cross_entropy(&[0.0, z], y);
                assert!(
                    (two - k).abs() <= 1e-12 * (1.0 + two.abs()),
                    "{z} {y}: {two} vs {k}"
                );
            }
        }
        assert_eq!(cross_entropy(&[1000.0, -1000.0, 0.0], 0), 0.0);
        assert_eq!(cross_entropy(&[1000.0, -1000.0, 0.0], 1), 2000.0);
        assert_eq!(argmax(&[0.1, 0.7, 0.7, -1.0]), 1);
        let arch = Architecture::logistic(2).with_classes(3);
        let mut ws = arch.workspace();
        // Class k's weights (row k) and biases last: z = (x₀, x₁, 0.3).
        let theta = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.3];
        assert_eq!(arch.loss_and_class(&theta, &[0.1, 0.2], 0.0, &mut ws).1, 2);
        assert_eq!(arch.loss_and_class(&theta, &[0.9, 0.2], 0.0, &mut ws).1, 0);
    }

    #[test]
    fn loss_and_sigmoid_are_stable_far_out() {
        assert_eq!(log_loss(800.0, 1.0), 0.0);
        assert_eq!(log_loss(-800.0, 1.0), 800.0);
        assert!((log_loss(0.0, 0.0) - 2f64.ln()).abs() < 1e-15);
        assert_eq!(sigmoid(-800.0), 0.0);
        assert_eq!(sigmoid(800.0), 1.0);
        assert!(
            Architecture::mlp(2, vec![MAX_WIDE_UNITS + 1], Activation::Relu)
                .validate()
                .is_err()
        );
        assert!(Architecture::mlp(2, vec![1000], Activation::Relu)
            .validate()
            .is_ok());
        assert!(Architecture::logistic(2)
            .with_classes(1)
            .validate()
            .is_err());
        assert_eq!(Architecture::logistic(784).with_classes(10).params(), 7850);
        assert_eq!(Architecture::logistic(30).params(), 31);
        assert_eq!(
            Architecture::mlp(2, vec![8, 8], Activation::Tanh).params(),
            3 * 8 + 9 * 8 + 9
        );
    }
}
