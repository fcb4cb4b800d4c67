//! This lab's descriptor ([`INFO`]), and what the About page says of it: every formula it uses with
//! its source, and which side each of its numbers errs on (kept apart from [`INFO`], so that only the
//! About page links their text).

use crate::jobs::WorkerModule;
use crate::labs::descriptor::{n, Formula, LabInfo, NumberSide, Side};
use crate::labs::WorkerOnLoad;

/// This lab's descriptor: when it needs the worker, the keys it reads and shares, its embed height.
pub const INFO: LabInfo = LabInfo {
    worker_on_load: WorkerOnLoad::Always,
    worker: Some(WorkerModule::Train),
    shared_keys: &["delta", "seed", "threads"],
    printed_keys: &[
        "data",
        "split",
        "model",
        "lambda",
        "lr",
        "batch",
        "sigma",
        "clip",
        "epochs",
        "delta",
        "target_eps",
        "seed",
        "seeds",
        "sweep",
    ],
    optional_keys: &[
        "mech",
        "compare",
        "compare_eps",
        "plan_n",
        "sampler",
        "cap",
        "n",
        "hidden",
        "dim",
        "noise",
        "stop",
        "steps",
        "act",
        "q",
        "audit",
        "canary",
        "threat",
        "runs",
        "conf",
        "bug",
        "canaries",
        "canary_at",
        "canary_label",
        "mia",
        "shadows",
    ],
    embed_height: 2400,
};

/// The formulas this lab uses.
pub const FORMULAS: &[Formula] = &[
    Formula {
                name: "DP-SGD step, as trained",
        formula: "θ ← θ − η((Σ_{i∈B} g_i·min(1, C/‖g_i‖) + σC·Z)/(q n) + λ θ_w),  B Poisson(q), Z ~ N(0, I)",
        source: "Abadi et al. (CCS 2016), Algorithm 1 with Poisson sampling; the lecture's \"Scenario 3\" (its 1/m is the expected batch q n here)",
        note: "The normaliser is the expected batch size fixed in advance, never the realised one (which would leak: Opacus issues #571, #819). λ on weights only, as scikit-learn.",
    },
    Formula {
                name: "Log-loss and its per-example gradient",
        formula: "f(θ; x, y) = ln(1 + e^z) − y z,  ∂f/∂z = σ(z) − y,  z the logit (logistic regression or the MLP's output)",
        source: "The lecture's logistic regression slide (f = −ln p(y | z, θ)); backpropagation for the MLP",
        note: "Softplus as max(z, 0) + ln(1 + e^−|z|): finite for every z. Gradients checked against finite differences.",
    },
];

/// Which side each of this lab's key numbers errs on.
pub const SIDES: &[NumberSide] = &[
    n("ε after the steps run (PLD, certified upper; RDP)", Side::Upper, "The DP-SGD lab's accountants on the same q, σ, T, δ: the training runs the mechanism they account for (Poisson sampling, clipping to C, noise σC on the sum, the expected batch size as normaliser)."),
    n("steps when stopping at the target", Side::Upper, "The most steps whose RDP ε (a certified upper bound) is within the target: the run never passes it."),
    n("accuracies and losses", Side::Estimate, "Measured on the link's seeded split; the sweep's spread is over training seeds, the data and split fixed."),
];
