//! The randomized-response lab's results: key numbers, the frequency chart and table, the spread of
//! the estimate over repeated surveys, and (for small surveys) every respondent.

use crate::charts::{
    draw_estimate_histogram, draw_frequencies, draw_respondents, frequencies_csv, histogram_csv,
    render_svg, respondents_csv, GRID_COLUMNS,
};
use crate::format::{count, exact, sig};
use crate::labs::rr::use_rr;
use crate::platform::url::use_url;
use crate::widgets::after_paint::AfterPaint;
use crate::widgets::chart_canvas::ChartCanvas;
use crate::widgets::diagnostics::Diagnostics;
use crate::widgets::glossary::Term;
use crate::widgets::stat::Stat;
use dp_playground::labs::rr::{CategoryResult, RrReport};
use leptos::prelude::*;

/// Results of the lab.
#[component]
pub fn RrResults() -> impl IntoView {
    let rr = use_rr();
    let url = use_url();
    // The report, or the last good one while an error is shown (the page never goes blank).
    let report = Memo::new(
        move |prev: Option<&Option<RrReport>>| match rr.report.get() {
            Ok(r) => Some(r),
            Err(_) => prev.cloned().flatten(),
        },
    );
    // The histogram keeps the last complete one while a worker simulates the repeated surveys, so a
    // slider drag on a large setting does not blank it between results.
    let complete = Memo::new(move |prev: Option<&Option<RrReport>>| {
        if rr.status.with(String::is_empty) {
            report.get()
        } else {
            prev.cloned().flatten()
        }
    });
    let with_report = move |f: fn(&RrReport) -> f64| {
        Signal::derive(move || report.with(|r| r.as_ref().map_or(f64::NAN, f)))
    };
    // A memo, not a derived signal: every table cell reads it, and it should be cloned once a move.
    let categories: Signal<Vec<CategoryResult>> = Signal::from(Memo::new(move |_| {
        report.with(|r| r.as_ref().map(|r| r.categories.clone()).unwrap_or_default())
    }));
    let truthful_share = with_report(|r| {
        r.survey.truthful as f64 / r.survey.reported_counts.iter().sum::<u64>() as f64
    });
    let n = move || rr.params.with(|p| p.n);
    let cat = move || report.with(|r| r.as_ref().map_or(0, |r| r.histogram.category));
    // The selector's options depend on K alone: rebuilt when it changes, not on every ε move.
    let k = Memo::new(move |_| rr.params.with(|p| p.k));

    view! {
        {move || rr.report.get().err().map(|e| view! { <p class="notices" role="alert">{e}</p> })}
        <div class="stats stats-wide">
            <Stat label="truthful reports in this survey" testid="rr-truthful-share" value=truthful_share />
        </div>
        <Diagnostics>
            <Stat label="computed in (ms)" testid="rr-compute-ms" value=Signal::derive(move || rr.compute_ms.get()) digits=3 />
        </Diagnostics>
        <p class="status" role="status" data-testid="rr-status">{move || rr.status.get()}</p>
        <ChartCanvas
            testid="rr-chart-frequencies"
            look_for="Notice the reported bars pulled towards 1/K: the estimate undoes that, and its interval widens as ε falls or n shrinks."
            title=Signal::derive(move || format!("True, reported and estimated frequencies (n = {})", count(n())))
            alt=Signal::derive(move || frequencies_alt(&categories.get()))
            draw=move |root, scale| {
                categories.with(|c| {
                    if let Err(e) = draw_frequencies(root, c, scale) {
                        leptos::logging::warn!("frequencies chart: {e}");
                    }
                })
            }
            csv=Signal::derive(move || frequencies_csv(&categories.get()))
            csv_name="rr-frequencies.csv"
            svg=Callback::new(move |size| categories.with_untracked(|c| render_svg(size, |root| {
                let _ = draw_frequencies(root, c, 1.0);
            })))
        />
        // Below the fold: built in stages once the first frames are painted.
        <AfterPaint>
            <CategoryTable categories=categories />
        </AfterPaint>
        <AfterPaint frames=2>
            <ChartCanvas
                testid="rr-chart-histogram"
                look_for="Check that the estimates centre on the true frequency (no bias) and spread like the normal curve, narrowing as n or ε grows."
                title=Signal::derive(move || format!(
                    "Estimate of category {} over {} repeated surveys",
                    cat(),
                    rr.params.with(|p| p.reps)
                ))
                alt=Signal::derive(move || histogram_alt(&categories.get(), cat()))
                height=280.0
                ready=Signal::derive(move || complete.with(Option::is_some))
                draw=move |root, scale| {
                    complete.with(|r| {
                        // The histogram's category is the report's own (the core applies repetitions only
                        // to their parameters); `get` keeps a bad index from taking the page down.
                        if let Some((r, c)) = r.as_ref().and_then(|r| Some((r, r.categories.get(r.histogram.category)?))) {
                            if let Err(e) = draw_estimate_histogram(root, &r.histogram, c.truth, scale) {
                                leptos::logging::warn!("histogram chart: {e}");
                            }
                        }
                    })
                }
                csv=Signal::derive(move || complete.with(|r| r.as_ref().and_then(|r| {
                    let c = r.categories.get(r.histogram.category)?;
                    Some(histogram_csv(&r.histogram, c.truth, c.stderr))
                }).unwrap_or_default()))
                csv_name="rr-estimate-histogram.csv"
                svg=Callback::new(move |size| complete.with_untracked(|r| render_svg(size, |root| {
                    if let Some((r, c)) = r.as_ref().and_then(|r| Some((r, r.categories.get(r.histogram.category)?))) {
                        let _ = draw_estimate_histogram(root, &r.histogram, c.truth, 1.0);
                    }
                })))
            />
            <label class="inline-select" hidden={let shown = crate::widgets::parts::use_control("cat", "Histogram of category"); move || !shown()}>
                "Histogram of category "
                <select
                    data-testid="select-cat"
                    disabled=move || url.options.with(|o| o.locked)
                    on:change=move |ev| url.commit_set("cat", event_target_value(&ev))
                    prop:value=move || cat().to_string()
                >
                    {move || {
                        (0..k.get())
                            .map(|j| view! { <option value=j.to_string()>{j}</option> })
                            .collect_view()
                    }}
                </select>
            </label>
            <Show
                when=move || report.with(|r| r.as_ref().is_some_and(|r| !r.survey.people.is_empty()))
                fallback=move || view! {
                    <p class="help" data-testid="rr-respondents-omitted">
                        {format!(
                            "Surveys of at most {} respondents are drawn one by one here; this one is larger, \
                             so only its counts are simulated (the same distribution, person by person or not).",
                            dp_playground::mechanisms::randomized_response::PEOPLE_LIMIT
                        )}
                    </p>
                }
            >
                <RespondentGrid report=report />
            </Show>
        </AfterPaint>
    }
}

