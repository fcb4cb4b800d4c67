//! The training lab's exercises ([`crate::course`]), by the lab's own parameters and accountant.

use super::TrainParams;
use crate::accounting::guarantee::Side;
use crate::accounting::training::rdp_report;
use crate::course::{num, val, AfterRun, Draw, Drawn, TaskDef};
use crate::error::Result;
use crate::labs::train::jobs::TrainJob;
use crate::labs::train::run::{train, TrainUpdate};
use crate::labs::Lab;
use crate::link::query::{LinkParams, Query};

/// This lab's exercises, in [`crate::course::TASKS`]' order.
pub const ALL: &[TaskDef] = &[EPSILON, COST];

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
    let (_, eps) = planned_rdp_eps(&setup);
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
        after_run: None,
        hint_target: "train-eps-rdp",
        accept: (eps * 0.995, eps * 1.005),
    }
}

/// What privacy costs in accuracy on Adult: the non-private model's test accuracy minus DP-SGD's at
/// the end of one seeded run (both trained side by side by the lab). The answer is a run's result,
/// so the page runs it to check ([`AfterRun`]); the cards show four significant digits, so the
/// difference of two shown values is within 10⁻⁴ of the true one, and the next possible answer (one
/// test row of 1,600 more or less) is 6.25×10⁻⁴ away.
pub const COST: TaskDef = TaskDef {
    key: "train-cost",
    index: 11,
    lab: Lab::Train,
    make: cost,
};

fn cost(d: &mut Draw) -> Drawn {
    let batch = d.pick(&[128u64, 64, 256]);
    let sigma = d.pick(&[1.0, 0.8, 1.2, 1.5]);
    let epochs = d.pick(&[3u64, 2, 5]);
    let seed = d.pick(&[1u64, 2, 3, 5, 8, 13, 21, 34]);
    let setup = Query::default()
        .with("data", "adult")
        .with("batch", batch.to_string())
        .with("sigma", val(sigma))
        .with("epochs", epochs.to_string())
        .with("seed", seed.to_string());
    let (p, eps) = planned_rdp_eps(&setup);
    Drawn {
        question: format!(
            "Train logistic regression on the Adult census data with an expected batch of {batch} \
             records, σ = {} and {epochs} epochs (seed {seed}): the RDP accountant certifies \
             ε = {} at δ = 10⁻⁵. What did privacy cost? Give the non-private model's test \
             accuracy minus DP-SGD's at the end of the run, as a fraction (0.012 for 1.2 points).",
            num(sigma),
            Side::Upper.digits(eps, 3)
        ),
        answer: "accuracy lost",
        setup,
        hint: "Run the training to its end; the cards under it give each model's test accuracy.",
        hint_target: "train-acc-baseline",
        accept: (f64::NAN, f64::NAN),
        after_run: Some(AfterRun {
            params: p,
            tolerance: 1.5e-4,
        }),
    }
}

/// The lab's own reading of `setup` (its steps, its event, its accountant): its parameters and the
/// ε the RDP accountant certifies at δ for the planned steps (NaN for settings it refuses).
fn planned_rdp_eps(setup: &Query) -> (TrainParams, f64) {
    let p = TrainParams::from_query(setup).0;
    let eps = p
        .planned_steps(0)
        .ok()
        .and_then(|t| rdp_report(&p.event(0, t), p.delta).ok())
        .map_or(f64::NAN, |r| r.eps);
    (p, eps)
}

/// The training lab's job that answers `run`: the whole run from its start, as the lab runs it.
///
/// # Errors
/// Settings the trainer refuses.
pub fn run_job(run: &AfterRun) -> Result<TrainJob> {
    Ok(TrainJob::Run {
        params: Box::new(run.params.clone()),
        csv: None,
        from: None,
        noise: None,
        until: run.params.planned_steps(0)?,
    })
}

/// The last test accuracies (DP-SGD, clipping only, non-private) of a run's updates.
pub fn last_test_accuracy(update: &TrainUpdate) -> Option<[f64; 3]> {
    match update {
        TrainUpdate::Report(r) => Some(r.point.test_acc),
        _ => None,
    }
}

/// [`run_job`]'s run here, to its end: its last test accuracies.
///
/// # Errors
/// Settings the trainer refuses.
pub fn run_here(run: &AfterRun) -> Result<[f64; 3]> {
    let mut last = [f64::NAN; 3];
    let until = run.params.planned_steps(0)?;
    train(&run.params, None, None, until, &mut |u| {
        if let Some(acc) = last_test_accuracy(&u) {
            last = acc;
        }
    })?;
    Ok(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cost exercise's answer is a run's: run here and through the lab's job (as the page posts
    /// it) it is the same, and the accepted interval keeps the shown digits' difference and refuses
    /// one test row more or less.
    #[test]
    fn the_cost_is_the_runs_and_one_row_off_is_wrong() {
        for variant in [0, 5] {
            let mut t = COST.task(variant);
            assert!(t.needs_run() && !t.is_right(0.0));
            let run = t.after_run.clone().unwrap();
            let here = run_here(&run).unwrap();
            let mut by_job = [f64::NAN; 3];
            crate::labs::train::jobs::run(run_job(&run).unwrap(), &mut |u| {
                if let crate::labs::train::jobs::TrainJobUpdate::Run(u) = u {
                    if let Some(acc) = last_test_accuracy(&u) {
                        by_job = acc;
                    }
                }
            })
            .unwrap();
            assert_eq!(here, by_job);
            t.settle(here);
            assert!(!t.needs_run());
            let cost = here[2] - here[0];
            let shown = |x: f64| (x * 1e4).round() / 1e4;
            assert!(t.is_right(cost) && t.is_right(shown(here[2]) - shown(here[0])));
            let row = 1.0 / 1600.0;
            assert!(
                !t.is_right(cost + row) && !t.is_right(cost - row),
                "{here:?}"
            );
            // Privacy costs something here, and not everything.
            assert!(cost > -0.05 && cost < 0.3 && here[2] > 0.75, "{here:?}");
        }
    }
}
