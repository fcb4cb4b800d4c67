//! The shuffle model (`shuffle=1`): the survey's reports shuffled before the analyst sees them, and
//! the central (ε, δ) that buys, at the link's n and against n, computed in the worker pool.

use crate::charts::specs::rr as specs;
use crate::format::sig;
use crate::labs::rr::use_rr;
use crate::platform::browser::now_ms;
use crate::platform::pool::{self, LabJobs};
use crate::platform::url::use_url;
use crate::widgets::diagnostics::Diagnostics;
use crate::widgets::number_field::NumberField;
use crate::widgets::stat::Stat;
use crate::widgets::xy_canvas::XyCanvas;
use dp_playground::accounting::guarantee::Side;
use dp_playground::labs::rr::jobs::{RrJob, RrUpdate};
use dp_playground::labs::rr::shuffle::{curve_sizes, ShufflePoint};
use dp_playground::link::query::fmt_f64;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The pool's name for these jobs.
const GROUP: &str = "rr-shuffle";

/// The bounds at the link's n, and the curve's points as they arrive.
#[derive(Clone, Default)]
struct Progress {
    here: Option<Result<ShufflePoint, String>>,
    /// From the link's-n job's submission to its result (ms), workers' start included.
    here_ms: f64,
    curve: Vec<Option<ShufflePoint>>,
}

