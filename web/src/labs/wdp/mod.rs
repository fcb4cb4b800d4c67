//! The Wasserstein DP lab (`?lab=wdp&fig=1|2|3`): the paper's Table 1 and Figures 1–3, one tab per figure.
//! Figure 2's synthetic run happens here, in the background, so Figure 3 can borrow its W.

mod fig1;
mod fig2;
mod fig3;

use crate::labs::wdp::fig1::Fig1;
use crate::labs::wdp::fig2::Fig2;
use crate::labs::wdp::fig3::Fig3;
use crate::platform::browser::now_ms;
use crate::platform::pool::{self, JobEnd, LabJobs};
use crate::platform::url::use_url;
use crate::widgets::after_paint::AfterPaint;
use crate::widgets::lab_page::{Headline, ResetButton};
use crate::widgets::notices::Notices;
use crate::widgets::share_panel::SharePanel;
use dp_playground::labs::wdp::jobs::{WdpJob, WdpUpdate};
use dp_playground::labs::wdp::{markdown, Figure, WdpParams};
use dp_playground::labs::Lab;
use dp_playground::link::query::LinkParams;
use dp_playground::link::query::Notice;
use dp_playground::wdp::accountants::Accounting;
use dp_playground::wdp::synthetic::Curves;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// Figure 2's run: how far it got and its curves so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunState {
    /// The seed it runs from (`None` before the first run).
    pub seed: Option<u64>,
    /// Steps done and in all.
    pub done: u32,
    /// Steps in all.
    pub total: u32,
    /// Wall time so far (ms), including the pauses that keep the page responsive.
    pub ms: f64,
    /// `curves[panel][0]` clipped, `[1]` unclipped, panels as the four quantiles.
    pub curves: [[Curves; 2]; 4],
    /// Why the run failed (the worker could not start), if it did.
    pub failed: Option<String>,
}

impl RunState {
    /// Whether the run for `seed` is complete.
    pub fn finished_for(&self, seed: u64) -> bool {
        self.seed == Some(seed) && self.total > 0 && self.done == self.total
    }

    /// The curves of the link's panel and clipping mode.
    pub fn chosen(&self, p: &WdpParams) -> &Curves {
        &self.curves[p.quantile][usize::from(!p.clip)]
    }
}

/// The lab's state, shared by the three figures.
#[derive(Clone, Copy)]
pub struct WdpState {
    /// Parameters in use.
    pub params: Memo<WdpParams>,
    /// Refused link values.
    pub notices: Memo<Vec<Notice>>,
    /// Figure 2's run.
    pub run: RwSignal<RunState>,
    /// Set to run Figure 2 even while another figure is shown (Figure 3's "take W from Figure 2").
    pub run_wanted: RwSignal<bool>,
}

impl WdpState {
    /// The refusal message for `key`, if any.
    pub fn error_for(&self, key: &'static str) -> Signal<Option<Notice>> {
        crate::widgets::notices::notice_for(self.notices, key)
    }
}

/// The pool's name for this lab's jobs.
const GROUP: &str = "wdp";

