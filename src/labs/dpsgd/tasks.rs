//! The DP-SGD lab's exercises ([`crate::course`]), by the RDP accountant the lab shows.

use crate::accounting::training::StepRdp;
use crate::course::{num, val, Draw, Drawn, TaskDef};
use crate::labs::Lab;
use crate::link::query::Query;
use crate::numerics::roots::{bisect, bisect_integer, Split, Until};

const DELTA: f64 = 1e-5;

/// This lab's exercises, in [`crate::course::TASKS`]' order.
pub const ALL: &[TaskDef] = &[STEPS, SIGMA];

/// The most steps DP-SGD can take before the RDP ε at δ = 10⁻⁵ passes a target: T* or up to 1 %
/// fewer, never more (more would spend beyond the budget).
pub const STEPS: TaskDef = TaskDef {
    key: "dpsgd-steps",
    index: 6,
    lab: Lab::Dpsgd,
    make: steps,
};

fn steps(d: &mut Draw) -> Drawn {
    let q = d.pick(&[0.01, 0.005, 0.02]);
    let sigma = d.pick(&[1.0, 1.2, 0.8, 1.5]);
    let target = d.pick(&[2.0, 1.0, 3.0, 4.0]);
    let rdp = StepRdp::new(q, sigma);
    let within = |t: u64| rdp.epsilon(t, DELTA) <= target;
    // ε grows with the steps: the first T past the target, less one.
    let t = (bisect_integer(0, 1 << 30, |t| !within(t as u64)) - 1) as f64;
    Drawn {
        question: format!(
            "With sampling rate q = {} and noise multiplier σ = {}, how many steps can DP-SGD take \
             before the RDP accountant's ε at δ = 10⁻⁵ exceeds {}? (The most steps, to 1 %.)",
            num(q),
            num(sigma),
            num(target)
        ),
        answer: "steps",
        setup: Query::default()
            .with("q", val(q))
            .with("sigma", val(sigma))
            .with("steps", "1000")
            .with("delta", "0.00001"),
        hint: "Change the steps and read the RDP accountant's ε; the chart of ε against the steps shows the whole curve.",
        after_run: None,
        hint_target: "dpsgd-chart-steps",
        accept: ((t * 0.99).ceil(), t),
    }
}

/// The smallest σ that keeps the RDP ε at δ = 10⁻⁵ within a target for T steps at rate q, to 1 %.
pub const SIGMA: TaskDef = TaskDef {
    key: "dpsgd-sigma",
    index: 7,
    lab: Lab::Dpsgd,
    make: sigma,
};

fn sigma(d: &mut Draw) -> Drawn {
    let q = d.pick(&[0.01, 0.004, 0.02]);
    let steps = d.pick(&[10_000u64, 5000, 20_000]);
    let target = d.pick(&[2.0, 1.0, 4.0, 8.0]);
    // The upper end of the bracket: it meets the target.
    let s = bisect(0.3, 100.0, Split::Middle, Until::Ratio(1e-9), |s| {
        StepRdp::new(q, s).epsilon(steps, DELTA) <= target
    })
    .hi;
    Drawn {
        question: format!(
            "DP-SGD runs {} steps at sampling rate q = {}. What is the smallest noise multiplier σ that \
             keeps the RDP accountant's ε at δ = 10⁻⁵ within {}?",
            crate::link::format::count(steps),
            num(q),
            num(target)
        ),
        answer: "σ",
        setup: Query::default()
            .with("q", val(q))
            .with("steps", steps.to_string())
            .with("target_eps", val(target))
            .with("delta", "0.00001"),
        hint: "Move σ until the RDP accountant's ε meets the target.",
        after_run: None,
        hint_target: "field-sigma",
        accept: (s, s * 1.01),
    }
}
