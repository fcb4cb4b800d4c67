//! The mechanisms lab's parameter controls.

use crate::labs::mechanisms::use_mech;
use crate::platform::browser::random_seed;
use crate::platform::url::use_url;
use crate::widgets::number_field::NumberField;
use crate::widgets::select_field::{choices, SelectField};
use dp_playground::labs::mechanisms::{format_candidates, MechParams, Mechanism};
use dp_playground::link::query::fmt_f64;
use leptos::prelude::*;

/// Mechanism, ε, δ, Δ, the noise (σ or b) when set by hand, the bad set's ε, draws, seed, candidates
/// and the many-queries range.
#[component]
pub fn MechControls() -> impl IntoView {
    let url = use_url();
    let mech = use_mech();
    // The link's raw text for `key`, or the value in use when the link has none.
    let shown = move |key: &'static str, in_use: fn(&MechParams) -> String| {
        url.raw_or(key, move || mech.params.with(in_use))
    };
    let noise_in_use = move |key: &'static str| {
        url.raw_or(key, move || {
            let value = match (key, mech.noise.get()) {
                ("sigma", Some(dp_playground::labs::mechanisms::Noise::Gaussian(g))) => g.sigma(),
                ("scale", Some(dp_playground::labs::mechanisms::Noise::Laplace(l))) => l.scale(),
                _ => f64::NAN,
            };
            crate::format::sig(value, 6)
        })
    };
    let is = move |m| mech.is(m);
    let by_hand =
        move |key: &'static str| Signal::derive(move || url.query.with(|q| q.get(key).is_some()));
    view! {
        <h3>"Parameters"</h3>
        <SelectField label="Mechanism" key="mech" options=choices(&Mechanism::ALL, Mechanism::key, Mechanism::title)
            value=Signal::derive(move || mech.params.with(|p| p.mech.key().to_owned())) error=mech.error_for("mech") />
        <NumberField
            label="Target ε"
            key="eps"
            value=shown("eps", |p| fmt_f64(p.eps))
            error=mech.error_for("eps")
            slider=(0.01, 10.0, 0.01)
            help="Type any value in [1e-300, 100]."
        />
        <Show when=move || !is(Mechanism::Exponential).get()>
            <NumberField
                label="Target δ"
                key="delta"
                value=shown("delta", |p| fmt_f64(p.delta))
                error=mech.error_for("delta")
                help="In (0, 1), e.g. 1e-5 or 1e-300. Laplace ignores it (pure DP)."
            />
        </Show>
        <NumberField
            label="Sensitivity Δ"
            key="sens"
            value=shown("sens", |p| fmt_f64(p.sens))
            error=mech.error_for("sens")
            slider=(0.1, 10.0, 0.1)
            help="How much one person can change the answer: ℓ1 for Laplace, ℓ2 for Gaussian, the utility's Δu for the exponential mechanism."
        />
        <Show when=move || is(Mechanism::Gaussian).get()>
            <NumberField
                label="Noise σ"
                key="sigma"
                value=noise_in_use("sigma")
                error=mech.error_for("sigma")
                slider=(0.05, 20.0, 0.05)
                help="Shows the analytic σ for (ε, δ). Type another σ to see the δ it gives; \"Use the analytic σ\" goes back."
            />
            <AutoButton key="sigma" label="Use the analytic σ" shown=by_hand("sigma") />
        </Show>
        <Show when=move || is(Mechanism::Laplace).get()>
            <NumberField
                label="Scale b"
                key="scale"
                value=noise_in_use("scale")
                error=mech.error_for("scale")
                slider=(0.05, 20.0, 0.05)
                help="Shows b = Δ/ε. A hand-set b is (Δ/b)-DP; \"Use b = Δ/ε\" goes back."
            />
            <AutoButton key="scale" label="Use b = Δ/ε" shown=by_hand("scale") />
        </Show>
        <Show when=move || !is(Mechanism::Exponential).get()>
            <NumberField
                label="ε of the bad set"
                key="bad_eps"
                value=shown("bad_eps", |p| fmt_f64(p.bad_eps()))
                error=mech.error_for("bad_eps")
                slider=(0.0, 10.0, 0.01)
                help="Lemma 1.4's bad set is shaded at this ε (by default the target ε)."
            />
            <NumberField
                label="Draws N"
                key="draws"
                value=shown("draws", |p| p.draws.to_string())
                error=mech.error_for("draws")
                help="Samples of M(x) in the histogram, up to 1 000 000."
            />
        </Show>
        <Show when=move || is(Mechanism::Exponential).get()>
            <NumberField
                label="Candidates and scores"
                key="cands"
                value=shown("cands", |p| format_candidates(&p.cands))
                error=mech.error_for("cands")
                help="name:score pairs, comma-separated (up to 50), e.g. votes per option."
            />
        </Show>
        <NumberField
            label="Many queries: largest k"
            key="kmax"
            value=shown("kmax", |p| p.kmax.to_string())
            error=mech.error_for("kmax")
            help="From 2 to 100 000."
        />
        <NumberField
            label="Seed"
            key="seed"
            value=shown("seed", |p| p.seed.to_string())
            error=mech.error_for("seed")
            help="The same seed redraws the same samples."
        />
        <div class="presets" hidden=move || !url.options.with(|o| o.shows("seed") && !o.locked)>
            <button type="button" class="small" data-testid="new-seed" on:click=move |_| url.commit_set("seed", random_seed().to_string())>
                "New seed"
            </button>
        </div>
    }
}

/// A button that removes a hand-set key so the calibrated value is used again.
#[component]
fn AutoButton(
    /// The key it clears.
    key: &'static str,
    /// Its text.
    label: &'static str,
    /// Shown only while the key is set.
    shown: Signal<bool>,
) -> impl IntoView {
    let url = use_url();
    view! {
        <div class="presets" hidden=move || !(shown.get() && url.options.with(|o| o.shows(key) && !o.locked))>
            <button type="button" class="small" data-testid=format!("{key}-auto") on:click=move |_| url.commit(|q| q.remove(key))>
                {label}
            </button>
        </div>
    }
}
