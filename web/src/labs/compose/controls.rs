//! The composition lab's controls: the list, buttons that add common mechanisms, and δ.

use crate::format::exact;
use crate::labs::compose::use_compose;
use crate::platform::url::use_url;
use crate::widgets::number_field::NumberField;
use dp_playground::accounting::entry::{format_list, parse_list};
use leptos::prelude::*;

/// Entries the "add" buttons append.
const ADD: [(&str, &str); 8] = [
    ("Gaussian σ = 2, ×10", "gauss:2*10"),
    ("Laplace ε = 0.5", "lap:0.5*1"),
    ("Randomized response ε = 1", "rr:1*1"),
    ("4-ary randomized response ε = 1, ×10", "rr:1:4*10"),
    (
        "Subsampled Gaussian q = 0.01, σ = 1, ×1000",
        "sgauss:0.01:1*1000",
    ),
    ("(ε, δ) = (0.5, 1e-6)", "dp:0.5:0.000001*1"),
    (
        "ε = 1 on a 10% subsample (without replacement)",
        "wor:0.1:1:0*1",
    ),
    (
        "Gaussian σ = 1 on a 10% subsample, ×10",
        "wor:0.1:gauss:1*10",
    ),
];

/// The list and δ.
#[component]
pub fn ComposeControls() -> impl IntoView {
    let url = use_url();
    let lab = use_compose();
    let params = lab.params;
    let error_for = move |key: &'static str| lab.error_for(key);
    let add = move |entry: &'static str| {
        let mut text = format_list(&params.get_untracked().list);
        if parse_list(&format!("{text},{entry}")).is_ok() {
            text = format!("{text},{entry}");
            url.commit_set("list", text);
        }
    };
    view! {
        <h3>"Mechanisms"</h3>
                <NumberField label="List" key="list" value=url.raw_or("list", move || format_list(&params.get().list))
                    error=error_for("list") help="kind:parameters*times, comma-separated: lap:ε, gauss:σ, rr:ε (rr:ε:K for K answers), sgauss:q:σ, dp:ε:δ; wor:rate:ε:δ or wor:rate:lap:ε, wor:rate:gauss:σ to subsample without replacement; fixed:γ:σ for a DP-SGD step on a fixed-size batch (replace-one), users:k:q:σ for users of k records, balls:σ:t for an epoch of t steps with balls-in-bins batches, trunc:n:q:B:σ for a step whose Poisson batches are cut to B of n records." />
                <div class="presets" role="group" aria-label="Add a mechanism" hidden=move || url.options.with(|o| o.locked || !o.shows("list"))>
                    {ADD.into_iter().map(|(label, entry)| view! { <button type="button" class="small" on:click=move |_| add(entry)>"+ "{label}</button> }).collect_view()}
                </div>
                <NumberField label="δ" key="delta" value=url.raw_or("delta", move || exact(params.get().delta))
                    error=error_for("delta") help="Every accountant reports ε at this δ." />
    }
}
