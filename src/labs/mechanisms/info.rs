//! This lab's descriptor ([`INFO`]), and what the About page says of it: every formula it uses with
//! its source, and which side each of its numbers errs on (kept apart from [`INFO`], so that only the
//! About page links their text).

use crate::jobs::WorkerModule;
use crate::labs::descriptor::{n, Formula, LabInfo, NumberSide, Side};
use crate::labs::WorkerOnLoad;

/// This lab's descriptor: when it needs the worker, the keys it reads and shares, its embed height.
pub const INFO: LabInfo = LabInfo {
    worker_on_load: WorkerOnLoad::Always,
    worker: Some(WorkerModule::Accounting),
    shared_keys: &["delta", "seed", "threads"],
    printed_keys: &[
        "mech", "eps", "delta", "sens", "draws", "seed", "cands", "kmax",
    ],
    optional_keys: &["sigma", "scale", "bad_eps"],
    embed_height: 2600,
};

/// The formulas this lab uses.
pub const FORMULAS: &[Formula] = &[
    Formula {
                name: "Laplace mechanism",
        formula: "M(x) = f(x) + Lap(b), b = Δ₁/ε;  δ(ε′) = 1 − e^((ε′ − Δ/b)/2) for ε′ < Δ/b",
        source: "Dwork, McSherry, Nissim & Smith (TCC 2006); approximate-DP notes eq. (13); profile from Lemma 1.4's bad set (exact for Laplace)",
        note: "The profile uses expm1; the trade-off curve is Dong, Roth & Su (2022), §2.2.",
    },
    Formula {
                name: "Gaussian σ: lecture notes",
        formula: "σ = Δ·√(2 ln(2/δ))/ε",
        source: "Approximate-DP notes, eq. (17), Theorem 2.1 (ε ≤ 1 only)",
        note: "The lab shows the exact δ this σ achieves; beyond ε = 1 it can exceed the target.",
    },
    Formula {
                name: "Gaussian σ: classical",
        formula: "σ = Δ·√(2 ln(1.25/δ))/ε",
        source: "Dwork & Roth (2014), Theorem A.1 (ε < 1 only)",
        note: "",
    },
    Formula {
                name: "Gaussian: exact privacy profile and analytic σ",
        formula: "δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ);  σ = min{σ : δ(ε) ≤ δ}",
        source: "Balle & Wang, ICML 2018, Theorem 8 and Algorithm 1",
        note: "Log space with libm's erfc and an asymptotic ln Φ tail; bisection on ln σ that counts a σ as enough only if δ plus its floating-point error bound is ≤ δ(1 − 1e-12): rounds up.",
    },
    Formula {
                name: "Gaussian: zCDP",
        formula: "ρ = Δ²/(2σ²);  ε = ρ + 2√(ρ ln(1/δ));  ρ(ε, δ) = (√(ln(1/δ) + ε) − √ln(1/δ))²",
        source: "Bun & Steinke, TCC 2016, Propositions 1.3 and 1.6",
        note: "Erratum: the lecture slides write ε = ρ + 4ρ ln(1/δ) and drop the square in ρ(ε, δ) (\"Scenario 2\").",
    },
    Formula {
                name: "Gaussian: trade-off curve",
        formula: "β(α) = Φ(Φ⁻¹(1 − α) − Δ/σ)",
        source: "Dong, Roth & Su, Gaussian differential privacy (JRSS-B 2022), eq. (2.3)",
        note: "",
    },
    Formula {
                name: "Truncated Laplace: support bound",
        formula: "M(x) = f(x) + (Δ/ε)·W, W ∝ e^(−|w|) on [−τ, τ];  τ = ln(1 + (e^ε − 1)/(2δ))",
        source: "Approximate-DP notes, eqs. (14)–(15) and Exercise 1.5; Geng, Ding, Guo & Kumar (AISTATS 2020)",
        note: "δ is exactly the mass x′ cannot produce, e^(−τ)(e^ε − 1)/(2(1 − e^(−τ))). Log space; τ rounded up by 1e-12 relative. Needs δ < 1/2.",
    },
    Formula {
                name: "Exponential mechanism",
        formula: "P[r] ∝ exp(ε·u(x, r)/(2Δu))",
        source: "McSherry & Talwar (FOCS 2007); Dwork & Roth (2014), Theorem 3.10",
        note: "Softmax with the largest exponent subtracted.",
    },
    Formula {
                name: "Many queries: expected largest error",
        formula: "Laplace: (k/ε)·H_k;  Gaussian: σ(ε, δ, Δ₂ = √k)·∫₀^∞ 1 − (1 − 2Φ(−t))^k dt",
        source: "Approximate-DP notes §2.2, eqs. (36)–(37) give the orders k log k/ε and √(k log k log(1/δ))/ε",
        note: "H_k from Rényi's representation of exponential order statistics; the Gaussian integral by Simpson's rule (1e-10).",
    },
    Formula {
                name: "Bad set (Lemma 1.4)",
        formula: "Bad = {y : P[M(x) = y] > e^ε P[M(x′) = y]};  P[M(x) ∈ Bad] ≤ δ ⇒ (ε, δ)-DP",
        source: "Approximate-DP notes, Lemma 1.4",
        note: "The exact δ(ε) = E[(1 − e^(ε − L))₊] is never larger than P[Bad].",
    },
];

/// Which side each of this lab's key numbers errs on.
pub const SIDES: &[NumberSide] = &[
    n(
        "δ(ε) of Laplace, Gaussian, truncated Laplace",
        Side::Exact,
        "Closed-form privacy profiles, in log space where δ is tiny.",
    ),
    n(
        "analytic Gaussian σ",
        Side::Upper,
        "Bisection returns the upper end, with the evaluation's own rounding bound added.",
    ),
    n(
        "classical and lecture σ",
        Side::Upper,
        "Proved only for ε ≤ 1 (the lab says so when ε > 1).",
    ),
    n(
        "many-queries error",
        Side::Estimate,
        "Monte Carlo from the seed.",
    ),
];