/// The WDP lab.
#[component]
pub fn WdpLab() -> impl IntoView {
    let url = use_url();
    let parsed = Memo::new(move |_| WdpParams::from_query(&url.query.get()));
    let params = Memo::new(move |_| parsed.get().0);
    let run = RwSignal::new(RunState::default());
    let run_wanted = RwSignal::new(false);
    let state = WdpState {
        params,
        notices: Memo::new(move |_| parsed.get().1),
        run,
        run_wanted,
    };
    provide_context(state);
    let seed = Memo::new(move |_| params.with(|p| p.seed));
    let needed =
        Memo::new(move |_| params.with(|p| p.fig == Figure::Accountants) || run_wanted.get());
    let jobs = LabJobs::new(GROUP);
    Effect::new(move |_| {
        let seed = seed.get();
        if !needed.get() || run.with_untracked(|r| r.seed == Some(seed)) {
            return;
        }
        let current = jobs.restart();
        let acc = Accounting::default();
        run.set(RunState {
            seed: Some(seed),
            total: acc.steps,
            ..Default::default()
        });
        spawn_local(async move {
            let start = now_ms();
            let ended = pool::run(
                GROUP,
                &WdpJob::Fig2(seed),
                move |WdpUpdate::Curves(done, total, curves)| {
                    let Ok(curves) = <[[Curves; 2]; 4]>::try_from(curves) else {
                        return;
                    };
                    if current() {
                        run.set(RunState {
                            seed: Some(seed),
                            done,
                            total,
                            ms: now_ms() - start,
                            curves,
                            failed: None,
                        });
                    }
                },
            )
            .await;
            if let (Err(JobEnd::Failed(e)), true) = (ended, current()) {
                // Shown in place of the progress; a later change of the link tries again.
                run.update(|r| {
                    r.seed = None;
                    r.failed = Some(e);
                });
            }
        });
    });
    let share_markdown = Signal::derive(move || {
        let p = params.get();
        let fig2 = run.with(|r| {
            r.finished_for(p.seed).then(|| {
                let c = r.chosen(&p);
                let last = |v: &[f64]| v.last().copied().unwrap_or(f64::NAN);
                (last(&c.dp), last(&c.bdp), last(c.wdp(p.pairs)))
            })
        });
        markdown(&p, fig2)
    });
    let fig = Memo::new(move |_| params.with(|p| p.fig));
    view! {
        <section class="lab" aria-labelledby="wdp-title">
            <header class="lab-intro">
                <h2 id="wdp-title">"Wasserstein differential privacy: the paper's figures, live"</h2>
                <Headline text=Signal::derive(move || wdp_headline(&state)) />
                <p>
                    "Yang, Qi & Zhou (AAAI 2024) measure privacy loss as a Wasserstein distance between a "
                    "mechanism's output distributions instead of a Rényi divergence. This lab recomputes their Table 1 "
                    "and Figures 1–3 from their formulas, lets you change every setting, and says where a "
                    "faithful reproduction has to depart from the paper's words."
                </p>
                <ResetButton />
            </header>
            <nav class="fig-tabs" aria-label="Figures">
                {Figure::ALL.into_iter().map(|f| view! {
                    <a href=move || url.href_with(|q| q.set("fig", f.key()))
                        class:current=move || fig.get() == f
                        aria-current=move || (fig.get() == f).then_some("page")
                        data-testid=format!("wdp-tab-{}", f.key())>{f.title()}</a>
                }).collect_view()}
            </nav>
            <Notices notices=Signal::derive(move || state.notices.get()) testid="wdp-notices" />
            {move || match fig.get() {
                Figure::Mechanisms => view! { <Fig1 /> }.into_any(),
                Figure::Accountants => view! { <Fig2 /> }.into_any(),
                Figure::BetaDelta => view! { <Fig3 /> }.into_any(),
            }}
            <AfterPaint>
                <SharePanel lab=Lab::Wdp markdown=share_markdown />
            </AfterPaint>
        </section>
    }
}

/// The lab's headline: the figure shown and, for Figure 2 once run, the three accountants' final ε.
fn wdp_headline(state: &WdpState) -> String {
    use crate::format::sig;
    let p = state.params.get();
    match p.fig {
        Figure::Accountants => state.run.with(|r| {
            if r.finished_for(p.seed) {
                let c = r.chosen(&p);
                let last = |v: &[f64]| v.last().copied().unwrap_or(f64::NAN);
                format!(
                    "After 100 steps of the paper's training run: ε = {} by DP (Rényi), {} by Bayesian DP, {} by Wasserstein DP (not comparable guarantees; see below).",
                    sig(last(&c.dp), 4),
                    sig(last(&c.bdp), 4),
                    sig(last(c.wdp(p.pairs)), 4)
                )
            } else {
                "Figure 2: running the paper's training and its three accountants…".into()
            }
        }),
        Figure::Mechanisms => format!(
            "{} at {} = {}, {} = {}, Δ = {}: {} (the paper's Table 1, recomputed).",
            p.panel.title(),
            p.panel.scale_symbol(),
            sig(p.scale, 4),
            p.panel.order_symbol(),
            sig(p.order, 4),
            sig(p.sens, 4),
            sig(p.fig1_value(), 6)
        ),
        Figure::BetaDelta => format!(
            "At W = {}, β = {} and δ = {}, WDP converts to ε = W − ln(δ)/β = {}.",
            sig(p.w, 4),
            sig(p.beta, 4),
            sig(p.delta, 3),
            sig(p.fig3_value(), 6)
        ),
    }
}

/// The lab's state (panics only if used outside the lab, a programming error).
pub fn use_wdp() -> WdpState {
    expect_context::<WdpState>()
}
