//! Every formula the playground uses, with its source: the About page lists these. Each lab adds its own.

/// One formula as the About page shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Formula {
    /// The lab that uses it (its `lab` key).
    pub lab: &'static str,
    /// What it computes.
    pub name: &'static str,
    /// The formula in plain Unicode.
    pub formula: &'static str,
    /// Paper and theorem, slide or closed form it comes from.
    pub source: &'static str,
    /// How it is computed (rounding, stability), where it matters.
    pub note: &'static str,
}

/// All formulas, grouped by lab.
pub const FORMULAS: &[Formula] = &[
    Formula {
        lab: "rr",
        name: "Truthful report probability",
        formula: "p = e^ε / (K − 1 + e^ε)",
        source: "Lecture slides, \"Randomized responses\"; Warner (JASA 1965) for K = 2; Kairouz, Bonawitz & Ramage (ICML 2016) for K ≥ 2",
        note: "Computed as 1/(1 + (K−1)e^(−ε)), which cannot overflow.",
    },
    Formula {
        lab: "rr",
        name: "Probability of each other report",
        formula: "q = 1 / (K − 1 + e^ε)",
        source: "As above. The slide's \"otherwise answer at random\" means one of the other K − 1 categories.",
        note: "p − q = (1 − e^(−ε))/(1 + (K−1)e^(−ε)), with 1 − e^(−ε) computed as −expm1(−ε) for small ε.",
    },
    Formula {
        lab: "rr",
        name: "Privacy: likelihood ratio of a report",
        formula: "P[report r | truth a] / P[report r | truth b] ≤ p/q = e^ε",
        source: "Definition of ε-local DP (lecture slides, \"Differential privacy\" and \"Randomized responses\")",
        note: "Equality for r = a; every other ratio is 1 or e^(−ε).",
    },
    Formula {
        lab: "rr",
        name: "Unbiased frequency estimate",
        formula: "π̂_j = (λ̂_j − q) / (p − q),  λ̂_j = c_j / n",
        source: "Wang, Blocki, Li & Jha (USENIX Security 2017), §4; Kairouz, Bonawitz & Ramage (ICML 2016)",
        note: "Unbiased because E[λ̂_j] = λ_j = q + π_j(p − q); it can leave [0, 1].",
    },
    Formula {
        lab: "rr",
        name: "Variance of the estimate",
        formula: "Var(π̂_j) = λ_j(1 − λ_j) / (n (p − q)²)",
        source: "Wang, Blocki, Li & Jha (USENIX Security 2017), §4: binomial variance of the report count over the squared gap",
        note: "Respondents' true answers are drawn from the population distribution, so reports are i.i.d. with law λ.",
    },
    Formula {
        lab: "rr",
        name: "95% interval",
        formula: "π̂_j ± 1.959964 · sqrt(λ̂_j(1 − λ̂_j)/n) / (p − q)",
        source: "Normal approximation (Wald interval) with the plug-in standard error",
        note: "z = Φ⁻¹(0.975) = 1.959963984540054 (scipy.stats.norm.ppf).",
    },
];
