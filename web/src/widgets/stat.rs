//! One key number: a label, a readable value, and the exact value in `data-value` for tests and for
//! people checking our numbers.

use crate::format::{exact, sig};
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
) -> impl IntoView {
    view! {
        <div class="stat">
            <span class="stat-label">{label}</span>
            <span class="stat-value" data-testid=testid data-value=move || exact(value.get())>
                {move || sig(value.get(), digits)}
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