/// The shuffle-model section.
#[component]
pub fn RrShuffle() -> impl IntoView {
    let rr = use_rr();
    let url = use_url();
    let progress = RwSignal::new(Progress::default());
    // The bounds read ε0, K, n and δ only.
    let key = Memo::new(move |_| {
        rr.params.with(|p| {
            p.shuffle
                .on
                .then(|| (p.eps.to_bits(), p.k, p.n, p.shuffle.delta.to_bits()))
        })
    });
    let jobs = LabJobs::new(GROUP);
    Effect::new(move |_| {
        let on = key.get();
        let current = jobs.restart();
        progress.set(Progress::default());
        if on.is_none() {
            return;
        }
        let p = rr.params.get_untracked();
        let sizes = curve_sizes();
        progress.update(|g| g.curve = vec![None; sizes.len()]);
        let here = RrJob::Shuffle(p.clone(), p.n);
        let start = now_ms();
        spawn_local(async move {
            let got = pool::outcome(GROUP, &here, |u| match u {
                RrUpdate::Shuffle(r) => Some(r),
                _ => None,
            })
            .await;
            if !current() {
                return;
            }
            progress.update(|g| {
                g.here = got;
                g.here_ms = now_ms() - start;
            });
            // The curve's sizes once the link's own n is in: posted with it, they ran beside it on the
            // other core, and its cold first run took 93 ms against 82 (n = 10⁷, medians of 5); the
            // curve is done no later (213 against 236 ms after navigation).
            for (k, n) in sizes.into_iter().enumerate() {
                let job = RrJob::Shuffle(p.clone(), n);
                spawn_local(async move {
                    let got = pool::outcome(GROUP, &job, |u| match u {
                        RrUpdate::Shuffle(r) => Some(r),
                        _ => None,
                    })
                    .await;
                    if let Some(Ok(point)) = got.filter(|_| current()) {
                        progress.update(|g| {
                            if let Some(slot) = g.curve.get_mut(k) {
                                *slot = Some(point);
                            }
                        });
                    }
                });
            }
        });
    });
    let on = move || rr.params.with(|p| p.shuffle.on);
    let here = move || progress.with(|g| g.here.clone().and_then(Result::ok));
    let value = move |f: fn(&ShufflePoint) -> f64| {
        Signal::derive(move || here().map_or(f64::NAN, |p| f(&p)))
    };
    let done = move || progress.with(|g| g.curve.iter().flatten().count());
    let total = move || progress.with(|g| g.curve.len());
    let status = move || {
        progress.with(|g| match &g.here {
            Some(Err(e)) => format!("The shuffle bounds failed: {e}"),
            None if !g.curve.is_empty() => {
                "Computing the shuffled survey's central ε in a background worker…".into()
            }
            _ if done() < total() => {
                format!("Drawing ε against n: {} of {} sizes…", done(), total())
            }
            _ => String::new(),
        })
    };
    let chart = Memo::new(move |_| {
        let points: Vec<ShufflePoint> =
            progress.with(|g| g.curve.iter().flatten().cloned().collect());
        (points.len() >= 2).then(|| specs::shuffle_chart(&points, rr.params.with(|p| p.eps)))
    });
    let binary = move || rr.params.with(|p| p.k == 2);
    let shown = crate::widgets::parts::use_control("shuffle", "Shuffle the reports");
    let switch = move || {
        let on = on();
        view! {
            <label class="toggle" hidden=move || !shown()>
                <input type="checkbox" data-testid="rr-shuffle-toggle" prop:checked=on
                    disabled=move || url.options.with(|o| o.locked)
                    on:change=move |ev| {
                        let checked = event_target_checked(&ev);
                        url.update(|q| {
                            if checked { q.set("shuffle", "1") } else { q.remove("shuffle"); q.remove("delta") }
                        });
                    } />
                " Shuffle the reports before the analyst sees them"
            </label>
        }
    };
    view! {
        <section class="panel" aria-labelledby="shuffle-title" data-part="shuffle" hidden={let shown = crate::widgets::parts::use_part("shuffle", "Shuffle model", false); move || !shown()} data-testid="rr-shuffle">
            <h3 id="shuffle-title">"The shuffle model: hiding in the crowd"</h3>
            <p class="explain">
                "Each report is ε0-private on its own (ε0 = ε above). If a shuffler strips who sent what and passes on "
                "only the jumbled reports, an analyst who sees them all learns less about any one person: the survey "
                "as a whole is (ε, δ)-private for a central ε far below ε0 when n is large."
            </p>
            <div class="section-controls">
                {switch}
                <div hidden=move || !on()>
                    <NumberField label="Central δ" key="delta"
                        value=url.raw_or("delta", move || rr.params.with(|p| fmt_f64(p.shuffle.delta)))
                        error=rr.error_for("delta") help="Below 1; 10⁻⁶ by default." />
                </div>
            </div>
            <div hidden=move || !on()>
                <p class="status" role="status" data-testid="rr-shuffle-status">{status}</p>
                <div class="stats">
                    <Stat label="central ε, K-RR pair (certified upper bound)" testid="rr-shuffle-eps" side=Side::Upper value=value(|p| p.eps_krr) />
                    <Stat label="clones of 2023 (upper bound)" testid="rr-shuffle-eps-fmt2023" value=value(|p| p.eps_fmt2023) />
                    <Stat label="clones of 2021 (upper bound)" testid="rr-shuffle-eps-fmt2021" value=value(|p| p.eps_fmt2021) />
                    <Stat label="closed form (upper bound)" testid="rr-shuffle-eps-closed" value=value(|p| p.eps_closed) />
                    <Stat label="one neighbouring pair (lower bound, K = 2)" testid="rr-shuffle-eps-lower"
                        value=Signal::derive(move || here().and_then(|p| p.eps_lower).unwrap_or(f64::NAN)) />
                </div>
                <p class="help">
                    {move || format!(
                        "Upper bounds: the survey is at worst this private. The K-RR pair (Wang et al. 2024) is the tightest for K-ary RR; \
                         the clones of Feldman, McMillan & Talwar (2021, 2023) hold for any ε0-private report, and their closed form gives ε0 \
                         back until n ≥ 16 ln(4/δ)·e^ε0. {}",
                        if binary() {
                            "The lower bound is the exact ε of one pair of neighbouring surveys (one person's answer 0 or 1, everyone else's 0): the true ε is at least this."
                        } else {
                            "No lower bound is shown for K > 2."
                        })}
                </p>
                <Diagnostics>
                    <Stat label="the bounds at the link's n took (ms, from the request, workers' start included)" testid="rr-shuffle-ms"
                        value=Signal::derive(move || progress.with(|g| if g.here.is_some() { g.here_ms } else { f64::NAN })) digits=3 />
                </Diagnostics>
                <XyCanvas testid="rr-shuffle-chart" look_for="Watch the central ε drop below the flat ε0 line as n grows, roughly like 1/√n: more respondents, a bigger crowd to hide in." title="Central ε against the number of respondents"
                    alt=Signal::derive(move || format!("At n = {}: central ε ≤ {}.", rr.params.with(|p| p.n), sig(value(|p| p.eps_krr).get(), 3)))
                    chart=chart csv_name="rr-shuffle.csv" />
            </div>
        </section>
    }
}
