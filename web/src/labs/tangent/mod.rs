//! The tangent DP lab (`?lab=tangent`): the Gibbs distribution of entropic regularization, its tangent
//! maps' norms beside the paper's bounds, the removal experiment and the Monte Carlo estimates. A report
//! that fits in a frame is computed on the page; larger ones, and everything after the report, in the
//! worker pool (web/src/platform/pool.rs), in parallel where it splits, with progress; a new link cancels the old
//! computation.

mod charts;
mod controls;
mod results;

use crate::labs::tangent::charts::TangentCharts;
use crate::labs::tangent::controls::TangentControls;
use crate::labs::tangent::results::TangentResults;
use crate::platform::browser::now_ms;
use crate::platform::pool::{self, JobEnd, LabJobs};
use crate::platform::url::use_url;
use crate::widgets::after_paint::AfterPaint;
use crate::widgets::lab_page::LabPage;
use crate::widgets::notices::Notices;
use crate::widgets::share_panel::SharePanel;
use dp_playground::labs::tangent::background::{Extra, Extras};
use dp_playground::labs::tangent::jobs::Protocol;
use dp_playground::labs::tangent::jobs::TangentUpdate;
use dp_playground::labs::tangent::{markdown, Report, TangentParams};
use dp_playground::labs::Lab;
use dp_playground::link::query::LinkParams;
use dp_playground::link::query::Notice;
use futures::future::join_all;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The lab's state, shared by its parts.
#[derive(Clone, Copy)]
pub struct TangentState {
    /// Parameters in use.
    pub params: Memo<TangentParams>,
    /// Refused link values.
    pub notices: Memo<Vec<Notice>>,
    /// The report, once computed.
    pub report: RwSignal<Option<Report>>,
    /// Sweeps and Monte Carlo.
    pub extras: RwSignal<Extras>,
    /// What is being computed (empty when done).
    pub status: RwSignal<String>,
    /// Fraction of the report done.
    pub progress: RwSignal<f64>,
    /// Wall time of the report (ms).
    pub report_ms: RwSignal<f64>,
}

impl TangentState {
    /// The refusal message for `key`, if any.
    pub fn error_for(&self, key: &'static str) -> Signal<Option<Notice>> {
        crate::widgets::notices::notice_for(self.notices, key)
    }
}

/// The pool's name for this lab's jobs.
const GROUP: &str = "tangent";

/// The tangent DP lab.
#[component]
pub fn TangentLab() -> impl IntoView {
    let url = use_url();
    let parsed = Memo::new(move |_| TangentParams::from_query(&url.query.get()));
    let params = Memo::new(move |_| parsed.get().0);
    let state = TangentState {
        params,
        notices: Memo::new(move |_| parsed.get().1),
        report: RwSignal::new(None),
        extras: RwSignal::new(Extras::default()),
        status: RwSignal::new(String::new()),
        progress: RwSignal::new(0.0),
        report_ms: RwSignal::new(f64::NAN),
    };
    provide_context(state);
    let jobs = LabJobs::new(GROUP);
    Effect::new(move |_| {
        let p = params.get();
        let current = jobs.restart();
        state.report.set(None);
        state.extras.set(Extras::default());
        state.progress.set(0.0);
        state
            .status
            .set("Computing the Gibbs distribution and the tangent maps…".into());
        spawn_local(async move {
            if current() {
                compute(&p, state).await;
            }
        });
    });
    let share_markdown = Signal::derive(move || {
        state.report.with(|r| {
            r.as_ref()
                .map(|r| markdown(&params.get(), r))
                .unwrap_or_default()
        })
    });
    view! {
        <LabPage heading_id="tangent-title" title="Tangent differential privacy: how much does one point move the Gibbs distribution?"
            headline=Signal::derive(move || tangent_headline(&state))
            intro=move || view! {
                <p>
                    "Entropic regularization turns risk minimization into sampling from q(w) ∝ exp(−β Σ p_i r(w, x_i)) "
                    "(Ying 2025, eq. 3.1). Its tangent maps say how q and log q move when the data distribution p moves: "
                    "by a little mass (total variation) or by moving the points (Wasserstein). Here they are computed "
                    "exactly on a grid, beside the paper's bounds 2βR, and checked against actually removing points."
                </p>
                <Notices notices=Signal::derive(move || state.notices.get()) testid="tdp-notices" />
            }
            controls=move || view! {
                <TangentControls />
            }
        >
            <p class="status" role="status" data-testid="tdp-status">{move || state.status.get()}</p>
            <progress max="1" value=move || state.progress.get() data-testid="tdp-progress"
                hidden=move || state.report.with(Option::is_some)></progress>
            <TangentResults />
            <AfterPaint>
                <TangentCharts />
            </AfterPaint>
            <AfterPaint frames=3>
                <SharePanel lab=Lab::Tangent markdown=share_markdown />
            </AfterPaint>
        </LabPage>
    }
}

