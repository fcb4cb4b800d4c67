//! Schedules (`schedule=q:σ:T,…`, composed by the PLD in the worker pool and by RDP) and
//! hyperparameter tuning (`tuning=…`, RDP on the page: a few hundred operations).

use crate::labs::dpsgd::use_dpsgd;
use crate::platform::pool::{self, LabJobs};
use crate::platform::url::use_url;
use crate::widgets::number_field::NumberField;
use crate::widgets::stat::Stat;
use dp_playground::accounting::guarantee::Side;
use dp_playground::accounting::samplers::schedule::format_schedule;
use dp_playground::accounting::training::phases::{tuning_report, ScheduleReport, TuningReport};
use dp_playground::labs::dpsgd::jobs::{DpsgdJob, DpsgdUpdate};
use dp_playground::labs::dpsgd::phases::describe_tuning;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The pool's name for the schedule's job.
const GROUP: &str = "dpsgd-schedule";

/// The schedules-and-tuning section.
#[component]
pub fn DpsgdPhases() -> impl IntoView {
    let lab = use_dpsgd();
    let url = use_url();
    let schedule = lab.schedule_report;
    // The schedule's job reads the phases, δ, the grid and the relation only.
    let key = Memo::new(move |_| {
        lab.params.with(|p| {
            p.schedule.as_ref().map(|_| {
                let phases: Vec<(u64, u64, u64)> = p
                    .event()
                    .phases()
                    .iter()
                    .map(|ph| (ph.q.to_bits(), ph.sigma.to_bits(), ph.steps))
                    .collect();
                (
                    phases,
                    p.delta.to_bits(),
                    p.grid.map(f64::to_bits),
                    p.neighbour,
                )
            })
        })
    });
    let jobs = LabJobs::new(GROUP);
    Effect::new(move |_| {
        let on = key.get();
        let current = jobs.restart();
        schedule.set(None);
        if on.is_none() {
            return;
        }
        let job = DpsgdJob::Schedule(lab.params.get_untracked());
        spawn_local(async move {
            let got = pool::outcome(GROUP, &job, |u| match u {
                DpsgdUpdate::Schedule(r) => Some(r),
                _ => None,
            })
            .await;
            if got.is_some() && current() {
                schedule.set(got);
            }
        });
    });
    let tuning = Memo::new(move |_| {
        lab.params.with(|p| {
            p.tuning
                .map(|_| tuning_report(&p.event(), p.delta).map_err(|e| e.to_string()))
        })
    });
    let has_schedule = move || lab.params.with(|p| p.schedule.is_some());
    let has_tuning = move || lab.params.with(|p| p.tuning.is_some());
    let sched = move |f: fn(&ScheduleReport) -> f64| {
        Signal::derive(move || {
            schedule.with(|r| r.as_ref().and_then(|r| r.as_ref().ok()).map_or(f64::NAN, f))
        })
    };
    let tuned = move |f: fn(&TuningReport) -> f64| {
        Signal::derive(move || {
            tuning.with(|r| r.as_ref().and_then(|r| r.as_ref().ok()).map_or(f64::NAN, f))
        })
    };
    let status = move || match schedule.get() {
        None if has_schedule() => {
            "Composing the schedule's phases in a background worker…".to_owned()
        }
        Some(Err(e)) => format!("The schedule's accountant failed: {e}"),
        _ => String::new(),
    };
    view! {
        <section class="panel" aria-labelledby="phases-title" data-part="phases" hidden={let shown = crate::widgets::parts::use_part("phases", "Phases", false); move || !shown()} data-testid="dpsgd-phases">
            <h3 id="phases-title">"Schedules and hyperparameter tuning"</h3>
            <p class="explain">
                "Training often runs in phases (a warm-up with a larger batch, a fine-tuning phase with less noise): the phases compose. "
                "And nobody trains once: trying K settings and keeping the best costs privacy too, but far less than K runs published side by side "
                "if K is itself random (Papernot & Steinke, ICLR 2022)."
            </p>
            <div class="section-controls">
                <NumberField label="Schedule (optional)" key="schedule"
                    value=url.raw_or("schedule", move || lab.params.with(|p| p.schedule.as_deref().map(format_schedule).unwrap_or_default()))
                    error=lab.error_for("schedule") help="Phases q:σ:T, comma-separated, e.g. 0.01:1:500,0.02:1.5:300; replaces q, σ and T above." />
                <NumberField label="Tuning (optional)" key="tuning"
                    value=url.raw_or("tuning", move || lab.params.with(|p| p.tuning.map(|t| t.to_string()).unwrap_or_default()))
                    error=lab.error_for("tuning") help="poisson:μ, or tnb:η:mean (η = 0 logarithmic, 1 geometric): how many runs, the best released." />
            </div>
            <p class="status" role="status" data-testid="dpsgd-schedule-status">{status}</p>
            <div class="stats" hidden=move || !has_schedule()>
                <Stat label="schedule's ε, PLD (certified upper bound)" testid="dpsgd-eps-schedule" side=Side::Upper value=sched(|r| r.band.upper) />
                <Stat label="its certified lower bound" testid="dpsgd-eps-schedule-lower" value=sched(|r| r.band.lower) />
                <Stat label="schedule's ε, RDP" testid="dpsgd-eps-schedule-rdp" side=Side::Upper value=sched(|r| r.rdp) />
            </div>
            <div class="stats" hidden=move || !has_tuning()>
                <Stat label="tuned release: the best of K runs (RDP, upper bound)" testid="dpsgd-eps-tuned" value=tuned(|r| r.tuned) />
                <Stat label="one run (RDP)" testid="dpsgd-eps-tuned-single" value=tuned(|r| r.single) />
                <Stat label="⌈E[K]⌉ runs, all released (RDP)" testid="dpsgd-eps-tuned-naive" value=tuned(|r| r.naive) />
            </div>
            <p class="help" hidden=move || !has_tuning()>
                {move || lab.params.with(|p| p.tuning.map(|t| format!(
                    "{}. All three by RDP on dp_accounting's orders (1.1 to 10.9 by 0.1, 11 to 63, 128 to 1024), as its RepeatAndSelectDpEvent: \
                     the tuned bound depends on that grid. {}",
                    describe_tuning(t),
                    if p.schedule.is_some() { "Each run is the whole schedule." } else { "Each run is the training above." },
                )))}
            </p>
            {move || tuning.get().and_then(Result::err).map(|e| view! { <p class="notices" role="alert">{e}</p> })}
        </section>
    }
}
