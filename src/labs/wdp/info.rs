//! This lab's descriptor ([`INFO`]), and what the About page says of it: every formula it uses with
//! its source, and which side each of its numbers errs on (kept apart from [`INFO`], so that only the
//! About page links their text).

use crate::jobs::WorkerModule;
use crate::labs::descriptor::{n, Formula, LabInfo, NumberSide, Side};
use crate::labs::WorkerOnLoad;

/// This lab's descriptor: when it needs the worker, the keys it reads and shares, its embed height.
pub const INFO: LabInfo = LabInfo {
    worker_on_load: WorkerOnLoad::When("fig", "2"),
    worker: Some(WorkerModule::Research),
    shared_keys: &["seed", "threads"],
    printed_keys: &[
        "fig", "panel", "scale", "order", "scales", "sens", "omin", "omax", "ymax", "seed",
        "quantile", "clip", "pairs", "beta", "delta", "w",
    ],
    optional_keys: &[],
    embed_height: 1800,
};

/// The formulas this lab uses.
pub const FORMULAS: &[Formula] = &[
    Formula {
                name: "RDP of the Laplace and Gaussian mechanisms (Figure 1)",
        formula: "Laplace: α > 1: ln(α/(2α−1)·e^((α−1)/λ) + (α−1)/(2α−1)·e^(−α/λ))/(α−1), α = 1: 1/λ + e^(−1/λ) − 1;  Gaussian: αΔ²/(2σ²)",
        source: "Mironov (CSF 2017), Table 2; Table 1 of Yang, Qi & Zhou (AAAI 2024)",
        note: "Near α = 1 as ln(1 + uK)/u with u = α − 1 (no cancellation); log-sum-exp for large α. Laplace with Δ uses λ/Δ.",
    },
    Formula {
                name: "WDP of the Laplace and Gaussian mechanisms, as stated",
        formula: "Laplace: ½Δ(√(2(1/λ + e^(−1/λ) − 1)))^(1/μ);  Gaussian: ½(Δ/σ)^(1/μ)",
        source: "Yang, Qi & Zhou (AAAI 2024), Propositions 7 and 8 (Table 1)",
        note: "The paper's bounds, shown as stated: the exact W_μ distance between an output and its shift by Δ is Δ itself.",
    },
    Formula {
                name: "Raw absolute moment of a normal variable",
        formula: "E|Z|^μ = (2s²)^(μ/2) Γ((μ+1)/2)/√π · ₁F₁(−μ/2; ½; −m²/(2s²)),  Z ~ N(m, s²)",
        source: "Winkelbauer (2012), eq. (17); Lemma 1 of Yang, Qi & Zhou (AAAI 2024)",
        note: "Log space. Kummer's transformation ₁F₁(a; b; −x) = e^(−x)₁F₁(b − a; b; x) (all-positive series); the large-x expansion |m|^μ Σ(−μ/2)_k((1−μ)/2)_k/k! x^(−k) for x ≥ max(2000, 16μ²). Accurate to ~1e-13 (mpmath).",
    },
    Formula {
                name: "Moments and Bayesian accountants (Figure 2)",
        formula: "c(r) = ln Σ_(k=0)^(λ+1) Binom(k; λ+1, q) e^(k(k−1)r²/(2σ²));  DP: r = 2, ε = (Σc − ln δ)/λ;  BDP: r = d_ab/C, Student-t upper estimate of ln E e^(T c)/T",
        source: "Abadi et al. (CCS 2016); Triastcyn & Faltings (2020); estimator constants from the WDP authors' code (spec wdp-figures.md)",
        note: "Penalty uses t_(n−1).ppf(1 − 2⁻⁵³) computed from the upper tail (statrs' incomplete beta), not from 1 − p.",
    },
    Formula {
                name: "Wasserstein accountant (Corollary 1)",
        formula: "ε = Σ_t (Σ_pairs E|Z_ab|^μ)^(1/μ) − (ln δ)/β,  Z_ab ~ N(q d_ab, (2 − 2q + 2q²)σ²C_t²)",
        source: "Yang, Qi & Zhou (AAAI 2024), Theorem 2, Theorem 3 and Corollary 1",
        note: "Sums over pairs as the authors' code does; the \"inf over d_t\" variant (closest pair alone) is a toggle.",
    },
];

/// Which side each of this lab's key numbers errs on.
pub const SIDES: &[NumberSide] = &[n(
    "BDP, WDP and DP curves",
    Side::Estimate,
    "The paper's accountants as the spec states them, on a seeded synthetic run.",
)];
