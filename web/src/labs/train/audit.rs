//! The training lab's Audit section (`audit=runs`): the lab's DP-SGD trained many times with a canary
//! and without, in the worker pool with progress; the ε the attack measures beside the ε the
//! accountant promises, the score histograms and the ROC.

use crate::charts::specs::train as specs;
use crate::format::sig;
use crate::labs::train::use_train;
use crate::platform::pool;
use crate::widgets::number_field::NumberField;
use crate::widgets::select_field::{choices, SelectField};
use crate::widgets::stat::Stat;
use crate::widgets::xy_canvas::XyCanvas;
use dp_playground::accounting::guarantee::Side;
use dp_playground::accounting::samplers::{Kind, Sampler};
use dp_playground::attacks::audit_summary::AuditSummary;
use dp_playground::labs::train::audit::{
    theory_label, AuditMode, BugKind, CanaryKind, OneRunReport, ThreatKind,
};
use dp_playground::labs::train::jobs::{TrainJob, TrainJobUpdate};
use dp_playground::labs::train::TrainParams;
use dp_playground::link::query::fmt_f64;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The pool's name for the audit's jobs.
const GROUP: &str = "train-audit";

/// Scores of each chunk as they arrive, then the summary.
#[derive(Clone, Default)]
struct Progress {
    chunks: Vec<Option<(Vec<f64>, Vec<f64>)>>,
    summary: Option<Result<AuditSummary, String>>,
    one_run: Option<OneRunReport>,
    failure: Option<String>,
}

