//! The attack lab's exercises ([`crate::course`]): the (ε, δ) region's bounds on an attacker.

use crate::attacks::approx_dp_advantage;
use crate::course::{num, val, Draw, Drawn, TaskDef};
use crate::labs::Lab;
use crate::link::query::Query;
use crate::mechanisms::tradeoff_bound;

/// This lab's exercises, in [`crate::course::TASKS`]' order.
pub const ALL: &[TaskDef] = &[TPR, ADVANTAGE];

/// The most TPR at FPR α an (ε, δ)-DP mechanism allows, 1 − f_{ε,δ}(α), to ±0.001.
pub const TPR: TaskDef = TaskDef {
    key: "attack-tpr",
    index: 9,
    lab: Lab::Attack,
    make: tpr,
};

fn setup(eps: f64, delta: f64, alpha: f64) -> Query {
    Query::default()
        .with("source", "list")
        .with("list", format!("dp:{}:{}", val(eps), val(delta)))
        .with("alpha", val(alpha))
}

fn tpr(d: &mut Draw) -> Drawn {
    let eps = d.pick(&[1.0, 0.5, 2.0, 3.0]);
    let delta = d.pick(&[1e-5, 1e-3, 1e-2]);
    let alpha = d.pick(&[0.01, 0.05, 0.001, 0.1]);
    let best = 1.0 - tradeoff_bound(eps, delta, alpha);
    Drawn {
        question: format!(
            "A release is ({}, {})-differentially private. What is the highest true-positive rate a \
             membership-inference attack can reach at a false-positive rate of {}? (Three decimals.)",
            num(eps),
            num(delta),
            num(alpha)
        ),
        answer: "TPR",
        setup: setup(eps, delta, alpha),
        hint: "The card \"TPR at FPR α\" gives it for the α in the controls.",
        after_run: None,
        hint_target: "attack-tpr-at-fpr",
        accept: (best - 1e-3, best + 1e-3),
    }
}

/// The largest advantage TPR − FPR at (ε, δ), (e^ε − 1 + 2δ)/(e^ε + 1), to ±0.001.
pub const ADVANTAGE: TaskDef = TaskDef {
    key: "attack-advantage",
    index: 10,
    lab: Lab::Attack,
    make: advantage,
};

fn advantage(d: &mut Draw) -> Drawn {
    let eps = d.pick(&[1.0, 0.1, 0.5, 2.0, 4.0]);
    let delta = d.pick(&[1e-5, 1e-3]);
    let best = approx_dp_advantage(eps, delta);
    Drawn {
        question: format!(
            "At ε = {} and δ = {}, what is the largest advantage TPR − FPR any attack can have? \
             (Three decimals.)",
            num(eps),
            num(delta)
        ),
        answer: "advantage",
        setup: setup(eps, delta, 0.01),
        hint: "The card \"advantage TPR − FPR\" gives it.",
        after_run: None,
        hint_target: "attack-advantage",
        accept: (best - 1e-3, best + 1e-3),
    }
}
