//! Rényi DP of one DP-SGD step (Poisson-subsampled Gaussian) under replace-one neighbours: a record
//! replaced by another, so that the clipped sum moves by up to 2C.
//!
//! Two certified bounds, the smaller taken at each order (each holds at every order, so their minimum
//! does; T steps still compose by adding):
//! - **σ/2**: the add/remove curve at half the noise multiplier, the pair with twice the sensitivity,
//!   which dominates the replacement (dp_accounting's `REPLACE_SPECIAL` convention and Opacus' advice).
//! - **Removing, then adding** ([`remove_then_add`]): D and D′ share a data set D″ one record smaller,
//!   and the add/remove curve at σ bounds both D″'s neighbours; Rényi divergence's weak triangle
//!   inequality joins the two steps.
//!
//! dp_accounting 0.6.0's RDP accountant refuses Poisson sampling under `REPLACE_ONE`, so it has no
//! number to match: `scripts/reference/replace_one_rdp.py` builds the same bound from its per-order
//! curve, and the tests below check the closed form at q = 1.

use super::{rdp_to_approx_dp, step_rdp, Conversion};
use std::cmp::Ordering::Greater;

/// Replace-one RDP at order α > 1 from an add/remove curve `add_remove(order)` that bounds both
/// directions (removing and adding a record), rounded as `add_remove` is and the arithmetic here
/// raised by 4 ulps (its three roundings to nearest).
///
/// # Formula
/// D_α(P‖R) ≤ (α − ½)/(α − 1) · D_{2α}(P‖Q) + D_{2α−1}(Q‖R), with P, Q, R the outputs on D, D″ = D less
/// the replaced record, and D′ = D″ plus its replacement: Mironov (2017), "Rényi differential privacy",
/// Proposition 11 with p = q = 2 (Hölder's inequality on E_Q[(P/Q)^α (Q/R)^{α−1}]). p = 2 is kept: at
/// Abadi et al.'s settings p = 1.5 and 3 gave 5.93 and 6.70 against 5.78 (`replace_one_rdp.py`).
///
/// # Reference
/// The add/remove curve of the subsampled Gaussian bounds both directions: Mironov, Talwar & Zhang
/// (2019), "Rényi differential privacy of the sampled Gaussian mechanism", §3.
pub fn remove_then_add(alpha: f64, add_remove: impl Fn(f64) -> f64) -> f64 {
    let both = ((alpha - 0.5) / (alpha - 1.0) * add_remove(2.0 * alpha)
        + add_remove(2.0 * alpha - 1.0))
        * (1.0 + 4.0 * f64::EPSILON);
    // α ≤ 1 or a NaN curve: no bound, never a small number.
    if both.is_nan() || alpha <= 1.0 {
        f64::INFINITY
    } else {
        both
    }
}

/// One step's replace-one RDP at order α on dp_accounting's footing ([`step_rdp`]: its series at
/// fractional orders): the smaller of the add/remove curve at σ/2 and [`remove_then_add`] at σ, where
/// σ is the link's noise multiplier (on a sum of per-record sensitivity C = 1).
pub fn step_rdp_replace_one(q: f64, sigma: f64, alpha: f64) -> f64 {
    Routes::BOTH.step(q, sigma, alpha)
}

/// One DP-SGD step's RDP at order α under either relation, σ the link's noise multiplier: the
/// add/remove curve ([`step_rdp`]) or [`step_rdp_replace_one`].
pub fn dpsgd_step_rdp(q: f64, sigma: f64, alpha: f64, replace_one: bool) -> f64 {
    if replace_one {
        step_rdp_replace_one(q, sigma, alpha)
    } else {
        step_rdp(q, sigma, alpha)
    }
}

/// Which of replace-one's two bounds a curve evaluates. Each is an upper bound at every order, so
/// leaving one out keeps the guarantee and can only cost tightness where the other would have been
/// smaller; [`Routes::at`] leaves one out only where it is far above the other at every order tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Routes {
    /// The add/remove curve at σ/2.
    pub half: bool,
    /// [`remove_then_add`] at σ.
    pub triangle: bool,
}

impl Routes {
    /// Both bounds, always.
    pub const BOTH: Routes = Routes {
        half: true,
        triangle: true,
    };
    /// The σ/2 curve alone.
    const HALF: Routes = Routes {
        half: true,
        triangle: false,
    };
    /// Removing then adding alone.
    const TRIANGLE: Routes = Routes {
        half: false,
        triangle: true,
    };

    /// The routes worth evaluating for T steps at δ: each route's ε on a coarse ladder of integer
    /// orders (exact sums, cheap), and a route is dropped when its ε there exceeds the other's by more
    /// than a tenth. (Route by route the ε at δ is the smaller of the two routes' ε; a continuous
    /// search moves a route's ε by well under a tenth of the ladder's.) At small q the triangle wins
    /// (the σ/2 curve grows like e^{4/σ²} − 1 near the best order, the triangle like 2(e^{1/σ²} − 1));
    /// at q = 1 the σ/2 curve is exact and wins.
    pub fn at(q: f64, sigma: f64, steps: f64, delta: f64) -> Routes {
        const LADDER: [f64; 16] = [
            1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 48.0, 64.0, 128.0, 256.0, 512.0,
            1024.0,
        ];
        let eps = |route: Routes| {
            let total: Vec<f64> = LADDER
                .iter()
                .map(|&a| steps * route.step(q, sigma, a))
                .collect();
            rdp_to_approx_dp(&LADDER, &total, delta, Conversion::Improved).map_or(f64::NAN, |e| e.0)
        };
        let (half, triangle) = (eps(Routes::HALF), eps(Routes::TRIANGLE));
        // A NaN ε keeps both routes; an ∞ one is dropped against a finite one.
        Routes {
            half: half.partial_cmp(&(1.1 * triangle)) != Some(Greater),
            triangle: triangle.partial_cmp(&(1.1 * half)) != Some(Greater),
        }
    }

