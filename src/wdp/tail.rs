//! Figure 3: the effect of β and δ on Corollary 1's ε for a fixed Wasserstein term.

/// ε = W − (ln δ)/β for a total Wasserstein term W = Σ_t w_t, δ ∈ (0, 1), β > 0.
///
/// # Formula
/// Corollary 1 (eq. 16) of Yang, Qi & Zhou (AAAI 2024), from Theorem 3's ln δ = β·W − β·ε. The published
/// Figure 3 does not evaluate W: it plots this with W = 10. Exact to rounding.
pub fn epsilon(w: f64, beta: f64, delta: f64) -> f64 {
    w - delta.ln() / beta
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's check values (`shared/specs/wdp-figures.md`, Figure 3, 6 decimals), W = 10.
    #[test]
    fn spec_check_values() {
        for (beta, delta, want) in [
            (1.0, 1e-10, 33.025851),
            (1.0, 1e-5, 21.512925),
            (2.0, 1e-8, 19.210340),
            (5.0, 1e-3, 11.381551),
            (10.0, 1e-6, 11.381551),
            (50.0, 1e-10, 10.460517),
        ] {
            assert!(
                (epsilon(10.0, beta, delta) - want).abs() < 5e-7,
                "β = {beta}, δ = {delta}"
            );
        }
    }
}
