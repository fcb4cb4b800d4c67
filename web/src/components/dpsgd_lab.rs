//! The DP-SGD lab (`?lab=dpsgd`): the RDP accountant on every change, and the PLD accountant and the
//! σ-for-target search in the background (piece by piece, yielding to the page between pieces).

use super::{dpsgd_controls::DpsgdControls, dpsgd_results::DpsgdResults, share_panel::SharePanel};
use crate::browser::{next_tick, now_ms};
use crate::url::use_url;
use dp_playground::accounting::pld::{dpsgd_epsilon, EpsilonBand, DEFAULT_INTERVAL};
use dp_playground::dpsgd_lab::{
    library_snippet, markdown, pld_epsilon, rdp_report, sigma_for_target, sigma_search_pld,
    DpsgdParams, RdpReport,
};
use dp_playground::lab::Lab;
use dp_playground::query::Notice;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// Results of the background job for the current parameters.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Background {
    /// σ for the target ε (RDP), or why not.
    pub sigma_for_target: Option<Result<f64, String>>,
    /// ε by the PLD accountant after T steps from both sides, and how long it took (ms).
    pub pld: Option<Result<(EpsilonBand, f64), String>>,
    /// σ for the target ε by the PLD accountant (certified upper ε), and how long it took (ms).
    pub sigma_for_target_pld: Option<Result<(f64, f64), String>>,
    /// (steps, certified upper ε) by the PLD accountant at fractions of T.
    pub pld_points: Vec<(f64, f64)>,
    /// What is being computed now (empty when done).
    pub status: String,
}

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
}

impl DpsgdState {
    /// The refusal message for `key`, if any.
    pub fn error_for(&self, key: &'static str) -> Signal<Option<String>> {
        super::notices::notice_for(self.notices, key)
    }
}

/// The DP-SGD lab.
#[component]
pub fn DpsgdLab() -> impl IntoView {
    let url = use_url();
    let parsed = Memo::new(move |_| DpsgdParams::from_query(&url.query.get()));
    let params = Memo::new(move |_| parsed.get().0);
    let timed = Memo::new(move |_| {
        let start = now_ms();
        let r = rdp_report(&params.get()).map_err(|e| e.to_string());
        (r, now_ms() - start)
    });
    let background = RwSignal::new(Background::default());
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        let p = params.get();
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        let current = move || generation.try_get_value() == Some(mine);
        background.set(Background {
            status: "searching σ for the target ε…".into(),
            ..Default::default()
        });
        spawn_local(async move {
            next_tick().await;
            if !current() {
                return;
            }
            let sigma = sigma_for_target(&p).map_err(|e| e.to_string());
            background.update(|b| {
                b.sigma_for_target = Some(sigma);
                b.status = "PLD accountant: T steps…".into();
            });
            next_tick().await;
            if !current() {
                return;
            }
            let steps = p.total_steps();
            let start = now_ms();
            let eps = pld_epsilon(&p, steps)
                .map(|e| (e, now_ms() - start))
                .map_err(|e| e.to_string());
            background.update(|b| {
                if let Ok((e, _)) = eps {
                    b.pld_points.push((steps as f64, e.upper));
                }
                b.pld = Some(eps);
                b.status = "PLD accountant: σ for the target ε…".into();
            });
            // σ for the target by the PLD: one accountant evaluation per pause, seeded by RDP's σ.
            let seed = background
                .with_untracked(|b| b.sigma_for_target.clone().and_then(|r| r.ok()))
                .unwrap_or(p.sigma);
            let mut busy = 0.0;
            let progress = |n: u32| {
                background.update(|b| {
                    b.status = format!("PLD accountant: σ for the target ε, {n} evaluations…")
                })
            };
            let found = match sigma_search_pld(&p, seed) {
                Err(e) => Err(e.to_string()),
                Ok(search) => {
                    match crate::jobs::run_search(search, current, &mut busy, progress).await {
                        None => return,
                        Some(r) => r.map(|s| (s * p.neighbour.factor(), busy)),
                    }
                }
            };
            background.update(|b| b.sigma_for_target_pld = Some(found));
            for (i, fraction) in [0.125, 0.25, 0.5, 0.75].into_iter().enumerate() {
                background.update(|b| {
                    b.status = format!("PLD accountant: the ε-versus-steps curve, {}/4…", i + 1)
                });
                next_tick().await;
                if !current() {
                    return;
                }
                let t = ((steps as f64) * fraction).ceil().max(1.0) as u64;
                let grid = p.grid.unwrap_or(DEFAULT_INTERVAL);
                if let Ok(e) = dpsgd_epsilon(p.rate(), p.effective_sigma(), t, p.delta, grid) {
                    background.update(|b| {
                        b.pld_points.push((t as f64, e));
                        b.pld_points.sort_by(|a, b| a.0.total_cmp(&b.0));
                    });
                }
            }
            background.update(|b| b.status.clear());
        });
    });
    let state = DpsgdState {
        params,
        notices: Memo::new(move |_| parsed.get().1),
        rdp: Memo::new(move |_| timed.get().0),
        rdp_ms: Memo::new(move |_| timed.get().1),
        background,
    };
    provide_context(state);
    let share_markdown = Signal::derive(move || {
        let bg = background.get();
        state.rdp.with(|r| {
            r.as_ref()
                .map(|r| {
                    let pld = bg.pld.and_then(|x| x.ok()).map(|x| x.0);
                    markdown(
                        &params.get(),
                        r,
                        pld,
                        bg.sigma_for_target.and_then(|x| x.ok()),
                        bg.sigma_for_target_pld.and_then(|x| x.ok()).map(|x| x.0),
                    )
                })
                .unwrap_or_default()
        })
    });
    let share_snippet = Signal::derive(move || {
        (
            "Check with dp_accounting and Opacus (Python)".to_string(),
            library_snippet(&params.get()),
        )
    });
    view! {
        <section class="lab" aria-labelledby="dpsgd-title">
            <header class="lab-intro">
                <h2 id="dpsgd-title">"DP-SGD: how private is training?"</h2>
                <p>
                    "Each step samples every record with probability q, clips each gradient to norm C and adds "
                    "Gaussian noise of standard deviation σ·C to their sum. The accountants add up the privacy "
                    "lost over T steps: Rényi DP (fast, an upper bound) and the privacy loss distribution (tight, "
                    "heavier, computed in the background). Set a target ε to get the smallest σ that meets it."
                </p>
            </header>
            <div class="lab-grid">
                <aside class="controls" aria-label="Parameters" hidden=move || !url.options.with(|o| o.shows_controls_panel())>
                    <DpsgdControls />
                </aside>
                <div class="results">
                    <DpsgdResults />
                    <SharePanel lab=Lab::Dpsgd markdown=share_markdown snippet=share_snippet />
                </div>
            </div>
        </section>
    }
}

/// The lab's state (panics only if used outside the lab, a programming error).
pub fn use_dpsgd() -> DpsgdState {
    expect_context::<DpsgdState>()
}
