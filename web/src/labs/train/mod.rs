//! The training lab (`?lab=train`): three models trained in the worker pool (play, pause, one step,
//! reset resume from the core's checkpoints), ε from the DP-SGD lab's accountants (RDP on the page,
//! the PLD job in a worker), the privacy–utility sweep, one job per σ, and the audit.

mod audit;
mod compare;
mod controls;
mod mia;
mod results;

use crate::labs::train::controls::TrainControls;
use crate::labs::train::results::TrainResults;
use crate::platform::browser::now_ms;
use crate::platform::pool::{self, JobEnd, LabJobs, Live};
use crate::platform::url::use_url;
use crate::widgets::after_paint::AfterPaint;
use crate::widgets::lab_page::LabPage;
use crate::widgets::share_panel::SharePanel;
use crate::widgets::statement_panel::StatementPanel;
use dp_playground::accounting::event::TrainingEvent;
use dp_playground::accounting::pld::DEFAULT_INTERVAL;
use dp_playground::accounting::samplers::Sampler;
use dp_playground::accounting::training::jobs::AccountingJob;
use dp_playground::accounting::training::jobs::{Background, PldJob};
use dp_playground::accounting::training::{rdp_report, RdpReport};
use dp_playground::labs::train::jobs::SweepPoint;
use dp_playground::labs::train::jobs::{TrainJob, TrainJobUpdate};
use dp_playground::labs::train::report::{
    guarantee, headline, statement_facts, HeadlineInputs, RunState,
};
use dp_playground::labs::train::run::TrainUpdate;
use dp_playground::labs::train::{markdown, opacus_snippet, DataKind, TrainParams};
use dp_playground::labs::Lab;
use dp_playground::learning::correlated::Mechanism;
use dp_playground::learning::data::Dataset;
use dp_playground::link::query::{LinkParams, Notice};
use dp_playground::statement::AuditFact;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// The lab's state, shared by its parts.
#[derive(Clone, Copy)]
pub struct TrainState {
    /// Parameters in use.
    pub params: Memo<TrainParams>,
    /// Refused link values.
    pub notices: Memo<Vec<Notice>>,
    /// The user's CSV, parsed (never in the link).
    pub csv: RwSignal<Option<Dataset>>,
    /// Why the CSV was refused.
    pub csv_error: RwSignal<Option<String>>,
    /// The planned steps (T, or fewer when stopping at the target), or why there are none.
    pub steps: Memo<Result<u64, String>>,
    /// The link trains on a CSV that is not loaded: no run exists, so no ε or accuracy is stated.
    pub awaiting: Memo<bool>,
    /// The run as accountants take it, over the planned steps.
    pub accounting: Memo<TrainingEvent>,
    /// The RDP accountant's report for the planned steps.
    pub rdp: Memo<Result<RdpReport, String>>,
    /// The PLD job's results.
    pub pld: RwSignal<Background>,
    /// The run so far.
    pub run: RwSignal<RunState>,
    /// Whether a training job is running.
    pub playing: RwSignal<bool>,
    /// Why the latest training job failed (a refused link or CSV).
    pub failure: RwSignal<Option<String>>,
    /// The sweep's points so far.
    pub sweep: RwSignal<Vec<SweepPoint>>,
    /// Sweep jobs still running, and the sweep's failure.
    pub sweep_status: RwSignal<(usize, Option<String>)>,
    /// What the audit proved, once it has run (the audit section fills it).
    pub audit_fact: RwSignal<Option<AuditFact>>,
    run_jobs: LabJobs,
}

impl TrainState {
    /// The refusal message for `key`, if any.
    pub fn error_for(&self, key: &'static str) -> Signal<Option<Notice>> {
        crate::widgets::notices::notice_for(self.notices, key)
    }

    /// The CSV's rows (0 without one).
    pub fn csv_rows(&self) -> usize {
        self.csv.with(|c| c.as_ref().map_or(0, Dataset::rows))
    }

