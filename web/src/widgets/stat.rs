//! One key number: a label, a readable value, and the exact value in `data-value` for tests and for
//! people checking our numbers.

use crate::format::{exact, sig};
use dp_playground::accounting::guarantee::Side;
use leptos::prelude::*;

/// A labelled key number under a stable `data-testid`.
#[component]
pub fn Stat(
    /// What the number is.
    label: &'static str,
    /// Its stable test id.
    testid: &'static str,
    /// The number.
    value: Signal<f64>,
    /// Significant digits shown (the `data-value` attribute always has all of them).
    #[prop(default = 4)]
    digits: usize,
    /// Which side of the truth the number lies on, when it is a bound: its digits round outward
    /// (an upper bound's never below it, a lower bound's never above); to nearest otherwise.
    #[prop(optional)]
    side: Option<Side>,
) -> impl IntoView {
    let shown = move || {
        let x = value.get();
        side.map_or_else(|| sig(x, digits), |s| s.digits(x, digits))
    };
    view! {
        <div class="stat">
            <span class="stat-label">{label}</span>
            <span class="stat-value" data-testid=testid data-value=move || exact(value.get())>
                {shown}
            </span>
        </div>
    }
}

/// Key numbers that belong together, under a short heading.
#[component]
pub fn StatGroup(
    /// The group's heading.
    title: &'static str,
    /// The stats.
    children: Children,
) -> impl IntoView {
    view! {
        <section class="stat-group" aria-label=title>
            <h3 class="stat-group-title">{title}</h3>
            <div class="stats">{children()}</div>
        </section>
    }
}
