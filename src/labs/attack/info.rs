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
    shared_keys: &["delta", "threads"],
    printed_keys: &[
        "source",
        "q",
        "sigma",
        "steps",
        "neighbour",
        "delta",
        "alpha",
        "prior",
        "target_adv",
        "target_tpr",
        "conf",
    ],
    optional_keys: &["list", "tp", "fp", "fn", "tn"],
    embed_height: 2000,
};

/// The formulas this lab uses.
pub const FORMULAS: &[Formula] = &[
    Formula {
                name: "Trade-off curve from a PLD",
        formula: "β(α) through the Neyman–Pearson vertices (Σ_{ℓ_i ≥ ℓ} p_i e^(−ℓ_i), 1 − p_∞ − Σ_{ℓ_i ≥ ℓ} p_i), the smaller of both roles",
        source: "Dong, Roth & Su (JRSS-B 2022), Prop. 2.12 (f-DP is the dual of the privacy profile); Neyman–Pearson lemma",
        note: "From the dominating PLD: a certified lower bound on the attacker's false-negative rate. The dominated PLD gives the optimistic curve.",
    },
    Formula {
                name: "Risk numbers",
        formula: "TPR ≤ 1 − β(α);  advantage = max TPR − FPR = δ(0);  posterior success ≤ (1 − π) + π δ(ln((1 − π)/π));  (ε, δ): (e^ε − 1 + 2δ)/(e^ε + 1)",
        source: "Kairouz, Oh & Viswanath (2015); Dong, Roth & Su (2022), eq. (2.5); Kulynych et al. (NeurIPS 2024, riskcal)",
        note: "Each read from the dominating PLD, so each is an upper bound on what an attacker achieves.",
    },
    Formula {
                name: "Gaussian differential privacy",
        formula: "G_μ(α) = Φ(Φ⁻¹(1 − α) − μ);  best fit μ = max_α Φ⁻¹(1 − α) − Φ⁻¹(β(α));  DP-SGD's CLT: μ = q√(T(e^(1/σ²) − 1))",
        source: "Dong, Roth & Su (2022), Def. 2.7; Bu, Dong, Long & Su (HDSR 2020), Cor. 5.4",
        note: "The CLT μ is an approximation that can under-state the risk; the page says where its curve lies above the certified one.",
    },
    Formula {
                name: "Audit: the ε an attack proves",
        formula: "ε ≥ max(ln((1 − δ − β̄)/ᾱ), ln((1 − δ − ᾱ)/β̄)),  ᾱ, β̄ one-sided Clopper–Pearson upper bounds at (1 − conf)/2",
        source: "Jagielski, Ullman & Oprea (NeurIPS 2020); Nasr et al. (IEEE S&P 2021); Clopper & Pearson (1934)",
        note: "A lower bound on ε holding with probability ≥ conf.",
    },
];

/// Which side each of this lab's key numbers errs on.
pub const SIDES: &[NumberSide] = &[
    n(
        "β at α and the drawn curve (certified)",
        Side::Lower,
        "From the dominating PLD: the attacker's false-negative rate is never below it.",
    ),
    n(
        "β at α, optimistic",
        Side::Estimate,
        "From the dominated PLD; the exact curve lies between the two.",
    ),
    n(
        "TPR at FPR, advantage, posterior success",
        Side::Upper,
        "Read from the dominating PLD (advantage = δ(0)).",
    ),
    n(
        "σ for an advantage or TPR target",
        Side::Upper,
        "The search returns only σ's checked to meet the target.",
    ),
    n(
        "central-limit μ (Bu et al.)",
        Side::Estimate,
        "An approximation that can under-state the risk; drawn with a warning.",
    ),
    n(
        "audit ε",
        Side::Lower,
        "What the counts prove at the stated confidence (Clopper–Pearson).",
    ),
];
