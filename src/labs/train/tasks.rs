//! The training lab's exercises ([`crate::course`]), by the lab's own parameters and accountant.

use super::TrainParams;
use crate::accounting::training::rdp_report;
use crate::course::{num, val, Draw, Drawn, TaskDef};
use crate::labs::Lab;
use crate::link::query::{LinkParams, Query};

/// This lab's exercises, in [`crate::course::TASKS`]' order.
pub const ALL: &[TaskDef] = &[EPSILON];

/// The ε the RDP accountant certifies for a planned run on the breast-cancer data, to 0.5 %.
pub const EPSILON: TaskDef = TaskDef {
    key: "train-eps",
    index: 8,
    lab: Lab::Train,
    make: epsilon,
};

fn epsilon(d: &mut Draw) -> Drawn {
    let batch = d.pick(&[32u64, 16, 64]);
    let sigma = d.pick(&[2.0, 1.0, 1.5, 3.0]);
    let epochs = d.pick(&[30u64, 10, 20, 50]);
    let setup = Query::default()
        .with("data", "breast-cancer")
        .with("batch", batch.to_string())
        .with("sigma", val(sigma))
        .with("epochs", epochs.to_string());
    // The lab's own reading of these settings: its steps, its event, its accountant.
    let p = TrainParams::from_query(&setup).0;
    let eps = p
        .planned_steps(0)
        .ok()
        .and_then(|t| rdp_report(&p.event(0, t), p.delta).ok())
        .map_or(f64::NAN, |r| r.eps);
    Drawn {
        question: format!(
            "Training logistic regression on the breast-cancer data with an expected batch of {batch} \
             records, σ = {} and {epochs} epochs: what ε does the RDP accountant certify at δ = 10⁻⁵ \
             for the planned steps?",
            num(sigma)
        ),
        answer: "ε",
        setup,
        hint: "The cards under the training controls give the planned run's ε, by the PLD and by RDP.",
        hint_target: "train-eps-rdp",
        accept: (eps * 0.995, eps * 1.005),
    }
}
