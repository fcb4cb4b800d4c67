//! The last-iterate heuristic (Steinke, Zhang, Nasr, et al., "The last iterate advantage", ICLR 2025):
//! for a linear model and an adversary who sees only the final model, T steps of DP-SGD with sampling
//! rate q and noise σ leak what one draw from P = N(0, Tσ²) against Q = Σₖ Bin(k; T, q)·N(k, Tσ²) leaks.
//! A heuristic, not a guarantee (it fails for some non-linear losses); the page says so.
//!
//! The pair's likelihood ratio Q/P = Σₖ wₖ exp((kx − k²/2)/s²), s² = Tσ², rises with x, so each hockey
//! stick is a difference of normal tails at one crossing point x*: for Q against P,
//! δ(ε) = Q(X > x*) − e^ε P(X > x*) with Q/P(x*) = e^ε; for P against Q, δ(ε) = P(X < x*) − e^ε Q(X < x*)
//! with Q/P(x*) = e^(−ε). Written by hand: a mixture's hockey stick is in no numeric crate.

use crate::error::{Error, Result};
use crate::numerics::roots::{bisect, Split, Until};
use crate::numerics::special::{ln_normal_cdf, ln_sub_exp};
use statrs::function::factorial::ln_binomial;

/// The mixture's components: (k, ln wₖ) for the k whose weight matters (within 14 standard deviations
/// of the mean Tq, and at least the mean's neighbours).
fn components(q: f64, steps: u64) -> Vec<(f64, f64)> {
    let (t, mean) = (steps as f64, steps as f64 * q);
    let sd = (t * q * (1.0 - q)).sqrt();
    let lo = (mean - 14.0 * sd - 1.0).floor().max(0.0) as u64;
    let hi = ((mean + 14.0 * sd + 1.0).ceil() as u64).min(steps);
    (lo..=hi)
        .map(|k| {
            // (T − k)·ln(1 − q) is 0 at k = T even when q = 1 (not 0·(−∞)).
            let rest = if k == steps {
                0.0
            } else {
                (steps - k) as f64 * (-q).ln_1p()
            };
            let lw = ln_binomial(steps, k) + k as f64 * q.ln() + rest;
            (k as f64, lw)
        })
        .collect()
}

/// ln of Σ exp(xᵢ).
fn ln_sum(xs: impl Iterator<Item = f64>) -> f64 {
    let xs: Vec<f64> = xs.collect();
    let top = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if top == f64::NEG_INFINITY {
        return top;
    }
    top + xs.iter().map(|x| (x - top).exp()).sum::<f64>().ln()
}

