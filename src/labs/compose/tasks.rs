//! The composition lab's exercises ([`crate::course`]).

use crate::accounting::composed::accountants;
use crate::accounting::entry::parse_list;
use crate::course::{num, val, Draw, Drawn, TaskDef};
use crate::labs::Lab;
use crate::link::query::Query;

/// This lab's exercises, in [`crate::course::TASKS`]' order.
pub const ALL: &[TaskDef] = &[TIGHTEST, BUDGET];

/// Of the basic, advanced and RDP bounds for k Gaussian mechanisms, the smallest ε, to 0.5 %.
pub const TIGHTEST: TaskDef = TaskDef {
    key: "compose-tightest",
    index: 4,
    lab: Lab::Compose,
    make: tightest,
};

fn tightest(d: &mut Draw) -> Drawn {
    let k = d.pick(&[10u64, 20, 50, 100, 5]);
    let sigma = d.pick(&[3.0, 5.0, 10.0, 2.0]);
    let delta = 1e-5;
    let list = format!("gauss:{}*{k}", val(sigma));
    let best = parse_list(&list).map_or(f64::NAN, |items| {
        let a = accountants(&items, delta);
        [Some(a.basic), a.advanced, a.rdp.map(|r| r.0)]
            .into_iter()
            .flatten()
            .filter(|e| e.is_finite())
            .fold(f64::INFINITY, f64::min)
    });
    Drawn {
        question: format!(
            "{k} releases, each with Gaussian noise σ = {} (sensitivity 1), at δ = 10⁻⁵: of the basic, \
             advanced and RDP composition bounds, which gives the smallest ε, and what is that ε?",
            num(sigma)
        ),
        answer: "smallest ε",
        setup: Query::default().with("list", list).with("delta", "0.00001"),
        hint: "The table of accountants lists each bound's ε at the link's δ.",
        after_run: None,
        hint_target: "compose-eps-basic",
        accept: (best * 0.995, best * 1.005),
    }
}

/// How many ε₀-DP releases fit a budget ε under basic composition (exactly).
pub const BUDGET: TaskDef = TaskDef {
    key: "compose-budget",
    index: 5,
    lab: Lab::Compose,
    make: budget,
};

fn budget(d: &mut Draw) -> Drawn {
    let eps0 = d.pick(&[0.1, 0.2, 0.25, 0.3, 0.05]);
    let total = d.pick(&[1.0, 2.0, 3.0, 0.5]);
    // The largest k whose basic bound (the accountants' own sum) stays within the budget.
    let basic = |k: u64| {
        parse_list(&format!("lap:{}*{k}", val(eps0)))
            .map_or(f64::INFINITY, |items| accountants(&items, 1e-5).basic)
    };
    let guess = (total / eps0).floor() as u64 + 1;
    let k = (0..=guess)
        .rev()
        .find(|&k| k == 0 || basic(k) <= total)
        .unwrap_or(0) as f64;
    Drawn {
        question: format!(
            "Each release is a Laplace mechanism with ε₀ = {}. Under basic composition, how many \
             releases fit a total budget of ε = {}?",
            num(eps0),
            num(total)
        ),
        answer: "releases",
        setup: Query::default()
            .with("list", format!("lap:{}*1", val(eps0)))
            .with("delta", "0.00001"),
        hint: "Change the count after * in the list and read the basic bound.",
        after_run: None,
        hint_target: "field-list",
        accept: (k, k),
    }
}
