//! Buffered linear Toeplitz strategies (BLT; Dvijotham, McMahan, Pillutla, Steinke & Thakurta 2024,
//! "Efficient and near-optimal noise generation for streaming differential privacy"): a Toeplitz C
//! with c₀ = 1 and c_i = Σ_j ω_j θ_j^(i−1) for i ≥ 1, whose noise a few buffers generate step by
//! step. Its generating function is rational, C(x) = 1 + Σ_j ω_j x/(1 − θ_j x) = N(x)/D(x), so C⁻¹'s
//! coefficients follow a recurrence of the buffers' order: O(n·d), not O(n²).

use serde::{Deserialize, Serialize};

/// A BLT: the buffers' decays θ_j ∈ (0, 1) and output scales ω_j (jax_privacy's `buf_decay` and
/// `output_scale`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Blt {
    /// θ_j, each buffer's decay per step.
    pub decay: Vec<f64>,
    /// ω_j, each buffer's weight in the output.
    pub scale: Vec<f64>,
}

impl Blt {
    /// C's first `n` coefficients: 1, then Σ_j ω_j θ_j^(i−1).
    pub fn coefs(&self, n: usize) -> Vec<f64> {
        let mut powers = vec![1.0; self.decay.len()];
        (0..n)
            .map(|i| {
                if i == 0 {
                    return 1.0;
                }
                let c = self.scale.iter().zip(&powers).map(|(w, p)| w * p).sum();
                for (p, t) in powers.iter_mut().zip(&self.decay) {
                    *p *= t;
                }
                c
            })
            .collect()
    }

    /// C's generating function as N(x)/D(x): D = ∏(1 − θ_j x) and N = D + x Σ_j ω_j ∏_{i≠j}(1 − θ_i x)
    /// (both of degree d, N₀ = D₀ = 1), lowest coefficient first.
    pub fn rational(&self) -> (Vec<f64>, Vec<f64>) {
        let d = self
            .decay
            .iter()
            .fold(vec![1.0], |p, &t| mul(&p, &[1.0, -t]));
        let mut num = d.clone();
        for (j, &w) in self.scale.iter().enumerate() {
            let others = self
                .decay
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != j)
                .fold(vec![1.0], |p, (_, &t)| mul(&p, &[1.0, -t]));
            for (k, c) in others.iter().enumerate() {
                if num.len() < k + 2 {
                    num.resize(k + 2, 0.0);
                }
                num[k + 1] += w * c;
            }
        }
        (num, d)
    }

    /// C⁻¹'s first `n` coefficients: the series of D(x)/N(x) ([`Blt::rational`]), by its recurrence.
    pub fn inverse_coefs(&self, n: usize) -> Vec<f64> {
        let (num, d) = self.rational();
        let mut y: Vec<f64> = Vec::with_capacity(n);
        for k in 0..n {
            let mut s = d.get(k).copied().unwrap_or(0.0);
            for (j, nj) in num.iter().enumerate().skip(1).take(k) {
                s -= nj * y[k - j];
            }
            y.push(s);
        }
        y
    }

    /// ‖C's first column over n steps‖², in closed form (Dvijotham et al. 2024, Lemma 5.3):
    /// 1 + Σ_{i,j} ω_i ω_j (1 − (θ_iθ_j)^(n−1))/(1 − θ_iθ_j). The single-participation sensitivity².
    pub fn sensitivity_squared(&self, n: usize) -> f64 {
        let mut s = 1.0;
        for (wi, ti) in self.scale.iter().zip(&self.decay) {
            for (wj, tj) in self.scale.iter().zip(&self.decay) {
                let r = ti * tj;
                // (1 − r^(n−1))/(1 − r), written with expm1/ln1p-free powi: r < 1 here.
                s += wi * wj * (1.0 - r.powi(n as i32 - 1)) / (1.0 - r);
            }
        }
        s
    }
}

/// The product of two polynomials (coefficients, lowest first).
fn mul(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}
