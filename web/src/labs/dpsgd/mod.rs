//! The DP-SGD lab (`?lab=dpsgd`): the RDP accountant on every change, and the PLD accountant and the
//! σ-for-target searches in the worker pool (two jobs at once).

mod controls;
mod phases;
mod results;
mod samplers;
mod users;

use crate::labs::dpsgd::controls::DpsgdControls;
use crate::labs::dpsgd::results::DpsgdResults;
use crate::platform::browser::now_ms;
use crate::platform::pool::{self, JobEnd, LabJobs};
use crate::platform::url::use_url;
use crate::widgets::after_paint::AfterPaint;
use crate::widgets::glossary::Term;
use crate::widgets::lab_page::LabPage;
use crate::widgets::share_panel::SharePanel;
use crate::widgets::statement_panel::StatementPanel;
use dp_playground::accounting::samplers::users::UserEpsilon;
use dp_playground::accounting::samplers::{Sampler, SamplerEpsilon};
use dp_playground::accounting::training::jobs::AccountingJob;
use dp_playground::accounting::training::jobs::{Background, PldJob};
use dp_playground::accounting::training::phases::ScheduleReport;
use dp_playground::accounting::training::{rdp_report, RdpReport};
use dp_playground::labs::dpsgd::claims::{headline, statement_facts, statement_guarantee};
use dp_playground::labs::dpsgd::{library_snippet, markdown, DpsgdParams, ShareInputs};
use dp_playground::labs::Lab;
use dp_playground::link::query::LinkParams;
use dp_playground::link::query::Notice;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The lab's state, shared by its parts.
#[derive(Clone, Copy)]
pub struct DpsgdState {
    /// Parameters in use.
    pub params: Memo<DpsgdParams>,
    /// Refused link values.
    pub notices: Memo<Vec<Notice>>,
    /// The RDP accountant's report.
    pub rdp: Memo<Result<RdpReport, String>>,
    /// How long the RDP report took (ms).
    pub rdp_ms: Memo<f64>,
    /// The background results.
    pub background: RwSignal<Background>,
    /// Each sampler's own ε as it arrives (the samplers section fills it; Poisson's is the PLD band).
    pub sampler_rows: RwSignal<SamplerRows>,
    /// The user-level ε when `users` > 1 (the users section fills it).
    pub users_report: RwSignal<Option<Result<UserEpsilon, String>>>,
    /// The schedule's ε when the run has phases (the phases section fills it).
    pub schedule_report: RwSignal<Option<Result<ScheduleReport, String>>>,
}

/// Each sampler's own ε as it arrives.
pub type SamplerRows = Vec<(Sampler, Option<Result<SamplerEpsilon, String>>)>;

impl DpsgdState {
    /// The link's sampler's own ε, once computed (`None` for Poisson: its number is the PLD's).
    pub fn own_sampler_epsilon(&self) -> Option<SamplerEpsilon> {
        let chosen = self.params.with(|p| p.sampler);
        self.sampler_rows.with(|rows| {
            rows.iter()
                .find(|(s, _)| *s == chosen && chosen != Sampler::Poisson)
                .and_then(|(_, r)| r.as_ref().and_then(|r| r.as_ref().ok()).copied())
        })
    }
}

impl DpsgdState {
    /// The refusal message for `key`, if any.
    pub fn error_for(&self, key: &'static str) -> Signal<Option<Notice>> {
        crate::widgets::notices::notice_for(self.notices, key)
    }
}

/// The pool's names for this lab's two jobs: each restarts only when what it reads changes.
const PLD_GROUP: &str = "dpsgd-pld";
/// See [`PLD_GROUP`].
const SIGMA_GROUP: &str = "dpsgd-sigma";

