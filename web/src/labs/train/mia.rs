//! The training lab's membership inference section (`mia=loss|lira`): shadow models trained by the
//! lab's three trainers in the worker pool with progress, every model attacked with the others as its
//! shadows, the ROC beside the certified cap.

use crate::charts::specs::train as specs;
use crate::format::sig;
use crate::labs::train::use_train;
use crate::platform::pool;
use crate::widgets::number_field::NumberField;
use crate::widgets::select_field::{choices, SelectField};
use crate::widgets::stat::Stat;
use crate::widgets::xy_canvas::XyCanvas;
use dp_playground::accounting::guarantee::Side;
use dp_playground::labs::train::jobs::{TrainJob, TrainJobUpdate};
use dp_playground::labs::train::mia::{MiaMode, MiaReport, ATTACKS};
use dp_playground::labs::train::TrainParams;
use dp_playground::learning::dpsgd::Variant;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The pool's name for the attack's jobs.
const GROUP: &str = "train-mia";

/// Each chunk's φ as it arrives, then the report.
#[derive(Clone, Default)]
struct Progress {
    chunks: Vec<Option<[Vec<f64>; 3]>>,
    report: Option<Result<MiaReport, String>>,
    failure: Option<String>,
}

/// The membership inference section.
#[component]
pub fn TrainMia() -> impl IntoView {
    let lab = use_train();
    let url = crate::platform::url::use_url();
    let progress = RwSignal::new(Progress::default());
    // The models read neither the sweep, the target nor the audit's settings.
    let key = Memo::new(move |_| {
        lab.params.with(|p| {
            (p.mia.mode != MiaMode::Off).then(|| TrainParams {
                sweep: Vec::new(),
                seeds: 1,
                audit: Default::default(),
                ..p.clone()
            })
        })
    });
    lab.section_jobs(
        GROUP,
        key,
        move || progress.set(Progress::default()),
        move |p, csv, live| {
            let current = move || live.current();
            let chunks = p.mia.chunks();
            progress.update(|g| g.chunks = vec![None; chunks.len()]);
            let csv_rows = csv.as_ref().map_or(0, |d| d.rows());
            let jobs = chunks
                .into_iter()
                .map(|(first, count)| TrainJob::Mia {
                    params: Box::new(p.clone()),
                    csv: csv.clone().map(Box::new),
                    first,
                    count,
                })
                .collect();
            spawn_local(async move {
                let pick = |u| match u {
                    TrainJobUpdate::Mia(r) => Some(r.map(|(_, phi)| phi)),
                    _ => None,
                };
                let each = move |k: usize, r: &Result<[Vec<f64>; 3], String>| {
                    if current() {
                        progress.update(|g| match r {
                            Ok(phi) => {
                                if let Some(chunk) = g.chunks.get_mut(k) {
                                    *chunk = Some(phi.clone());
                                }
                            }
                            Err(e) => g.failure = Some(e.clone()),
                        });
                    }
                };
                let Some(chunks) = pool::gather(GROUP, jobs, pick, each).await else {
                    return;
                };
                // Every model in: the report.
                let job = TrainJob::MiaReport {
                    params: Box::new(p),
                    csv_rows,
                    chunks,
                };
                let got = pool::outcome(GROUP, &job, |u| match u {
                    TrainJobUpdate::MiaReport(r) => Some(r.map(|b| *b)),
                    _ => None,
                })
                .await;
                if let Some(report) = got.filter(|_| current()) {
                    progress.update(|g| g.report = Some(report));
                }
            });
        },
    );
    let on = move || lab.params.with(|p| p.mia.mode != MiaMode::Off);
    let headline = move || lab.params.with(|p| MiaReport::headline(p.mia.mode));
    let report = move || progress.with(|g| g.report.clone().and_then(Result::ok));
    let done =
        move || progress.with(|g| g.chunks.iter().flatten().map(|c| c[0].len()).sum::<usize>());
    let total_models = move || lab.params.with(|p| p.mia.shadows);
    let models_done = move || {
        let rows = lab
            .params
            .with(|p| p.train_rows(lab.csv.with(|c| c.as_ref().map_or(0, |d| d.rows()))));
        done() / rows.max(1)
    };
    let attack = move |v: Variant, f: fn(&dp_playground::labs::train::mia::AttackResult) -> f64| {
        Signal::derive(move || {
            report()
                .and_then(|r| r.attacks.get(headline()).map(|a| f(&a[v as usize])))
                .unwrap_or(f64::NAN)
        })
    };
    let cap = move |f: fn(&dp_playground::attacks::membership::Cap) -> f64| {
        Signal::derive(move || {
            report()
                .and_then(|r| r.cap.as_ref().map(f))
                .unwrap_or(f64::NAN)
        })
    };
    let status = move || {
        progress.with(|g| {
            if let Some(e) = g.failure.as_ref().or(g.report.as_ref().and_then(|r| r.as_ref().err())) {
                return format!("The attack failed: {e}");
            }
            match &g.report {
                Some(_) => String::new(),
                None if g.chunks.is_empty() => String::new(),
                None => format!(
                    "Training {} of {} models (each by the three trainers) on random halves of the training rows, in background workers…",
                    models_done(),
                    total_models()
                ),
            }
        })
    };
    let roc = Memo::new(move |_| report().map(|r| specs::mia_roc_chart(&r, headline())));
    let shown = move |key: &'static str, f: fn(&TrainParams) -> String| {
        url.raw_or(key, move || lab.params.with(f))
    };
    let table = move || {
        report().map(|r| {
            let rows = r.attacks.iter().zip(ATTACKS).map(|(a, name)| {
                let cells = a.iter().map(|x| view! {
                    <td>{sig(x.tpr_low_fpr.0, 3)}</td><td>{sig(x.tpr_low_fpr.1, 3)}</td><td>{sig(x.auc, 4)}</td>
                }).collect_view();
                view! { <tr><th scope="row">{name}</th>{cells}</tr> }
            }).collect_view();
            let cap = r.cap.as_ref().map(|c| view! {
                <tr><th scope="row">"certified cap on any attack"</th>
                    <td>{sig(c.tpr_low_fpr.0, 3)}</td><td>{sig(c.tpr_low_fpr.1, 3)}</td><td>{sig(c.auc, 4)}</td>
                    <td colspan="6">"no guarantee without noise"</td></tr>
            });
            view! {
                <table class="data" data-testid="train-mia-table">
                    <caption>{format!("{} models × {} records: every model the target once, the others its shadows", r.models, r.records)}</caption>
                    <thead>
                        <tr><th rowspan="2" scope="col">"Attack"</th>
                            {Variant::ALL.map(|v| view! { <th colspan="3" scope="colgroup">{v.title()}</th> }).collect_view()}</tr>
                        <tr>{(0..3).map(|_| view! { <th scope="col">"TPR at 0.1% FPR"</th><th scope="col">"at 1%"</th><th scope="col">"AUC"</th> }).collect_view()}</tr>
                    </thead>
                    <tbody>{rows}{cap}</tbody>
                </table>
            }
        })
    };
    view! {
        <section class="panel" aria-labelledby="mia-title" data-part="mia" hidden={let shown = crate::widgets::parts::use_part("mia", "Membership inference", false); move || !shown()} data-testid="train-mia">
            <h3 id="mia-title">"Membership inference: can an attacker tell who was in the training data?"</h3>
            <p class="notices" role="note" hidden=move || lab.params.with(|p| p.mech == dp_playground::learning::correlated::Mechanism::DpSgd)>
                "This section trains DP-SGD at the link's σ (independent noise, the sampler above), not the correlated-noise run: attacking matrix-factorization runs is not built here."
            </p>
            <p class="explain">
                "Train many models, each on a random half of the training rows, and attack each in turn: for every record, "
                "guess whether this model trained on it. The loss-threshold attack guesses \"in\" when the record's loss is low; "
                "LiRA compares the model's confidence on the record with the other models', those that trained on it and those that "
                "did not. Its rates are estimates from the pairs; the certified curve caps what any attack can do to the private models."
            </p>
            <p class="help" hidden=move || url.options.with(|o| o.locked)>
                "Where it leaks: "
                <a data-testid="train-mia-try-memorise" href=move || url.href_with(|q| {
                    for (k, v) in [("mia", "lira"), ("data", "highdim"), ("n", "200"), ("dim", "100"), ("lambda", "0"), ("epochs", "100")] { q.set(k, v); }
                })>"a model with nearly as many weights as training rows, trained without regularisation"</a>
            </p>
            <div class="section-controls">
                <SelectField label="Membership attack" key="mia" options=choices(&MiaMode::ALL, MiaMode::key, MiaMode::title)
                    value=Signal::derive(move || lab.params.with(|p| p.mia.mode.key().to_owned())) error=lab.error_for("mia") />
                <div hidden=move || !on()>
                    <NumberField label="Models (each the target once, the others its shadows)" key="shadows"
                        value=shown("shadows", |p| p.mia.shadows.to_string())
                        error=lab.error_for("shadows") help="8 to 256." />
                </div>
            </div>
            <div hidden=move || !on()>
                <p class="status" role="status" data-testid="train-mia-status">{status}</p>
                {move || (done() > 0 && report().is_none()).then(|| view! {
                    <progress max=move || total_models() as f64 value=move || models_done() as f64></progress>
                })}
                <div class="stats">
                    <Stat label="TPR at 0.1% FPR on DP-SGD's models (estimate)" testid="train-mia-tpr-low-fpr" value=attack(Variant::Private, |a| a.tpr_low_fpr.0) />
                    <Stat label="AUC on DP-SGD's models (estimate)" testid="train-mia-auc" value=attack(Variant::Private, |a| a.auc) />
                    <Stat label="TPR at 0.1% FPR, non-private models" testid="train-mia-tpr-low-fpr-baseline" value=attack(Variant::NonPrivate, |a| a.tpr_low_fpr.0) />
                    <Stat label="AUC, non-private models" testid="train-mia-auc-baseline" value=attack(Variant::NonPrivate, |a| a.auc) />
                    <Stat label="certified cap on any attack: TPR at 0.1% FPR" testid="train-mia-cap-tpr-low-fpr" side=Side::Upper value=cap(|c| c.tpr_low_fpr.0) />
                    <Stat label="certified cap on any attack: AUC" testid="train-mia-cap-auc" value=cap(|c| c.auc) />
                </div>
                <p class="help">
                    "Chance is a TPR equal to the FPR (0.001 at 0.1%) and an AUC of ½. At low FPR only a few false positives "
                    "are allowed, so these rates move by sampling noise: more models tighten them. The certified numbers hold for "
                    "every attack, with any number of shadow models; a gap below them is the attack's weakness and the noise in "
                    "the data, not slack the attacker could use for free."
                </p>
                {table}
                <div class="chart-grid">
                    <XyCanvas testid="train-mia-chart-roc" look_for="Look at the low false-positive end: a curve well above the chance diagonal leaks membership; DP-SGD's should stay under the certified cap." title="The membership attack's ROC (log–log)"
                        alt=Signal::derive(move || format!("TPR at 0.1% FPR on DP-SGD's models: {}.", sig(attack(Variant::Private, |a| a.tpr_low_fpr.0).get(), 3)))
                        chart=roc csv_name="train-mia-roc.csv" />
                </div>
            </div>
        </section>
    }
}