    /// Trains from the current checkpoint (or the start, `fresh`) to step `until`.
    pub fn train(self, fresh: bool, until: u64) {
        let current = self.run_jobs.restart();
        if fresh {
            self.run.set(RunState::default());
        }
        let (from, noise) = if fresh {
            (None, None)
        } else {
            self.run.with_untracked(|r| {
                let noise = r.prepared.as_ref().and_then(|d| d.noise.clone());
                (r.checkpoint.clone(), noise.map(Box::new))
            })
        };
        self.run.update(RunState::start_job);
        self.failure.set(None);
        self.playing.set(true);
        let job = TrainJob::Run {
            params: Box::new(self.params.get_untracked()),
            csv: self.csv.get_untracked().map(Box::new),
            from,
            noise,
            until,
        };
        // Updates arrive faster than frames: they are stamped on arrival (the speed read-out times the
        // worker from its first message to its last) and folded in once per animation frame.
        let pending: Rc<RefCell<Vec<(TrainUpdate, f64)>>> = Rc::default();
        let scheduled = Rc::new(Cell::new(false));
        let first_at = Rc::new(Cell::new(None::<f64>));
        let run = self.run;
        let flush = {
            let pending = pending.clone();
            move || {
                let batch = std::mem::take(&mut *pending.borrow_mut());
                if current() && !batch.is_empty() {
                    run.update(|r| batch.into_iter().for_each(|(u, t)| r.apply(u, t)));
                }
            }
        };
        spawn_local(async move {
            let on_frame = flush.clone();
            let ended = pool::run(RUN_GROUP, &job, move |u| {
                if let TrainJobUpdate::Run(u) = u {
                    let now = now_ms();
                    let since_first = now - first_at.get().unwrap_or(now);
                    first_at.set(Some(first_at.get().unwrap_or(now)));
                    pending.borrow_mut().push((u, since_first));
                    if !scheduled.replace(true) {
                        let (on_frame, scheduled) = (on_frame.clone(), scheduled.clone());
                        request_animation_frame(move || {
                            scheduled.set(false);
                            on_frame();
                        });
                    }
                }
            })
            .await;
            flush();
            if !current() {
                return;
            }
            self.playing.set(false);
            if let Err(JobEnd::Failed(e)) = ended {
                self.failure.set(Some(e));
            }
        });
    }

    /// A section's background work (the comparison, the audit, the membership attack): whenever
    /// its `key` (the parameters it reads; `None`: nothing to run) or the CSV changes, cancels the
    /// earlier link's jobs, `reset`s the section and, unless a CSV link's file is missing, calls
    /// `start` with the parameters, the CSV and the check that this link is still the current one.
    pub fn section_jobs(
        self,
        group: &'static str,
        key: Memo<Option<TrainParams>>,
        reset: impl Fn() + 'static,
        start: impl Fn(TrainParams, Option<Dataset>, Live) + 'static,
    ) {
        let jobs = LabJobs::new(group);
        Effect::new(move |_| {
            let p = key.get();
            let csv = self.csv.get();
            let live = jobs.restart_live();
            reset();
            let Some(p) = p else { return };
            if p.data == DataKind::Csv && csv.is_none() {
                return;
            }
            start(p, csv, live);
        });
    }

    /// Stops the running job; the run stays at its last checkpoint.
    pub fn pause(self) {
        let _ = self.run_jobs.restart();
        self.playing.set(false);
    }
}

/// What the headline and the ε cards say before a `data=csv` link's file is read.
pub const NO_DATA: &str =
    "No data loaded: choose your CSV file above. Nothing is trained and no ε is stated until a run on your data exists.";

/// The pool's names for the lab's jobs: the run, the PLD accountant, the sweep.
const RUN_GROUP: &str = "train-run";
/// See [`RUN_GROUP`].
const PLD_GROUP: &str = "train-pld";
/// See [`RUN_GROUP`].
const SWEEP_GROUP: &str = "train-sweep";