/// The DP-SGD lab.
#[component]
pub fn DpsgdLab() -> impl IntoView {
    let url = use_url();
    let parsed = Memo::new(move |_| DpsgdParams::from_query(&url.query.get()));
    let params = Memo::new(move |_| parsed.get().0);
    let timed = Memo::new(move |_| {
        let start = now_ms();
        let r = params.with(|p| rdp_report(&p.event(), p.delta).map_err(|e| e.to_string()));
        (r, now_ms() - start)
    });
    let background = RwSignal::new(Background::default());
    // The PLD job reads q, σ, T, δ and the grid: a target-ε move leaves it alone.
    let pld_job =
        Memo::new(move |_| params.with(|p| PldJob::new(&p.event(), p.delta, p.grid_width())));
    let pld_jobs = LabJobs::new(PLD_GROUP);
    Effect::new(move |_| {
        let job = pld_job.get();
        let current = pld_jobs.restart();
        background.update(|b| b.start_pld(&job, now_ms()));
        spawn_local(async move {
            let ended = pool::run(PLD_GROUP, &AccountingJob::Pld(job), |u| {
                background.update(|b| b.apply(u, now_ms()))
            })
            .await;
            match ended {
                Err(JobEnd::Cancelled) => {}
                Err(JobEnd::Failed(e)) => background.update(|b| b.end_pld(Some(e))),
                Ok(()) if current() => background.update(|b| b.end_pld(None)),
                Ok(()) => {}
            }
        });
    });
    let sigma_jobs = LabJobs::new(SIGMA_GROUP);
    // The σ search reads the run, δ, the target and the grid: a σ move leaves it alone.
    let sigma_goal = Memo::new(move |_| {
        params.with(|p| {
            let mut g = p.sigma_goal();
            g.event.sigma = 1.0;
            g
        })
    });
    Effect::new(move |_| {
        let p = sigma_goal.get();
        let current = sigma_jobs.restart();
        background.update(|b| b.start_sigma(now_ms()));
        spawn_local(async move {
            let ended = pool::run(SIGMA_GROUP, &AccountingJob::Sigma(p), |u| {
                background.update(|b| b.apply(u, now_ms()))
            })
            .await;
            match ended {
                Err(JobEnd::Cancelled) => {}
                Err(JobEnd::Failed(e)) => background.update(|b| b.end_sigma(Some(e))),
                Ok(()) if current() => background.update(|b| b.end_sigma(None)),
                Ok(()) => {}
            }
        });
    });
    let state = DpsgdState {
        params,
        notices: Memo::new(move |_| parsed.get().1),
        rdp: Memo::new(move |_| timed.get().0),
        rdp_ms: Memo::new(move |_| timed.get().1),
        background,
        sampler_rows: RwSignal::new(SamplerRows::new()),
        users_report: RwSignal::new(None),
        schedule_report: RwSignal::new(None),
    };
    provide_context(state);
    let share_markdown = Signal::derive(move || {
        let bg = background.get();
        let own = state.own_sampler_epsilon();
        state.rdp.with(|r| {
            r.as_ref()
                .map(|r| {
                    params.with(|p| {
                        markdown(&ShareInputs {
                            params: p,
                            rdp: r,
                            pld: bg.band(),
                            sigma_target: bg.sigma_for_target.and_then(|x| x.ok()),
                            sigma_target_pld: bg
                                .sigma_for_target_pld
                                .and_then(|x| x.ok())
                                .map(|x| x.0),
                            own: own.as_ref(),
                        })
                    })
                })
                .unwrap_or_default()
        })
    });
    let share_snippet = Signal::derive(move || {
        (
            "Check with dp_accounting and Opacus (Python)".to_string(),
            state
                .rdp
                .with(|r| params.with(|p| library_snippet(p, r.as_ref().ok()))),
        )
    });
    let statement_g = Signal::derive(move || {
        let band = state.background.with(Background::band);
        let own = state.own_sampler_epsilon();
        let users = state.users_report.with(|u| u.clone().and_then(Result::ok));
        let schedule = state
            .schedule_report
            .with(|u| u.clone().and_then(Result::ok));
        state.rdp.with(|r| {
            params.with(|p| {
                let (own, users) = (own.as_ref(), users.as_ref());
                statement_guarantee(p, r.as_ref().ok(), band, own, users, schedule.as_ref())
            })
        })
    });
    let statement_f = Signal::derive(move || {
        let link = url.query.with(|q| q.to_query_string());
        params.with(|p| statement_facts(p, &link))
    });
    view! {
        <LabPage heading_id="dpsgd-title" title="DP-SGD: how private is training?"
            headline=Signal::derive(move || dpsgd_headline(&state))
            intro=|| view! {
                <p>
                    "Each step samples every record with "<Term id="subsampling">"probability q"</Term>", clips each gradient to norm C and adds "
                    "Gaussian noise of standard deviation σ·C to their sum. The accountants add up the privacy "
                    "lost over T steps: Rényi DP (fast, an upper bound, best over its "<Term id="rdp-order">"orders α"</Term>") and the "
                    <Term id="pld">"privacy loss distribution"</Term>" (tight, heavier, computed in the background). "
                    "Set a target ε to get the smallest σ that meets it."
                </p>
            }
            controls=move || view! {
                <DpsgdControls />
            }
        >
            <DpsgdResults />
            <AfterPaint frames=3>
                <StatementPanel guarantee=statement_g facts=statement_f />
                <SharePanel lab=Lab::Dpsgd markdown=share_markdown snippet=share_snippet />
            </AfterPaint>
        </LabPage>
    }
}

/// The lab's headline: the σ in use and the guarantee for the run as it is ([`headline`]).
fn dpsgd_headline(state: &DpsgdState) -> String {
    let band = state.background.with(Background::band);
    let own = state.own_sampler_epsilon();
    state.rdp.with(|r| {
        state
            .params
            .with(|p| headline(p, r.as_ref().ok(), band, own.as_ref()))
    })
}

/// The lab's state (panics only if used outside the lab, a programming error).
pub fn use_dpsgd() -> DpsgdState {
    expect_context::<DpsgdState>()
}