/// Rows of the category table shown before "Show all".
const FIRST_ROWS: usize = 12;

/// One row per category: truth, report share, estimate with its errors, and the empirical spread.
#[component]
fn CategoryTable(
    /// The per-category results.
    categories: Signal<Vec<CategoryResult>>,
) -> impl IntoView {
    let cell = |v: Signal<f64>, id: String| {
        view! { <td data-testid=id data-value=move || exact(v.get())>{move || sig(v.get(), 4)}</td> }
    };
    let k = Memo::new(move |_| categories.with(Vec::len));
    let rr = use_rr();
    let fixed = Memo::new(move |_| {
        rr.params.with(|p| {
            p.population == dp_playground::mechanisms::randomized_response::Population::Fixed
        })
    });
    // Beyond FIRST_ROWS categories the rest of the rows wait behind a button: laying out all 50 rows of
    // K = 50 (1200 boxes) took 88 ms of the page's first layout. They stay in the page (tests and
    // screen readers read their numbers) and in the CSV of the frequency chart.
    let all = RwSignal::new(false);
    view! {
        <div class="table-wrap" tabindex="0">
            <table class="results-table" data-testid="rr-table">
                <caption>"Per category: the estimate, its closed-form standard errors and its spread over the repeated surveys"</caption>
                <thead>
                    <tr>
                        <th scope="col">"category"</th>
                        <th scope="col">"true"</th>
                        <th scope="col">"reported"</th>
                        <th scope="col">"estimate"</th>
                        // The simulated model's standard error is one of the next two: kept in the
                        // page for tests and readers of the numbers (rr-stderr-j), not shown twice.
                        <th scope="col" hidden>"std. error (closed form, simulated model)"</th>
                        <th scope="col">{move || format!("std. error, drawn (i.i.d.){}", if fixed.get() { "" } else { ", simulated" })}</th>
                        <th scope="col">{move || format!("std. error, fixed people{}", if fixed.get() { ", simulated" } else { "" })}</th>
                        <th scope="col">"95% interval"</th>
                        <th scope="col">"std. dev. over surveys"</th>
                    </tr>
                </thead>
                <tbody>
                    // One row per category, rebuilt only when K changes; an ε move updates the cells.
                    {move || (0..k.get()).map(|j| {
                        let value = move |f: fn(&CategoryResult) -> f64| {
                            Signal::derive(move || categories.with(|c| c.get(j).map_or(f64::NAN, f)))
                        };
                        let ci = Signal::derive(move || categories.with(|c| c.get(j).map_or((f64::NAN, f64::NAN), |c| c.ci)));
                        let folded = move || j >= FIRST_ROWS && !all.get();
                        view! {
                            <tr hidden=folded>
                                <th scope="row">{j}</th>
                                <td>{move || sig(value(|c| c.truth).get(), 4)}</td>
                                <td>{move || sig(value(|c| c.reported).get(), 4)}</td>
                                {cell(value(|c| c.estimate), format!("rr-estimate-{j}"))}
                                <td hidden data-testid=format!("rr-stderr-{j}") data-value=move || exact(value(|c| c.stderr).get())>
                                    {move || sig(value(|c| c.stderr).get(), 4)}
                                </td>
                                {cell(value(|c| c.stderr_iid), format!("rr-se-iid-{j}"))}
                                {cell(value(|c| c.stderr_fixed), format!("rr-se-fixed-{j}"))}
                                <td data-testid=format!("rr-ci-{j}")>
                                    {move || { let (lo, hi) = ci.get(); format!("[{}, {}]", sig(lo, 3), sig(hi, 3)) }}
                                </td>
                                {cell(value(|c| c.empirical_sd), format!("rr-empirical-sd-{j}"))}
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
        <Show when=move || { k.get() > FIRST_ROWS }>
            <button type="button" class="small" data-testid="rr-table-all" aria-expanded=move || all.get().to_string() on:click=move |_| all.update(|a| *a = !*a)>
                {move || if all.get() { format!("Show the first {FIRST_ROWS} categories") } else { format!("Show all {} categories", k.get()) }}
            </button>
        </Show>
        <p class="help">
            "The estimate (report share − q)/(p − q) is unbiased but can leave [0, 1]. The standard "
            "error is the closed form at the true distribution; the interval uses the one an analyst "
            "can compute from the reports alone."
        </p>
        <p class="help">
            "Drawn ("<Term id="iid">"i.i.d."</Term>"): respondents are drawn from the population, so the truth itself varies from "
            "survey to survey and adds π(1 − π)/n to the variance. Fixed: these exact people, so only the "
            "coin flips vary and the standard error is smaller."
        </p>
    }
}

/// Every respondent of a small survey.
#[component]
fn RespondentGrid(
    /// The lab's report (the grid shows `survey.people`).
    report: Memo<Option<RrReport>>,
) -> impl IntoView {
    let people = Signal::derive(move || {
        report.with(|r| {
            r.as_ref()
                .map(|r| r.survey.people.clone())
                .unwrap_or_default()
        })
    });
    let rows = move || people.with(|p| p.len().div_ceil(GRID_COLUMNS).max(1));
    let alt = Signal::derive(move || {
        people.with(|p| {
            let liars = p.iter().filter(|x| x.truth != x.report).count();
            format!(
                "{} respondents; {} told the truth and {liars} reported another category.",
                p.len(),
                p.len() - liars
            )
        })
    });
    view! {
        <ChartCanvas
            testid="rr-chart-respondents"
            look_for="Count the crosses, reports that are not the true answer: their expected share (K − 1)/(e^ε + K − 1) falls as ε grows."
            title=Signal::derive(move || "Every respondent: colour = reported category, × = not their true answer".to_string())
            alt=alt
            height=Signal::derive(move || (rows() as f64 * 22.0).clamp(44.0, 440.0))
            draw=move |root, scale| {
                people.with(|p| {
                    if let Err(e) = draw_respondents(root, p, scale) {
                        leptos::logging::warn!("respondents chart: {e}");
                    }
                })
            }
            csv=Signal::derive(move || respondents_csv(&people.get()))
            csv_name="rr-respondents.csv"
            svg=Callback::new(move |size| people.with_untracked(|p| render_svg(size, |root| {
                let _ = draw_respondents(root, p, 1.0);
            })))
        />
    }
}

fn frequencies_alt(cats: &[CategoryResult]) -> String {
    let parts: Vec<String> = cats
        .iter()
        .enumerate()
        .map(|(j, c)| {
            format!(
                "category {j}: true {}, estimated {}",
                sig(c.truth, 3),
                sig(c.estimate, 3)
            )
        })
        .collect();
    format!("Bar chart. {}.", parts.join("; "))
}

fn histogram_alt(cats: &[CategoryResult], cat: usize) -> String {
    cats.get(cat).map_or_else(String::new, |c| {
        format!(
            "Histogram of the estimates of category {cat}: mean {}, spread {} against the closed-form {}.",
            sig(c.empirical_mean, 3),
            sig(c.empirical_sd, 3),
            sig(c.stderr, 3)
        )
    })
}
