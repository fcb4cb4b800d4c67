//! The randomized-response lab's parameter controls.

use crate::labs::rr::use_rr;
use crate::platform::browser::random_seed;
use crate::platform::url::use_url;
use crate::widgets::number_field::NumberField;
use crate::widgets::select_field::{choices, SelectField};
use dp_playground::labs::rr::params::{normalise_truth_text, set_k};
use dp_playground::labs::rr::{format_truth, RrParams};
use dp_playground::link::query::fmt_f64;
use dp_playground::mechanisms::randomized_response::Population;
use leptos::prelude::*;

/// ε, K, n, who the respondents are, the true distribution, the number of repeated surveys and the seed.
#[component]
pub fn RrControls() -> impl IntoView {
    let url = use_url();
    let rr = use_rr();
    // The link's raw text for `key`, or the value in use when the link has none.
    let shown = move |key: &'static str, in_use: fn(&RrParams) -> String| {
        url.raw_or(key, move || rr.params.with(in_use))
    };
    let truth_text = shown("truth", |p| format_truth(&p.truth));
    let normalise = move |_| {
        if let Some(text) = normalise_truth_text(&truth_text.get_untracked()) {
            url.set("truth", text);
        }
    };
    let uniform = move |_| {
        let k = rr.params.get_untracked().k;
        let weights = vec![1.0; k];
        if let Some(t) = dp_playground::labs::rr::params::rounded_proportions(&weights, 4) {
            url.commit_set("truth", format_truth(&t));
        }
    };
    view! {
        <h3>"Parameters"</h3>
        <NumberField
            label="Privacy ε"
            key="eps"
            value=shown("eps", |p| fmt_f64(p.eps))
            error=rr.error_for("eps")
            slider=(0.01, 10.0, 0.01)
            help="Smaller ε: more privacy, noisier estimates. Type any value up to 100."
        />
        <NumberField
            label="Categories K"
            key="k"
            value=shown("k", |p| p.k.to_string())
            error=rr.error_for("k")
            slider=(2.0, 50.0, 1.0)
            help="From 2 (yes/no) to 50."
            on_change=Callback::new(move |text: String| url.update(|q| set_k(q, &text)))
        />
        <NumberField
            label="Respondents n"
            key="n"
            value=shown("n", |p| p.n.to_string())
            error=rr.error_for("n")
            help="Up to 10 000 000 (write 1e7 if you like). Up to 400 are drawn one by one below."
        />
        <div class="presets" role="group" aria-label="Respondents presets" hidden=move || !url.options.with(|o| o.shows("n") && !o.locked)>
            {[("100", "100"), ("1000", "1 000"), ("100000", "100 000"), ("10000000", "10 000 000")]
                .into_iter()
                .map(|(n, label)| {
                    view! {
                        <button type="button" class="small" on:click=move |_| url.commit_set("n", n)>
                            {label}
                        </button>
                    }
                })
                .collect_view()}
        </div>
        <SelectField label="Respondents are" key="population" options=choices(&Population::ALL, Population::key, Population::title)
            value=Signal::derive(move || rr.params.with(|p| p.population.key().to_owned())) error=rr.error_for("population")
            help="Drawn: each survey asks new people, so the true counts vary too. Fixed: the same n people every time; only the coin flips vary." />
        <NumberField
            label="True distribution"
            key="truth"
            value=truth_text
            error=rr.error_for("truth")
            help="One proportion per category, comma-separated, summing to 1."
        />
        <div class="presets" role="group" aria-label="True distribution helpers" hidden=move || !url.options.with(|o| o.shows("truth") && !o.locked)>
            <button type="button" class="small" on:click=normalise data-testid="truth-normalise">
                "Normalise"
            </button>
            <button type="button" class="small" on:click=uniform>"Uniform"</button>
        </div>
        <NumberField
            label="Repeated surveys R"
            key="reps"
            value=shown("reps", |p| p.reps.to_string())
            error=rr.error_for("reps")
            slider=(2.0, 1000.0, 1.0)
            help="How many more surveys to draw for the spread of the estimate (2 to 1000)."
        />
        <NumberField
            label="Seed"
            key="seed"
            value=shown("seed", |p| p.seed.to_string())
            error=rr.error_for("seed")
            help="The same seed redraws the same surveys."
        />
        <div class="presets" hidden=move || !url.options.with(|o| o.shows("seed") && !o.locked)>
            <button
                type="button"
                class="small"
                data-testid="new-seed"
                on:click=move |_| url.commit_set("seed", random_seed().to_string())
            >
                "New seed"
            </button>
        </div>
    }
}
