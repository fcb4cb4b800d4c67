//! The attack lab (`?lab=attack`): what a membership attacker can learn from a composition or a DP-SGD
//! run. The accountant and the σ calibrations run in the background, one piece per pause.

use super::{
    attack_controls::AttackControls, attack_results::AttackResults, share_panel::SharePanel,
};
use crate::browser::{next_tick, now_ms};
use crate::url::use_url;
use dp_playground::accounting::pld::{dpsgd_epsilon, Goal, SigmaSearch, DEFAULT_INTERVAL};
use dp_playground::attack::params::{AttackParams, Source};
use dp_playground::attack::report::{markdown, report, AttackReport};
use dp_playground::lab::Lab;
use dp_playground::query::Notice;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// Results of the background job for the current link.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AttackBackground {
    /// The report and how long it took (ms).
    pub report: Option<Result<(AttackReport, f64), String>>,
    /// σ whose certified advantage meets the target (DP-SGD only).
    pub sigma_adv: Option<Result<f64, String>>,
    /// σ whose certified TPR at the FPR meets the target (DP-SGD only).
    pub sigma_tpr: Option<Result<f64, String>>,
    /// The certified ε at δ of `sigma_adv`.
    pub eps_at_sigma: Option<f64>,
    /// Compute time of both calibrations, without the pauses (ms).
    pub calibration_ms: f64,
    /// What is being computed (empty when done).
    pub status: String,
}

/// The lab's state, shared by its parts.
#[derive(Clone, Copy)]
pub struct AttackState {
    /// Parameters in use.
    pub params: Memo<AttackParams>,
    /// Refused link values.
    pub notices: Memo<Vec<Notice>>,
    /// The background results.
    pub background: RwSignal<AttackBackground>,
}

impl AttackState {
    /// The refusal message for `key`, if any.
    pub fn error_for(&self, key: &'static str) -> Signal<Option<String>> {
        super::notices::notice_for(self.notices, key)
    }
}

/// The lab's state (panics only if used outside the lab, a programming error).
pub fn use_attack() -> AttackState {
    expect_context::<AttackState>()
}

/// The attack lab.
#[component]
pub fn AttackLab() -> impl IntoView {
    let url = use_url();
    let parsed = Memo::new(move |_| AttackParams::from_query(&url.query.get()));
    let params = Memo::new(move |_| parsed.get().0);
    let background = RwSignal::new(AttackBackground::default());
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        let p = params.get();
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        let current = move || generation.try_get_value() == Some(mine);
        background.set(AttackBackground {
            status: "PLD accountant: composing…".into(),
            ..Default::default()
        });
        spawn_local(async move {
            next_tick().await;
            if !current() {
                return;
            }
            let start = now_ms();
            let r = report(&p)
                .map(|r| (r, now_ms() - start))
                .map_err(|e| e.to_string());
            background.update(|b| b.report = Some(r));
            if let Source::Dpsgd {
                q,
                sigma,
                steps,
                neighbour,
            } = p.source
            {
                let f = neighbour.factor();
                let mut busy = 0.0;
                let goals = [
                    (Goal::Advantage, p.target_adv),
                    (Goal::TprAtFpr { alpha: p.alpha }, p.target_tpr),
                ];
                for (i, (goal, target)) in goals.into_iter().enumerate() {
                    background.update(|b| {
                        b.status =
                            format!("calibrating σ to the {} target…", ["advantage", "TPR"][i])
                    });
                    let found = match SigmaSearch::for_goal(
                        q,
                        steps,
                        goal,
                        target,
                        DEFAULT_INTERVAL,
                        sigma / f,
                    ) {
                        Err(e) => Some(Err(e.to_string())),
                        Ok(s) => crate::jobs::run_search(s, current, &mut busy, |_| {}).await,
                    };
                    let Some(found) = found.map(|r| r.map(|s| s * f)) else {
                        return;
                    };
                    background.update(|b| {
                        b.calibration_ms = busy;
                        if i == 0 {
                            b.sigma_adv = Some(found)
                        } else {
                            b.sigma_tpr = Some(found)
                        }
                    });
                }
                next_tick().await;
                if !current() {
                    return;
                }
                if let Some(Ok(s)) = background.with_untracked(|b| b.sigma_adv.clone()) {
                    let eps = dpsgd_epsilon(q, s / f, steps, p.delta, DEFAULT_INTERVAL).ok();
                    background.update(|b| b.eps_at_sigma = eps);
                }
            }
            background.update(|b| b.status.clear());
        });
    });
    let state = AttackState {
        params,
        notices: Memo::new(move |_| parsed.get().1),
        background,
    };
    provide_context(state);
    let share_markdown = Signal::derive(move || {
        background.with(|b| match &b.report {
            Some(Ok((r, _))) => markdown(
                &params.get(),
                r,
                b.sigma_adv.clone().and_then(|x| x.ok()),
                b.sigma_tpr.clone().and_then(|x| x.ok()),
            ),
            _ => String::new(),
        })
    });
    view! {
        <section class="lab" aria-labelledby="attack-title">
            <header class="lab-intro">
                <h2 id="attack-title">"What can an attacker learn?"</h2>
                <p>
                    "An attacker tries to tell whether one record was in the data. At a false-positive rate α its "
                    "false-negative rate is at least β(α): the trade-off curve, computed here from the privacy loss "
                    "distribution of the mechanism (Dong, Roth & Su 2022). The solid curve is certified: no attack "
                    "does better. The same guarantee can mean very different ε's; the risk numbers say what it means."
                </p>
            </header>
            <div class="lab-grid">
                <aside class="controls" aria-label="Parameters" hidden=move || !url.options.with(|o| o.shows_controls_panel())>
                    <AttackControls />
                </aside>
                <div class="results">
                    <AttackResults />
                    <SharePanel lab=Lab::Attack markdown=share_markdown />
                </div>
            </div>
        </section>
    }
}
