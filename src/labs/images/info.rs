//! This lab's descriptor ([`INFO`]), and what the About page says of it: every formula it uses with
//! its source, and which side each of its numbers errs on.

use crate::jobs::WorkerModule;
use crate::labs::descriptor::{n, Formula, LabInfo, NumberSide, Side};
use crate::labs::WorkerOnLoad;

/// This lab's descriptor: its ε comes from the image worker module on load (the PLD of the run);
/// MNIST's files are fetched only when the person starts training.
pub const INFO: LabInfo = LabInfo {
    worker_on_load: WorkerOnLoad::Always,
    worker: Some(WorkerModule::Images),
    shared_keys: &["delta", "seed", "threads"],
    printed_keys: &[
        "model",
        "hidden",
        "pca",
        "pca_sigma",
        "sigma",
        "clip",
        "lot",
        "epochs",
        "lr",
        "lr_end",
        "lr_epochs",
        "rows",
        "delta",
        "seed",
    ],
    optional_keys: &[],
    embed_height: 1400,
};

/// The formulas this lab uses.
pub const FORMULAS: &[Formula] = &[
    Formula {
        name: "Multinomial logistic regression and its per-example gradient",
        formula: "f(θ; x, y) = ln Σₖ e^{zₖ} − z_y, z = Wx + b (after the hidden layer for an MLP); ∂f/∂zₖ = softmax(z)ₖ − [k = y]",
        source: "Bishop, Pattern Recognition and Machine Learning (2006), §4.3.4; backpropagation through one ReLU layer",
        note: "Checked against central finite differences on every parameter (learning::model tests).",
    },
    Formula {
        name: "Abadi et al.'s differentially private PCA",
        formula: "rows scaled to unit norm, A stacked; AᵀA + (N + Nᵀ)/2, N with N(0, σp²) entries; its top 60 eigenvectors",
        source: "Abadi, Chu, Goodfellow, McMahan, Mironov, Talwar & Zhang (CCS 2016), Section 4, after Dwork et al.'s Analyze Gauss (STOC 2014); the authors' dp_pca.py, on all 60 000 training images as their dp_mnist.py",
        note: "One row changes AᵀA by aaᵀ, ‖aaᵀ‖_F = 1: a Gaussian mechanism of sensitivity 1, composed with the training run.",
    },
    Formula {
        name: "The run's ε",
        formula: "PLD of the Gaussian (σp) composed with T = epochs · n/L Poisson-subsampled Gaussian steps (q = L/n, σ)",
        source: "Koskela, Jälkö & Honkela (AISTATS 2020); Doroshenko, Ghazi, Kamath, Kumar & Manurangsi (PETS 2022), as dp_accounting",
        note: "The certified upper side; Abadi et al.'s moments accountant is looser.",
    },
];

/// Which side each of this lab's key numbers errs on.
pub const SIDES: &[NumberSide] = &[
    n(
        "ε of the run",
        Side::Upper,
        "The PLD's certified upper side, for Poisson sampling at q = L/n (what the trainer draws).",
    ),
    n(
        "Test accuracy",
        Side::Exact,
        "Of the private model on MNIST's 10 000 test images, after each epoch.",
    ),
];
