//! Zero-concentrated differential privacy (Bun & Steinke, TCC 2016): ρ-zCDP means
//! D_α(M(x) ‖ M(x')) ≤ αρ for every order α > 1.
//!
//! The lecture slides state two of these conversions with typos; [`SLIDE_ERRATA`] says which and why.

use crate::error::{Error, Result};

/// What the lab shows beside the lecture's zCDP slides.
pub const SLIDE_ERRATA: [&str; 3] = [
    "Slide \"zCDP to (ε, δ)-DP\" reads ε = ρ + 4ρ ln(1/δ); Bun & Steinke (2016, Prop. 1.3) give \
     ε = ρ + 2√(ρ ln(1/δ)), which is what we compute (the slide's version is linear in ln(1/δ), far too \
     large for small ρ and too small for none).",
    "Slide \"Scenario 2\" solves ε = ρ + 2√(ρ ln(1/δ)) as ρ = √(ln(1/δ) + ε) − √ln(1/δ); the root is \
     √ρ, so ρ = (√(ln(1/δ) + ε) − √ln(1/δ))². The slide's σ² = T·B²/(n²ρ²) likewise should have ρ, not ρ².",
    "Slide \"Gaussian mechanism\": noise N(0, Δ²/ρ) is (ρ/2)-zCDP, so the claim holds but is twice as \
     noisy as needed: ρ-zCDP needs variance Δ²/(2ρ) (Bun & Steinke 2016, Prop. 1.6).",
];

/// The ε at which ρ-zCDP implies (ε, δ)-DP.
///
/// # Formula
/// ε = ρ + 2√(ρ ln(1/δ))
///
/// # Reference
/// Bun & Steinke (TCC 2016), Proposition 1.3. (The lecture slide's ρ + 4ρ ln(1/δ) is a typo.)
///
/// # Errors
/// ρ not finite and ≥ 0, or δ outside (0, 1).
///
/// ```
/// # use dp_playground::accounting::zcdp::zcdp_to_approx_dp;
/// // ρ = 0.5, δ = 1e-5: 0.5 + 2√(0.5 · 11.5129…) = 5.2985… (closed form)
/// let eps = zcdp_to_approx_dp(0.5, 1e-5).unwrap();
/// assert!((eps - (0.5 + 2.0 * (0.5 * 1e5f64.ln()).sqrt())).abs() < 1e-14);
/// ```
pub fn zcdp_to_approx_dp(rho: f64, delta: f64) -> Result<f64> {
    check(rho, delta)?;
    Ok(rho + 2.0 * (rho * -delta.ln()).sqrt())
}

/// δ(ε) implied by ρ-zCDP for ε ≥ ρ, the same bound solved for δ: δ = exp(−(ε − ρ)²/(4ρ)).
///
/// # Reference
/// Bun & Steinke (TCC 2016), proof of Proposition 1.3.
pub fn zcdp_delta(rho: f64, eps: f64) -> f64 {
    if eps <= rho {
        1.0
    } else {
        (-(eps - rho).powi(2) / (4.0 * rho)).exp()
    }
}

/// The largest ρ whose conversion [`zcdp_to_approx_dp`] gives at most ε.
///
/// # Formula
/// ρ = (√(ln(1/δ) + ε) − √ln(1/δ))², computed as ε²/(√(ln(1/δ) + ε) + √ln(1/δ))² (no cancellation)
///
/// # Reference
/// Solving Bun & Steinke (2016), Prop. 1.3 for ρ (the lecture's "Scenario 2" drops the square).
///
/// # Errors
/// ε not finite and > 0, or δ outside (0, 1).
pub fn rho_for_approx_dp(eps: f64, delta: f64) -> Result<f64> {
    if !(eps.is_finite() && eps > 0.0) {
        return Err(Error::invalid("eps", eps, "must be a finite number > 0"));
    }
    check(0.0, delta)?;
    let l = -delta.ln();
    let root = (l + eps).sqrt() + l.sqrt();
    Ok(eps * eps / (root * root))
}

fn check(rho: f64, delta: f64) -> Result<()> {
    if !(rho.is_finite() && rho >= 0.0) {
        return Err(Error::invalid("rho", rho, "must be a finite number ≥ 0"));
    }
    if !(delta > 0.0 && delta < 1.0) {
        return Err(Error::invalid("delta", delta, "must be a number in (0, 1)"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mechanisms::gaussian::rho as gaussian_rho;

    #[test]
    fn rho_round_trips_through_the_conversion() {
        for eps in [1e-6, 0.1, 1.0, 8.0, 50.0] {
            for delta in [0.1, 1e-5, 1e-300] {
                let rho = rho_for_approx_dp(eps, delta).unwrap();
                let back = zcdp_to_approx_dp(rho, delta).unwrap();
                assert!(
                    (back / eps - 1.0).abs() < 1e-12,
                    "ε={eps} δ={delta}: {back}"
                );
                assert!((zcdp_delta(rho, eps) / delta - 1.0).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn gaussian_rho_is_half_the_squared_ratio() {
        assert_eq!(gaussian_rho(2.0, 1.0), 0.125);
        // The slide's N(0, Δ²/ρ) gives ρ/2.
        assert!((gaussian_rho((1.0f64 / 0.3).sqrt(), 1.0) - 0.15).abs() < 1e-15);
    }

    #[test]
    fn conversion_is_at_least_the_exact_gaussian_epsilon() {
        // ρ-zCDP for the Gaussian mechanism is exactly its Rényi curve, so the exact analytic δ at the
        // converted ε is at most δ.
        use crate::mechanisms::gaussian::Gaussian;
        for sigma in [0.5, 1.0, 4.0] {
            let g = Gaussian::new(sigma, 1.0).unwrap();
            let eps = zcdp_to_approx_dp(gaussian_rho(sigma, 1.0), 1e-6).unwrap();
            assert!(g.delta(eps) <= 1e-6);
        }
    }

    #[test]
    fn bad_inputs_are_refused() {
        assert!(zcdp_to_approx_dp(f64::NAN, 0.1).is_err());
        assert!(zcdp_to_approx_dp(1.0, 0.0).is_err());
        assert!(rho_for_approx_dp(0.0, 0.1).is_err());
        assert!(rho_for_approx_dp(1.0, 1.0).is_err());
    }
}
