//! The training lab's correlated-noise section (`compare=bandmf:4,tree,blt`, `compare_eps=0.5,1,2`):
//! DP-SGD and each mechanism calibrated to each target ε (the link's target without `compare_eps`),
//! trained over the link's seeds in the worker pool, one job per (ε, mechanism); their test
//! accuracies side by side, and against ε when there are several (the core's
//! `labs::train::correlated`).

use crate::charts::specs::train as specs;
use crate::format::{exact, sig};
use crate::labs::train::use_train;
use crate::platform::pool;
use crate::widgets::xy_canvas::XyCanvas;
use dp_playground::labs::train::correlated::{compare_curves, ComparePoint};
use dp_playground::labs::train::jobs::{TrainJob, TrainJobUpdate};
use dp_playground::labs::train::TrainParams;
use dp_playground::learning::correlated::Mechanism;
use dp_playground::link::query::fmt_f64;
use dp_playground::numerics::stats::mean_sd;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The pool's name for the comparison's jobs.
const GROUP: &str = "train-compare";

/// The mechanisms the buttons compare.
const SUGGESTED: &str = "bandmf:4,tree,blt";
/// The ε's the sweep button compares at.
const SUGGESTED_EPS: &str = "0.5,1,2,4,8";

/// The section.
#[component]
pub fn TrainCompare() -> impl IntoView {
    let lab = use_train();
    let url = crate::platform::url::use_url();
    // Each (ε, mechanism)'s result (or failure): for each ε, DP-SGD first, then the link's order.
    type Cell = (f64, Mechanism, Option<Result<ComparePoint, String>>);
    let results = RwSignal::new(Vec::<Cell>::new());
    // The comparison reads everything but σ, the sweep and the stop rule.
    let key = Memo::new(move |_| {
        lab.params.with(|p| {
            (!p.compare.is_empty()).then(|| TrainParams {
                sigma: 1.0,
                sweep: Vec::new(),
                stop: false,
                ..p.clone()
            })
        })
    });
    lab.section_jobs(
        GROUP,
        key,
        move || results.set(Vec::new()),
        move |p, csv, live| {
            let current = move || live.current();
            let mut mechs = vec![Mechanism::DpSgd];
            mechs.extend(p.compare.iter().filter(|m| **m != Mechanism::DpSgd));
            let cells: Vec<Cell> = p
                .compare_targets()
                .into_iter()
                .flat_map(|eps| mechs.iter().map(move |m| (eps, *m, None)))
                .collect();
            results.set(cells.clone());
            for (k, (target, mech, _)) in cells.into_iter().enumerate() {
                let job = TrainJob::Compare {
                    params: Box::new(p.clone()),
                    csv: csv.clone().map(Box::new),
                    mech,
                    target,
                };
                spawn_local(async move {
                    let got = pool::outcome(GROUP, &job, |u| match u {
                        TrainJobUpdate::Compared(r) => Some(r.map(|b| *b)),
                        _ => None,
                    })
                    .await;
                    if let (Some(r), true) = (got, current()) {
                        results.update(|v| v[k].2 = Some(r));
                    }
                });
            }
        },
    );
    let several = move || lab.params.with(|p| p.compare_targets().len() > 1);
    let rows = move || {
        let many = several();
        results
            .get()
            .into_iter()
            .map(|(target, mech, r)| {
                // The link's target keeps the short ids; other ε's carry theirs.
                let key = if many {
                    format!("{}-{}", mech.key().replace(':', "-"), fmt_f64(target))
                } else {
                    mech.key().replace(':', "-")
                };
                let body = match r {
                    None => view! { <td colspan="5">"training…"</td> }.into_any(),
                    Some(Err(e)) => view! { <td colspan="5" class="notices">{e}</td> }.into_any(),
                    Some(Ok(pt)) => {
                        let ok: Vec<f64> = pt.test_acc.iter().copied().filter(|a| a.is_finite()).collect();
                        let (mean, sd) = mean_sd(&ok);
                        let (base, _) = mean_sd(&pt.baseline.iter().copied().filter(|a| a.is_finite()).collect::<Vec<_>>());
                        view! {
                            <td data-testid=format!("train-compare-acc-{key}") data-value=exact(mean)>
                                {format!("{} ± {} ({} seeds)", sig(mean, 4), sig(sd, 2), ok.len())}
                            </td>
                            <td data-testid=format!("train-compare-eps-{key}") data-value=exact(pt.guarantee.eps) title=pt.guarantee.claim(4)>
                                {format!("{} ({})", pt.guarantee.inequality(4), pt.guarantee.accountant.short_name())}
                            </td>
                            <td data-testid=format!("train-compare-sigma-{key}") data-value=exact(pt.sigma)>{sig(pt.sigma, 4)}</td>
                            <td>{match mech {
                                Mechanism::DpSgd => "Poisson",
                                Mechanism::BandMf { .. } => "cyclic Poisson, b groups",
                                _ => "fixed order",
                            }}</td>
                            <td>{sig(base, 4)}</td>
                        }
                        .into_any()
                    }
                };
                // Several targets: each opens with a row naming it (DP-SGD comes first in each).
                let group = (many && mech == Mechanism::DpSgd).then(|| view! {
                    <tr class="group-row"><th scope="colgroup" colspan="6">{format!("target ε = {}", fmt_f64(target))}</th></tr>
                });
                view! { {group}<tr><th scope="row">{mech.title()}</th>{body}</tr> }
            })
            .collect_view()
    };
    let chart = Memo::new(move |_| {
        if !several() {
            return None;
        }
        let done: Vec<ComparePoint> = results.with(|v| {
            v.iter()
                .filter_map(|c| c.2.as_ref().and_then(|r| r.as_ref().ok()).cloned())
                .collect()
        });
        (!done.is_empty()).then(|| {
            let (curves, base) = compare_curves(&done);
            specs::compare_chart(&curves, base)
        })
    });
    let progress = move || {
        results.with(|v| {
            let left = v.iter().filter(|c| c.2.is_none()).count();
            if left > 0 {
                format!("Training: {left} of {} (ε, noise) pairs to go…", v.len())
            } else {
                String::new()
            }
        })
    };
    view! {
        <section class="panel" aria-labelledby="compare-title" data-part="compare"
            hidden={let shown = crate::widgets::parts::use_part("compare", "Correlated noise at the same ε", false); move || !shown()}>
            <h3 id="compare-title">"Correlated noise at the same ε"</h3>
            <p class="help">
                "DP-SGD against matrix-factorization mechanisms, each with its σ calibrated to the target ε above (or to each ε of the sweep) and "
                "trained with every seed on the same data, batch size, learning rate and steps. BandMF samples each of "
                "its b groups in turn (amplified BandMF: DP-SGD over ⌈T/b⌉ rounds, by the PLD); the tree and the BLT "
                "take batches in a fixed order and have no amplification, so they pay for every epoch through their "
                "sensitivity. Expect correlated noise to gain most in one epoch and little over many."
            </p>
            <p class="presets">
                <button type="button" data-testid="train-compare-start"
                    hidden=move || lab.params.with(|p| !p.compare.is_empty())
                    disabled=move || url.options.with(|o| o.locked)
                    on:click=move |_| url.commit_set("compare", SUGGESTED)>
                    "Compare with BandMF, the tree and a BLT"
                </button>
                <button type="button" data-testid="train-compare-sweep"
                    hidden=several
                    disabled=move || url.options.with(|o| o.locked)
                    on:click=move |_| url.commit(|q| {
                        if q.get("compare").is_none() {
                            q.set("compare", SUGGESTED);
                        }
                        q.set("compare_eps", SUGGESTED_EPS);
                    })>
                    "Compare over ε = 0.5 to 8"
                </button>
            </p>
            <p class="status" role="status" data-testid="train-compare-status">{progress}</p>
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
            <div hidden=move || !several()>
                <XyCanvas testid="train-chart-compare" look_for="Compare the lines at each ε: the higher line buys more accuracy for the same certified privacy." title="Test accuracy against certified ε, by noise"
                    alt=Signal::derive(move || format!("{} of {} runs done.", results.with(|v| v.iter().filter(|c| c.2.is_some()).count()), results.with(Vec::len)))
                    chart=chart csv_name="train-compare.csv" />
            </div>
        </section>
    }
}
