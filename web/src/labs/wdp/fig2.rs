//! Figure 2 of the WDP paper: the moments (DP), Bayesian (BDP) and Wasserstein (WDP) accountants over
//! 100 steps of synthetic heavy-tailed gradients, one panel per clipping quantile.

use crate::charts::specs::wdp as specs;
use crate::format::sig;
use crate::labs::wdp::{use_wdp, RunState};
use crate::platform::url::use_url;
use crate::widgets::number_field::NumberField;
use crate::widgets::select_field::SelectField;
use crate::widgets::stat::Stat;
use crate::widgets::xy_canvas::XyCanvas;
use dp_playground::labs::wdp::{clip_key, pairs_key, WdpParams};
use dp_playground::link::query::fmt_f64;
use dp_playground::wdp::synthetic::{Curves, QUANTILES};
use leptos::prelude::*;

const TEST_IDS: [&str; 4] = [
    "wdp-fig2-q05",
    "wdp-fig2-q50",
    "wdp-fig2-q75",
    "wdp-fig2-q99",
];
const CSV: [&str; 4] = [
    "wdp-fig2-q05.csv",
    "wdp-fig2-q50.csv",
    "wdp-fig2-q75.csv",
    "wdp-fig2-q99.csv",
];

fn last(v: &[f64]) -> f64 {
    v.last().copied().unwrap_or(f64::NAN)
}

/// Figure 2 with its controls, progress, read-outs, charts and notes.
#[component]
pub fn Fig2() -> impl IntoView {
    let url = use_url();
    let lab = use_wdp();
    let params = lab.params;
    let run = lab.run;
    let ready = move || run.with(|r| params.with(|p| r.finished_for(p.seed)));
    let final_of = move |f: fn(&Curves, &WdpParams) -> f64| {
        Signal::derive(move || {
            if !ready() {
                return f64::NAN;
            }
            run.with(|r| params.with(|p| f(r.chosen(p), p)))
        })
    };
    let charts = QUANTILES.iter().enumerate().map(|(i, &quantile)| {
        let chart = Memo::new(move |_| {
            let (clip, rule) = params.with(|p| (p.clip, p.pairs));
            run.with(|r| {
                let c = &r.curves[i][usize::from(!clip)];
                (!c.dp.is_empty()).then(|| specs::fig2_chart(c, rule))
            })
        });
        let title = Signal::derive(move || {
            let chosen = params.with(|p| p.quantile == i);
            format!("C at the {} quantile{}", fmt_f64(quantile), if chosen { " (read out)" } else { "" })
        });
        let alt = Signal::derive(move || {
            run.with(|r| {
                params.with(|p| {
                    let c = &r.curves[i][usize::from(!p.clip)];
                    format!(
                        "After {} steps: DP {}, BDP {}, WDP {}.",
                        c.dp.len(),
                        sig(last(&c.dp), 4),
                        sig(last(&c.bdp), 4),
                        sig(last(c.wdp(p.pairs)), 4)
                    )
                })
            })
        });
        view! { <XyCanvas testid=TEST_IDS[i] title=title alt=alt chart=chart csv_name=CSV[i] height=300.0 /> }
    });
    let status = move || {
        run.with(|r| {
            if let Some(e) = &r.failed {
                e.clone()
            } else if r.total == 0 {
                "Starting…".to_string()
            } else if r.done < r.total {
                format!("Running the synthetic gradients: step {} of {}…", r.done, r.total)
            } else {
                format!("Done: 100 steps of 50 × 1000 gradients and 1225 pairs, four quantiles, in {} ms.", sig(r.ms, 3))
            }
        })
    };
    let w_link = move || {
        let w = run.with(|r| params.with(|p| r.chosen(p).w(p.pairs)));
        url.href_with(|q| {
            q.set("fig", "3");
            q.set("w", fmt_f64(w));
        })
    };
    view! {
        <div class="lab-grid">
            <aside class="controls" aria-label="Figure 2 parameters" hidden=move || !url.options.with(|o| o.shows_controls_panel())>
                <h3>"The run"</h3>
                <NumberField label="Seed" key="seed" value=url.raw_or("seed", move || params.get().seed.to_string())
                    error=lab.error_for("seed") help="Same seed, same gradients, same curves." />
                <SelectField label="Panel read out (clipping quantile)" key="quantile"
                    options=QUANTILES.into_iter().map(|q| (fmt_f64(q), fmt_f64(q))).collect()
                    value=Signal::derive(move || fmt_f64(QUANTILES[params.with(|p| p.quantile)])) error=lab.error_for("quantile") />
                <SelectField label="Gradient clipping" key="clip"
                    options=vec![("on".into(), "on (as the published curves)".into()), ("off".into(), "off (as the caption says)".into())]
                    value=Signal::derive(move || clip_key(params.with(|p| p.clip)).to_owned()) error=lab.error_for("clip") />
                <SelectField label="WDP over the 1225 pairs" key="pairs"
                    options=vec![("sum".into(), "sum (authors' code, the figure)".into()), ("inf".into(), "inf (Corollary 1 literally)".into())]
                    value=Signal::derive(move || pairs_key(params.with(|p| p.pairs)).to_owned()) error=lab.error_for("pairs") />
                <p class="help">"Every variant is computed in the one run, so the toggles switch instantly."</p>
            </aside>
            <div class="results">
                <p class="status" role="status" data-testid="wdp-fig2-status">{status}</p>
                <progress max=move || run.with(|r| r.total.max(1)) value=move || run.with(|r| r.done) data-testid="wdp-fig2-progress"
                    hidden=ready></progress>
                <div class="stats">
                    <Stat label="ε after 100 steps, DP (moments)" testid="wdp-fig2-final-dp" value=final_of(|c, _| last(&c.dp)) digits=6 />
                    <Stat label="ε after 100 steps, BDP (Bayesian)" testid="wdp-fig2-final-bdp" value=final_of(|c, _| last(&c.bdp)) digits=6 />
                    <Stat label="ε after 100 steps, WDP (Wasserstein)" testid="wdp-fig2-final-wdp" value=final_of(|c, p| last(c.wdp(p.pairs))) digits=6 />
                    <Stat label="W = Σ w_t (WDP, for Figure 3)" testid="wdp-fig2-w" value=final_of(|c, p| c.w(p.pairs)) digits=6 />
                </div>
                <crate::widgets::diagnostics::Diagnostics>
                    <Stat label="run time (ms)" testid="wdp-fig2-ms" value=Signal::derive(move || if ready() { run.with(|r| r.ms) } else { f64::NAN }) digits=3 />
                </crate::widgets::diagnostics::Diagnostics>
                <p hidden=move || !ready()>
                    <a href=w_link data-testid="wdp-fig2-to-fig3">"Open Figure 3 with this run's W"</a>
                </p>
                <FinalTable run=run />
                <div class="chart-grid">{charts.collect_view()}</div>
                <p class="explain">
                    "What it shows: at each of 100 steps, 50 gradients of dimension 1000 are drawn from a heavy-tailed "
                    "Weibull(½) law and clipped at the chosen quantile C of their norms; noise of s.d. σC (σ = 0.2) is "
                    "added with sampling rate q = 1/1000, δ = 1e-5. The moments accountant (order 16) assumes the worst "
                    "distance 2C; the Bayesian accountant (Triastcyn & Faltings 2020) and the Wasserstein accountant "
                    "(Corollary 1: ε = Σ_t w_t − (ln δ)/β, μ = 16, β = 1, the absolute moments of Lemma 1) use the 1225 "
                    "actual pairwise distances."
                </p>
                <div class="erratum">
                    "Where this departs from the paper's words: the caption says \"without gradient clipping\", but the "
                    "published curves were made with clipping on, so clipping is on by default and \"off\" shows the "
                    "caption's version. Corollary 1 takes an inf over d_t; the authors' code, and so the figure, sums "
                    "the moments over all pairs instead — \"sum\" is shown by default, \"inf\" takes the closest pair. "
                    "The authors' runs were unseeded; ours is seeded (same seed, same curves), so the curves match "
                    "theirs within the run-to-run spread."
                </div>
            </div>
        </div>
    }
}