/// The training lab.
#[component]
pub fn TrainLab() -> impl IntoView {
    let url = use_url();
    let parsed = Memo::new(move |_| TrainParams::from_query(&url.query.get()));
    let params = Memo::new(move |_| parsed.get().0);
    let csv = RwSignal::new(None::<Dataset>);
    let rows = Memo::new(move |_| csv.with(|c| c.as_ref().map_or(0, Dataset::rows)));
    let steps = Memo::new(move |_| {
        params
            .with(|p| p.planned_steps(rows.get()))
            .map_err(|e| e.to_string())
    });
    let accounting = Memo::new(move |_| {
        let t = steps.get().unwrap_or(1);
        params.with(|p| p.accounting_event(rows.get(), t))
    });
    let awaiting = Memo::new(move |_| params.with(|p| p.awaits_csv(rows.get())));
    // No file, no run: no ε for the placeholder the accounting would otherwise read.
    let rdp = Memo::new(move |_| {
        if awaiting.get() {
            return Err(NO_DATA.to_string());
        }
        let delta = params.with(|p| p.delta);
        accounting.with(|e| rdp_report(e, delta).map_err(|e| e.to_string()))
    });
    let state = TrainState {
        params,
        notices: Memo::new(move |_| parsed.get().1),
        csv,
        csv_error: RwSignal::new(None),
        steps,
        awaiting,
        accounting,
        rdp,
        pld: RwSignal::new(Background::default()),
        run: RwSignal::new(RunState::default()),
        playing: RwSignal::new(false),
        failure: RwSignal::new(None),
        sweep: RwSignal::new(Vec::new()),
        sweep_status: RwSignal::new((0, None)),
        audit_fact: RwSignal::new(None),
        run_jobs: LabJobs::new(RUN_GROUP),
    };
    provide_context(state);
    // A new link (or CSV) trains from the start, to the end.
    Effect::new(move |_| {
        params.track();
        csv.track();
        if let Ok(t) = steps.get() {
            state.train(true, t);
        } else {
            state.pause();
            state.run.set(RunState::default());
        }
    });
    // The PLD accountant reads q, σ, T, δ alone.
    let pld_job = Memo::new(move |_| {
        let delta = params.with(|p| p.delta);
        (!awaiting.get())
            .then(|| accounting.with(|e| PldJob::with_sampler(e, delta, DEFAULT_INTERVAL)))
    });
    let pld_jobs = LabJobs::new(PLD_GROUP);
    Effect::new(move |_| {
        let job = pld_job.get();
        let current = pld_jobs.restart();
        let Some(job) = job else {
            state.pld.set(Background::default());
            return;
        };
        state.pld.update(|b| b.start_pld(&job, now_ms()));
        spawn_local(async move {
            let ended = pool::run(PLD_GROUP, &AccountingJob::Pld(job), |u| {
                state.pld.update(|b| b.apply(u, now_ms()))
            })
            .await;
            match ended {
                Err(JobEnd::Cancelled) => {}
                Err(JobEnd::Failed(e)) => state.pld.update(|b| b.end_pld(Some(e))),
                Ok(()) if current() => state.pld.update(|b| b.end_pld(None)),
                Ok(()) => {}
            }
        });
    });
    // The sweep reads everything but σ, the target and the stop rule: one job per σ.
    let sweep_key = Memo::new(move |_| {
        params.with(|p| TrainParams {
            sigma: 1.0,
            target_eps: 1.0,
            stop: false,
            ..p.clone()
        })
    });
    let sweep_jobs = LabJobs::new(SWEEP_GROUP);
    Effect::new(move |_| {
        let p = sweep_key.get();
        let data = csv.get();
        let current = sweep_jobs.restart();
        state.sweep.set(Vec::new());
        if p.data == DataKind::Csv && data.is_none() {
            state.sweep_status.set((0, None));
            return;
        }
        state.sweep_status.set((p.sweep.len(), None));
        for &sigma in &p.sweep {
            let job = TrainJob::Sweep {
                params: Box::new(p.clone()),
                csv: data.clone().map(Box::new),
                sigma,
            };
            spawn_local(async move {
                let got = pool::outcome(SWEEP_GROUP, &job, |u| match u {
                    TrainJobUpdate::Sweep(r) => Some(r),
                    _ => None,
                })
                .await;
                if !current() {
                    return;
                }
                let failure = match got {
                    Some(Ok(point)) => {
                        state.sweep.update(|s| s.push(point));
                        None
                    }
                    Some(Err(e)) => Some(e),
                    None => None,
                };
                state
                    .sweep_status
                    .update(|s| *s = (s.0.saturating_sub(1), failure.or(s.1.take())));
            });
        }
    });
    let share_markdown = Signal::derive(move || {
        if awaiting.get() {
            return NO_DATA.to_string();
        }
        let eps_pld = state.pld.with(|b| b.band().map(|x| x.upper));
        let eps_rdp = rdp.with(|r| r.as_ref().map_or(f64::NAN, |r| r.eps));
        let own = state
            .pld
            .with(|b| b.sampler.as_ref().and_then(|r| r.as_ref().ok()).copied());
        let correlated = with_headline_inputs(&state, guarantee);
        state.run.with(|r| {
            params.with(|p| {
                markdown(
                    p,
                    r.prepared.as_ref(),
                    r.last(),
                    eps_pld,
                    eps_rdp,
                    own.as_ref(),
                    correlated.as_ref(),
                )
            })
        })
    });
    let share_snippet = Signal::derive(move || {
        let (dim, t) = state
            .run
            .with(|r| r.prepared.as_ref().map_or((30, 0), |d| (d.dim, d.steps)));
        (
            "The same run in Opacus (Python)".to_string(),
            params.with(|p| opacus_snippet(p, dim, rows.get(), t)),
        )
    });
    view! {
        <LabPage heading_id="train-title" title="Training with DP-SGD: what privacy costs in accuracy"
            headline=Signal::derive(move || train_headline(&state))
            intro=move || view! {
                <p>
                    "This page trains for real, in your browser: each step "
                    {move || match params.with(|p| (p.mech, p.sampler)) {
                        (Mechanism::DpSgd, Sampler::Poisson) => "samples every training row with probability q".to_string(),
                        (Mechanism::DpSgd, s) => format!("draws its batch as the sampler picked does ({})", s.title()),
                        (Mechanism::BandMf { bands }, _) => format!("takes its batch from one of {bands} groups of rows in turn, each row of the group with probability q·{bands}"),
                        _ => "takes the next batch of rows in a fixed order".to_string(),
                    }}
                    ", clips each row's gradient to norm C, adds "
                    {move || if params.with(|p| p.mech == Mechanism::DpSgd) {
                        "fresh Gaussian noise of standard deviation σ·C".to_string()
                    } else {
                        format!("correlated Gaussian noise ({}: the noise of earlier steps partly cancels)", params.with(|p| p.mech.title()))
                    }}
                    " to their sum and divides by the expected batch size q·n, exactly the mechanism the "
                    "accountants count. Beside it the same batches train a model with clipping only and one "
                    "without privacy, so that clipping's bias and the noise's cost show apart."
                </p>
            }
            controls=move || view! { <TrainControls /> }
        >
            <TrainResults />
            <AfterPaint frames=3>
                <compare::TrainCompare />
                <audit::TrainAudit />
                <mia::TrainMia />
            </AfterPaint>
            <AfterPaint frames=4>
                <StatementPanel guarantee=Signal::derive(move || {
                    if state.awaiting.get() { None } else { with_headline_inputs(&state, guarantee) }
                }) facts=Signal::derive(move || {
                    let link = url.query.with(|q| q.to_query_string());
                    let audit = state.audit_fact.get();
                    state.accounting.with(|e| state.params.with(|p| statement_facts(p, e, &link, audit)))
                }) />
                <SharePanel lab=Lab::Train markdown=share_markdown snippet=share_snippet />
            </AfterPaint>
        </LabPage>
    }
}

