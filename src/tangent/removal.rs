//! The experiment the definitions promise: remove points, compute the new Gibbs distribution exactly,
//! and compare the actual change with the tangent maps' first-order prediction and with the bound
//! 2βR·‖p − p̃‖₁ (Theorems 3.1 and 3.2).

use super::gibbs::{log_gibbs, Instance};

/// What removing points does, measured three ways.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Change {
    /// ‖p − p̃‖₁ = 2c/N for c points removed out of N.
    pub dp_norm: f64,
    /// ‖q − q̃‖₁, exact.
    pub actual_tv: f64,
    /// max_w |ln q − ln q̃|, exact.
    pub actual_log: f64,
    /// ‖DA_p (p̃ − p)‖₁, the first-order prediction.
    pub linear_tv: f64,
    /// ‖D(log∘A)_p (p̃ − p)‖_∞.
    pub linear_log: f64,
    /// 2β·R(Thm 3.1)·‖p − p̃‖₁.
    pub bound_tv: f64,
    /// 2β·R(Thm 3.2)·‖p − p̃‖₁.
    pub bound_log: f64,
}

/// The change from empirical risk `full` to `reduced` at β (R's of the two theorems given).
pub fn change(
    beta: f64,
    full: &[f64],
    reduced: &[f64],
    dp_norm: f64,
    r_thm31: f64,
    r_max: f64,
) -> Change {
    let (lq, lr) = (log_gibbs(beta, full), log_gibbs(beta, reduced));
    let q: Vec<f64> = lq.iter().map(|l| l.exp()).collect();
    let actual_tv = lq
        .iter()
        .zip(&lr)
        .map(|(a, b)| (a.exp() - b.exp()).abs())
        .sum();
    let actual_log = lq
        .iter()
        .zip(&lr)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    let delta: Vec<f64> = full.iter().zip(reduced).map(|(a, b)| b - a).collect();
    let mean: f64 = delta.iter().zip(&q).map(|(d, q)| q * d).sum();
    let lin: Vec<f64> = delta.iter().map(|d| -beta * (d - mean)).collect();
    Change {
        dp_norm,
        actual_tv,
        actual_log,
        linear_tv: lin.iter().zip(&q).map(|(l, q)| q * l.abs()).sum(),
        linear_log: lin.iter().map(|l| l.abs()).fold(0.0, f64::max),
        bound_tv: 2.0 * beta * r_thm31 * dp_norm,
        bound_log: 2.0 * beta * r_max * dp_norm,
    }
}

/// Empirical risks after removing, one after another, the points of `order` (indices into the data):
/// entry c − 1 is the risk with the first c removed (at most N − 1 of them).
pub fn risks_after_removals(
    inst: &Instance,
    params: &[(f64, f64)],
    full: &[f64],
    order: &[usize],
) -> Vec<Vec<f64>> {
    let mut removals = Removals::new(params.len());
    order
        .iter()
        .take(inst.data.len().saturating_sub(1))
        .map(|&k| {
            removals.remove(inst, params, k);
            removals.risk(inst, full)
        })
        .collect()
}

/// Points removed so far, one at a time (a page computes one removal per pause).
#[derive(Debug, Clone, PartialEq)]
pub struct Removals {
    /// Σ over the removed points of r(w, x_k), at every parameter.
    removed_sum: Vec<f64>,
    count: usize,
}

impl Removals {
    /// None removed yet, over `params` parameters.
    pub fn new(params: usize) -> Self {
        Removals {
            removed_sum: vec![0.0; params],
            count: 0,
        }
    }

    /// How many points are removed.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Removes data point `k` (one loss evaluation per parameter).
    pub fn remove(&mut self, inst: &Instance, params: &[(f64, f64)], k: usize) {
        for (s, &w) in self.removed_sum.iter_mut().zip(params) {
            *s += inst.risk_at(w, inst.data[k]);
        }
        self.count += 1;
    }

    /// The empirical risk of the points left, from the full one: (N·R − Σ removed)/(N − c).
    pub fn risk(&self, inst: &Instance, full: &[f64]) -> Vec<f64> {
        let n = inst.data.len() as f64;
        let left = n - self.count as f64;
        full.iter()
            .zip(&self.removed_sum)
            .map(|(r, s)| (n * r - s) / left)
            .collect()
    }
}

/// Thm 3.1's R = max over the candidate set of Σ_w q(w) r(w, x) at the distribution `log_q`.
pub fn r_thm31(inst: &Instance, params: &[(f64, f64)], log_q: &[f64]) -> f64 {
    let q: Vec<f64> = log_q.iter().map(|l| l.exp()).collect();
    inst.candidates()
        .iter()
        .map(|&c| {
            params
                .iter()
                .zip(&q)
                .map(|(&w, q)| q * inst.risk_at(w, c))
                .sum::<f64>()
        })
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tangent::norms::norms;
    use crate::tangent::{mixture, Grid, Loss, Model};

    /// Removing one point of many: the first-order prediction is within O(1/N²) of the exact change, and
    /// both stay below the bound; removing more points moves further from the linear prediction.
    #[test]
    fn removal_matches_first_order_and_respects_the_bound() {
        for loss in [Loss::Savage, Loss::Tangent, Loss::ZeroOne] {
            let inst = Instance {
                model: Model::Threshold,
                loss,
                beta: 20.0,
                data: mixture(400, 8),
                wgrid: Grid {
                    min: -3.0,
                    max: 3.0,
                    count: 61,
                },
                xgrid: Grid {
                    min: -3.0,
                    max: 3.0,
                    count: 7,
                },
            };
            let params = inst.params();
            let full = inst.risk(&params, &inst.uniform());
            let lq = log_gibbs(inst.beta, &full);
            let s = norms(&inst, &params, &lq);
            let order: Vec<usize> = (0..40).collect();
            let reduced = risks_after_removals(&inst, &params, &full, &order);
            let n = inst.data.len() as f64;
            for (c, r) in reduced.iter().enumerate() {
                let ch = change(
                    inst.beta,
                    &full,
                    r,
                    2.0 * (c + 1) as f64 / n,
                    s.r_thm31,
                    s.r_max,
                );
                assert!(
                    ch.actual_tv <= ch.bound_tv && ch.linear_tv <= ch.bound_tv,
                    "{loss} c={c}: {ch:?}"
                );
                assert!(
                    ch.actual_log <= ch.bound_log && ch.linear_log <= ch.bound_log,
                    "{loss} c={c}: {ch:?}"
                );
                if c == 0 {
                    assert!(
                        (ch.actual_tv - ch.linear_tv).abs() < 0.05 * ch.linear_tv + 1e-9,
                        "{loss}: {ch:?}"
                    );
                }
            }
            // The direct risk of the reduced data set equals the incremental one.
            let mut direct = inst.clone();
            direct.data.drain(0..3);
            let d = direct.risk(&params, &direct.uniform());
            assert!(d
                .iter()
                .zip(&reduced[2])
                .all(|(a, b)| (a - b).abs() < 1e-12));
            assert!((r_thm31(&inst, &params, &lq) - s.r_thm31).abs() < 1e-12);
        }
    }
}