/// Final ε of every panel for the link's clipping and pair rule.
#[component]
fn FinalTable(run: RwSignal<RunState>) -> impl IntoView {
    let params = use_wdp().params;
    view! {
        <div class="table-wrap" tabindex="0">
            <table class="results-table" data-testid="wdp-fig2-table">
                <caption>{move || params.with(|p| format!("ε after the last step done (clipping {}, WDP {})", clip_key(p.clip), pairs_key(p.pairs)))}</caption>
                <thead><tr><th scope="col">"quantile"</th><th scope="col">"C (last step)"</th><th scope="col">"DP"</th><th scope="col">"BDP"</th><th scope="col">"WDP"</th></tr></thead>
                <tbody>
                    {move || run.with(|r| params.with(|p| QUANTILES.iter().enumerate().map(|(i, q)| {
                        let c = &r.curves[i][usize::from(!p.clip)];
                        view! {
                            <tr class:chosen=p.quantile == i>
                                <th scope="row">{fmt_f64(*q)}</th>
                                <td>{sig(last(&c.clip), 5)}</td>
                                <td>{sig(last(&c.dp), 6)}</td>
                                <td>{sig(last(&c.bdp), 6)}</td>
                                <td>{sig(last(c.wdp(p.pairs)), 6)}</td>
                            </tr>
                        }
                    }).collect_view()))}
                </tbody>
            </table>
        </div>
    }
}
