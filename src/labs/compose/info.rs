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
    printed_keys: &["list", "delta"],
    optional_keys: &["grid"],
    embed_height: 1400,
};

/// The formulas this lab uses.
pub const FORMULAS: &[Formula] = &[
    Formula {
                name: "Basic and advanced composition",
        formula: "(Σk_iε_i, Σk_iδ_i);  ε = √(2 ln(1/δ′) Σk_iε_i²) + Σk_iε_i(e^(ε_i) − 1) at δ = Σk_iδ_i + δ′ (k_i repetitions)",
        source: "Dwork & Roth (2014), Theorems 3.16 and 3.20; Dwork, Rothblum & Vadhan (FOCS 2010)",
        note: "Approximate mechanisms share δ/2 equally (basic: all of δ), the rest is the slack δ′.",
    },
    Formula {
                name: "Optimal composition of k identical mechanisms",
        formula: "smallest ε′ with 1 − (1 − δ)^k(1 − δ_k(ε′)) ≤ δ_target,  δ_k(ε′) = S_P − e^ε′ S_Q over the atoms (k − 2l)ε > ε′ of k-fold randomized response",
        source: "Kairouz, Oh & Viswanath (ICML 2015), Theorem 3.3, evaluated between its grid points too (the exact optimum)",
        note: "Log space; shown when the list has a single entry (k ≤ 10⁴).",
    },
    Formula {
                name: "RDP of the list's mechanisms",
        formula: "Laplace: ln(α/(2α−1)e^((α−1)ε) + (α−1)/(2α−1)e^(−αε))/(α−1); Gaussian α/(2σ²); K-ary RR: ln(p^α q^(1−α) + q^α p^(1−α) + (K − 2)q)/(α−1); pure ε: min(ε, αε²/2)",
        source: "Mironov (CSF 2017), Propositions 5–6; Bun & Steinke (2016), Prop. 1.4",
        note: "Summed over the list at dp_accounting's orders; (ε, δ) entries with δ > 0 have no Rényi curve (RDP and zCDP show n/a).",
    },
    Formula {
                name: "PLD of an (ε, δ) entry and of subsampling without replacement",
        formula: "dominating pair: δ + (1 − δ)(p − e^ε′ q), p = e^ε/(1 + e^ε);  subsample rate r: (ln(1 + r(e^ε − 1)), rδ)",
        source: "Kairouz, Oh & Viswanath (2015), Theorem 2.1; Balle, Barthe & Gaboardi (NeurIPS 2018); lecture slide on amplification",
        note: "The amplified pair is an upper bound, not a pair that happens, so the lower side comes from one that does: the replaced record's mechanism mixed into its replacement's, ((1 − r)B + rA, B) either way round (for a Gaussian, the Poisson-subsampled Gaussian's pair). The band can be wide: no tight pair is known.",
    },
];

/// Which side each of this lab's key numbers errs on.
pub const SIDES: &[NumberSide] = &[
    n("basic, advanced composition", Side::Upper, "Theorems applied in closed form to every count."),
    n("optimal, k identical (Kairouz–Oh–Viswanath)", Side::Upper, "Exact for randomized response, an upper bound for any other (ε, δ) mechanism; rounded up."),
    n("RDP and zCDP ε", Side::Upper, "Conversions of exact Rényi curves (fractional subsampled-Gaussian orders rounded up), minimised over every real order; the grid value beside it."),
    n("PLD, certified upper", Side::Upper, "Connect-the-dots discretization dominates the true PLD; truncated mass counts at +∞ and the FFT's noise floor is added to every point."),
    n("PLD, lower bound", Side::Lower, "Chords lowered below the convex profile; truncated mass dropped and the FFT's noise floor subtracted. Known slack: where a loss atom falls within h/1024 below a grid point, the lower ε can exceed the exact one by ~1e-8 relative (the upper bound is unaffected)."),
];
