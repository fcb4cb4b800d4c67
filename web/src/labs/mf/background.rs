//! The lab's worker jobs and the report they feed: the BLT optimised for the stream (rerun only when
//! T or the passes change), amplified BandMF's σ (only when the link samples), and, beyond
//! [`PAGE_STEPS`], the report itself. Up to it the page computes the report within a frame.

use crate::platform::pool::{self, JobEnd, LabJobs};
use dp_playground::labs::mf::jobs::{MfJob, MfUpdate};
use dp_playground::labs::mf::{report, Amplified, MfParams, MfReport, PAGE_STEPS};
use dp_playground::mechanisms::mf::optimise::OptimisedBlt;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// What the lab's jobs have found so far.
#[derive(Clone, Copy)]
pub struct Background {
    /// The optimised BLT, or the job's failure; `None` while it runs.
    pub blt: RwSignal<Option<Result<OptimisedBlt, String>>>,
    /// The BLT search's progress line (empty when done).
    pub blt_status: RwSignal<String>,
    /// Amplified BandMF's σ, when the link samples.
    pub amplified: RwSignal<Option<Result<Amplified, String>>>,
    /// The report: `None` while a worker computes it (a long stream's first).
    pub report: Memo<Option<Result<MfReport, String>>>,
}

/// Starts the lab's jobs for each link and folds their results into the report.
pub fn use_background(params: Memo<MfParams>) -> Background {
    let blt = RwSignal::new(None);
    let blt_status = RwSignal::new(String::new());
    let amplified = RwSignal::new(None);
    let worker_report = RwSignal::new(None);
    let blt_jobs = LabJobs::new("mf-blt");
    let amp_jobs = LabJobs::new("mf-amplified");
    // Report jobs are short (tens of ms): a newer link does not cancel the running one (that would
    // terminate its worker, and a fresh worker costs more than the job); its late result is dropped.
    let report_generation = StoredValue::new(0u64);
    on_cleanup(|| pool::cancel("mf-report"));

    let stream = Memo::new(move |_| params.with(|p| (p.steps, p.participation())));
    Effect::new(move |_| {
        let (steps, participation) = stream.get();
        let current = blt_jobs.restart();
        blt.set(None);
        blt_status.set("Optimising the BLT for this stream…".into());
        spawn_local(async move {
            let job = MfJob::Blt {
                steps,
                participation,
            };
            let ended = pool::run("mf-blt", &job, move |u| {
                if !current() {
                    return;
                }
                match u {
                    MfUpdate::BltProgress(d, i, loss) => blt_status.set(format!(
                        "Optimising the BLT: {d} buffer{}, iteration {i}, loss {:.6}…",
                        if d == 1 { "" } else { "s" },
                        loss
                    )),
                    MfUpdate::Blt(found) => {
                        blt.set(Some(Ok(found)));
                        blt_status.set(String::new());
                    }
                    _ => {}
                }
            })
            .await;
            if let (Err(JobEnd::Failed(e)), true) = (ended, current()) {
                blt.set(Some(Err(e)));
                blt_status.set(String::new());
            }
        });
    });

    let goal = Memo::new(move |_| params.with(MfParams::amplified_goal));
    Effect::new(move |_| {
        amp_jobs.show_latest(goal.get().map(MfJob::Amplified), amplified, |u| match u {
            MfUpdate::Amplified(r) => Some(r.map_err(|e| e.to_string())),
            _ => None,
        });
    });

    let found = move || blt.with(|b| b.as_ref().and_then(|r| r.as_ref().ok().cloned()));
    let amp = move || amplified.with(|a| a.as_ref().and_then(|r| r.as_ref().ok().copied()));
    // A long stream's report: the last one stays shown until the new one arrives.
    Effect::new(move |_| {
        let p = params.get();
        let (b, a) = (found(), amp());
        report_generation.update_value(|g| *g += 1);
        let mine = report_generation.get_value();
        let current = move || report_generation.try_get_value() == Some(mine);
        if p.steps <= PAGE_STEPS {
            return;
        }
        spawn_local(async move {
            let job = MfJob::Report {
                params: p,
                blt: b,
                amplified: a,
            };
            let got = pool::outcome("mf-report", &job, |u| match u {
                MfUpdate::Report(r) => Some(r),
                _ => None,
            })
            .await;
            if got.is_some() && current() {
                worker_report.set(got);
            }
        });
    });
    let report = Memo::new(move |_| {
        let p = params.get();
        if p.steps > PAGE_STEPS {
            return worker_report.get();
        }
        Some(report(&p, found().as_ref(), amp().as_ref()).map_err(|e| e.to_string()))
    });
    Background {
        blt,
        blt_status,
        amplified,
        report,
    }
}
