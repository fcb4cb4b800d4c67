//! What an attacker can learn: the risk numbers of a composition's trade-off curve
//! ([`crate::accounting::tradeoff`], re-exported here), and [`audit`]: the ε an attack's counts prove.
//! The attack lab shows them. This folder reads `accounting`, never the
//! other way round.

pub mod audit;
pub mod audit_summary;
pub mod curves;
pub mod estimators;
pub mod last_iterate;
pub mod membership;
pub mod one_run;
pub mod scores;

pub use crate::accounting::tradeoff::{beta_both, TradeOff, TwoSteps};

/// The largest advantage TPR − FPR an (ε, δ)-DP mechanism allows: (e^ε − 1 + 2δ)/(e^ε + 1).
///
/// # Reference
/// The maximum over α of 1 − f_{ε,δ}(α) − α for the (ε, δ) region of Kairouz, Oh & Viswanath (2015);
/// Dong, Roth & Su (2022), eq. (2.5). Exact to rounding.
pub fn approx_dp_advantage(eps: f64, delta: f64) -> f64 {
    ((eps.exp_m1() + 2.0 * delta) / (eps.exp() + 1.0)).min(1.0)
}

/// The central-limit Gaussian-DP approximation of DP-SGD: μ = q√(T(e^{1/σ²} − 1)). An estimate that
/// can under-state the risk (it is exact only in the limit q → 0, T → ∞ with q√T fixed).
///
/// # Reference
/// Bu, Dong, Long & Su (HDSR 2020), Theorem 5 / Corollary 5.4.
pub fn dpsgd_gdp_mu_clt(q: f64, sigma: f64, steps: u64) -> f64 {
    q * (steps as f64 * (1.0 / (sigma * sigma)).exp_m1()).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advantage_of_approx_dp_is_the_bound_curves_largest_gap() {
        for (eps, delta) in [(0.0, 0.1), (1.0, 0.0), (1.0, 1e-5), (3.0, 0.01)] {
            let gap = (0..=10_000)
                .map(|i| {
                    let a = i as f64 / 10_000.0;
                    1.0 - crate::mechanisms::tradeoff_bound(eps, delta, a) - a
                })
                .fold(0.0, f64::max);
            assert!(
                (gap - approx_dp_advantage(eps, delta)).abs() < 1e-3,
                "({eps}, {delta}): {gap}"
            );
        }
    }

    #[test]
    fn clt_mu_closed_form() {
        // q = 0.01, σ = 1, T = 10⁴: 0.01·√(10⁴(e − 1)) = √(e − 1).
        assert!((dpsgd_gdp_mu_clt(0.01, 1.0, 10_000) - (1f64.exp() - 1.0).sqrt()).abs() < 1e-12);
    }
}
