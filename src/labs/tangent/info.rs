//! This lab's descriptor ([`INFO`]), and what the About page says of it: every formula it uses with
//! its source, and which side each of its numbers errs on (kept apart from [`INFO`], so that only the
//! About page links their text).

use crate::jobs::WorkerModule;
use crate::labs::descriptor::{n, Formula, LabInfo, NumberSide, Side};
use crate::labs::WorkerOnLoad;

/// This lab's descriptor: when it needs the worker, the keys it reads and shares, its embed height.
pub const INFO: LabInfo = LabInfo {
    worker_on_load: WorkerOnLoad::Always,
    worker: Some(WorkerModule::Research),
    shared_keys: &["seed", "threads"],
    printed_keys: &[
        "model", "loss", "beta", "n", "seed", "xgrid", "remove", "samples",
    ],
    optional_keys: &["wgrid", "data"],
    embed_height: 2400,
};

/// The formulas this lab uses.
pub const FORMULAS: &[Formula] = &[
    Formula {
                name: "Gibbs distribution of entropic regularization",
        formula: "q(w) ∝ exp(−β Σ_i p_i r(w, x_i)) on the parameter grid",
        source: "Ying (J. Mach. Learn. 2025), eq. (3.1); McSherry & Talwar (2007)",
        note: "Normalised by log-sum-exp around the smallest risk, so any β is finite.",
    },
    Formula {
                name: "Tangent maps",
        formula: "DA_p = −β(diag(q) − qqᵀ)r;  D(log∘A)_p = −β(I − 1qᵀ)r",
        source: "Ying (2025), §3 (matrix forms after eq. 3.1)",
        note: "Checked against central differences of the exact map; computed one column at a time, never stored whole.",
    },
    Formula {
                name: "Operator norms, TV case",
        formula: "L¹→L¹: β max_x Σ_w q|r − r̄|;  L¹→L^∞: β max_(w,x) |r − r̄|;  tangent space: max_(i≠j) ‖M(e_i − e_j)‖/2",
        source: "Ying (2025), Example 2.1, Theorems 3.1 (R = max_x Σ_w q r) and 3.2 (R = max |r|)",
        note: "r̄(x) = Σ_w q(w) r(w,x). Pairs exactly when affordable, else a range: best pair among the 24 heaviest columns to (top two)/2.",
    },
    Formula {
                name: "Operator norms, Wasserstein case",
        formula: "Ḣ⁻¹(p)→L^∞: β max_w ‖∂ₓr(w,·) − ∂ₓr̄‖_(L²(p));  Ḣ⁻¹(p)→L¹: β max_(‖u‖=1) ‖Bu‖₁, B = q(w)√p_i G(w,i)",
        source: "Ying (2025), Example 2.2, Theorems 3.3 and 3.4",
        note: "The 2→1 norm has no closed form: lower bound by alternating sign iteration, upper bound Σ_w ‖B(w,·)‖₂. Theorem 3.3 as stated fails when ∂ₓr changes sign over w; R = Σ_w q‖r(w,·)‖_(Ḣ¹(p)) repairs it.",
    },
    Formula {
                name: "Exponential-mechanism view",
        formula: "ε = 2β·max r / N for one point replaced",
        source: "McSherry & Talwar (2007): score −Σ_i r(w,x_i)/N has sensitivity max r / N",
        note: "max r over the grid and the candidate set; over all x it is infinite for the logistic and hinge losses.",
    },
];

/// Which side each of this lab's key numbers errs on.
pub const SIDES: &[NumberSide] = &[
    n(
        "norm ranges",
        Side::Exact,
        "Certified lower and upper ends where no closed form exists (each side labelled).",
    ),
    n(
        "Monte Carlo and Langevin",
        Side::Estimate,
        "Shown with their simultaneous error.",
    ),
];
