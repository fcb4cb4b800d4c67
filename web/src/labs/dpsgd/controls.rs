//! The DP-SGD lab's controls and presets.

use crate::labs::dpsgd::use_dpsgd;
use crate::platform::url::use_url;
use crate::widgets::number_field::NumberField;
use crate::widgets::select_field::{choices, SelectField};
use dp_playground::accounting::event::Neighbour;
use dp_playground::labs::dpsgd::DpsgdParams;
use dp_playground::link::query::fmt_f64;
use leptos::prelude::*;

/// Presets: (label, keys to set; keys not listed are removed).
const PRESETS: [(&str, &[(&str, &str)]); 3] = [
    (
        "Abadi et al. 2016 (MNIST)",
        &[
            ("n", "60000"),
            ("batch", "256"),
            ("sigma", "1.1"),
            ("epochs", "60"),
            ("delta", "1e-5"),
        ],
    ),
    (
        "Lecture scenario 3 (q = 0.01, T = 10⁴)",
        &[
            ("n", "10000"),
            ("batch", "100"),
            ("sigma", "1"),
            ("steps", "10000"),
            ("delta", "1e-5"),
        ],
    ),
    (
        "Long run (q = 0.01, σ = 1, T = 10⁵)",
        &[
            ("q", "0.01"),
            ("sigma", "1"),
            ("steps", "100000"),
            ("delta", "1e-5"),
        ],
    ),
];

/// n, batch (or q), σ, epochs (or steps), δ, target ε and the neighbouring relation.
#[component]
pub fn DpsgdControls() -> impl IntoView {
    let url = use_url();
    let lab = use_dpsgd();
    let shown = move |key: &'static str, in_use: fn(&DpsgdParams) -> String| {
        url.raw_or(key, move || lab.params.with(in_use))
    };
    let preset = move |keys: &'static [(&'static str, &'static str)]| {
        url.commit(|q| {
            for key in ["n", "batch", "q", "sigma", "epochs", "steps", "delta"] {
                q.remove(key);
            }
            for (k, v) in keys {
                q.set(k, *v);
            }
        })
    };
    view! {
        <h3>"Parameters"</h3>
        <div class="presets" role="group" aria-label="Presets" hidden=move || url.options.with(|o| o.locked || o.controls.is_some())>
            {PRESETS.into_iter().enumerate().map(|(i, (label, keys))| view! {
                <button type="button" class="small" data-testid=format!("preset-{i}") on:click=move |_| preset(keys)>{label}</button>
            }).collect_view()}
        </div>
        <NumberField label="Data set size n" key="n" value=shown("n", |p| p.n.to_string()) error=lab.error_for("n") help="Records in the training set." />
        <NumberField label="Batch size m" key="batch" value=shown("batch", |p| p.batch.to_string()) error=lab.error_for("batch") help="Expected batch: q = m/n." />
        <NumberField label="Sampling rate q (optional)" key="q" value=shown("q", |p| p.q.map(fmt_f64).unwrap_or_default()) error=lab.error_for("q") help="Overrides m/n when set." />
        <NumberField label="Noise multiplier σ" key="sigma" value=shown("sigma", |p| fmt_f64(p.sigma)) error=lab.error_for("sigma") slider=(0.3, 5.0, 0.01) help="Noise std divided by the clipping norm C." />
        <NumberField label="Epochs" key="epochs" value=shown("epochs", |p| fmt_f64(p.epochs)) error=lab.error_for("epochs") help="T = ⌈epochs / q⌉ steps." />
        <NumberField label="Steps T (optional)" key="steps" value=shown("steps", |p| p.steps.map(|t| t.to_string()).unwrap_or_default()) error=lab.error_for("steps") help="Overrides epochs when set (up to 10⁷)." />
        <NumberField label="δ" key="delta" value=shown("delta", |p| fmt_f64(p.delta)) error=lab.error_for("delta") help="Usually below 1/n." />
        <NumberField label="Target ε" key="target_eps" value=shown("target_eps", |p| fmt_f64(p.target_eps)) error=lab.error_for("target_eps") slider=(0.1, 10.0, 0.05) help="The smallest σ reaching it is shown on the right." />
        <SelectField label="Neighbouring data sets" key="neighbour" options=choices(&Neighbour::ALL, Neighbour::key, Neighbour::title)
            value=Signal::derive(move || lab.params.with(|p| p.neighbour.key().to_owned())) error=lab.error_for("neighbour")
            help="Replacing a record moves the clipped sum by up to 2C. Both accountants bound it twice and keep the smaller: one step at a time (RDP: the add/remove pair at σ/2; the PLD: a tighter pair, the record drawn being one gradient from the record not drawn and two from its replacement), and by removing a record, then adding another at σ (RDP joins the two steps by Rényi divergence's weak triangle inequality, the PLD adds their ε)." />
    }
}
