//! The randomized-response lab's exercises ([`crate::course`]).

use crate::course::{num, val, Draw, Drawn, TaskDef};
use crate::labs::Lab;
use crate::link::query::Query;
use crate::mechanisms::randomized_response::{Population, RandomizedResponse, Z_95};
use crate::numerics::roots::{bisect, Split, Until};

/// This lab's exercises, in [`crate::course::TASKS`]' order.
pub const ALL: &[TaskDef] = &[TRUTH, WIDTH];

/// The probability of a truthful report, p = e^ε/(e^ε + K − 1), read to three decimals.
pub const TRUTH: TaskDef = TaskDef {
    key: "rr-truth",
    index: 0,
    lab: Lab::RandomizedResponse,
    make: truth,
};

fn truth(d: &mut Draw) -> Drawn {
    let k = d.pick(&[2usize, 3, 4, 5, 10]);
    let eps = d.pick(&[1.0, 0.5, 1.5, 2.0, 3.0]);
    let p = RandomizedResponse::new(eps, k).map_or(f64::NAN, |m| m.p_truth());
    Drawn {
        question: format!(
            "With K = {k} answer categories and ε = {}, with what probability does a respondent \
             report their true answer? (Three decimals.)",
            num(eps)
        ),
        answer: "probability",
        setup: Query::default()
            .with("k", k.to_string())
            .with("eps", val(eps)),
        hint: "The headline says it, for the ε and K in the controls.",
        after_run: None,
        hint_target: "lab-headline",
        accept: (p - 5e-4, p + 5e-4),
    }
}

/// The smallest ε whose 95 % interval (z₀.₉₇₅ = 1.96 closed-form i.i.d. standard errors either side, as the lab's table) for a
/// category of true frequency 0.3 is at most ±h, to 2 %.
pub const WIDTH: TaskDef = TaskDef {
    key: "rr-width",
    index: 1,
    lab: Lab::RandomizedResponse,
    make: width,
};

fn width(d: &mut Draw) -> Drawn {
    let n = d.pick(&[1000u64, 500, 2000, 5000, 10_000]);
    let half = d.pick(&[0.05, 0.04, 0.06, 0.08]);
    let half_width = |eps: f64| {
        RandomizedResponse::new(eps, 2).map_or(f64::INFINITY, |m| {
            Z_95 * m.stderr_for(Population::Iid, 0.3, n)
        })
    };
    // The floor: even ε = 20 cannot beat the sampling error √(0.3·0.7/n).
    // The upper end of the bracket: its half-width is within the bound.
    let eps = bisect(1e-3, 20.0, Split::Middle, Until::Ratio(1e-9), |e| {
        half_width(e) <= half
    })
    .hi;
    Drawn {
        question: format!(
            "A yes/no survey (K = 2) of n = {} people, 30 % of whom would answer 0: what is the \
             smallest ε for which the 95 % interval of category 0's estimate is at most ±{}? Take the \
             interval as 1.96 closed-form standard errors (the table's \"drawn (i.i.d.)\" column).",
            crate::link::format::count(n),
            num(half)
        ),
        answer: "ε",
        setup: Query::default()
            .with("k", "2")
            .with("n", n.to_string())
            .with("truth", "0.3,0.7"),
        hint: "Move ε and watch the per-category table: the half-width is 1.96 times its i.i.d. standard error.",
        after_run: None,
        hint_target: "field-eps",
        accept: (eps, eps * 1.02),
    }
}
