//! The attack lab (`?lab=attack`): what a membership attacker can learn from a composition or a DP-SGD
//! run. The accountant and the σ calibrations run in the worker pool, in parallel.

mod controls;
mod results;

use crate::labs::attack::controls::AttackControls;
use crate::labs::attack::results::AttackResults;
use crate::platform::browser::now_ms;
use crate::platform::pool::{self, JobEnd, LabJobs};
use crate::platform::url::use_url;
use crate::widgets::after_paint::AfterPaint;
use crate::widgets::glossary::Term;
use crate::widgets::lab_page::LabPage;
use crate::widgets::share_panel::SharePanel;
use dp_playground::labs::attack::claims::headline;
use dp_playground::labs::attack::jobs::Calibration;
use dp_playground::labs::attack::jobs::{AttackJob, AttackUpdate};
use dp_playground::labs::attack::params::{AttackParams, Source};
use dp_playground::labs::attack::report::{markdown, AttackReport};
use dp_playground::labs::Lab;
use dp_playground::link::query::LinkParams;
use dp_playground::link::query::Notice;
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
    /// Wall time until the last calibration arrived (they run in parallel workers, ms).
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
    pub fn error_for(&self, key: &'static str) -> Signal<Option<Notice>> {
        crate::widgets::notices::notice_for(self.notices, key)
    }
}

/// The lab's state (panics only if used outside the lab, a programming error).
pub fn use_attack() -> AttackState {
    expect_context::<AttackState>()
}

/// The lab's headline: the best attack's power at the chosen false-positive rate, certified
/// ([`headline`]).
fn attack_headline(state: &AttackState) -> String {
    state.background.with(|b| match &b.report {
        Some(Ok((r, _))) => state.params.with(|p| headline(p, r)),
        Some(Err(e)) => e.clone(),
        None => "Computing the certified trade-off curve…".into(),
    })
}

/// The pool's name for this lab's jobs.
const GROUP: &str = "attack";

/// The attack lab.
#[component]
pub fn AttackLab() -> impl IntoView {
    let url = use_url();
    let parsed = Memo::new(move |_| AttackParams::from_query(&url.query.get()));
    let params = Memo::new(move |_| parsed.get().0);
    let background = RwSignal::new(AttackBackground::default());
    let jobs = LabJobs::new(GROUP);
    Effect::new(move |_| {
        let p = params.get();
        let current = jobs.restart();
        background.set(AttackBackground {
            status: "PLD accountant: composing…".into(),
            ..Default::default()
        });
        let calibrates = matches!(p.source, Source::Dpsgd(_));
        spawn_local(async move {
            // The report and both calibrations are independent: up to three workers at once.
            let start = now_ms();
            let report = pool::run(GROUP, &AttackJob::Report(p.clone()), move |u| {
                if let AttackUpdate::Report(r) = u {
                    background.update(|b| {
                        b.report =
                            Some(r.map(|r| (*r, now_ms() - start)).map_err(|e| e.to_string()))
                    });
                }
            });
            let calibration = |which: Calibration| {
                let job = AttackJob::Calibration(p.clone(), which);
                pool::run(GROUP, &job, move |u| {
                    let AttackUpdate::Calibrated(Some(c)) = u else {
                        return;
                    };
                    background.update(|b| {
                        b.calibration_ms = now_ms() - start;
                        match which {
                            Calibration::Advantage => {
                                b.sigma_adv = Some(c.sigma.map_err(|e| e.to_string()));
                                b.eps_at_sigma = c.eps_at_sigma;
                            }
                            Calibration::Tpr => {
                                b.sigma_tpr = Some(c.sigma.map_err(|e| e.to_string()))
                            }
                        }
                    })
                })
            };
            let ends = if calibrates {
                let (a, b, c) = futures::join!(
                    report,
                    calibration(Calibration::Advantage),
                    calibration(Calibration::Tpr)
                );
                vec![a, b, c]
            } else {
                vec![report.await]
            };
            // The first job that failed or was cancelled, in order.
            match ends.into_iter().collect::<Result<(), JobEnd>>() {
                Err(JobEnd::Cancelled) => {}
                Err(JobEnd::Failed(e)) => background.update(|b| b.status = e),
                Ok(()) if current() => background.update(|b| b.status.clear()),
                Ok(()) => {}
            }
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
        <LabPage heading_id="attack-title" title="What can an attacker learn?"
            headline=Signal::derive(move || attack_headline(&state))
            intro=|| view! {
                <p>
                    "An attacker tries to tell whether one record was in the data. At a false-positive rate α its "
                    "false-negative rate is at least β(α): the "<Term id="f-dp">"trade-off curve"</Term>", computed here from the privacy loss "
                    "distribution of the mechanism (Dong, Roth & Su 2022). The solid curve is certified: no attack "
                    "does better. The same guarantee can mean very different ε's; the risk numbers say what it means."
                </p>
            }
            controls=move || view! {
                <AttackControls />
            }
        >
            <AttackResults />
            <AfterPaint frames=2>
                <SharePanel lab=Lab::Attack markdown=share_markdown />
            </AfterPaint>
        </LabPage>
    }
}
