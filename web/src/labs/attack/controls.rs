//! The attack lab's controls: the mechanism, where to read the curve, the targets and an audit.

use crate::labs::attack::use_attack;
use crate::platform::url::use_url;
use crate::widgets::number_field::NumberField;
use crate::widgets::select_field::{choices, SelectField};
use dp_playground::accounting::entry::format_list;
use dp_playground::accounting::event::Neighbour;
use dp_playground::labs::attack::params::{AttackParams, Source};
use dp_playground::link::query::fmt_f64;
use leptos::prelude::*;

/// Every key of the lab.
#[component]
pub fn AttackControls() -> impl IntoView {
    let url = use_url();
    let lab = use_attack();
    let shown = move |key: &'static str, in_use: fn(&AttackParams) -> String| {
        url.raw_or(key, move || lab.params.with(in_use))
    };
    let is_list = move || lab.params.with(|p| matches!(p.source, Source::List(_)));
    let example = move |_| {
        url.commit(|q| {
            for (k, v) in [("tp", "35"), ("fn", "965"), ("fp", "10"), ("tn", "990")] {
                q.set(k, v);
            }
        })
    };
    view! {
        <h3>"Mechanism"</h3>
        <SelectField label="Source" key="source"
            options=vec![("dpsgd".into(), "DP-SGD (q, σ, steps)".into()), ("list".into(), "a composition list".into())]
            value=Signal::derive(move || if is_list() { "list" } else { "dpsgd" }.to_owned()) error=lab.error_for("source") />
        <Show when=is_list>
            <NumberField label="List" key="list" value=shown("list", |p| match &p.source { Source::List(l) => format_list(l), _ => String::new() })
                error=lab.error_for("list") help="As in the composition lab: lap:ε, gauss:σ, rr:ε, sgauss:q:σ, dp:ε:δ, wor:…, each *times." />
        </Show>
        <Show when=move || !is_list()>
            <NumberField label="Sampling rate q" key="q" value=shown("q", |p| match &p.source { Source::Dpsgd(e) => dp_playground::link::format::rate_text(e.rate), _ => String::new() }) error=lab.error_for("q") />
            <NumberField label="Noise multiplier σ" key="sigma" value=shown("sigma", |p| match &p.source { Source::Dpsgd(e) => fmt_f64(e.sigma), _ => String::new() }) error=lab.error_for("sigma") slider=(0.3, 5.0, 0.01) />
            <NumberField label="Steps T" key="steps" value=shown("steps", |p| match &p.source { Source::Dpsgd(e) => e.steps.to_string(), _ => String::new() }) error=lab.error_for("steps") />
            <SelectField label="Neighbouring data sets" key="neighbour" options=choices(&Neighbour::ALL, Neighbour::key, Neighbour::title)
                value=Signal::derive(move || lab.params.with(|p| match &p.source { Source::Dpsgd(e) => e.neighbour.key(), _ => "add-remove" }.to_owned()))
                error=lab.error_for("neighbour") />
        </Show>
        <h3>"Reading the curve"</h3>
        <NumberField label="False-positive rate α" key="alpha" value=shown("alpha", |p| fmt_f64(p.alpha)) error=lab.error_for("alpha") help="The risk numbers are read at this FPR." />
        <NumberField label="Prior of membership" key="prior" value=shown("prior", |p| fmt_f64(p.prior)) error=lab.error_for("prior") help="For the posterior success bound." />
        <NumberField label="δ" key="delta" value=shown("delta", |p| fmt_f64(p.delta)) error=lab.error_for("delta") help="For the (ε, δ) curve and the audit." />
        <h3>"Calibrate σ to a risk target (DP-SGD)"</h3>
        <NumberField label="Largest advantage TPR − FPR" key="target_adv" value=shown("target_adv", |p| fmt_f64(p.target_adv)) error=lab.error_for("target_adv") />
        <NumberField label="Largest TPR at the FPR α" key="target_tpr" value=shown("target_tpr", |p| fmt_f64(p.target_tpr)) error=lab.error_for("target_tpr") />
        <h3>"Audit an attack"</h3>
        <p class="help">"Counts of an attack on members (tp, fn) and non-members (fp, tn): the ε they prove."</p>
        <NumberField label="tp" key="tp" value=shown("tp", |p| p.counts.map(|c| c.tp.to_string()).unwrap_or_default()) error=lab.error_for("tp") />
        <NumberField label="fn" key="fn" value=shown("fn", |p| p.counts.map(|c| c.fn_.to_string()).unwrap_or_default()) error=lab.error_for("fn") />
        <NumberField label="fp" key="fp" value=shown("fp", |p| p.counts.map(|c| c.fp.to_string()).unwrap_or_default()) error=lab.error_for("fp") />
        <NumberField label="tn" key="tn" value=shown("tn", |p| p.counts.map(|c| c.tn.to_string()).unwrap_or_default()) error=lab.error_for("tn") />
        <NumberField label="Confidence" key="conf" value=shown("conf", |p| fmt_f64(p.conf)) error=lab.error_for("conf") />
        <button type="button" class="small" data-testid="attack-audit-example" hidden=move || url.options.with(|o| o.locked) on:click=example>
            "Try example counts"
        </button>
    }
}
