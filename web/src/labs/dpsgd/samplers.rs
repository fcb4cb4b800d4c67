//! How the training code draws its batches (`sampler=`): the chosen sampler's ε and what kind of
//! number it is, σ for the target where an upper bound is known, and every sampler side by side, each
//! computed in the worker pool (Poisson's row is the lab's own PLD band).

use crate::format::sig;
use crate::labs::dpsgd::use_dpsgd;
use crate::platform::pool::{self, LabJobs};
use crate::platform::url::use_url;
use crate::widgets::number_field::NumberField;
use crate::widgets::select_field::{choices, SelectField};
use crate::widgets::stat::Stat;
use dp_playground::accounting::guarantee::Side;
use dp_playground::accounting::samplers::{Kind, Sampler, SamplerEpsilon};
use dp_playground::accounting::training::jobs::Background;
use dp_playground::labs::dpsgd::jobs::{DpsgdJob, DpsgdUpdate};
use dp_playground::labs::dpsgd::samplers::{describe, shuffle_warning, statement};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The pool's names for the table's jobs and the σ search.
const GROUP: &str = "dpsgd-samplers";
/// See [`GROUP`].
const SIGMA_GROUP: &str = "dpsgd-sampler-sigma";

/// The samplers section.
#[component]
pub fn DpsgdSamplers() -> impl IntoView {
    let lab = use_dpsgd();
    let url = use_url();
    let rows = lab.sampler_rows;
    let sigma = RwSignal::new(None::<Result<Option<f64>, String>>);
    let setting = Memo::new(move |_| lab.params.with(|p| p.sampler_setting()));
    let chosen = Memo::new(move |_| lab.params.with(|p| p.sampler));
    let jobs = LabJobs::new(GROUP);
    Effect::new(move |_| {
        let s = setting.get();
        let current = jobs.restart();
        rows.set(
            Sampler::ALL
                .iter()
                .map(|&x| (x, None))
                .collect::<crate::labs::dpsgd::SamplerRows>(),
        );
        for (k, sampler) in Sampler::ALL.into_iter().enumerate() {
            // Poisson's row is the lab's own band (under either relation).
            if sampler == Sampler::Poisson {
                continue;
            }
            spawn_local(async move {
                let got = pool::outcome(GROUP, &DpsgdJob::Sampler(s, sampler), |u| match u {
                    DpsgdUpdate::Sampler(r) => Some(r),
                    _ => None,
                })
                .await;
                if got.is_some() && current() {
                    rows.update(|r| {
                        if let Some(row) = r.get_mut(k) {
                            row.1 = got;
                        }
                    });
                }
            });
        }
    });
    let sigma_jobs = LabJobs::new(SIGMA_GROUP);
    Effect::new(move |_| {
        let (s, sampler) = (setting.get(), chosen.get());
        let target = lab.params.with(|p| p.target_eps);
        let current = sigma_jobs.restart();
        sigma.set(None);
        if sampler == Sampler::Poisson {
            return;
        }
        spawn_local(async move {
            let job = DpsgdJob::SamplerSigma(s, sampler, target);
            let got = pool::outcome(SIGMA_GROUP, &job, |u| match u {
                DpsgdUpdate::SamplerSigma(r) => Some(r),
                _ => None,
            })
            .await;
            if got.is_some() && current() {
                sigma.set(got);
            }
        });
    });
    // Poisson's row: the lab's PLD band, the same accountant on the same q, σ and T.
    let poisson = move || {
        lab.background
            .with(Background::band)
            .map(|b| SamplerEpsilon {
                sampler: Sampler::Poisson,
                kind: Kind::Upper,
                lower: b.lower,
                upper: Some(b.upper),
                epochs: lab.params.with(|p| p.total_steps() as f64 * p.rate()),
            })
    };
    let result = move |sampler: Sampler| -> Option<Result<SamplerEpsilon, String>> {
        if sampler == Sampler::Poisson {
            return poisson().map(Ok);
        }
        rows.with(|r| r.iter().find(|x| x.0 == sampler).and_then(|x| x.1.clone()))
    };
    let mine = move || result(chosen.get()).and_then(Result::ok);
    let value = move |f: fn(&SamplerEpsilon) -> f64| {
        Signal::derive(move || mine().map_or(f64::NAN, |e| f(&e)))
    };
    let sigma_value = Signal::derive(move || {
        if chosen.get() == Sampler::Poisson {
            return lab.background.with(|b| {
                b.sigma_for_target_pld
                    .as_ref()
                    .and_then(|r| r.as_ref().ok())
                    .map_or(f64::NAN, |x| x.0)
            });
        }
        sigma.with(|s| {
            s.as_ref()
                .and_then(|r| r.as_ref().ok())
                .copied()
                .flatten()
                .unwrap_or(f64::NAN)
        })
    });
    let warning = move || {
        let poisson = poisson()?;
        shuffle_warning(&mine()?, &poisson)
    };
    let failures = move || {
        let mut out: Vec<String> = Sampler::ALL
            .into_iter()
            .filter_map(|s| {
                result(s)
                    .and_then(Result::err)
                    .map(|e| format!("{}: {e}", s.title()))
            })
            .collect();
        if let Some(Err(e)) = sigma.get() {
            out.push(format!("σ for the target: {e}"));
        }
        out
    };
    let pending = move || {
        Sampler::ALL
            .into_iter()
            .filter(|&s| result(s).is_none())
            .count()
    };
    let cell = |x: Option<f64>, side: Side| x.map_or("—".to_owned(), |v| side.digits(v, 4));
    let table_rows = move || {
        Sampler::ALL
            .into_iter()
            .map(|s| {
                let r = result(s).and_then(Result::ok);
                let headline = r.map_or(f64::NAN, |e| e.headline());
                let kind = r.map_or("", |e| e.kind.key());
                view! {
                    <tr data-testid=format!("dpsgd-sampler-table-{}", s.key()) data-value=headline.to_string() data-kind=kind
                        class:chosen=move || chosen.get() == s>
                        <th scope="row">{s.title()}</th>
                        <td>{r.map_or("…".to_owned(), |e| match e.kind { Kind::Exact => "exact".into(), Kind::Upper => "upper (certified)".into(), Kind::Lower => "lower only".into() })}</td>
                        <td>{cell(r.map(|e| e.lower), Side::Lower)}</td>
                        <td>{cell(r.and_then(|e| e.upper), Side::Upper)}</td>
                        <td>{cell(r.map(|e| e.epochs), Side::Estimate)}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    view! {
        <section class="panel" aria-labelledby="samplers-title" data-part="samplers" hidden={let shown = crate::widgets::parts::use_part("samplers", "Samplers compared", false); move || !shown()} data-testid="dpsgd-samplers">
            <h3 id="samplers-title">"Which batches does your training code draw?"</h3>
            <p class="explain">
                "The accountants above assume Poisson sampling. Most data loaders shuffle the data and cut it into fixed-size batches instead, "
                "and that changes the privacy guarantee, sometimes by an order of magnitude. Pick the sampler your code uses: "
                "each comes with the strongest statement known for it, labelled as exact, a certified upper bound, or a lower bound only."
            </p>
            <div class="section-controls">
                <SelectField label="Batch sampler" key="sampler" options=choices(&Sampler::ALL, Sampler::key, Sampler::title)
                    value=Signal::derive(move || chosen.get().key().to_owned()) error=lab.error_for("sampler") />
                <div hidden=move || chosen.get() != Sampler::Truncated>
                    <NumberField label="Batch cap B (truncated Poisson)" key="cap"
                        value=url.raw_or("cap", move || lab.params.with(|p| p.cap().to_string()))
                        error=lab.error_for("cap") help="Largest batch; 10% above the mean batch qn by default." />
                </div>
            </div>
            <p class="help">{move || format!("{}: {}.", chosen.get().title(), describe(chosen.get()))}</p>
            <div class="stats">
                <Stat label="ε at δ for this sampler" testid="dpsgd-sampler-eps" value=value(SamplerEpsilon::headline) />
                <div class="stat">
                    <span class="stat-label">"which kind of number"</span>
                    <span class="stat-value" data-testid="dpsgd-sampler-side" data-value=move || mine().map_or("", |e| e.kind.key())>
                        {move || mine().map_or("…", |e| match e.kind { Kind::Exact => "exact", Kind::Upper => "upper bound", Kind::Lower => "lower bound" })}
                    </span>
                </div>
                <Stat label="certified lower bound" testid="dpsgd-sampler-eps-lower" side=Side::Lower value=value(|e| e.lower) />
                <Stat label="certified upper bound" testid="dpsgd-sampler-eps-upper" side=Side::Upper value=value(|e| e.upper.unwrap_or(f64::NAN)) />
                <Stat label="σ for the target ε (upper bound met)" testid="dpsgd-sampler-sigma" side=Side::Upper value=sigma_value />
            </div>
            <p class="help" data-testid="dpsgd-sampler-statement">{move || mine().map_or("…", |e| statement(&e, setting.with(|s| s.replace_one)))}</p>
            {move || warning().map(|w| view! { <p class="notices" role="note" data-testid="dpsgd-sampler-warning">{w}</p> })}
            {move || failures().into_iter().map(|e| view! { <p class="notices" role="alert">{e}</p> }).collect_view()}
            <p class="status" role="status" data-testid="dpsgd-sampler-status">
                {move || match pending() { 0 => String::new(), k => format!("Accounting for {k} more sampler{} in the background…", if k == 1 { "" } else { "s" }) }}
            </p>
            <div class="table-wrap" tabindex="0"><table class="results-table" data-testid="dpsgd-sampler-table">
                <caption>{move || lab.params.with(|p| format!(
                    "The same σ = {}, q = {} (b = {} batches per epoch) and T = {} steps under every sampler, ε at δ = {}",
                    crate::format::sig_up(p.sigma, 4), sig(p.rate(), 4), p.sampler_setting().batches_per_epoch(), p.total_steps(), sig(p.delta, 3)))}</caption>
                <thead><tr>
                    <th scope="col">"Sampler"</th><th scope="col">"Statement"</th><th scope="col">"ε lower bound"</th>
                    <th scope="col">"ε upper bound"</th><th scope="col">"Epochs counted"</th>
                </tr></thead>
                <tbody>{table_rows}</tbody>
            </table></div>
            <p class="help">
                "Cyclic is exact (the Gaussian mechanism at σ/√E over the ⌈T/b⌉ epochs a record is seen). Shuffled rows, and the lower "
                "side of balls in bins, are lower bounds from the largest batch sum of each epoch (Chua et al., ICML 2024) over ⌊T/b⌋ complete epochs; "
                "balls in bins' upper bound is the exact law of an epoch's likelihood ratio, rounded so that δ can only grow, over ⌈T/b⌉ epochs; "
                "shuffled batches under add/remove are read as zero-out (the removed record's slot stays, with a zero gradient). "
                "Fixed-size batches under add/remove: removing a record hands its slot to another, so the sum moves by up to 2C. "
                {move || lab.params.with(|p| format!(
                    "Truncated Poisson cuts a batch above B = {} (of n = {}) to B random records: when the others alone fill it, \
                     a record that survives the cut replaces another, so that part of the step moves the sum by up to 2C.",
                    p.cap(), p.n))}
            </p>
            <div class="presets" hidden=move || url.options.with(|o| o.locked)>
                <button type="button" class="small" data-testid="dpsgd-sampler-use-sigma"
                    on:click=move |_| { let s = sigma_value.get_untracked(); if s.is_finite() { url.commit_set("sigma", crate::format::sig_up(s, 6)); } }>
                    "Use σ for the target (this sampler)"
                </button>
            </div>
        </section>
    }
}
