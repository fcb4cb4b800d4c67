//! Rényi DP of the Poisson-subsampled Gaussian mechanism (DP-SGD's step) and its conversion to (ε, δ).
//!
//! A step samples each record with probability q and adds N(0, σ²) to a sum of sensitivity 1 (σ is the
//! noise multiplier). Its RDP at order α is ln(A_α)/(α − 1) with A_α the α-th moment of the likelihood
//! ratio of (1 − q)N(0, σ²) + qN(1, σ²) against N(0, σ²); T steps compose by adding RDP.

pub mod replace_one;
pub mod tight;
pub mod tuning;

use crate::error::{Error, Result};
use crate::numerics::special::{ln_add_exp, ln_normal_cdf};

/// The orders the accountant optimises over: those of dp_accounting's RdpAccountant, so that the two
/// agree order for order (1.1, 1.2, …, 10.9, then 11 … 63, 128, 256, 512, 1024).
pub fn default_orders() -> Vec<f64> {
    let mut orders: Vec<f64> = (1..100).map(|x| 1.0 + x as f64 / 10.0).collect();
    orders.extend((11..64).map(f64::from));
    orders.extend([128.0, 256.0, 512.0, 1024.0]);
    orders
}

/// ln A_α for an integer order: a finite binomial sum.
///
/// # Formula
/// A_α = Σ_{i=0}^{α} C(α, i) (1 − q)^{α−i} q^i exp((i² − i)/(2σ²))
///
/// # Reference
/// Mironov, Talwar & Zhang, "Rényi differential privacy of the sampled Gaussian mechanism" (2019), §3.3.
pub(crate) fn ln_a_int(q: f64, sigma: f64, alpha: u64) -> f64 {
    let (ln_q, ln_1mq) = (q.ln(), (-q).ln_1p());
    let a = alpha as f64;
    // ln C(α, i) by the ratio C(α, i + 1)/C(α, i) = (α − i)/(i + 1): no ln Γ per term.
    let mut ln_coef = 0.0;
    let mut acc = f64::NEG_INFINITY;
    for i in 0..=alpha {
        let i = i as f64;
        let term = ln_coef + i * ln_q + (a - i) * ln_1mq + (i * i - i) / (2.0 * sigma * sigma);
        acc = ln_add_exp(acc, term);
        ln_coef += ((a - i) / (i + 1.0)).ln();
    }
    acc
}

/// ln A_α for a fractional order, as the two convergent series of Mironov, Talwar & Zhang (2019),
/// §3.3 (the integrals over (−∞, z₀] and [z₀, ∞) with z₀ = σ² ln(1/q − 1) + 1/2), summed until both
/// terms fall below e^{−30} of the total. `None` if they have not after 1000 terms.
fn ln_a_frac(q: f64, sigma: f64, alpha: f64) -> Option<f64> {
    let z0 = sigma * sigma * (1.0 / q - 1.0).ln() + 0.5;
    let (ln_q, ln_1mq) = (q.ln(), (-q).ln_1p());
    let (mut a0, mut a1) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let (mut last0, mut last1) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let mut coef = 0.0; // ln |C(α, i)|, updated by the ratio |(α − i)/(i + 1)|
    for i in 0..1000 {
        let i = i as f64;
        let j = alpha - i;
        // ln(erfc(t)/2) = ln Φ(−t√2).
        let e0 = ln_normal_cdf(-(i - z0) / sigma);
        let e1 = ln_normal_cdf(-(z0 - j) / sigma);
        let s0 = coef + i * ln_q + j * ln_1mq + (i * i - i) / (2.0 * sigma * sigma) + e0;
        let s1 = coef + j * ln_q + i * ln_1mq + (j * j - j) / (2.0 * sigma * sigma) + e1;
        a0 = ln_add_exp(a0, s0);
        a1 = ln_add_exp(a1, s1);
        let total = ln_add_exp(a0, a1);
        if s0 < last0 && s1 < last1 && s0.max(s1) < total - 30.0 {
            return Some(total);
        }
        last0 = s0;
        last1 = s1;
        coef += ((alpha - i) / (i + 1.0)).abs().ln();
    }
    None
}

/// RDP of one step at order α (∞ when the series does not converge).
///
/// # Formula
/// ε(α) = ln A_α / (α − 1); for q = 1 the plain Gaussian's α/(2σ²).
pub fn step_rdp(q: f64, sigma: f64, alpha: f64) -> f64 {
    if q == 0.0 {
        return 0.0;
    }
    if q >= 1.0 {
        return crate::mechanisms::gaussian::rdp(alpha, sigma, 1.0);
    }
    let ln_a = if alpha.fract() == 0.0 {
        Some(ln_a_int(q, sigma, alpha as u64))
    } else {
        ln_a_frac(q, sigma, alpha)
    };
    // NaN (never expected) must not become 0 through f64::max.
    ln_a.map_or(f64::INFINITY, |a| {
        let r = a / (alpha - 1.0);
        if r.is_nan() {
            f64::INFINITY
        } else {
            r.max(0.0)
        }
    })
}

