//! Trade-off curves β(α) of the tests telling a pair apart (f-DP, Dong, Roth & Su, JRSS-B 2022), read off
//! a composition's discrete PLD.
//!
//! An attacker tells "the record was in" (P, the mechanism on D ∪ {x}) from "it was not" (Q): at
//! false-positive rate α its false-negative rate is at least β(α), the trade-off curve. From a discrete
//! PLD with atoms (ℓ_i, p_i), its Neyman–Pearson tests reject "out" for losses above a threshold: the
//! curve is piecewise linear through (Σ_{ℓ_i ≥ ℓ} p_i e^{−ℓ_i}, 1 − p_∞ − Σ_{ℓ_i ≥ ℓ} p_i). The upper
//! (dominating) PLD gives a curve below the true one: a certified lower bound on the attacker's error.
//! Both directions of the pair count (f-DP asks f ≤ T(P, Q) and f ≤ T(Q, P)), so the curve is the
//! smaller of the two directions' curves.
//!
//! This is accounting (a privacy guarantee in f-DP form), so it lives here, and the attacks folder
//! reads it: the dependency runs one way, attacks → accounting.

use crate::accounting::pld::Pld;

/// A trade-off curve from one discrete PLD: the Neyman–Pearson vertices (α, β), α increasing.
#[derive(Debug, Clone, PartialEq)]
pub struct TradeOff {
    vertices: Vec<(f64, f64)>,
}

impl TradeOff {
    /// The curve of the pair whose PLD (under P) is `pld`.
    pub fn from_pld(pld: &Pld) -> TradeOff {
        let mut vertices = Vec::with_capacity(pld.len() + 2);
        // Rejecting only at +∞ loss: α = 0, β = 1 − p_∞.
        let (mut a, mut b) = (0.0, 1.0 - pld.infinity_mass());
        vertices.push((a, b.max(0.0)));
        for (loss, p) in pld.atoms().rev() {
            if p <= 0.0 {
                continue;
            }
            a += p * (-loss).exp();
            b -= p;
            vertices.push((a.min(1.0), b.max(0.0)));
            if a >= 1.0 {
                break;
            }
        }
        // Rejecting always: α = 1, β = 0.
        vertices.push((1.0, 0.0));
        TradeOff { vertices }
    }

    /// The Neyman–Pearson vertices (α, β), α non-decreasing, from (0, 1 − p_∞) to (1, 0).
    pub fn vertices(&self) -> &[(f64, f64)] {
        &self.vertices
    }

    /// β at α ∈ [0, 1], by linear interpolation between the vertices (randomized tests).
    pub fn beta(&self, alpha: f64) -> f64 {
        let alpha = alpha.clamp(0.0, 1.0);
        let k = self.vertices.partition_point(|v| v.0 < alpha);
        if k == 0 {
            return self.vertices[0].1;
        }
        let (a0, b0) = self.vertices[k - 1];
        let Some(&(a1, b1)) = self.vertices.get(k) else {
            return 0.0;
        };
        if a1 <= a0 {
            return b0.min(b1);
        }
        (b0 + (b1 - b0) * (alpha - a0) / (a1 - a0)).clamp(0.0, 1.0)
    }
}

/// β(α) of a pair known by both directions' PLDs: the smaller of the two curves, each mirrored as the
/// test of the other hypothesis needs (T(Q, P) is the inverse function of T(P, Q)).
pub fn beta_both(directions: &[TradeOff], alpha: f64) -> f64 {
    let mut beta = f64::INFINITY;
    for t in directions {
        let b = t.beta(alpha);
        // A curve that is not a number: no bound (β = 0), never "no attack works".
        if b.is_nan() {
            return 0.0;
        }
        beta = beta.min(b).min(inverse(t, alpha));
    }
    // No curve: no bound either.
    if beta.is_finite() {
        beta
    } else {
        0.0
    }
}

/// A pair two add/remove steps apart (replace-one: removing a record, then adding another), bounded
/// through the data set between them from the add/remove pair's curves.
///
/// # Formula
/// With f = [`beta_both`] of the add/remove pair (non-increasing, below T(P, Q) and T(Q, R) whichever
/// way round), a test of P against R with FPR α has FPR at most 1 − f(α) against Q, hence
/// T(P, R)(α) ≥ f(1 − f(α)) (Dong, Roth & Su 2022, the proof of Theorem 2.14, group privacy, k = 2;
/// for G_μ it gives G_{2μ} exactly).
#[derive(Debug, Clone, PartialEq)]
pub struct TwoSteps {
    directions: Vec<TradeOff>,
}

impl TwoSteps {
    /// The add/remove pair's curves (upper PLDs: certified).
    pub fn new(directions: Vec<TradeOff>) -> TwoSteps {
        TwoSteps { directions }
    }

    /// The certified β at α: f(1 − f(α)). Rounded as [`beta_both`] is (never above the true bound).
    pub fn beta(&self, alpha: f64) -> f64 {
        let f = |a: f64| beta_both(&self.directions, a);
        // 1 − f(α) rounded up (the outer f never increases), at most 1.
        f((1.0 - f(alpha) + f64::EPSILON).min(1.0))
    }