    /// One step's RDP at α from the routes kept, on dp_accounting's footing ([`step_rdp`]).
    pub fn step(self, q: f64, sigma: f64, alpha: f64) -> f64 {
        let half = match self.half {
            true => step_rdp(q, sigma / 2.0, alpha),
            false => f64::INFINITY,
        };
        match self.triangle {
            true => half.min(remove_then_add(alpha, |a| step_rdp(q, sigma, a))),
            false => half,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::rdp::tight::step_rdp_exact;
    use crate::accounting::rdp::{default_orders, rdp_to_approx_dp, Conversion};

    #[test]
    fn the_triangle_is_what_it_says_for_the_gaussian() {
        // q = 1: D_α between N(0, σ²) and N(2, σ²) is exactly 2α/σ² (σ/2 attains it); the triangle
        // gives (2α − 1)²/(2(α − 1)σ²), above it by 1/(2(α − 1)σ²).
        for (alpha, sigma) in [(1.5f64, 1.0f64), (2.0, 0.7), (7.25, 3.0), (64.0, 10.0)] {
            let s2 = sigma * sigma;
            let exact = 2.0 * alpha / s2;
            let triangle = remove_then_add(alpha, |a| step_rdp(1.0, sigma, a));
            let closed = (2.0 * alpha - 1.0).powi(2) / (2.0 * (alpha - 1.0) * s2);
            assert!(
                (triangle / closed - 1.0).abs() < 1e-12,
                "{triangle} {closed}"
            );
            assert!((step_rdp_replace_one(1.0, sigma, alpha) / exact - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn never_above_sigma_over_two_and_far_below_it_at_small_q() {
        let orders = default_orders();
        for (q, sigma) in [(256.0 / 60000.0, 1.1), (0.01, 0.8), (0.1, 2.0), (0.5, 1.0)] {
            for &a in &orders {
                // A zero-gradient replacement is an add/remove pair: no bound may fall below it (the
                // exact curve: the series at fractional orders is loose by up to 1.9×).
                let floor = step_rdp_exact(q, sigma, a) * (1.0 - 1e-9);
                let ro = step_rdp_replace_one(q, sigma, a);
                assert!(ro <= step_rdp(q, sigma / 2.0, a), "{q} {sigma} {a}");
                assert!(ro >= floor, "{q} {sigma} {a}: below add/remove");
            }
        }
        // Abadi et al.'s MNIST run: ε from 16.42 (σ/2) to 5.78 (replace_one_rdp.py).
        let (q, sigma, t) = (256.0 / 60000.0, 1.1, 14063.0);
        let eps = |f: &dyn Fn(f64) -> f64| {
            let total: Vec<f64> = orders.iter().map(|&a| t * f(a)).collect();
            rdp_to_approx_dp(&orders, &total, 1e-5, Conversion::Improved)
                .unwrap()
                .0
        };
        let half = eps(&|a| step_rdp(q, sigma / 2.0, a));
        let ro = eps(&|a| step_rdp_replace_one(q, sigma, a));
        assert!(half > 16.0 && ro < 6.0, "{half} {ro}");
    }

    #[test]
    fn routes_drop_only_what_cannot_win() {
        let orders = default_orders();
        let eps = |route: Routes, q: f64, sigma: f64, t: f64, delta: f64| {
            let total: Vec<f64> = orders
                .iter()
                .map(|&a| t * route.step(q, sigma, a))
                .collect();
            rdp_to_approx_dp(&orders, &total, delta, Conversion::Improved)
                .unwrap()
                .0
        };
        for (q, sigma, t, delta) in [
            (256.0 / 60000.0, 1.1, 14063.0, 1e-5),
            (0.05, 0.8, 500.0, 1e-7),
            (0.5, 1.5, 20.0, 1e-6),
            (0.3, 3.0, 100.0, 1e-5),
            (0.9, 1.0, 5.0, 1e-5),
            (1.0, 2.0, 10.0, 1e-5),
            (0.01, 0.3, 1e6, 1e-9),
        ] {
            let kept = Routes::at(q, sigma, t, delta);
            let (ours, both) = (
                eps(kept, q, sigma, t, delta),
                eps(Routes::BOTH, q, sigma, t, delta),
            );
            assert!(
                ours == both || (ours / both - 1.0).abs() < 1e-12,
                "{q} {sigma}: {kept:?} {ours} vs {both}"
            );
        }
        let only = |half, triangle| Routes { half, triangle };
        assert_eq!(
            Routes::at(256.0 / 60000.0, 1.1, 14063.0, 1e-5),
            only(false, true)
        );
        // q = 1: σ/2 is exact, the triangle within a tenth of it (both kept).
        assert!(Routes::at(1.0, 2.0, 10.0, 1e-5).half);
        assert_eq!(Routes::at(0.1, f64::NAN, 10.0, 1e-5), Routes::BOTH);
    }

    #[test]
    fn ugly_orders_and_sigmas_give_no_small_numbers() {
        for (q, sigma, a) in [
            (0.01, 1.0, 1.0),
            (0.01, 1.0, 0.5),
            (0.01, 1e-6, 2.0),
            (0.5, f64::NAN, 3.0),
            (0.01, f64::INFINITY, 3.0),
        ] {
            let r = step_rdp_replace_one(q, sigma, a);
            assert!(!r.is_nan() && r >= 0.0, "{q} {sigma} {a}: {r}");
            if sigma.is_finite() && sigma < 1.0 {
                assert!(r > 1.0 || a <= 1.0, "{q} {sigma} {a}: {r}");
            }
        }
    }
}
