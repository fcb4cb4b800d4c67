//! The training lab's correlated-noise section (`mech=bandmf:4,tree,blt`): DP-SGD and each
//! mechanism calibrated to the link's target ε, trained over the link's seeds in the worker pool, their
//! test accuracies side by side (the core's `labs::train::correlated`).

use crate::format::{exact, sig};
use crate::labs::train::use_train;
use crate::platform::pool::{self, LabJobs};
use dp_playground::labs::train::correlated::ComparePoint;
use dp_playground::labs::train::jobs::{TrainJob, TrainJobUpdate};
use dp_playground::labs::train::{DataKind, TrainParams};
use dp_playground::learning::correlated::Mechanism;
use dp_playground::numerics::stats::mean_sd;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The pool's name for the comparison's jobs.
const GROUP: &str = "train-compare";

/// The mechanisms the button compares.
const SUGGESTED: &str = "bandmf:4,tree,blt";

/// The section.
#[component]
pub fn TrainCompare() -> impl IntoView {
    let lab = use_train();
    let url = crate::platform::url::use_url();
    // Each mechanism's result (or failure), in the link's order after DP-SGD.
    let results = RwSignal::new(Vec::<(Mechanism, Option<Result<ComparePoint, String>>)>::new());
    // The comparison reads everything but σ, the sweep and the stop rule.
    let key = Memo::new(move |_| {
        lab.params.with(|p| {
            (!p.mechs.is_empty()).then(|| TrainParams {
                sigma: 1.0,
                sweep: Vec::new(),
                stop: false,
                ..p.clone()
            })
        })
    });
    let jobs = LabJobs::new(GROUP);
    Effect::new(move |_| {
        let p = key.get();
        let csv = lab.csv.get();
        let current = jobs.restart();
        results.set(Vec::new());
        let Some(p) = p else { return };
        if p.data == DataKind::Csv && csv.is_none() {
            return;
        }
        let mut mechs = vec![Mechanism::DpSgd];
        mechs.extend(p.mechs.iter().filter(|m| **m != Mechanism::DpSgd));
        results.set(mechs.iter().map(|m| (*m, None)).collect());
        for (k, mech) in mechs.into_iter().enumerate() {
            let job = TrainJob::Compare {
                params: Box::new(p.clone()),
                csv: csv.clone().map(Box::new),
                mech,
            };
            spawn_local(async move {
                let got = pool::outcome(GROUP, &job, |u| match u {
                    TrainJobUpdate::Compared(r) => Some(r.map(|b| *b)),
                    _ => None,
                })
                .await;
                if let (Some(r), true) = (got, current()) {
                    results.update(|v| v[k].1 = Some(r));
                }
            });
        }
    });
    let rows = move || {
        results
            .get()
            .into_iter()
            .map(|(mech, r)| {
                let key = mech.key().replace(':', "-");
                let body = match r {
                    None => view! { <td colspan="5">"training…"</td> }.into_any(),
                    Some(Err(e)) => view! { <td colspan="5" class="notices">{e}</td> }.into_any(),
                    Some(Ok(pt)) => {
                        let ok: Vec<f64> = pt.test_acc.iter().copied().filter(|a| a.is_finite()).collect();
                        let (mean, sd) = mean_sd(&ok);
                        let (base, _) = mean_sd(&pt.baseline.iter().copied().filter(|a| a.is_finite()).collect::<Vec<_>>());
                        let batches = match mech {
                            Mechanism::DpSgd => "Poisson",
                            Mechanism::BandMf { .. } => "cyclic Poisson, b groups",
                            _ => "fixed order",
                        };
                        view! {
                            <td data-testid=format!("train-compare-acc-{key}") data-value=exact(mean)>
                                {format!("{} ± {} ({} seeds)", sig(mean, 4), sig(sd, 2), ok.len())}
                            </td>
                            <td data-testid=format!("train-compare-eps-{key}") data-value=exact(pt.guarantee.eps) title=pt.guarantee.claim(4)>
                                {format!("{} ({})", pt.guarantee.inequality(4), pt.guarantee.accountant.short_name())}
                            </td>
                            <td data-testid=format!("train-compare-sigma-{key}") data-value=exact(pt.sigma)>{sig(pt.sigma, 4)}</td>
                            <td>{batches}</td>
                            <td>{sig(base, 4)}</td>
                        }
                        .into_any()
                    }
                };
                view! { <tr><th scope="row">{mech.title()}</th>{body}</tr> }
            })
            .collect_view()
    };
    view! {
        <section class="panel" aria-labelledby="compare-title" data-part="compare"
            hidden={let shown = crate::widgets::parts::use_part("compare", "Correlated noise at the same ε", false); move || !shown()}>
            <h3 id="compare-title">"Correlated noise at the same ε"</h3>
            <p class="help">
                "DP-SGD against matrix-factorization mechanisms, each with its σ calibrated to the target ε above and "
                "trained with every seed on the same data, batch size, learning rate and steps. BandMF samples each of "
                "its b groups in turn (amplified BandMF: DP-SGD over ⌈T/b⌉ rounds, by the PLD); the tree and the BLT "
                "take batches in a fixed order and have no amplification, so they pay for every epoch through their "
                "sensitivity. Expect correlated noise to gain most in one epoch and little over many."
            </p>
            <p hidden=move || lab.params.with(|p| !p.mechs.is_empty())>
                <button type="button" data-testid="train-compare-start"
                    disabled=move || url.options.with(|o| o.locked)
                    on:click=move |_| url.commit_set("mech", SUGGESTED)>
                    "Compare with BandMF, the tree and a BLT"
                </button>
            </p>
            <div class="table-wrap" tabindex="0" hidden=move || results.with(Vec::is_empty)>
                <table class="results-table" data-testid="train-compare">
                    <caption>"Test accuracy at the same certified ε (mean ± sd over seeds); neighbours differ by one record, added or removed"</caption>
                    <thead><tr>
                        <th scope="col">"noise"</th>
                        <th scope="col">"test accuracy"</th>
                        <th scope="col">"ε at δ (certified)"</th>
                        <th scope="col">"σ"</th>
                        <th scope="col">"batches"</th>
                        <th scope="col">"non-private"</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </section>
    }
}