    /// Upper bounds on δ(ε) = sup_α 1 − β(α) − e^ε α for each ε (ε = 0: the largest advantage
    /// TPR − FPR), from β on a grid a_0 = 0 < … < a_n = 1: on [a_i, a_{i+1}], β non-increasing gives
    /// 1 − β(α) − e^ε α ≤ 1 − β(a_{i+1}) − e^ε a_i. Loose by at most one interval's step in α and in β
    /// (2e-3 at a Gaussian's advantage in the tests; more where β falls steeply between points).
    pub fn deltas_upper(&self, eps: &[f64]) -> Vec<f64> {
        let mut grid = vec![0.0];
        grid.extend((0..=200).map(|i| 10f64.powf(-12.0 + 10.0 * f64::from(i) / 200.0)));
        grid.extend((1..2000).map(|i| 0.01 + 0.99 * f64::from(i) / 2000.0));
        grid.push(1.0);
        let betas: Vec<f64> = grid.iter().map(|&a| self.beta(a)).collect();
        eps.iter()
            .map(|&e| {
                let w = e.exp();
                (0..grid.len() - 1)
                    .map(|i| {
                        // α = 0 costs nothing at any ε (∞·0 is not a number); NaN is no bound.
                        let cost = if grid[i] == 0.0 { 0.0 } else { w * grid[i] };
                        let d = 1.0 - betas[i + 1] - cost;
                        if d.is_nan() {
                            1.0
                        } else {
                            d
                        }
                    })
                    .fold(0.0, f64::max)
                    .min(1.0)
            })
            .collect()
    }
}

/// The inverse function of a trade-off curve at α: the smallest β' with T(β') ≤ α, solved on the
/// segment of [`TradeOff::beta`]'s interpolation where the curve crosses α (the vertices' β never
/// increases), then lowered by 1e-15 for the division's rounding: a β' at most the true inverse, so
/// the symmetrised curve is never raised on the certified side (and the optimistic side moves by at
/// most that).
fn inverse(t: &TradeOff, alpha: f64) -> f64 {
    let v = &t.vertices;
    let k = v.partition_point(|p| p.1 > alpha);
    let x = match (k.checked_sub(1).map(|i| v[i]), v.get(k)) {
        (None, _) => 0.0,
        (Some((a0, b0)), Some(&(a1, b1))) if b0 > b1 => a0 + (a1 - a0) * (b0 - alpha) / (b0 - b1),
        (Some((a0, _)), Some(_)) => a0,
        // Every vertex above α (α < 0): no test reaches it.
        (Some(_), None) => 1.0,
    };
    (x - 1e-15).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::pld::{Direction, Side};

    #[test]
    fn gaussian_pld_curve_is_below_the_closed_form_and_close_to_it() {
        // One Gaussian step (q = 1, σ = 1): μ = 1, β(α) = Φ(Φ⁻¹(1 − α) − 1) (Dong, Roth & Su, Def. 2.7).
        let up = Pld::subsampled_gaussian(1.0, 1.0, Direction::Remove, 1e-4, 1e-15, Side::Upper)
            .unwrap();
        let curve = TradeOff::from_pld(&up);
        for alpha in [1e-6, 1e-4, 1e-3, 0.01, 0.05, 0.1, 0.3, 0.5, 0.9] {
            let (ours, exact) = (
                curve.beta(alpha),
                crate::mechanisms::gaussian::gdp_tradeoff(1.0, alpha),
            );
            assert!(ours <= exact + 1e-12, "α {alpha}: {ours} above {exact}");
            assert!(exact - ours < 1e-4, "α {alpha}: {ours} vs {exact}");
        }
    }

    #[test]
    fn the_inverse_is_the_smallest_beta_reaching_alpha_from_below() {
        use crate::numerics::roots::{bisect, Split, Until};
        for (q, sigma) in [(1.0, 1.0), (0.01, 0.8), (0.3, 2.0)] {
            let pld = Pld::subsampled_gaussian(q, sigma, Direction::Add, 1e-3, 1e-12, Side::Upper)
                .unwrap();
            let t = TradeOff::from_pld(&pld);
            for alpha in [0.0, 1e-9, 1e-4, 0.01, 0.2, 0.5, 0.9, 1.0] {
                let by_bisection = bisect(0.0, 1.0, Split::Middle, Until::Steps(60), |b| {
                    t.beta(b) <= alpha
                })
                .hi;
                let ours = inverse(&t, alpha);
                assert!(
                    ours <= by_bisection && by_bisection - ours < 1e-12,
                    "{q} {sigma} {alpha}: {ours} vs {by_bisection}"
                );
                assert!(ours == 0.0 || t.beta(ours) >= alpha - 1e-12);
            }
        }
    }

    #[test]
    fn two_steps_of_a_gaussian_are_the_gaussian_twice_as_far() {
        // G_μ twice over is G_{2μ} (Dong, Roth & Su 2022, group privacy); the PLD's curve is certified,
        // so the two-step curve stays under G_{2μ} and the advantage bound over TV(N(0), N(2μ)).
        let dirs = [Direction::Remove, Direction::Add].map(|d| {
            TradeOff::from_pld(
                &Pld::subsampled_gaussian(1.0, 2.0, d, 1e-4, 1e-15, Side::Upper).unwrap(),
            )
        });
        let two = TwoSteps::new(dirs.to_vec());
        for alpha in [1e-6, 1e-3, 0.05, 0.3, 0.7] {
            let exact = crate::mechanisms::gaussian::gdp_tradeoff(1.0, alpha);
            let ours = two.beta(alpha);
            assert!(
                ours <= exact + 1e-12 && exact - ours < 1e-3,
                "α {alpha}: {ours} vs {exact}"
            );
        }
        let tv = 2.0 * crate::numerics::special::normal_cdf(0.5) - 1.0;
        let adv = two.deltas_upper(&[0.0])[0];
        assert!(adv >= tv && adv - tv < 2e-3, "{adv} vs {tv}");
    }
}
