//! The randomized-response lab (`?lab=rr`): parameters from the link, one call into the core, and the
//! controls, privacy explanation and results laid out around it.

mod controls;
mod privacy;
mod results;
mod shuffle;

use crate::labs::rr::controls::RrControls;
use crate::labs::rr::privacy::RrPrivacy;
use crate::labs::rr::results::RrResults;
use crate::platform::browser::now_ms;
use crate::platform::pool::LabJobs;
use crate::platform::url::use_url;
use crate::widgets::after_paint::AfterPaint;
use crate::widgets::lab_page::LabPage;
use crate::widgets::share_panel::SharePanel;
use dp_playground::labs::rr::jobs::{RrJob, RrUpdate};
use dp_playground::labs::rr::{
    repetitions_fit_on_page, run, run_without_repetitions, Repetitions, RrParams, RrReport,
};
use dp_playground::labs::Lab;
use dp_playground::link::query::LinkParams;
use dp_playground::link::query::Notice;
use leptos::prelude::*;

/// The pool's name for this lab's jobs.
const GROUP: &str = "rr";

/// The lab's derived state, shared by its parts.
#[derive(Clone, Copy)]
pub struct RrState {
    /// The parameters in use (bad link values replaced by defaults).
    pub params: Memo<RrParams>,
    /// What the link asked for that was refused.
    pub notices: Memo<Vec<Notice>>,
    /// The core's results, or why they could not be computed.
    pub report: Memo<Result<RrReport, String>>,
    /// How long the last computation on the page took, in milliseconds.
    pub compute_ms: Memo<f64>,
    /// What runs in the background (the repeated surveys of a large setting), or why it failed;
    /// empty when everything shown is complete.
    pub status: Signal<String>,
}

impl RrState {
    /// The refusal message for `key`, if any.
    pub fn error_for(&self, key: &'static str) -> Signal<Option<Notice>> {
        crate::widgets::notices::notice_for(self.notices, key)
    }
}

/// The randomized-response lab.
#[component]
pub fn RrLab() -> impl IntoView {
    let url = use_url();
    let parsed = Memo::new(move |_| RrParams::from_query(&url.query.get()));
    let params = Memo::new(move |_| parsed.get().0);
    let notices = Memo::new(move |_| parsed.get().1);
    // The page computes everything but repetitions too large for a frame, which a worker simulates
    // (the same streams, so the same numbers as one run; the default link never loads the worker).
    let on_page = Memo::new(move |_| params.with(repetitions_fit_on_page));
    let computed = Memo::new(move |_| {
        let start = now_ms();
        let report = params.with(|p| {
            if on_page.get() {
                run(p)
            } else {
                run_without_repetitions(p)
            }
        });
        (report.map_err(|e| e.to_string()), now_ms() - start)
    });
    let repeated = RwSignal::new(None::<Result<Repetitions, String>>);
    let jobs = LabJobs::new(GROUP);
    Effect::new(move |_| {
        let job = (!on_page.get()).then(|| params.with(|p| RrJob::Repetitions(p.clone())));
        jobs.show_latest(job, repeated, |u| match u {
            RrUpdate::Repetitions(r) => Some(r.map_err(|e| e.to_string())),
            _ => None,
        });
    });
    let report = Memo::new(move |_| {
        let page = computed.with(|c| c.0.clone());
        repeated.with(|r| match (page, r) {
            (Ok(page), Some(Ok(reps))) => Ok(page.with_repetitions(reps)),
            (page, _) => page,
        })
    });
    let status = Signal::derive(move || {
        repeated.with(|r| match r {
            _ if on_page.get() => String::new(),
            Some(Err(e)) => format!("The repeated surveys failed: {e}"),
            Some(Ok(reps)) if params.with(|p| reps.belong_to(p)) => String::new(),
            // None, or a worker's result for the link before this one (not this link's).
            _ => format!(
                "Simulating {} repeated surveys in a background worker…",
                params.with(|p| p.reps)
            ),
        })
    });
    let state = RrState {
        params,
        notices,
        report,
        compute_ms: Memo::new(move |_| computed.get().1),
        status,
    };
    provide_context(state);
    view! {
        <LabPage heading_id="rr-title" title="Randomized response"
            headline=Signal::derive(move || rr_headline(&state))
            intro=|| view! {
                <p>
                    "Each respondent answers a sensitive question truthfully only with probability p, "
                    "and otherwise names another category at random. No single answer can be trusted, "
                    "so nobody is exposed — yet the survey as a whole still estimates how common each "
                    "answer is. Move ε to trade privacy for accuracy."
                </p>
            }
            controls=move || view! {
                <RrControls />
            }
            beside=move || view! {
                <RrPrivacy />
            }
        >
            <RrResults />
            <AfterPaint frames=3>
                <shuffle::RrShuffle />
                <SharePanel lab=Lab::RandomizedResponse markdown=Signal::derive(move || {
                    state.report.with(|r| r.as_ref().map(|r| dp_playground::labs::rr::share::markdown(&state.params.get(), r)).unwrap_or_default())
                }) />
            </AfterPaint>
        </LabPage>
    }
}

/// The lab's headline: what ε does to each answer, and how well the survey still estimates.
fn rr_headline(state: &RrState) -> String {
    use crate::format::sig;
    state.report.with(|r| match r {
        Ok(r) => {
            let c = r.categories.first();
            format!(
                "At ε = {}, each answer is true with probability {}; category 0 is estimated at {} ± {} (95%), its true frequency {}.",
                sig(state.params.with(|p| p.eps), 4),
                sig(r.p_truth, 3),
                c.map_or("—".into(), |c| sig(c.estimate, 3)),
                c.map_or("—".into(), |c| sig((c.ci.1 - c.ci.0) / 2.0, 2)),
                c.map_or("—".into(), |c| sig(c.truth, 3)),
            )
        }
        Err(e) => e.clone(),
    })
}

/// The lab's state (panics only if used outside the lab, a programming error).
pub fn use_rr() -> RrState {
    expect_context::<RrState>()
}
