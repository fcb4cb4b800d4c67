//! The compute times and other numbers only people checking our speed need, collapsed under one
//! summary so that they do not stand among the results.

use leptos::prelude::*;

/// A collapsed row of diagnostic numbers (their `data-value`s stay readable while closed).
#[component]
pub fn Diagnostics(children: Children) -> impl IntoView {
    let shown =
        crate::widgets::parts::use_part("diagnostics", "Diagnostics (compute times)", false);
    view! {
        <details class="diagnostics" data-testid="diagnostics" hidden=move || !shown()>
            <summary>"Diagnostics: compute times"</summary>
            <div class="stats">{children()}</div>
        </details>
    }
}
