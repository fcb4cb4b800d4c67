//! This lab's descriptor ([`INFO`]), and what the About page says of it: every formula it uses with
//! its source, and which side each of its numbers errs on.

use crate::jobs::WorkerModule;
use crate::labs::descriptor::{n, Formula, LabInfo, NumberSide, Side};
use crate::labs::WorkerOnLoad;

/// This lab's descriptor: the table is computed on the page up to T = 2 000 (O(T·bands) per
/// strategy); the BLT's optimisation, amplified BandMF's σ and longer streams run in the papers'
/// worker module, started on load (the BLT is optimised for every link).
pub const INFO: LabInfo = LabInfo {
    worker_on_load: WorkerOnLoad::Always,
    worker: Some(WorkerModule::Research),
    shared_keys: &["delta"],
    printed_keys: &["steps", "epochs", "bands", "eps", "delta", "matrix"],
    optional_keys: &["rho", "q"],
    embed_height: 1500,
};

/// The formulas this lab uses.
pub const FORMULAS: &[Formula] = &[
    Formula {
        name: "Error of a factorization A = B·C of the prefix sums",
        formula: "released B(Cx + z), z ~ N(0, σ²Δ²I): error variance at step i = σ²Δ²‖B[i, :]‖², B = A·C⁻¹",
        source: "Denisov, McMahan, Rush, Smith & Thakurta (NeurIPS 2022), Section 2; jax_privacy 2.0.0 `toeplitz.per_query_error`",
        note: "Toeplitz C by its first column: C⁻¹ by the power series of 1/C(x), O(T·bands); a BLT's by its rational recurrence, O(T·buffers).",
    },
    Formula {
        name: "Optimal Toeplitz square root",
        formula: "c_k = binom(2k, k)/4^k (the coefficients of (1 − x)^(−1/2)), C·C = A",
        source: "Fichtenberger, Henzinger & Upadhyay (ICML 2023), Theorem 1; optimal for the max error: Dvijotham et al. (SODA 2024)",
        note: "Banded Toeplitz: its first b coefficients, scaled to unit norm (BandMF's Toeplitz form).",
    },
    Formula {
        name: "Sensitivity under k participations at least b steps apart",
        formula: "‖C(e_0 + e_b + … + e_((k−1)b))‖ for non-negative non-increasing Toeplitz C; tree: Σ over levels of ⌊k/m⌋m² + (k mod m)², m = min(k, ⌈2^l/b⌉)",
        source: "Kalinin & Lampert (2024), Theorem 2 (exact); the tree's is an upper bound (exact when b is a power of two)",
        note: "Scaled by the one-participation column norm, so σ is the noise multiplier of the strategy with column norm 1.",
    },
    Formula {
        name: "Noise multiplier for (ε, δ) without sampling",
        formula: "σ = Δ·σ_G(ε, δ), σ_G the analytic Gaussian mechanism's for sensitivity 1",
        source: "Balle & Wang (ICML 2018), Theorem 8; releasing B(Cx + z) is post-processing of the Gaussian mechanism on Cx",
        note: "Amplified BandMF (cyclic Poisson over b groups, bands ≤ b) is DP-SGD over ⌈T/b⌉ rounds: Choquette-Choo et al. (NeurIPS 2023), Theorem 4.",
    },
    Formula {
        name: "Tree aggregation with Honaker's estimator",
        formula: "a block of 2^h steps estimated from its node and its halves by inverse-variance weighting: v_h = 2^h/(2^(h+1) − 1); e(t) = Σ over t's binary digits h of v_h",
        source: "Honaker (2015), the bottom-up pass; as used for DP-FTRL by Kairouz et al. (ICML 2021)",
        note: "The best linear unbiased estimate from the nodes released by step t (a test solves the normal equations).",
    },
    Formula {
        name: "BLT optimised for the stream",
        formula: "c_0 = 1, c_i = Σ_j ω_j θ_j^(i−1); minimise Δ² × mean error over θ ∈ (0, 1), ω > 0, Σω < 1, with 1, 2, … buffers until one more gains under 1%",
        source: "Dvijotham, McMahan, Pillutla, Steinke & Thakurta (2024), Section 5; jax_privacy 2.0.0 `buffered_toeplitz.optimize`",
        note: "BFGS on central-difference gradients; reaches jax_privacy's optimised losses to 1e-5 on the recorded settings. The optimum only chooses the strategy: every number shown is the found BLT's own.",
    },
    Formula {
        name: "Amplified BandMF",
        formula: "b-banded C, column norms ≤ 1, cyclic Poisson over b groups at rate q: as private as DP-SGD (Poisson q, σ) over ⌈T/b⌉ rounds",
        source: "Choquette-Choo, Ganesh, McKenna, McMahan, Rush, Thakurta & Xu (NeurIPS 2023), Theorem 4",
        note: "σ for the target by the PLD accountant (never overshooting), its ε shown from both sides. Not known for the tree, the square root or a BLT: they keep the unamplified σ.",
    },
];

/// Which side each of this lab's key numbers errs on.
pub const SIDES: &[NumberSide] = &[
    n(
        "σ for the target",
        Side::Upper,
        "Rounded up: the stream is (ε, δ)-DP at the σ shown (the tree's sensitivity is an upper bound).",
    ),
    n(
        "RMSE and max error of the prefix sums",
        Side::Exact,
        "At the row's σ, in clipping norms.",
    ),
    n(
        "ε of each row",
        Side::Upper,
        "The Gaussian mechanism's exact ε at σ/Δ (its upper end), or amplified BandMF's by the PLD (certified upper, the lower beside it).",
    ),
];
