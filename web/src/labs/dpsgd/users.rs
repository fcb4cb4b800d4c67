//! Users with several records (`users=k`): the user-level ε by the mixture-of-Gaussians PLD, beside the
//! group-privacy lemma and a user's records always sampled together, computed in the worker pool.

use crate::labs::dpsgd::use_dpsgd;
use crate::platform::pool::{self, LabJobs};
use crate::platform::url::use_url;
use crate::widgets::number_field::NumberField;
use crate::widgets::stat::Stat;
use dp_playground::accounting::guarantee::Side;
use dp_playground::accounting::samplers::users::UserEpsilon;
use dp_playground::labs::dpsgd::jobs::{DpsgdJob, DpsgdUpdate};
use dp_playground::labs::dpsgd::samplers::users_note;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The pool's name for the job.
const GROUP: &str = "dpsgd-users";

/// The user-level section.
#[component]
pub fn DpsgdUsers() -> impl IntoView {
    let lab = use_dpsgd();
    let url = use_url();
    let report = lab.users_report;
    // Reads q, σ, T, δ, the grid, the relation and k: not the target or the sampler.
    let key = Memo::new(move |_| {
        lab.params.with(|p| {
            let s = p.sampler_setting();
            (p.users > 1).then(|| {
                (
                    p.users,
                    s.q.to_bits(),
                    p.sigma.to_bits(),
                    p.neighbour,
                    s.steps,
                    s.delta.to_bits(),
                    s.interval.to_bits(),
                )
            })
        })
    });
    let jobs = LabJobs::new(GROUP);
    Effect::new(move |_| {
        let on = key.get();
        let current = jobs.restart();
        report.set(None);
        if on.is_none() {
            return;
        }
        let job = DpsgdJob::Users(lab.params.get_untracked());
        spawn_local(async move {
            let got = pool::outcome(GROUP, &job, |u| match u {
                DpsgdUpdate::Users(r) => Some(r),
                _ => None,
            })
            .await;
            if got.is_some() && current() {
                report.set(got);
            }
        });
    });
    let k = move || lab.params.with(|p| p.users);
    let value = move |f: fn(&UserEpsilon) -> f64| {
        Signal::derive(move || {
            report.with(|r| r.as_ref().and_then(|r| r.as_ref().ok()).map_or(f64::NAN, f))
        })
    };
    let status = move || {
        match (k(), report.get()) {
        (1, _) => "One record per user: the user-level ε is the record-level ε above. Set k ≥ 2 to compare the accountants.".to_owned(),
        (_, None) => "Composing the user-level privacy loss in a background worker…".to_owned(),
        (_, Some(Err(e))) => format!("The user-level accountant failed: {e}"),
        (_, Some(Ok(_))) => String::new(),
    }
    };
    view! {
        <section class="panel" aria-labelledby="users-title" data-part="users" hidden={let shown = crate::widgets::parts::use_part("users", "User-level privacy", false); move || !shown()} data-testid="dpsgd-users">
            <h3 id="users-title">"Users with several records"</h3>
            <p class="explain">
                "If one person contributes k records (k messages, k photos), protecting the person means protecting all k at once. "
                "Each record is still sampled on its own with probability q; in the worst case their clipped gradients point the same way."
            </p>
            <div class="section-controls">
                <NumberField label="Records per user k" key="users"
                    value=url.raw_or("users", move || k().to_string())
                    error=lab.error_for("users") help="1 to 1000; 1 is record-level privacy." />
            </div>
            <p class="status" role="status" data-testid="dpsgd-users-status">{status}</p>
            <div class="stats" hidden=move || k() < 2>
                <Stat label="user-level ε, mixture-of-Gaussians PLD (certified upper bound)" testid="dpsgd-eps-user" side=Side::Upper value=value(|r| r.mixture.upper) />
                <Stat label="its certified lower bound" testid="dpsgd-eps-user-lower" value=value(|r| r.mixture.lower) />
                <Stat label="group-privacy lemma on the record-level ε (upper bound)" testid="dpsgd-eps-group" side=Side::Upper value=value(|r| r.group) />
                <Stat label="records always sampled together (upper bound)" testid="dpsgd-eps-user-together" value=value(|r| r.together.upper) />
            </div>
            {move || (k() > 1).then(|| lab.params.with(users_note)).flatten().map(|n| view! {
                <p class="notices" role="note" data-testid="dpsgd-users-gap">{n}</p>
            })}
            <p class="help" hidden=move || k() < 2>
                "Adding or removing a user (replace-one: the note above): the mixture P = Σ Bin(i; k, q)·N(i, σ²) against N(0, σ²) is the exact worst case of one step (dp_accounting's MixtureOfGaussiansDpEvent). "
                "The group lemma turns the record-level (ε₁, δ₁) into (kε₁, k·e^((k−1)ε₁)·δ₁), certified but loose. "
                "Sampling a user's records together (one record of sensitivity k at rate q) is far worse: k times the signal at the same rate."
            </p>
        </section>
    }
}
