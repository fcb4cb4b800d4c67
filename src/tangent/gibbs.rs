//! One instance of the lab: data, model, loss, β and the grids; its Gibbs distribution (eq. 3.1).

use super::{Grid, Loss, Model, Point};

/// Everything the Gibbs distribution and its tangent maps depend on.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Instance {
    /// The model.
    pub model: Model,
    /// The loss.
    pub loss: Loss,
    /// The inverse temperature β > 0.
    pub beta: f64,
    /// The data points (p puts mass 1/N on each).
    pub data: Vec<Point>,
    /// The parameter grid (per axis for the 2-D model).
    pub wgrid: Grid,
    /// The feature grid of the candidate set (each feature with both labels).
    pub xgrid: Grid,
}

impl Instance {
    /// The parameter points W, row-major (w₁ outer, w₂ inner) for the 2-D model; (w, 0) for the threshold.
    pub fn params(&self) -> Vec<(f64, f64)> {
        let g = self.wgrid.points();
        match self.model {
            Model::Threshold => g.iter().map(|&w| (w, 0.0)).collect(),
            Model::Linear2d => g
                .iter()
                .flat_map(|&a| g.iter().map(move |&b| (a, b)))
                .collect(),
        }
    }

    /// The candidate set X: the data points, then each grid feature with label +1 and with label −1.
    pub fn candidates(&self) -> Vec<Point> {
        let mut c = self.data.clone();
        for x in self.xgrid.points() {
            c.push(Point { x, y: 1.0 });
            c.push(Point { x, y: -1.0 });
        }
        c
    }

    /// r(w, x).
    pub fn risk_at(&self, w: (f64, f64), p: Point) -> f64 {
        self.loss.value(self.model.margin(w, p))
    }

    /// ∂r/∂x at (w, x).
    pub fn risk_dx(&self, w: (f64, f64), p: Point) -> f64 {
        self.loss.slope(self.model.margin(w, p)) * self.model.margin_dx(w, p)
    }

    /// (r, ∂r/∂x) at (w, x), sharing the margin and the loss's costly part (bit for bit the same as
    /// [`Instance::risk_at`] and [`Instance::risk_dx`]).
    pub fn risk_and_dx(&self, w: (f64, f64), p: Point) -> (f64, f64) {
        let (value, slope) = self.loss.value_and_slope(self.model.margin(w, p));
        (value, slope * self.model.margin_dx(w, p))
    }

    /// The empirical risk Σ_i weights_i · r(w, x_i) at every parameter (weights over the data points).
    pub fn risk(&self, params: &[(f64, f64)], weights: &[f64]) -> Vec<f64> {
        params
            .iter()
            .map(|&w| {
                self.data
                    .iter()
                    .zip(weights)
                    .map(|(&p, &a)| a * self.risk_at(w, p))
                    .sum()
            })
            .collect()
    }

    /// The uniform weights 1/N.
    pub fn uniform(&self) -> Vec<f64> {
        vec![1.0 / self.data.len() as f64; self.data.len()]
    }
}

/// ln q(w) for q ∝ exp(−β·risk(w)), normalised by log-sum-exp (eq. 3.1 of the paper, on the grid).
pub fn log_gibbs(beta: f64, risk: &[f64]) -> Vec<f64> {
    let min = risk.iter().copied().fold(f64::INFINITY, f64::min);
    let shifted: Vec<f64> = risk.iter().map(|r| -beta * (r - min)).collect();
    let log_z = shifted.iter().map(|s| s.exp()).sum::<f64>().ln();
    shifted.iter().map(|s| s - log_z).collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::tangent::mixture;

    pub(crate) fn small(model: Model, loss: Loss, beta: f64) -> Instance {
        Instance {
            model,
            loss,
            beta,
            data: mixture(12, 5),
            wgrid: Grid {
                min: -2.0,
                max: 2.0,
                count: 9,
            },
            xgrid: Grid {
                min: -2.0,
                max: 2.0,
                count: 3,
            },
        }
    }

    #[test]
    fn gibbs_is_a_distribution_and_stable() {
        let inst = small(Model::Linear2d, Loss::Logistic, 50.0);
        let params = inst.params();
        assert_eq!(params.len(), 81);
        assert_eq!(inst.candidates().len(), 12 + 6);
        let lq = log_gibbs(inst.beta, &inst.risk(&params, &inst.uniform()));
        let total: f64 = lq.iter().map(|l| l.exp()).sum();
        assert!((total - 1.0).abs() < 1e-12);
        // β = 1e6 would underflow a naive exp(−βR): the log stays finite and the mass sums to 1.
        let lq = log_gibbs(1e6, &inst.risk(&params, &inst.uniform()));
        assert!(lq.iter().all(|l| l.is_finite()));
        assert!((lq.iter().map(|l| l.exp()).sum::<f64>() - 1.0).abs() < 1e-12);
    }
}