/// Which RDP → (ε, δ) conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conversion {
    /// ε = ε(α) + ln(1/δ)/(α − 1) (Mironov 2017, Proposition 3; the lecture slides).
    Classical,
    /// ε = ε(α) + ln(1 − 1/α) − ln(δα)/(α − 1) (Canonne, Kamath & Steinke 2020, Proposition 12;
    /// Asoodeh et al. 2020), as dp_accounting and Opacus use; never larger than the classical one.
    Improved,
}

/// The smallest ε over the orders, and the order that attains it.
///
/// # Errors
/// δ outside (0, 1), or mismatched lists.
pub fn rdp_to_approx_dp(
    orders: &[f64],
    rdp: &[f64],
    delta: f64,
    conversion: Conversion,
) -> Result<(f64, f64)> {
    if !(delta > 0.0 && delta < 1.0) {
        return Err(Error::invalid("delta", delta, "must be a number in (0, 1)"));
    }
    if orders.len() != rdp.len() || orders.is_empty() {
        return Err(Error::invalid(
            "orders",
            orders.len(),
            "must match the RDP values",
        ));
    }
    let mut best = (f64::INFINITY, orders[0]);
    for (&a, &r) in orders.iter().zip(rdp) {
        let eps = match conversion {
            Conversion::Classical => r - delta.ln() / (a - 1.0),
            Conversion::Improved if delta * delta + (-r).exp_m1() > 0.0 => 0.0,
            Conversion::Improved if a > 1.01 => {
                r + (-1.0 / a).ln_1p() - (delta * a).ln() / (a - 1.0)
            }
            Conversion::Improved => f64::INFINITY,
        };
        if eps < best.0 {
            best = (eps, a);
        }
    }
    Ok((best.0.max(0.0), best.1))
}

/// The ε each order alone gives at δ by the improved conversion, for an ε(α) chart: its minimum is the
/// ε of [`rdp_to_approx_dp`]. Orders whose ε is not finite are left out.
pub fn epsilon_by_order(orders: &[f64], rdp: &[f64], delta: f64) -> Vec<(f64, f64)> {
    orders
        .iter()
        .zip(rdp)
        .filter_map(|(&a, &r)| {
            rdp_to_approx_dp(&[a], &[r], delta, Conversion::Improved)
                .ok()
                .map(|(e, _)| (a, e))
        })
        .filter(|(_, e)| e.is_finite())
        .collect()
}

/// RDP of T steps of DP-SGD at every order: T · step_rdp.
pub fn dpsgd_rdp(q: f64, sigma: f64, steps: f64, orders: &[f64]) -> Vec<f64> {
    orders
        .iter()
        .map(|&a| steps * step_rdp(q, sigma, a))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_batch_is_the_gaussian_curve() {
        assert_eq!(step_rdp(1.0, 2.0, 3.0), 3.0 / 8.0);
        assert_eq!(step_rdp(0.0, 2.0, 3.0), 0.0);
    }

    #[test]
    fn integer_and_fractional_orders_agree_where_they_meet() {
        // The fractional series at α = 5 ± 1e-9 brackets the integer sum at α = 5.
        for (q, sigma) in [(0.01, 1.0), (0.2, 0.7), (0.5, 3.0)] {
            let int = step_rdp(q, sigma, 5.0);
            let below = step_rdp(q, sigma, 5.0 - 1e-9);
            let above = step_rdp(q, sigma, 5.0 + 1e-9);
            assert!(
                (below / int - 1.0).abs() < 1e-6 && (above / int - 1.0).abs() < 1e-6,
                "{q} {sigma}: {below} {int} {above}"
            );
        }
    }

    #[test]
    fn improved_conversion_never_exceeds_classical() {
        let orders = default_orders();
        let rdp = dpsgd_rdp(0.01, 1.1, 5000.0, &orders);
        let (improved, _) = rdp_to_approx_dp(&orders, &rdp, 1e-5, Conversion::Improved).unwrap();
        let (classical, _) = rdp_to_approx_dp(&orders, &rdp, 1e-5, Conversion::Classical).unwrap();
        assert!(improved <= classical && improved > 0.0);
        assert!(rdp_to_approx_dp(&orders, &rdp, 0.0, Conversion::Improved).is_err());
    }
}
