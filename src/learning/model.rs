//! The models the training lab fits: logistic regression with a bias, and a small multilayer perceptron
//! (one or two hidden layers, tanh or ReLU) ending in the same logistic output. Both give exact
//! per-example gradients of the log-loss f(θ; x, y) = ln(1 + e^z) − y·z, z the model's logit (the
//! lecture's −ln p(y | z, θ)), by backpropagation written out for these shapes (no autodiff crate
//! targets wasm32 without a runtime, and two layers are a few lines).

use crate::error::{Error, Result};
use rand::Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

/// Most hidden units per layer.
pub const MAX_UNITS: usize = 16;

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

/// A model's shape: the input dimension and the hidden layers' widths (none: logistic regression).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Architecture {
    /// Features per row.
    pub dim: usize,
    /// Hidden layers' widths (0–2 layers of 1–[`MAX_UNITS`] units).
    pub hidden: Vec<usize>,
    /// Their activation.
    pub act: Activation,
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
        Architecture {
            dim,
            hidden: Vec::new(),
            act: Activation::Tanh,
        }
    }

    /// Checks the widths.
    ///
    /// # Errors
    /// More than two hidden layers, or a layer of 0 or more than [`MAX_UNITS`] units.
    pub fn validate(&self) -> Result<()> {
        if self.hidden.len() > 2 || self.hidden.iter().any(|&h| h == 0 || h > MAX_UNITS) {
            return Err(Error::invalid(
                "hidden",
                format!("{:?}", self.hidden),
                format!("must be one or two layers of 1 to {MAX_UNITS} units (e.g. 8 or 8,8)"),
            ));
        }
        Ok(())
    }

    /// Each layer's (inputs, outputs), the logistic output last.
    fn layers(&self) -> Vec<(usize, usize)> {
        let mut sizes = vec![self.dim];
        sizes.extend(&self.hidden);
        sizes.push(1);
        sizes.windows(2).map(|w| (w[0], w[1])).collect()
    }

    /// Parameters in all: each layer's weights (outputs × inputs, row-major) then its biases.
    pub fn params(&self) -> usize {
        self.layers().iter().map(|(i, o)| o * (i + 1)).sum()
    }

    /// Which parameters the L2 term λ/2·‖θ‖² penalises: the weights, not the biases (as
    /// scikit-learn's `LogisticRegression`).
    pub fn penalised(&self) -> Vec<bool> {
        let mut mask = Vec::with_capacity(self.params());
        for (i, o) in self.layers() {
            mask.extend(std::iter::repeat_n(true, i * o));
            mask.extend(std::iter::repeat_n(false, o));
        }
        mask
    }

    /// Initial parameters: zeros for logistic regression (its loss is convex); for the MLP, weights
    /// N(0, g/fan_in) with g = 1 for tanh and 2 for ReLU (LeCun and He), biases 0.
    pub fn init<R: Rng + ?Sized>(&self, rng: &mut R) -> Vec<f64> {
        if self.hidden.is_empty() {
            return vec![0.0; self.params()];
        }
        let gain = match self.act {
            Activation::Tanh => 1.0,
            Activation::Relu => 2.0,
        };
        let mut theta = Vec::with_capacity(self.params());
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
        }
    }

    /// The logit z(θ; x).
    pub fn logit(&self, theta: &[f64], x: &[f64], ws: &mut Workspace) -> f64 {
        let mut offset = 0;
        for (l, &h) in self.hidden.iter().enumerate() {
            let (before, after) = ws.post.split_at_mut(l);
            let input: &[f64] = if l == 0 { x } else { &before[l - 1] };
            let n_in = input.len();
            let (w, rest) = theta[offset..].split_at(h * n_in);
            let b = &rest[..h];
            for k in 0..h {
                let z = dot(&w[k * n_in..(k + 1) * n_in], input) + b[k];
                ws.pre[l][k] = z;
                after[0][k] = match self.act {
                    Activation::Tanh => z.tanh(),
                    Activation::Relu => z.max(0.0),
                };
            }
            offset += h * (n_in + 1);
        }
        let input: &[f64] = self
            .hidden
            .last()
            .map_or(x, |_| &ws.post[self.hidden.len() - 1]);
        let n_in = input.len();
        dot(&theta[offset..offset + n_in], input) + theta[offset + n_in]
    }

    /// The log-loss at (x, y), writing its gradient in θ into `grad` (overwritten).
    pub fn gradient(
        &self,
        theta: &[f64],
        x: &[f64],
        y: f64,
        grad: &mut [f64],
        ws: &mut Workspace,
    ) -> f64 {
        let z = self.logit(theta, x, ws);
        let dz = sigmoid(z) - y;
        let layers = self.layers();
        let mut offset: usize = layers.iter().map(|(i, o)| o * (i + 1)).sum();
        // Output layer.
        let (n_in, _) = layers[layers.len() - 1];
        offset -= n_in + 1;
        let input: &[f64] = self
            .hidden
            .last()
            .map_or(x, |_| &ws.post[self.hidden.len() - 1]);
        for (g, a) in grad[offset..offset + n_in].iter_mut().zip(input) {
            *g = dz * a;
        }
        grad[offset + n_in] = dz;
        if let Some(last) = self.hidden.len().checked_sub(1) {
            let w_out = &theta[offset..offset + n_in];
            for ((d, w), pre) in ws.delta[last].iter_mut().zip(w_out).zip(&ws.pre[last]) {
                *d = dz * w * self.derivative(*pre);
            }
        }
        // Hidden layers, last to first.
        for l in (0..self.hidden.len()).rev() {
            let (n_in, h) = layers[l];
            offset -= h * (n_in + 1);
            let input: &[f64] = if l == 0 { x } else { &ws.post[l - 1] };
            for k in 0..h {
                let d = ws.delta[l][k];
                for (g, a) in grad[offset + k * n_in..offset + (k + 1) * n_in]
                    .iter_mut()
                    .zip(input)
                {
                    *g = d * a;
                }
                grad[offset + h * n_in + k] = d;
            }
            if l > 0 {
                let w = &theta[offset..offset + h * n_in];
                let (prev, this) = ws.delta.split_at_mut(l);
                for j in 0..n_in {
                    let back: f64 = (0..h).map(|k| w[k * n_in + j] * this[0][k]).sum();
                    prev[l - 1][j] = back * self.derivative(ws.pre[l - 1][j]);
                }
            }
        }
        log_loss(z, y)
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
    pre: Vec<Vec<f64>>,
    post: Vec<Vec<f64>>,
    delta: Vec<Vec<f64>>,
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
    /// tolerance 1e-6 relative to the gradient's scale), for logistic regression and MLPs of one and
    /// two layers with both activations (ReLU's kinks avoided: inputs are random, so a pre-activation
    /// within 1e-6 of 0 has probability ~1e-6 per unit).
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
        for (hidden, act) in shapes {
            let arch = Architecture {
                dim: 3,
                hidden,
                act,
            };
            let mut ws = arch.workspace();
            for trial in 0..20 {
                let mut theta = arch.init(&mut rng);
                for t in theta.iter_mut() {
                    *t += 0.3 * rng.sample::<f64, _>(StandardNormal);
                }
                let x: Vec<f64> = (0..3).map(|_| rng.sample(StandardNormal)).collect();
                let y = (trial % 2) as f64;
                let mut grad = vec![0.0; arch.params()];
                let loss = arch.gradient(&theta, &x, y, &mut grad, &mut ws);
                let at = |t: &[f64], ws: &mut Workspace| log_loss(arch.logit(t, &x, ws), y);
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
                        "{:?} {act:?} θ[{i}]: {fd} vs {}",
                        arch.hidden,
                        grad[i]
                    );
                }
            }
        }
    }

    #[test]
    fn loss_and_sigmoid_are_stable_far_out() {
        assert_eq!(log_loss(800.0, 1.0), 0.0);
        assert_eq!(log_loss(-800.0, 1.0), 800.0);
        assert!((log_loss(0.0, 0.0) - 2f64.ln()).abs() < 1e-15);
        assert_eq!(sigmoid(-800.0), 0.0);
        assert_eq!(sigmoid(800.0), 1.0);
        let arch = Architecture {
            dim: 2,
            hidden: vec![17],
            act: Activation::Relu,
        };
        assert!(arch.validate().is_err());
        assert_eq!(Architecture::logistic(30).params(), 31);
        assert_eq!(
            Architecture {
                dim: 2,
                hidden: vec![8, 8],
                act: Activation::Tanh
            }
            .params(),
            3 * 8 + 9 * 8 + 9
        );
    }
}
