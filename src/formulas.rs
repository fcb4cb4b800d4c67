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
    Formula {
        lab: "mechanisms",
        name: "Laplace mechanism",
        formula: "M(x) = f(x) + Lap(b), b = Δ₁/ε;  δ(ε′) = 1 − e^((ε′ − Δ/b)/2) for ε′ < Δ/b",
        source: "Dwork, McSherry, Nissim & Smith (TCC 2006); approximate-DP notes eq. (13); profile from Lemma 1.4's bad set (exact for Laplace)",
        note: "The profile uses expm1; the trade-off curve is Dong, Roth & Su (2022), §2.2.",
    },
    Formula {
        lab: "mechanisms",
        name: "Gaussian σ: lecture notes",
        formula: "σ = Δ·√(2 ln(2/δ))/ε",
        source: "Approximate-DP notes, eq. (17), Theorem 2.1 (ε ≤ 1 only)",
        note: "The lab shows the exact δ this σ achieves; beyond ε = 1 it can exceed the target.",
    },
    Formula {
        lab: "mechanisms",
        name: "Gaussian σ: classical",
        formula: "σ = Δ·√(2 ln(1.25/δ))/ε",
        source: "Dwork & Roth (2014), Theorem A.1 (ε < 1 only)",
        note: "",
    },
    Formula {
        lab: "mechanisms",
        name: "Gaussian: exact privacy profile and analytic σ",
        formula: "δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ);  σ = min{σ : δ(ε) ≤ δ}",
        source: "Balle & Wang, ICML 2018, Theorem 8 and Algorithm 1",
        note: "Log space with libm's erfc and an asymptotic ln Φ tail; bisection on ln σ that counts a σ as enough only if δ plus its floating-point error bound is ≤ δ(1 − 1e-12): rounds up.",
    },
    Formula {
        lab: "mechanisms",
        name: "Gaussian: zCDP",
        formula: "ρ = Δ²/(2σ²);  ε = ρ + 2√(ρ ln(1/δ));  ρ(ε, δ) = (√(ln(1/δ) + ε) − √ln(1/δ))²",
        source: "Bun & Steinke, TCC 2016, Propositions 1.3 and 1.6",
        note: "Erratum: the lecture slides write ε = ρ + 4ρ ln(1/δ) and drop the square in ρ(ε, δ) (\"Scenario 2\").",
    },
    Formula {
        lab: "mechanisms",
        name: "Gaussian: trade-off curve",
        formula: "β(α) = Φ(Φ⁻¹(1 − α) − Δ/σ)",
        source: "Dong, Roth & Su, Gaussian differential privacy (JRSS-B 2022), eq. (2.3)",
        note: "",
    },
    Formula {
        lab: "mechanisms",
        name: "Truncated Laplace: support bound",
        formula: "M(x) = f(x) + (Δ/ε)·W, W ∝ e^(−|w|) on [−τ, τ];  τ = ln(1 + (e^ε − 1)/(2δ))",
        source: "Approximate-DP notes, eqs. (14)–(15) and Exercise 1.5; Geng, Ding, Guo & Kumar (AISTATS 2020)",
        note: "δ is exactly the mass x′ cannot produce, e^(−τ)(e^ε − 1)/(2(1 − e^(−τ))). Log space; τ rounded up by 1e-12 relative. Needs δ < 1/2.",
    },
    Formula {
        lab: "mechanisms",
        name: "Exponential mechanism",
        formula: "P[r] ∝ exp(ε·u(x, r)/(2Δu))",
        source: "McSherry & Talwar (FOCS 2007); Dwork & Roth (2014), Theorem 3.10",
        note: "Softmax with the largest exponent subtracted.",
    },
    Formula {
        lab: "mechanisms",
        name: "Many queries: expected largest error",
        formula: "Laplace: (k/ε)·H_k;  Gaussian: σ(ε, δ, Δ₂ = √k)·∫₀^∞ 1 − (1 − 2Φ(−t))^k dt",
        source: "Approximate-DP notes §2.2, eqs. (36)–(37) give the orders k log k/ε and √(k log k log(1/δ))/ε",
        note: "H_k from Rényi's representation of exponential order statistics; the Gaussian integral by Simpson's rule (1e-10).",
    },
    Formula {
        lab: "mechanisms",
        name: "Bad set (Lemma 1.4)",
        formula: "Bad = {y : P[M(x) = y] > e^ε P[M(x′) = y]};  P[M(x) ∈ Bad] ≤ δ ⇒ (ε, δ)-DP",
        source: "Approximate-DP notes, Lemma 1.4",
        note: "The exact δ(ε) = E[(1 − e^(ε − L))₊] is never larger than P[Bad].",
    },
    Formula {
        lab: "dpsgd",
        name: "RDP of a Poisson-subsampled Gaussian step",
        formula: "ε(α) = ln A_α/(α − 1),  A_α = Σ_i C(α, i)(1 − q)^(α−i) q^i e^((i² − i)/(2σ²)) (integer α; two series for fractional α)",
        source: "Mironov, Talwar & Zhang (2019), §3.3; the lecture's amplification slide gives the integer-order bound",
        note: "Orders as dp_accounting's RdpAccountant; T steps add up; ln|Γ| by reflection for the series' negative arguments.",
    },
    Formula {
        lab: "dpsgd",
        name: "RDP → (ε, δ)",
        formula: "ε = min_α ε(α) + ln(1 − 1/α) − ln(δα)/(α − 1)  (classical: ε(α) + ln(1/δ)/(α − 1))",
        source: "Canonne, Kamath & Steinke (2020), Prop. 12; Asoodeh et al. (2020); Mironov (2017), Prop. 3",
        note: "The improved conversion is what dp_accounting and Opacus use; both are shown.",
    },
    Formula {
        lab: "dpsgd",
        name: "PLD accountant",
        formula: "δ(ε) = E[(1 − e^(ε − L))₊] of the T-fold convolution of the step's privacy loss L",
        source: "Koskela, Jälkö & Honkela (AISTATS 2020); connect-the-dots discretization: Doroshenko et al. (PETS 2022)",
        note: "Grid 1e-4 (wider for long runs, at most 2^17 points), mass beyond a Chernoff window counted at +∞; FFT by rustfft. Pessimistic: never below the true ε.",
    },
    Formula {
        lab: "dpsgd",
        name: "Lecture scenarios",
        formula: "1: b = B/(m ln(1 + (e^(ε/T) − 1) n/m));  2: ρ = (√(ln(1/δ) + ε) − √ln(1/δ))², σ² = T B²/(2 n² ρ);  3: RDP with Poisson subsampling",
        source: "Lecture slides, \"Scenario 1–3\"; Bun & Steinke (2016) for scenario 2",
        note: "Errata: scenario 2's ρ is missing its square and σ² has ρ² for ρ (and the factor 2 of Prop. 1.6).",
    },
    Formula {
        lab: "compose",
        name: "Basic and advanced composition",
        formula: "(Σε_i, Σδ_i);  ε = √(2 ln(1/δ′) Σε_i²) + Σε_i(e^(ε_i) − 1) at δ = Σδ_i + δ′",
        source: "Dwork & Roth (2014), Theorems 3.16 and 3.20; Dwork, Rothblum & Vadhan (FOCS 2010)",
        note: "Approximate mechanisms share δ/2 equally (basic: all of δ), the rest is the slack δ′.",
    },
    Formula {
        lab: "compose",
        name: "Optimal composition of k identical mechanisms",
        formula: "((k − 2i)ε, 1 − (1 − δ)^k(1 − δ_i)),  δ_i = Σ_(l<i) C(k,l)(e^((k−l)ε) − e^((k−2i+l)ε))/(1 + e^ε)^k",
        source: "Kairouz, Oh & Viswanath (ICML 2015), Theorem 3.3",
        note: "Log space; shown when the list has a single entry (k ≤ 10⁴).",
    },
    Formula {
        lab: "compose",
        name: "RDP of the list's mechanisms",
        formula: "Laplace: ln(α/(2α−1)e^((α−1)ε) + (α−1)/(2α−1)e^(−αε))/(α−1); Gaussian α/(2σ²); RR: ln(p^α q^(1−α) + q^α p^(1−α))/(α−1); pure ε: min(ε, αε²/2)",
        source: "Mironov (CSF 2017), Propositions 5–6; Bun & Steinke (2016), Prop. 1.4",
        note: "Summed over the list at dp_accounting's orders; (ε, δ) entries with δ > 0 have no Rényi curve (RDP and zCDP show n/a).",
    },
    Formula {
        lab: "compose",
        name: "PLD of an (ε, δ) entry and of subsampling without replacement",
        formula: "dominating pair: δ + (1 − δ)(p − e^ε′ q), p = e^ε/(1 + e^ε);  subsample rate r: (ln(1 + r(e^ε − 1)), rδ)",
        source: "Kairouz, Oh & Viswanath (2015), Theorem 2.1; Balle, Barthe & Gaboardi (NeurIPS 2018); lecture slide on amplification",
        note: "",
    },
    Formula {
        lab: "wdp",
        name: "RDP of the Laplace and Gaussian mechanisms (Figure 1)",
        formula: "Laplace: α > 1: ln(α/(2α−1)·e^((α−1)/λ) + (α−1)/(2α−1)·e^(−α/λ))/(α−1), α = 1: 1/λ + e^(−1/λ) − 1;  Gaussian: αΔ²/(2σ²)",
        source: "Mironov (CSF 2017), Table 2; Table 1 of Yang, Qi & Zhou (AAAI 2024)",
        note: "Near α = 1 as ln(1 + uK)/u with u = α − 1 (no cancellation); log-sum-exp for large α. Laplace with Δ uses λ/Δ.",
    },
    Formula {
        lab: "wdp",
        name: "WDP of the Laplace and Gaussian mechanisms, as stated",
        formula: "Laplace: ½Δ(√(2(1/λ + e^(−1/λ) − 1)))^(1/μ);  Gaussian: ½(Δ/σ)^(1/μ)",
        source: "Yang, Qi & Zhou (AAAI 2024), Propositions 7 and 8 (Table 1)",
        note: "The paper's bounds, shown as stated: the exact W_μ distance between an output and its shift by Δ is Δ itself.",
    },
    Formula {
        lab: "wdp",
        name: "Raw absolute moment of a normal variable",
        formula: "E|Z|^μ = (2s²)^(μ/2) Γ((μ+1)/2)/√π · ₁F₁(−μ/2; ½; −m²/(2s²)),  Z ~ N(m, s²)",
        source: "Winkelbauer (2012), eq. (17); Lemma 1 of Yang, Qi & Zhou (AAAI 2024)",
        note: "Log space. Kummer's transformation ₁F₁(a; b; −x) = e^(−x)₁F₁(b − a; b; x) (all-positive series); the large-x expansion |m|^μ Σ(−μ/2)_k((1−μ)/2)_k/k! x^(−k) for x ≥ max(2000, 16μ²). Accurate to ~1e-13 (mpmath).",
    },
    Formula {
        lab: "wdp",
        name: "Moments and Bayesian accountants (Figure 2)",
        formula: "c(r) = ln Σ_(k=0)^(λ+1) Binom(k; λ+1, q) e^(k(k−1)r²/(2σ²));  DP: r = 2, ε = (Σc − ln δ)/λ;  BDP: r = d_ab/C, Student-t upper estimate of ln E e^(T c)/T",
        source: "Abadi et al. (CCS 2016); Triastcyn & Faltings (2020); estimator constants from the WDP authors' code (spec wdp-figures.md)",
        note: "Penalty uses t_(n−1).ppf(1 − 2⁻⁵³) computed from the upper tail (statrs' incomplete beta), not from 1 − p.",
    },
    Formula {
        lab: "wdp",
        name: "Wasserstein accountant (Corollary 1)",
        formula: "ε = Σ_t (Σ_pairs E|Z_ab|^μ)^(1/μ) − (ln δ)/β,  Z_ab ~ N(q d_ab, (2 − 2q + 2q²)σ²C_t²)",
        source: "Yang, Qi & Zhou (AAAI 2024), Theorem 2, Theorem 3 and Corollary 1",
        note: "Sums over pairs as the authors' code does; the \"inf over d_t\" variant (closest pair alone) is a toggle.",
    },
];