/// The Audit section.
#[component]
pub fn TrainAudit() -> impl IntoView {
    let lab = use_train();
    let url = crate::platform::url::use_url();
    let progress = RwSignal::new(Progress::default());
    // The audit reads everything but the sweep and the target: a sweep edit leaves it alone.
    let key = Memo::new(move |_| {
        lab.params.with(|p| {
            (p.audit.mode != AuditMode::Off).then(|| TrainParams {
                sweep: Vec::new(),
                seeds: 1,
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
            if p.audit.mode == AuditMode::OneRun {
                let job = TrainJob::AuditOneRun {
                    params: Box::new(p),
                    csv: csv.map(Box::new),
                };
                spawn_local(async move {
                    let got = pool::outcome(GROUP, &job, |u| match u {
                        TrainJobUpdate::AuditOneRun(r) => Some(r),
                        _ => None,
                    })
                    .await;
                    if current() {
                        progress.update(|g| match got {
                            Some(Ok(r)) => g.one_run = Some(r),
                            Some(Err(e)) => g.failure = Some(e),
                            None => {}
                        });
                    }
                });
                return;
            }
            let chunks = p.audit.chunks();
            progress.update(|g| g.chunks = vec![None; chunks.len()]);
            let csv_rows = csv.as_ref().map_or(0, |d| d.rows());
            let jobs = chunks
                .into_iter()
                .map(|(first, count)| TrainJob::Audit {
                    params: Box::new(p.clone()),
                    csv: csv.clone().map(Box::new),
                    first,
                    count,
                })
                .collect();
            spawn_local(async move {
                let pick = |u| match u {
                    TrainJobUpdate::Audit(r) => Some(r.map(|(_, ins, outs)| (ins, outs))),
                    _ => None,
                };
                let each = move |k: usize, r: &Result<(Vec<f64>, Vec<f64>), String>| {
                    if current() {
                        progress.update(|g| match r {
                            Ok(scores) => g.chunks[k] = Some(scores.clone()),
                            Err(e) => g.failure = Some(e.clone()),
                        });
                    }
                };
                let Some(chunks) = pool::gather(GROUP, jobs, pick, each).await else {
                    return;
                };
                // Every chunk in: the summary.
                let (mut ins, mut outs) = (Vec::new(), Vec::new());
                for (i, o) in &chunks {
                    ins.extend_from_slice(i);
                    outs.extend_from_slice(o);
                }
                let job = TrainJob::AuditReport {
                    params: Box::new(p),
                    csv_rows,
                    ins,
                    outs,
                };
                let got = pool::outcome(GROUP, &job, |u| match u {
                    TrainJobUpdate::AuditReport(r) => Some(r.map(|b| *b)),
                    _ => None,
                })
                .await;
                if let Some(summary) = got.filter(|_| current()) {
                    progress.update(|g| g.summary = Some(summary));
                }
            });
        },
    );
    let on = move || lab.params.with(|p| p.audit.mode != AuditMode::Off);
    let many = move || lab.params.with(|p| p.audit.mode == AuditMode::Runs);
    let one = move || lab.params.with(|p| p.audit.mode == AuditMode::OneRun);
    let one_run = move |f: fn(&OneRunReport) -> f64| {
        Signal::derive(move || progress.with(|g| g.one_run.as_ref().map_or(f64::NAN, f)))
    };
    let done_runs =
        move || progress.with(|g| g.chunks.iter().flatten().map(|c| c.0.len()).sum::<usize>());
    let summary = move || progress.with(|g| g.summary.clone().and_then(Result::ok));
    let value = move |f: fn(&AuditSummary) -> f64| {
        Signal::derive(move || summary().map_or(f64::NAN, |s| f(&s)))
    };
    let status = move || {
        progress.with(|g| {
            if let Some(e) = g.failure.as_ref().or(g.summary.as_ref().and_then(|s| s.as_ref().err())) {
                return format!("The audit failed: {e}");
            }
            let total = lab.params.with(|p| p.audit.runs) as usize;
            if lab.params.with(|p| p.audit.mode == AuditMode::OneRun) {
                return if g.one_run.is_some() {
                    String::new()
                } else {
                    format!(
                        "Training one run with the canaries ({} batches), in a background worker…",
                        lab.params.with(|p| p.sampler.title())
                    )
                };
            }
            match &g.summary {
                Some(_) => String::new(),
                None if g.chunks.is_empty() => String::new(),
                None => format!(
                    "Training {} of {total} runs with the canary and as many without ({} batches), in background workers…",
                    done_runs(),
                    lab.params.with(|p| p.sampler.title())
                ),
            }
        })
    };
    let hist = Memo::new(move |_| summary().map(|s| specs::audit_histogram_chart(&s)));
    let roc = Memo::new(move |_| summary().map(|s| specs::audit_roc_chart(&s)));
    let conf = move || lab.params.with(|p| sig(100.0 * p.audit.conf, 3));
    // The statement states what the audit proved, with its threat model.
    Effect::new(move |_| {
        let fact = summary().map(|s| {
            lab.params
                .with_untracked(|p| dp_playground::statement::AuditFact {
                    eps_lower: s.eps_cp,
                    confidence: p.audit.conf,
                    threat_model: format!(
                        "{} canary runs with and without, the adversary seeing {}",
                        s.runs,
                        p.audit.threat.title().to_lowercase()
                    ),
                })
        });
        lab.audit_fact.set(fact);
    });
    let shown = move |key: &'static str, f: fn(&TrainParams) -> String| {
        url.raw_or(key, move || lab.params.with(f))
    };
    view! {
        <section class="panel" aria-labelledby="audit-title" data-part="audit" hidden={let shown = crate::widgets::parts::use_part("audit", "Audit", false); move || !shown()} data-testid="train-audit">
            <h3 id="audit-title">"Audit: does the guarantee hold against a real attack?"</h3>
            <p class="notices" role="note" hidden=move || lab.params.with(|p| p.mech == dp_playground::learning::correlated::Mechanism::DpSgd)>
                "This section trains DP-SGD at the link's σ (independent noise, the sampler above), not the correlated-noise run: attacking matrix-factorization runs is not built here."
            </p>
            <p class="explain">
                "Train this very DP-SGD many times with a canary record and as many times without, let an adversary "
                "score each run, and see how much privacy the attack measures: a lower bound, with confidence, "
                "on the true ε. It can only lie below the accountant's certified ε; above it means a bug."
            </p>
            <p class="help" hidden=move || lab.params.with(|p| p.audit.bug != BugKind::None) || url.options.with(|o| o.locked)>
                "Audits that catch a planted bug: "
                {[(BugKind::MeanNoise, "mean-noise", "noise added to the mean"),
                  (BugKind::UnclippedCanary, "unclipped", "an outlier whose gradient escapes clipping"),
                  (BugKind::RealisedBatch, "realised-batch", "the realised batch as the normaliser (a tiny data set)")]
                    .into_iter().enumerate().map(|(i, (bug, id, text))| view! {
                        {(i > 0).then_some(" · ")}
                        <a data-testid=format!("train-audit-try-{id}") href=move || url.href_with(|q| {
                            for &(k, v) in bug.demo() { q.set(k, v); }
                        })>{text}</a>
                    }).collect_view()}
            </p>
            <div class="section-controls">
                <SelectField label="Audit" key="audit" options=choices(&AuditMode::ALL, AuditMode::key, AuditMode::title)
                    value=Signal::derive(move || lab.params.with(|p| p.audit.mode.key().to_owned())) error=lab.error_for("audit") />
                <div hidden=move || !on()>
                    <div hidden=move || !many()>
                    <SelectField label="Canary" key="canary" options=choices(&CanaryKind::ALL, CanaryKind::key, CanaryKind::title)
                        value=Signal::derive(move || lab.params.with(|p| p.audit.canary.key().to_owned())) error=lab.error_for("canary") />
                    <div hidden=move || lab.params.with(|p| p.audit.canary != CanaryKind::Point)>
                        <NumberField label="The canary's features (standard deviations from the mean)" key="canary_at"
                            value=shown("canary_at", |p| p.audit.point.iter().map(|x| fmt_f64(*x)).collect::<Vec<_>>().join(","))
                            error=lab.error_for("canary_at") help="Comma-separated, in the data's order; features not listed sit at the mean." />
                        <NumberField label="The canary's label (0 or 1)" key="canary_label" value=shown("canary_label", |p| p.audit.label.to_string())
                            error=lab.error_for("canary_label") />
                    </div>
                    <SelectField label="The adversary sees" key="threat" options=choices(&ThreatKind::ALL, ThreatKind::key, ThreatKind::title)
                        value=Signal::derive(move || lab.params.with(|p| p.audit.threat.key().to_owned())) error=lab.error_for("threat") />
                    <NumberField label="Runs with the canary (and as many without)" key="runs" value=shown("runs", |p| p.audit.runs.to_string())
                        error=lab.error_for("runs") help="20 to 2,000." />
                    </div>
                    <div hidden=move || !one()>
                        <NumberField label="Canaries (each in the run with probability ½)" key="canaries" value=shown("canaries", |p| p.audit.canaries.to_string())
                            error=lab.error_for("canaries") help="10 to 1,000; each is a record with a feature of its own." />
                    </div>
                    <NumberField label="Confidence of the lower bound" key="conf" value=shown("conf", |p| fmt_f64(p.audit.conf))
                        error=lab.error_for("conf") help="0.5 to 0.999." />
                    <SelectField label="Plant a bug" key="bug" options=choices(&BugKind::ALL, BugKind::key, BugKind::title)
                        value=Signal::derive(move || lab.params.with(|p| p.audit.bug.key().to_owned())) error=lab.error_for("bug")
                        help="Each is a mistake real implementations made; the accountant's ε does not change." />
                </div>
            </div>
            <div hidden=move || !on()>
                <p class="status" role="status" data-testid="train-audit-status">{status}</p>
                <div class="stats" hidden=move || !one()>
                    <Stat label="canaries in the run" testid="train-audit-canaries-in" value=one_run(|r| r.canaries.1 as f64) digits=6 />
                    <Stat label="ε one run proves (lower bound, Steinke et al. 2023)" testid="train-audit-eps-one-run" side=Side::AuditLower value=one_run(|r| r.eps_one_run) />
                    <Stat label="ε one run proves, f-DP (lower bound, Mahloujifar et al. 2025)" testid="train-audit-eps-one-run-fdp" side=Side::AuditLower value=one_run(|r| r.eps_one_run_fdp) />
                    <TheoryStat testid="train-audit-eps-theory-one-run" value=one_run(|r| r.eps_theory)
                        label=Signal::derive(move || progress.with(|g| g.one_run.as_ref().map(|r| (r.sampler, r.theory_kind)))) />
                </div>
                <p class="help" hidden=move || !one()>
                    "One run audits cheaply but weakly: the canaries' guesses prove a lower bound far below the guarantee "
                    "unless the model memorises them; many runs measure the same mechanism more tightly."
                </p>
                <div hidden=move || !many()>
                {move || (done_runs() > 0 && summary().is_none()).then(|| view! {
                    <progress max=move || lab.params.with(|p| p.audit.runs) as f64 value=move || done_runs() as f64></progress>
                })}
                <div class="stats">
                    <Stat label="runs with the canary (and as many without)" testid="train-audit-runs" value=value(|s| s.runs as f64) digits=6 />
                    <Stat label="ε the attack proves (lower bound, Clopper–Pearson)" testid="train-audit-eps-cp" side=Side::AuditLower value=value(|s| s.eps_cp) />
                    <Stat label="ε estimate, Gaussian DP (an estimate, not a bound)" testid="train-audit-eps-gdp" side=Side::Estimate value=value(|s| s.eps_gdp) />
                    <TheoryStat testid="train-audit-eps-theory" value=value(|s| s.eps_theory)
                        label=Signal::derive(move || summary().map(|s| (s.sampler, s.theory_kind))) />
                    <Stat label="ε for the final model only (last-iterate heuristic)" testid="train-audit-eps-last-iterate" value=value(|s| s.eps_last_iterate) />
                    <Stat label="TPR at 0.1% FPR" testid="train-audit-tpr-low-fpr" value=value(|s| s.tpr_low_fpr.0) />
                    <Stat label="TPR at 1% FPR" testid="train-audit-tpr-1pct-fpr" value=value(|s| s.tpr_low_fpr.1) />
                    <Stat label="AUC" testid="train-audit-auc" value=value(|s| s.auc) />
                </div>
                <p data-testid="train-audit-contradiction" data-value=move || summary().map_or("", |s| if s.contradiction { "1" } else { "0" })
                    class=move || if summary().is_some_and(|s| s.contradiction) { "notices" } else { "help" }>
                    {move || summary().map(|s| if s.theory_kind != Kind::Upper {
                        format!("The attack proves ε ≥ {} with {}% confidence. Beside it: {} = {}. That is no certified upper bound, \
                            so no measurement can contradict it.",
                            sig(s.eps_cp, 3), conf(), theory_label(s.sampler, s.theory_kind), sig(s.eps_theory, 4))
                    } else if s.contradiction {
                        format!("Contradiction: the attack proves ε ≥ {} with {}% confidence, above the certified ε = {} ({} batches). \
                            The implementation does not do what the accountant accounts for (or this is the {}% bad luck a confidence level allows).",
                            sig(s.eps_cp, 4), conf(), sig(s.eps_theory, 4), s.sampler.title(), sig(100.0 - 100.0 * lab.params.with_untracked(|p| p.audit.conf), 2))
                    } else {
                        format!("The attack proves ε ≥ {} with {}% confidence; the accountant certifies ε ≤ {} for {} batches. The gap is not slack in the \
                            guarantee: {} runs a side can prove at most about {} even for a perfect attack, the adversary's view ({}) \
                            limits what it sees, and the confidence level costs its share.",
                            sig(s.eps_cp, 3), conf(), sig(s.eps_theory, 4), s.sampler.title(), s.runs,
                            sig((s.runs as f64).ln() - (2.0 / (1.0 - lab.params.with_untracked(|p| p.audit.conf))).ln().ln(), 2),
                            lab.params.with_untracked(|p| p.audit.threat.title().to_lowercase()))
                    })}
                </p>
                <p class="help">
                    <a data-testid="train-audit-attack-link" target=url.other_lab_target() rel="noopener" href=move || {
                        let delta = lab.params.with(|p| p.delta);
                        let link = lab.accounting.with(|a| dp_playground::link::handoff::attack_link_for_run(a, delta)).to_query_string();
                        match summary() {
                            Some(s) => format!("?{link}&tp={}&fn={}&fp={}&tn={}&conf={}", s.best.tp, s.best.fn_, s.best.fp, s.best.tn,
                                fmt_f64(lab.params.with(|p| p.audit.conf))),
                            None => format!("?{link}"),
                        }
                    }>"This audit's best threshold on the attack lab's certified trade-off curve, with its confidence box →"</a>
                </p>
                <div class="chart-grid">
                    <XyCanvas testid="train-audit-chart-scores" look_for="Compare the two histograms: the further the with-canary scores sit to the right of the others, the easier the canary is to detect." title="The adversary's scores, with and without the canary"
                        alt=Signal::derive(move || format!("AUC {}.", sig(value(|s| s.auc).get(), 3)))
                        chart=hist csv_name="train-audit-scores.csv" />
                    <XyCanvas testid="train-audit-chart-roc" look_for="Look at the low false-positive end: the further the curve rises above chance there, the larger the ε the audit can prove." title="The attack's ROC (log–log)"
                        alt=Signal::derive(move || format!("TPR at 0.1% FPR: {}.", sig(value(|s| s.tpr_low_fpr.0).get(), 3)))
                        chart=roc csv_name="train-audit-roc.csv" />
                </div>
                </div>
            </div>
        </section>
    }
}

/// The accountant's ε beside an audit, labelled with the sampler the runs drew their batches by and
/// the kind of number it is; `data-sampler` and `data-kind` carry both (empty until the audit ends).
#[component]
fn TheoryStat(
    /// Its stable test id.
    testid: &'static str,
    /// The number.
    value: Signal<f64>,
    /// The sampler and the kind, once known.
    label: Signal<Option<(Sampler, Kind)>>,
) -> impl IntoView {
    view! {
        <div class="stat">
            <span class="stat-label">{move || label.get().map_or_else(
                || "ε by the accountant, for the audit's sampler".to_string(),
                |(s, k)| theory_label(s, k))}</span>
            <span class="stat-value" data-testid=testid data-value=move || crate::format::exact(value.get())
                data-sampler=move || label.get().map_or("", |(s, _)| s.key()) data-kind=move || label.get().map_or("", |(_, k)| k.key())>
                {move || {
                    // Outward for the kind of number it is: a lower bound rounds down, else up.
                    let side = match label.get().map(|(_, k)| k) {
                        Some(Kind::Lower) => Side::Lower,
                        _ => Side::Upper,
                    };
                    side.digits(value.get(), 4)
                }}
            </span>
        </div>
    }
}