/// The report, then the extras. A small instance's report is computed here (the same parts in the same
/// order as the workers', so the same bits), unless the link names a number of workers (`threads`);
/// otherwise in the worker pool: the risk over the parameters in parts, ln q here, the norms' column
/// parts, then one worker merges them into the report and goes on with the extras. Stops early if the
/// link changed meanwhile (the jobs were cancelled) or was refused.
async fn compute(p: &TangentParams, state: TangentState) {
    let protocol = match Protocol::new(p) {
        Ok(protocol) => protocol,
        Err(e) => {
            state.status.set(e.to_string());
            return;
        }
    };
    let plan = protocol.plan();
    if plan.fits_on_page() && pool::threads_from_link().is_none() {
        let start = now_ms();
        let report = plan.report();
        state.report_ms.set(now_ms() - start);
        state.report.set(Some(report.clone()));
        state
            .status
            .set("Sampling the tangent map for its picture…".into());
        let on_extra = move |u| {
            if let TangentUpdate::Extra(e) = u {
                apply_extra(state, e)
            }
        };
        let sweeps = protocol.sweeps_job(report.clone());
        let chain = protocol.langevin_job(report);
        let (sweeps, chain) = futures::join!(
            pool::run(GROUP, &sweeps, on_extra),
            pool::run(GROUP, &chain, on_extra)
        );
        show_end(state, sweeps.and(chain));
        return;
    }
    let total = plan.evaluations();
    let start = now_ms();
    // Each part's evaluations so far; the bar shows their sum.
    let done = std::rc::Rc::new(std::cell::RefCell::new(Vec::<f64>::new()));
    let progress = |part: usize, base: f64, value: f64| {
        let mut d = done.borrow_mut();
        if d.len() <= part {
            d.resize(part + 1, 0.0);
        }
        d[part] = value;
        let fraction = (base + d.iter().sum::<f64>()) / total;
        state.progress.set(fraction.min(1.0));
        state.status.set(format!(
            "Computing the tangent maps: {:.0}%…",
            100.0 * fraction.min(1.0)
        ));
    };
    let risk_jobs = protocol
        .risk_jobs()
        .into_iter()
        .enumerate()
        .map(|(i, job)| async move {
            let mut out = Vec::new();
            pool::run(GROUP, &job, |u| match u {
                TangentUpdate::Progress(x) => progress(i, 0.0, x),
                TangentUpdate::Risk(r) => out = r,
                _ => {}
            })
            .await
            .map(|()| out)
        });
    let Some(parts) = settle(state, join_all(risk_jobs).await) else {
        return;
    };
    let risk: Vec<f64> = parts.into_iter().flatten().collect();
    let risk_evals = plan.risk_evaluations();
    done.borrow_mut().clear();
    let (columns, jobs) = protocol.column_jobs(&risk);
    let column_jobs = jobs.into_iter().enumerate().map(|(i, job)| async move {
        let mut out = Vec::new();
        pool::run(GROUP, &job, |u| match u {
            TangentUpdate::Progress(x) => progress(i, risk_evals, x),
            TangentUpdate::NormsPart(b) => out = b,
            _ => {}
        })
        .await
        .map(|()| out)
    });
    let Some(parts) = settle(state, join_all(column_jobs).await) else {
        return;
    };
    state
        .status
        .set("Merging the parts into the report…".into());
    let job = protocol.finish_job(risk, columns.log_q, parts);
    // The Langevin chain starts in another worker as soon as the report is here.
    let langevin = std::cell::RefCell::new(None);
    let ended = pool::run(GROUP, &job, |u| match u {
        TangentUpdate::Report(r) => {
            state.report_ms.set(now_ms() - start);
            let chain = protocol.langevin_job((*r).clone());
            *langevin.borrow_mut() = Some(pool::run(GROUP, &chain, move |u| {
                if let TangentUpdate::Extra(e) = u {
                    apply_extra(state, e)
                }
            }));
            state.report.set(Some(*r));
            state
                .status
                .set("Sampling the tangent map for its picture…".into());
        }
        TangentUpdate::Extra(e) => apply_extra(state, e),
        _ => {}
    })
    .await;
    let chain = langevin.borrow_mut().take();
    let ended = match (ended, chain) {
        (Ok(()), Some(chain)) => chain.await,
        (ended, _) => ended,
    };
    show_end(state, ended);
}

/// Clears the status when every job is done, or shows why one failed (a cancelled one shows nothing:
/// the new link's jobs own the status).
fn show_end(state: TangentState, ended: Result<(), JobEnd>) {
    match ended {
        Ok(()) => state.status.set(String::new()),
        Err(JobEnd::Failed(e)) => state.status.set(e),
        Err(JobEnd::Cancelled) => {}
    }
}

/// The parts' results in order, or `None` (with the failure shown, and the other parts stopped) if any
/// was cancelled or failed.
fn settle<T>(state: TangentState, results: Vec<Result<T, JobEnd>>) -> Option<Vec<T>> {
    let mut out = Vec::with_capacity(results.len());
    for r in results {
        match r {
            Ok(x) => out.push(x),
            Err(JobEnd::Cancelled) => return None,
            Err(JobEnd::Failed(e)) => {
                pool::cancel(GROUP);
                state.status.set(e);
                return None;
            }
        }
    }
    Some(out)
}

/// Shows one result that came after the report.
fn apply_extra(state: TangentState, extra: Extra) {
    if let Some(status) = state.extras.try_update(|e| e.apply(extra)).flatten() {
        state.status.set(status);
    }
}

/// The lab's state (panics only if used outside the lab, a programming error).
pub fn use_tangent() -> TangentState {
    expect_context::<TangentState>()
}

/// The lab's headline: the tangent map's norm beside the paper's bound (Theorem 3.1).
fn tangent_headline(state: &TangentState) -> String {
    use crate::format::sig;
    state.report.with(|r| match r {
        Some(r) => {
            let bound = 2.0 * r.instance.beta * r.norms.r_thm31;
            format!(
                "Reweighting one point moves the Gibbs distribution by at most {} in total variation per unit of weight (the tangent map's norm), within Theorem 3.1's bound 2βR = {}.",
                sig(r.norms.tv_all, 4),
                sig(bound, 4)
            )
        }
        None => state.status.get(),
    })
}
