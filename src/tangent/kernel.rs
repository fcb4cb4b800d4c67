//! The loss at one point over a run of grid parameters: the inner loop of the tangent lab (10⁹
//! evaluations at 200 × 200 with 10⁴ points). For the Savage and logistic losses, whose cost is
//! e^{−m}, the exponential is factorised over the grid: the margin is linear in w, so
//! e^{−m} = e^{−y·x·w₁}·e^{−y·w₂} (2-D model) or e^{−y·x}·e^{y·w} (threshold), with one factor per
//! grid row and a table per label. That is the same function, rounded differently: each value is
//! within a few ulps of [`Instance::risk_at`]'s (tested), not an approximation. Written by hand because
//! it depends on the lab's grid structure, which no crate knows.

use super::gibbs::Instance;
use super::{Loss, Model, Point};
use std::ops::Range;

/// Largest |exponent| factorised: each factor and their product stay finite and non-zero.
const MAX_EXPONENT: f64 = 300.0;

/// Evaluates r(w, x) (and ∂ₓr) for one point at consecutive parameter points.
#[derive(Debug, Clone)]
pub struct Kernel {
    inst: Instance,
    params: Vec<(f64, f64)>,
    grid: Vec<f64>,
    /// e^{−g} and e^{g} at every grid point (the label's sign picks one).
    exp_minus_g: Vec<f64>,
    exp_plus_g: Vec<f64>,
    /// max |g| over the grid.
    max_g: f64,
    /// Whether the loss's cost is e^{−m} and the grid is small enough to factorise.
    factorised: bool,
}

impl Kernel {
    /// The kernel of `inst` over its parameter points `params` (from [`Instance::params`]).
    pub fn new(inst: &Instance, params: &[(f64, f64)]) -> Self {
        let grid = inst.wgrid.points();
        let max_g = grid.iter().fold(0.0_f64, |a, g| a.max(g.abs()));
        let factorised =
            matches!(inst.loss, Loss::Savage | Loss::Logistic) && max_g <= MAX_EXPONENT;
        Kernel {
            exp_minus_g: grid.iter().map(|g| (-g).exp()).collect(),
            exp_plus_g: grid.iter().map(|g| g.exp()).collect(),
            inst: inst.clone(),
            params: params.to_vec(),
            factorised,
            max_g,
            grid,
        }
    }

    /// r(w_p, x) for p in `range`, into `out` (cleared first).
    pub fn values(&self, x: Point, range: Range<usize>, out: &mut Vec<f64>) {
        out.clear();
        if !self.factors(x, range.clone(), |e, _| out.push(self.value_from(e))) {
            let params = &self.params[range];
            out.extend(params.iter().map(|&w| self.inst.risk_at(w, x)));
        }
    }

    /// (r, ∂ₓr)(w_p, x) for p in `range`, into `r` and `dx` (cleared first).
    pub fn values_and_dx(
        &self,
        x: Point,
        range: Range<usize>,
        r: &mut Vec<f64>,
        dx: &mut Vec<f64>,
    ) {
        r.clear();
        dx.clear();
        let model = self.inst.model;
        let done = self.factors(x, range.clone(), |e, w| {
            let (value, slope) = self.value_and_slope_from(e);
            r.push(value);
            dx.push(slope * model.margin_dx(w, x));
        });
        if !done {
            for &w in &self.params[range] {
                let (a, b) = self.inst.risk_and_dx(w, x);
                r.push(a);
                dx.push(b);
            }
        }
    }

