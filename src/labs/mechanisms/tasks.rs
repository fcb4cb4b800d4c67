//! The mechanisms lab's exercises ([`crate::course`]).

use crate::course::{num, val, Draw, Drawn, TaskDef};
use crate::labs::Lab;
use crate::link::query::Query;
use crate::mechanisms::gaussian::sigma_analytic;

/// This lab's exercises, in [`crate::course::TASKS`]' order.
pub const ALL: &[TaskDef] = &[SIGMA, LAPLACE];

/// The smallest σ of the Gaussian mechanism for (ε, δ) at sensitivity Δ (the analytic Gaussian
/// mechanism), to 0.5 %: nothing below it is (ε, δ)-DP.
pub const SIGMA: TaskDef = TaskDef {
    key: "mech-sigma",
    index: 2,
    lab: Lab::Mechanisms,
    make: sigma,
};

fn sigma(d: &mut Draw) -> Drawn {
    let eps = d.pick(&[1.0, 0.5, 2.0, 0.3, 3.0]);
    let delta = d.pick(&[1e-5, 1e-6, 1e-4]);
    let sens = d.pick(&[1.0, 2.0, 0.5]);
    let s = sigma_analytic(eps, delta, sens).unwrap_or(f64::NAN);
    Drawn {
        question: format!(
            "Find the smallest noise σ that makes the Gaussian mechanism with sensitivity Δ = {} \
             ({}, {})-differentially private.",
            num(sens),
            num(eps),
            num(delta)
        ),
        answer: "σ",
        setup: Query::default()
            .with("mech", "gaussian")
            .with("eps", val(eps))
            .with("delta", val(delta))
            .with("sens", val(sens)),
        hint: "The calibration table compares the formulas: the smallest σ is the analytic one (the classical formula's is larger).",
        after_run: None,
        hint_target: "mech-calibration",
        accept: (s, s * 1.005),
    }
}

/// The ε a Laplace mechanism of scale b gives at sensitivity Δ: ε = Δ/b, to 0.5 %.
pub const LAPLACE: TaskDef = TaskDef {
    key: "mech-laplace",
    index: 3,
    lab: Lab::Mechanisms,
    make: laplace,
};

fn laplace(d: &mut Draw) -> Drawn {
    let sens = d.pick(&[1.0, 2.0, 5.0]);
    let scale = d.pick(&[2.0, 0.5, 1.0, 4.0, 10.0]);
    let eps = sens / scale;
    Drawn {
        question: format!(
            "A Laplace mechanism with sensitivity Δ = {} adds noise of scale b = {}. For which ε is it \
             ε-differentially private (the smallest)?",
            num(sens),
            num(scale)
        ),
        answer: "ε",
        setup: Query::default()
            .with("mech", "laplace")
            .with("sens", val(sens))
            .with("scale", val(scale)),
        hint: "Type the scale into the Scale b field: the headline gives the ε it is private for.",
        after_run: None,
        hint_target: "field-scale",
        accept: (eps * 0.995, eps * 1.005),
    }
}