/// The lab's state (panics only if used outside the lab, a programming error).
pub fn use_train() -> TrainState {
    expect_context::<TrainState>()
}

/// What the headline and the target notice read of the page ([`HeadlineInputs`]), handed to `f`.
pub fn with_headline_inputs<T>(state: &TrainState, f: impl FnOnce(&HeadlineInputs) -> T) -> T {
    let rdp = state.rdp.with(|r| r.as_ref().map_or(f64::NAN, |r| r.eps));
    let poisson = state.pld.with(|b| b.tightest_epsilon(rdp));
    let own = state
        .pld
        .with(|b| b.sampler.as_ref().and_then(|r| r.as_ref().ok()).copied());
    let last = state.run.with(|r| r.last().map(|p| (p.test_acc, r.step())));
    let noise = state
        .run
        .with(|r| r.prepared.as_ref().and_then(|d| d.noise.clone()));
    state.accounting.with(|event| {
        state.params.with(|p| {
            f(&HeadlineInputs {
                event,
                mech: p.mech,
                noise: noise.as_ref(),
                sampler: p.sampler,
                own: own.as_ref(),
                poisson,
                delta: p.delta,
                target_eps: p.target_eps,
                stop: p.stop,
                last,
            })
        })
    })
}

/// The lab's headline: the private model's test accuracy beside the non-private one's, and the one ε
/// the planned steps cost ([`headline`]).
fn train_headline(state: &TrainState) -> String {
    if state.awaiting.get() {
        return NO_DATA.to_string();
    }
    with_headline_inputs(state, headline)
}