/// The heuristic's ε at δ: the larger of the two directions' ε (each by bisection, its upper end, so
/// that the heuristic is not understated by the search).
///
/// # Errors
/// q outside (0, 1], σ not positive and finite, T = 0, or δ outside (0, 1).
pub fn last_iterate_epsilon(q: f64, sigma: f64, steps: u64, delta: f64) -> Result<f64> {
    if !(q > 0.0 && q <= 1.0) {
        return Err(Error::invalid("q", q, "must be in (0, 1]"));
    }
    if !(sigma > 0.0 && sigma.is_finite()) {
        return Err(Error::invalid("sigma", sigma, "must be a positive number"));
    }
    if steps == 0 {
        return Err(Error::invalid("steps", steps, "must be at least 1"));
    }
    if !(delta > 0.0 && delta < 1.0) {
        return Err(Error::invalid("delta", delta, "must be in (0, 1)"));
    }
    let comps = components(q, steps);
    let s = sigma * (steps as f64).sqrt();
    // ln(Q/P)(x), rising in x.
    let ln_ratio = |x: f64| {
        ln_sum(
            comps
                .iter()
                .map(|&(k, lw)| lw + (k * x - k * k / 2.0) / (s * s)),
        )
    };
    // ln Q(X > x) and ln Q(X < x); ln P likewise.
    let ln_q_above = |x: f64| ln_sum(comps.iter().map(|&(k, lw)| lw + ln_normal_cdf((k - x) / s)));
    let ln_q_below = |x: f64| ln_sum(comps.iter().map(|&(k, lw)| lw + ln_normal_cdf((x - k) / s)));
    let ln_p_above = |x: f64| ln_normal_cdf(-x / s);
    let ln_p_below = |x: f64| ln_normal_cdf(x / s);
    // ln(Q/P) runs from ln w₀ (the k = 0 component alone; −∞ when it was cut) as x → −∞ up to +∞.
    let floor = comps
        .first()
        .filter(|c| c.0 == 0.0)
        .map_or(f64::NEG_INFINITY, |c| c.1);
    // The crossing point where ln(Q/P) = c (c above the floor).
    let crossing = |c: f64| {
        let (mut lo, mut hi) = (-s, s);
        for _ in 0..200 {
            if ln_ratio(lo) <= c {
                break;
            }
            lo = 2.0 * lo - s;
        }
        for _ in 0..200 {
            if ln_ratio(hi) >= c {
                break;
            }
            hi = 2.0 * hi + s;
        }
        bisect(lo, hi, Split::Middle, Until::Steps(80), |x| {
            ln_ratio(x) >= c
        })
        .hi
    };
    let delta_q_vs_p = |eps: f64| {
        let x = crossing(eps);
        ln_sub_exp(ln_q_above(x), eps + ln_p_above(x)).exp()
    };
    // Below the floor Q/P > e^(−ε) everywhere: P never exceeds e^ε Q, δ = 0.
    let delta_p_vs_q = |eps: f64| {
        if -eps <= floor {
            return 0.0;
        }
        let x = crossing(-eps);
        ln_sub_exp(ln_p_below(x), eps + ln_q_below(x)).exp()
    };
    let eps_for = |d: &dyn Fn(f64) -> f64| {
        if d(0.0) <= delta {
            return 0.0;
        }
        let mut hi = 1.0;
        while d(hi) > delta && hi < 1e4 {
            hi *= 2.0;
        }
        bisect(0.0, hi, Split::Middle, Until::Steps(60), |e| d(e) <= delta).hi
    };
    Ok(eps_for(&delta_q_vs_p).max(eps_for(&delta_p_vs_q)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_mpmath() {
        // scripts/reference/audit_reference.json: mpmath at 40 digits (exact hockey stick at the
        // crossing point, checked by quadrature; dp_accounting's mixture-of-Gaussians PLD agrees to 3e-8).
        for (q, sigma, steps, want) in [
            (0.01, 1.0, 100, 0.41078128601827213),
            (0.1, 1.0, 10, 2.153065231),
            (0.004, 1.1, 1000, 0.418432291),
        ] {
            let got = last_iterate_epsilon(q, sigma, steps, 1e-5).unwrap();
            assert!(
                (got - want).abs() < 1e-7,
                "q = {q}, σ = {sigma}, T = {steps}: {got} vs {want}"
            );
        }
    }

    #[test]
    fn full_batches_are_the_gaussian_mechanism_and_bad_inputs_are_errors() {
        // q = 1: Q = N(T, Tσ²) against N(0, Tσ²), the Gaussian mechanism with σ√T / T = σ/√T.
        let g = crate::mechanisms::gaussian::Gaussian::new(2.0 / 10f64.sqrt(), 1.0).unwrap();
        let eps = last_iterate_epsilon(1.0, 2.0, 10, 1e-5).unwrap();
        assert!(
            (g.delta(eps) - 1e-5).abs() < 1e-9,
            "δ at the heuristic's ε: {}",
            g.delta(eps)
        );
        assert!(last_iterate_epsilon(0.0, 1.0, 10, 1e-5).is_err());
        assert!(last_iterate_epsilon(0.1, f64::NAN, 10, 1e-5).is_err());
        assert!(last_iterate_epsilon(0.1, 1.0, 0, 1e-5).is_err());
        assert!(last_iterate_epsilon(0.1, 1.0, 10, 0.0).is_err());
    }
}