    /// Calls `f(e^{−m}, w)` at every parameter of `range` from the factorised exponentials; false
    /// (calling nothing) when they do not apply to this point.
    fn factors(&self, x: Point, range: Range<usize>, mut f: impl FnMut(f64, (f64, f64))) -> bool {
        if !self.factorised
            || x.y.abs() != 1.0
            || x.x.abs() * self.max_g.max(1.0) > MAX_EXPONENT
            || x.x.is_nan()
        {
            return false;
        }
        // e^{∓g} as the label needs: the factor of the grid coordinate the label multiplies.
        let by_label = |sign_g_negative: bool| {
            if sign_g_negative {
                &self.exp_minus_g
            } else {
                &self.exp_plus_g
            }
        };
        let params = &self.params[range.clone()];
        match self.inst.model {
            // m = y(x − w): e^{−m} = e^{−yx}·e^{yw}.
            Model::Threshold => {
                let a = (-x.y * x.x).exp();
                let table = by_label(x.y < 0.0);
                for (&e, &w) in table[range].iter().zip(params) {
                    f(a * e, w);
                }
            }
            // m = y(w₁x + w₂): e^{−m} = e^{−yxw₁}·e^{−yw₂}; parameters are row-major over the grid.
            Model::Linear2d => {
                let g = self.grid.len();
                let table = by_label(x.y > 0.0);
                let mut row = usize::MAX;
                let mut a = 0.0;
                for (p, &w) in range.zip(params) {
                    if p / g != row {
                        row = p / g;
                        a = (-x.y * x.x * self.grid[row]).exp();
                    }
                    f(a * table[p % g], w);
                }
            }
        }
        true
    }

    /// The loss from e = e^{−m}, 0 < e < ∞.
    fn value_from(&self, e: f64) -> f64 {
        match self.inst.loss {
            Loss::Logistic => e.ln_1p(),
            _ => {
                let s = sigmoid_neg(e);
                s * s
            }
        }
    }

    /// (loss, dr/dm) from e = e^{−m}.
    fn value_and_slope_from(&self, e: f64) -> (f64, f64) {
        let s = sigmoid_neg(e);
        match self.inst.loss {
            Loss::Logistic => (e.ln_1p(), -s),
            _ => (s * s, -2.0 * s * s * (1.0 - s)),
        }
    }
}

/// σ(−m) = e/(1 + e) from e = e^{−m} (finite and non-zero within the factorised range, so one
/// division serves both signs of m).
fn sigmoid_neg(e: f64) -> f64 {
    e / (1.0 + e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tangent::Grid;

    /// Every loss and model, points inside and outside the factorised range: values and slopes within
    /// (4|m| + 16) ulps of the direct evaluation, whose own e^{−m} carries the rounding of m (|m|·ulp);
    /// slopes also within 16 ulps of |∂m/∂x| absolute, as 1 − σ cancels near σ = 1 in both.
    #[test]
    fn factorised_values_are_the_direct_ones() {
        for model in [Model::Threshold, Model::Linear2d] {
            for loss in [
                Loss::Savage,
                Loss::Logistic,
                Loss::Tangent,
                Loss::Hinge,
                Loss::ZeroOne,
            ] {
                for (min, max) in [(-3.0, 3.0), (-40.0, 25.0), (-400.0, 400.0)] {
                    let mut inst = crate::tangent::gibbs::tests::small(model, loss, 2.0);
                    inst.wgrid = Grid {
                        min,
                        max,
                        count: 17,
                    };
                    let params = inst.params();
                    let k = Kernel::new(&inst, &params);
                    let (mut r, mut dx, mut v) = (Vec::new(), Vec::new(), Vec::new());
                    for x in [-250.0, -7.5, -1.0, 0.0, 0.3, 2.0, 12.0, 250.0] {
                        for y in [1.0, -1.0] {
                            let point = Point { x, y };
                            let range = 3..params.len();
                            k.values(point, range.clone(), &mut v);
                            k.values_and_dx(point, range.clone(), &mut r, &mut dx);
                            for (i, p) in range.enumerate() {
                                let (a, b) = inst.risk_and_dx(params[p], point);
                                let m = model.margin(params[p], point).abs();
                                let dm = model.margin_dx(params[p], point).abs();
                                for (got, want, abs) in
                                    [(v[i], a, 0.0), (r[i], a, 0.0), (dx[i], b, dm)]
                                {
                                    let tol = (4.0 * m + 16.0) * f64::EPSILON * want.abs()
                                        + 16.0 * f64::EPSILON * abs
                                        + 1e-300;
                                    assert!(
                                        (got - want).abs() <= tol,
                                        "{model:?} {loss:?} x={x} y={y} w={:?}: {got} vs {want}",
                                        params[p]
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
