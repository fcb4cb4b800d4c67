//! Table 1 of Yang, Qi & Zhou (AAAI 2024): the RDP and WDP budgets of the Laplace and Gaussian mechanisms
//! against the order, as Figure 1 draws them.

use crate::mechanisms::{gaussian, laplace};

/// RDP of order α ≥ 1 of the Laplace mechanism with scale λ and sensitivity Δ (λ, Δ > 0): the
/// mechanism's own [`laplace::rdp`] at ε₀ = Δ/λ (Table 1 of the WDP paper is Mironov's Table 2).
pub fn rdp_laplace(alpha: f64, scale: f64, sens: f64) -> f64 {
    laplace::rdp(sens / scale, alpha)
}

/// RDP of order α of the Gaussian mechanism with standard deviation σ and sensitivity Δ: the
/// mechanism's own [`gaussian::rdp`].
pub fn rdp_gauss(alpha: f64, sigma: f64, sens: f64) -> f64 {
    gaussian::rdp(alpha, sigma, sens)
}

/// The WDP budget of order μ ≥ 1 of the Laplace mechanism with scale λ, as stated in the paper.
///
/// # Formula
/// Proposition 7 (Table 1): ½·Δ·( √(2·(1/λ + e^{−1/λ} − 1)) )^{1/μ}. The bracket is the KL divergence
/// between the two Laplace outputs (the RDP at α = 1), computed as 1/λ + expm1(−1/λ) without cancellation.
/// It is the paper's bound, not the W_μ distance itself (which is exactly Δ for a shift by Δ).
pub fn wdp_laplace(mu: f64, scale: f64, sens: f64) -> f64 {
    let kl = 1.0 / scale + (-1.0 / scale).exp_m1();
    0.5 * sens * (2.0 * kl).sqrt().powf(1.0 / mu)
}

/// The WDP budget of order μ of the Gaussian mechanism with standard deviation σ, as stated in the paper.
///
/// # Formula
/// Proposition 8 (Table 1): ½·(Δ/σ)^{1/μ}.
pub fn wdp_gauss(mu: f64, sigma: f64, sens: f64) -> f64 {
    0.5 * (sens / sigma).powf(1.0 / mu)
}

/// The pure-DP ε of the Laplace mechanism, Δ/λ (Table 1's first row; the Gaussian's is ∞).
pub fn dp_laplace(scale: f64, sens: f64) -> f64 {
    sens / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's check values (`shared/specs/wdp-figures.md`, Figure 1 table, 6 decimals).
    #[test]
    fn spec_check_values() {
        let rows: [(f64, [f64; 8]); 4] = [
            (
                1.0,
                [
                    0.367879, 0.106531, 0.018731, 0.428882, 0.157900, 0.125, 0.250000, 0.100000,
                ],
            ),
            (
                2.0,
                [
                    0.619124, 0.200304, 0.037015, 0.463078, 0.280980, 0.25, 0.353553, 0.223607,
                ],
            ),
            (
                5.0,
                [
                    0.853078, 0.355265, 0.084103, 0.484890, 0.397056, 0.625, 0.435275, 0.362390,
                ],
            ),
            (
                10.0,
                [
                    0.928683, 0.428690, 0.130898, 0.492387, 0.445565, 1.25, 0.466516, 0.425670,
                ],
            ),
        ];
        for (order, want) in rows {
            let got = [
                rdp_laplace(order, 1.0, 1.0),
                rdp_laplace(order, 2.0, 1.0),
                rdp_laplace(order, 5.0, 1.0),
                wdp_laplace(order, 1.0, 1.0),
                wdp_laplace(order, 3.0, 1.0),
                rdp_gauss(order, 2.0, 1.0),
                wdp_gauss(order, 2.0, 1.0),
                wdp_gauss(order, 5.0, 1.0),
            ];
            for (g, w) in got.iter().zip(want) {
                assert!((g - w).abs() < 5e-7, "order {order}: {got:?} vs {want:?}");
            }
        }
    }

    /// The Laplace RDP is continuous at α = 1 and across the switch at α = 1.5, and finite for huge orders
    /// (it tends to the pure-DP ε = 1/λ).
    #[test]
    fn laplace_rdp_is_smooth_and_finite() {
        for lambda in [0.01, 0.5, 1.0, 5.0, 1e3] {
            let at_one = rdp_laplace(1.0, lambda, 1.0);
            assert!(
                (rdp_laplace(1.0 + 1e-12, lambda, 1.0) - at_one).abs()
                    < 1e-9 * at_one.max(1e-300) + 1e-15
            );
            let (a, b) = (
                rdp_laplace(1.5 - 1e-12, lambda, 1.0),
                rdp_laplace(1.5, lambda, 1.0),
            );
            assert!((a - b).abs() < 1e-9 * a, "λ = {lambda}: {a} vs {b}");
            let far = rdp_laplace(1e6, lambda, 1.0);
            assert!(
                far.is_finite() && far <= 1.0 / lambda * (1.0 + 1e-12),
                "λ = {lambda}: {far}"
            );
        }
        // Sensitivity enters as λ/Δ.
        assert!((rdp_laplace(3.0, 4.0, 2.0) - rdp_laplace(3.0, 2.0, 1.0)).abs() < 1e-15);
    }
}
