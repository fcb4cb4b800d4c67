//! The randomized-response lab (`?lab=rr`): parameters from the link, one call into the core, and the
//! controls, privacy explanation and results laid out around it.

use super::{
    rr_controls::RrControls, rr_privacy::RrPrivacy, rr_results::RrResults, share_panel::SharePanel,
};
use crate::browser::now_ms;
use crate::url::use_url;
use dp_playground::lab::Lab;
use dp_playground::query::Notice;
use dp_playground::rr::{run, RrParams, RrReport};
use leptos::prelude::*;

/// The lab's derived state, shared by its parts.
#[derive(Clone, Copy)]
pub struct RrState {
    /// The parameters in use (bad link values replaced by defaults).
    pub params: Memo<RrParams>,
    /// What the link asked for that was refused.
    pub notices: Memo<Vec<Notice>>,
    /// The core's results, or why they could not be computed.
    pub report: Memo<Result<RrReport, String>>,
    /// How long the last computation took, in milliseconds.
    pub compute_ms: Memo<f64>,
}

impl RrState {
    /// The refusal message for `key`, if any.
    pub fn error_for(&self, key: &'static str) -> Signal<Option<String>> {
        super::notices::notice_for(self.notices, key)
    }
}

/// The randomized-response lab.
#[component]
pub fn RrLab() -> impl IntoView {
    let url = use_url();
    let parsed = Memo::new(move |_| RrParams::from_query(&url.query.get()));
    let params = Memo::new(move |_| parsed.get().0);
    let notices = Memo::new(move |_| parsed.get().1);
    let computed = Memo::new(move |_| {
        let start = now_ms();
        let report = run(&params.get()).map_err(|e| e.to_string());
        (report, now_ms() - start)
    });
    let state = RrState {
        params,
        notices,
        report: Memo::new(move |_| computed.get().0),
        compute_ms: Memo::new(move |_| computed.get().1),
    };
    provide_context(state);
    view! {
        <section class="lab" aria-labelledby="rr-title">
            <header class="lab-intro">
                <h2 id="rr-title">"Randomized response"</h2>
                <p>
                    "Each respondent answers a sensitive question truthfully only with probability p, "
                    "and otherwise names another category at random. No single answer can be trusted, "
                    "so nobody is exposed — yet the survey as a whole still estimates how common each "
                    "answer is. Move ε to trade privacy for accuracy."
                </p>
            </header>
            <div class="lab-grid">
                <aside class="controls" aria-label="Parameters">
                    <div hidden=move || !url.options.with(|o| o.shows_controls_panel())>
                        <RrControls />
                    </div>
                    <RrPrivacy />
                </aside>
                <div class="results">
                    <RrResults />
                    <SharePanel lab=Lab::RandomizedResponse markdown=Signal::derive(move || {
                        state.report.with(|r| r.as_ref().map(|r| dp_playground::rr::share::markdown(&state.params.get(), r)).unwrap_or_default())
                    }) />
                </div>
            </div>
        </section>
    }
}

/// The lab's state (panics only if used outside the lab, a programming error).
pub fn use_rr() -> RrState {
    expect_context::<RrState>()
}
