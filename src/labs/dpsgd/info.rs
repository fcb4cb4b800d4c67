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
        "n",
        "batch",
        "sigma",
        "epochs",
        "delta",
        "target_eps",
        "neighbour",
    ],
    optional_keys: &[
        "q", "steps", "grid", "sampler", "cap", "users", "schedule", "tuning",
    ],
    embed_height: 1600,
};

/// The formulas this lab uses.
pub const FORMULAS: &[Formula] = &[
    Formula {
                name: "RDP of a Poisson-subsampled Gaussian step",
        formula: "ε(α) = ln A_α/(α − 1),  A_α = Σ_i C(α, i)(1 − q)^(α−i) q^i e^((i² − i)/(2σ²)) (integer α; two series for fractional α)",
        source: "Mironov, Talwar & Zhang (2019), §3.3; the lecture's amplification slide gives the integer-order bound",
        note: "Orders as dp_accounting's RdpAccountant; T steps add up; ln|Γ| by reflection for the series' negative arguments.",
    },
    Formula {
                name: "RDP → (ε, δ)",
        formula: "ε = min_α ε(α) + ln(1 − 1/α) − ln(δα)/(α − 1)  (classical: ε(α) + ln(1/δ)/(α − 1))",
        source: "Canonne, Kamath & Steinke (2020), Prop. 12; Asoodeh et al. (2020); Mironov (2017), Prop. 3",
        note: "The improved conversion is what dp_accounting and Opacus use; both are shown.",
    },
    Formula {
                name: "PLD accountant, both sides",
        formula: "δ(ε) = E[(1 − e^(ε − L))₊] of the T-fold convolution of the step's privacy loss L; upper: chords through δ at grid points; lower: chords lowered below δ (by sliver tangents) and their convex hull",
        source: "Koskela, Jälkö & Honkela (AISTATS 2020); connect-the-dots discretization: Doroshenko et al. (PETS 2022)",
        note: "Grid 1e-4 (wider for long runs, at most 2^17 points; a link's grid key asks for a finer one), mass beyond a Chernoff window counted at +∞ (upper) or dropped (lower); real-input FFT by realfft on rustfft, its noise floor added (upper) or subtracted (lower). The exact ε lies between the two; not reported below δ = 1e-10.",
    },
    Formula {
                name: "Lecture scenarios",
        formula: "1: b = B/(m ln(1 + (e^(ε/T) − 1) n/m));  2: ρ = (√(ln(1/δ) + ε) − √ln(1/δ))², σ² = T B²/(2 n² ρ);  3: RDP with Poisson subsampling",
        source: "Lecture slides, \"Scenario 1–3\"; Bun & Steinke (2016) for scenario 2",
        note: "Errata: scenario 2's ρ is missing its square and σ² has ρ² for ρ (and the factor 2 of Prop. 1.6).",
    },
];

/// Which side each of this lab's key numbers errs on.
pub const SIDES: &[NumberSide] = &[
    n("ε, RDP accountant (any real order)", Side::Upper, "Exact integer-order sums; fractional orders by integration with twice its error estimate added (for very small σ, where the integral would cost seconds, the series of |terms| rounded up); minimised over continuous α."),
    n("ε, RDP on dp_accounting's orders", Side::Upper, "Its grid of orders and its fractional-order series of |terms| (an upper bound, looser), for comparison."),
    n("ε, PLD (certified upper) and PLD lower bound", Side::Upper, "As in the composition lab: the exact ε lies between the two."),
    n("σ for the target ε (RDP and PLD)", Side::Upper, "The search only ever returns a σ whose certified ε was checked to meet the target (never overshoots)."),
    n("the lecture's scenarios", Side::Exact, "Closed forms, with the slides' typos corrected."),
];
