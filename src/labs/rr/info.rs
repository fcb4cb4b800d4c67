//! This lab's descriptor ([`INFO`]), and what the About page says of it: every formula it uses with
//! its source, and which side each of its numbers errs on (kept apart from [`INFO`], so that only the
//! About page links their text).

use crate::jobs::WorkerModule;
use crate::labs::descriptor::{n, Formula, LabInfo, NumberSide, Side};
use crate::labs::WorkerOnLoad;

/// This lab's descriptor: when it needs the worker, the keys it reads and shares, its embed height.
pub const INFO: LabInfo = LabInfo {
    worker_on_load: WorkerOnLoad::When("shuffle", "1"),
    worker: Some(WorkerModule::Accounting),
    shared_keys: &["seed", "threads"],
    printed_keys: &[
        "eps",
        "k",
        "n",
        "truth",
        "reps",
        "seed",
        "cat",
        "population",
    ],
    optional_keys: &["shuffle", "delta"],
    embed_height: 1400,
};

/// The formulas this lab uses.
pub const FORMULAS: &[Formula] = &[
    Formula {
                name: "Truthful report probability",
        formula: "p = e^ε / (K − 1 + e^ε)",
        source: "Lecture slides, \"Randomized responses\"; Warner (JASA 1965) for K = 2; Kairouz, Bonawitz & Ramage (ICML 2016) for K ≥ 2",
        note: "Computed as 1/(1 + (K−1)e^(−ε)), which cannot overflow.",
    },
    Formula {
                name: "Probability of each other report",
        formula: "q = 1 / (K − 1 + e^ε)",
        source: "As above. The slide's \"otherwise answer at random\" means one of the other K − 1 categories.",
        note: "p − q = (1 − e^(−ε))/(1 + (K−1)e^(−ε)), with 1 − e^(−ε) computed as −expm1(−ε) for small ε.",
    },
    Formula {
                name: "Privacy: likelihood ratio of a report",
        formula: "P[report r | truth a] / P[report r | truth b] ≤ p/q = e^ε",
        source: "Definition of ε-local DP (lecture slides, \"Differential privacy\" and \"Randomized responses\")",
        note: "Equality for r = a; every other ratio is 1 or e^(−ε).",
    },
    Formula {
                name: "Unbiased frequency estimate",
        formula: "π̂_j = (λ̂_j − q) / (p − q),  λ̂_j = c_j / n",
        source: "Wang, Blocki, Li & Jha (USENIX Security 2017), §4; Kairouz, Bonawitz & Ramage (ICML 2016)",
        note: "Unbiased because E[λ̂_j] = λ_j = q + π_j(p − q); it can leave [0, 1].",
    },
    Formula {
                name: "Variance of the estimate",
        formula: "Var(π̂_j) = λ_j(1 − λ_j) / (n (p − q)²)",
        source: "Wang, Blocki, Li & Jha (USENIX Security 2017), §4: binomial variance of the report count over the squared gap",
        note: "Respondents' true answers are drawn from the population distribution, so reports are i.i.d. with law λ.",
    },
    Formula {
                name: "Variance for a fixed population (population=fixed)",
        formula: "Var(π̂_j) = [π_j p(1 − p) + (1 − π_j) q(1 − q)] / (n (p − q)²),  π_j = n_j/n",
        source: "Variance of a sum of independent Bernoulli reports (Poisson-binomial); the i.i.d. one exceeds it by π_j(1 − π_j)/n",
        note: "True counts n_j = n·π_j rounded to sum to n (largest remainder); only the coin flips vary.",
    },
    Formula {
                name: "95% interval",
        formula: "π̂_j ± 1.959964 · sqrt(λ̂_j(1 − λ̂_j)/n) / (p − q)",
        source: "Normal approximation (Wald interval) with the plug-in standard error",
        note: "z = Φ⁻¹(0.975) = 1.959963984540054 (scipy.stats.norm.ppf).",
    },
];

/// Which side each of this lab's key numbers errs on.
pub const SIDES: &[NumberSide] = &[
    n(
        "p, q, e^ε",
        Side::Exact,
        "Closed forms, computed without overflow.",
    ),
    n(
        "estimate π̂ and the 95% interval",
        Side::Estimate,
        "Unbiased estimate; Wald interval (normal approximation with a plug-in standard error).",
    ),
    n(
        "standard error (i.i.d. and fixed population)",
        Side::Exact,
        "Binomial and Poisson-binomial variances over the squared gap.",
    ),
    n(
        "spread over repeated surveys",
        Side::Estimate,
        "Monte Carlo from the link's seed.",
    ),
];
