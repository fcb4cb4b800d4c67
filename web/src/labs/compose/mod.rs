//! The composition workbench (`?lab=compose`): a list of mechanisms from the link, every accountant's ε
//! at the link's δ side by side (the PLD accountant in the background), and ε against δ.

mod controls;
mod results;

use crate::format::exact;
use crate::labs::compose::controls::ComposeControls;
use crate::labs::compose::results::ComposeResults;
use crate::platform::browser::now_ms;
use crate::platform::pool::LabJobs;
use crate::platform::url::use_url;
use crate::widgets::after_paint::AfterPaint;
use crate::widgets::glossary::Term;
use crate::widgets::lab_page::LabPage;
use crate::widgets::share_panel::SharePanel;
use crate::widgets::statement_panel::StatementPanel;
use dp_playground::accounting::entry::format_list;
use dp_playground::accounting::pld::EpsilonBand;
use dp_playground::labs::compose::claims::{guarantee as statement_guarantee, statement_facts};
use dp_playground::labs::compose::claims::{headline, PldState};
use dp_playground::labs::compose::jobs::{ComposeJob, ComposeUpdate};
use dp_playground::labs::compose::{accountants, Accountants, ComposeParams, ComposedPld};
use dp_playground::labs::Lab;
use dp_playground::link::query::Notice;
use leptos::prelude::*;

/// The pool's name for this lab's jobs.
const GROUP: &str = "compose";

/// The lab's state, shared by its parts.
#[derive(Clone, Copy)]
pub struct ComposeState {
    /// Parameters in use.
    pub params: Memo<ComposeParams>,
    /// Refused link values.
    pub notices: Memo<Vec<Notice>>,
    /// The closed-form and RDP accountants at the link's δ.
    pub acc: Memo<Accountants>,
    /// The composed PLD pair from the worker and how long it took (ms), or why not.
    pub pld: RwSignal<Option<Result<(ComposedPld, f64), String>>>,
    /// Both sides of the PLD at the link's δ, once per change (each side is a walk down every PLD).
    pub link_band: Memo<Option<EpsilonBand>>,
}

impl ComposeState {
    /// The refusal message for `key`, if any.
    pub fn error_for(&self, key: &'static str) -> Signal<Option<Notice>> {
        crate::widgets::notices::notice_for(self.notices, key)
    }
}

/// The lab's state (panics only if used outside the lab, a programming error).
pub fn use_compose() -> ComposeState {
    expect_context::<ComposeState>()
}

/// The composition lab.
#[component]
pub fn ComposeLab() -> impl IntoView {
    let url = use_url();
    // A typo in the list keeps the last valid list (and its numbers) on screen, with the message; a
    // link opened with a bad list starts from the default one.
    let parsed = Memo::new(move |previous: Option<&(ComposeParams, Vec<Notice>)>| {
        ComposeParams::from_query_keeping(
            &url.query.get(),
            previous.map(|(last, _)| last.list.as_slice()),
        )
    });
    let params = Memo::new(move |_| parsed.get().0);
    let acc = Memo::new(move |_| params.with(|p| accountants(&p.list, p.delta)));
    // The PLD job reads the list and the grid, not δ: a δ move leaves it alone.
    let list_only = Memo::new(move |_| params.with(|p| (p.list.clone(), p.grid)));
    let pld = RwSignal::new(None::<Result<(ComposedPld, f64), String>>);
    let jobs = LabJobs::new(GROUP);
    Effect::new(move |_| {
        let (list, grid) = list_only.get();
        let start = now_ms();
        jobs.show_latest(
            Some(ComposeJob::Pld(list, grid)),
            pld,
            move |ComposeUpdate::Pld(r)| {
                Some(r.map(|c| (*c, now_ms() - start)).map_err(|e| e.to_string()))
            },
        );
    });
    let link_band = Memo::new(move |_| {
        pld.with(|p| match p {
            Some(Ok((c, _))) => Some(c.band(params.with(|p| p.delta))),
            _ => None,
        })
    });
    let state = ComposeState {
        params,
        notices: Memo::new(move |_| parsed.get().1),
        acc,
        pld,
        link_band,
    };
    provide_context(state);
    let pld_eps = Signal::derive(move || link_band.get().map_or(f64::NAN, |b| b.upper));
    let pld_lower = Signal::derive(move || link_band.get().map_or(f64::NAN, |b| b.lower));
    let markdown = Signal::derive(move || {
        let a = acc.get();
        // Upper bounds rounded up, the lower bound down: exported digits never overstate privacy.
        let up = |x: f64| crate::format::sig_up(x, 6);
        let rows = vec![
            ("mechanisms".to_string(), format_list(&params.get().list)),
            ("δ".into(), exact(params.get().delta)),
            ("ε basic (upper bound)".into(), up(a.basic)),
            (
                "ε advanced (upper bound)".into(),
                a.advanced.map_or("n/a".into(), up),
            ),
            (
                "ε optimal, homogeneous (upper bound)".into(),
                a.optimal.map_or("n/a".into(), up),
            ),
            (
                "ε RDP (upper bound)".into(),
                a.rdp.map_or("n/a".into(), |e| up(e.0)),
            ),
            (
                "ε zCDP (upper bound)".into(),
                a.zcdp.map_or("n/a".into(), up),
            ),
            ("ε PLD (certified upper bound)".into(), up(pld_eps.get())),
            (
                "ε PLD (lower bound)".into(),
                crate::format::sig_down(pld_lower.get(), 6),
            ),
        ];
        dp_playground::link::embed::markdown_table(("composition", "ε"), &rows)
    });
    view! {
        <LabPage heading_id="compose-title" title="Composition: what does running them all cost?"
            headline=Signal::derive(move || compose_headline(&state))
            intro=|| view! {
                <p>
                    "Build a list of mechanisms, each repeated. Every accountant bounds the privacy of the whole "
                    "list at the same δ; the "<Term id="pld">"privacy loss distribution (PLD)"</Term>" is the tight reference, and the "
                    "table shows how far the others overshoot it."
                </p>
            }
            controls=|| view! { <ComposeControls /> }
        >
            <ComposeResults />
            <AfterPaint frames=2>
                <StatementPanel guarantee=Signal::derive(move || {
                    let band = state.link_band.get();
                    state.acc.with(|a| state.params.with(|p| statement_guarantee(&p.list, a, band, p.delta)))
                }) facts=Signal::derive(move || statement_facts(&url.query.with(|q| q.to_query_string()))) />
                <SharePanel lab=Lab::Compose markdown=markdown />
            </AfterPaint>
        </LabPage>
    }
}

/// The lab's headline: the list's ε at the link's δ, the tightest bound known so far, and its kind.
fn compose_headline(state: &ComposeState) -> String {
    let delta = state.params.with(|p| p.delta);
    let pld: PldState = state.pld.with(|p| match p {
        Some(Ok((c, _))) => Some(Ok(c.no_epsilon_reason(delta))),
        Some(Err(e)) => Some(Err(e.clone())),
        None => None,
    });
    let band = state.link_band.get();
    state.acc.with(|a| {
        state
            .params
            .with(|p| headline(&p.list, a, band, &pld, delta))
    })
}
