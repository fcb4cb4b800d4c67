//! Figure 3 of the WDP paper: Corollary 1's ε = W − (ln δ)/β against β and against δ.

use crate::charts::specs::wdp as specs;
use crate::format::{exact, sig};
use crate::labs::wdp::use_wdp;
use crate::platform::url::use_url;
use crate::widgets::number_field::NumberField;
use crate::widgets::xy_canvas::XyCanvas;
use dp_playground::link::query::fmt_f64;
use leptos::prelude::*;

/// Figure 3 with its controls, read-out, charts and notes.
#[component]
pub fn Fig3() -> impl IntoView {
    let url = use_url();
    let lab = use_wdp();
    let params = lab.params;
    let run = lab.run;
    let value = Signal::derive(move || params.with(|p| p.fig3_value()));
    let w = Memo::new(move |_| params.with(|p| p.w));
    let by_beta =
        Memo::new(move |_| Some(specs::fig3_beta_chart(w.get(), params.with(|p| p.beta))));
    let by_delta =
        Memo::new(move |_| Some(specs::fig3_delta_chart(w.get(), params.with(|p| p.delta))));
    // "Take W from Figure 2": runs it if needed (in the background), then writes `w` once it is done.
    let pending = RwSignal::new(false);
    let take_w = move |_| {
        lab.run_wanted.set(true);
        pending.set(true);
    };
    Effect::new(move |_| {
        if !pending.get() {
            return;
        }
        let p = params.get();
        let got = run.with(|r| r.finished_for(p.seed).then(|| r.chosen(&p).w(p.pairs)));
        if let Some(w) = got {
            pending.set(false);
            url.set("w", fmt_f64(w));
        }
    });
    let progress = move || {
        if !pending.get() {
            return String::new();
        }
        run.with(|r| {
            format!(
                "Running Figure 2 (seed {}): step {} of {}…",
                params.with(|p| p.seed),
                r.done,
                r.total
            )
        })
    };
    view! {
        <div class="lab-grid">
            <aside class="controls" aria-label="Figure 3 parameters" hidden=move || !url.options.with(|o| o.shows_controls_panel())>
                <h3>"Corollary 1"</h3>
                <NumberField label="β" key="beta" value=url.raw_or("beta", move || fmt_f64(params.get().beta))
                    error=lab.error_for("beta") slider=(1.0, 50.0, 1.0) />
                <NumberField label="δ" key="delta" value=url.raw_or("delta", move || fmt_f64(params.get().delta))
                    error=lab.error_for("delta") />
                <NumberField label="Wasserstein term W = Σ_t w_t" key="w" value=url.raw_or("w", move || fmt_f64(params.get().w))
                    error=lab.error_for("w") help="The published figure uses W = 10." />
                <div class="presets" hidden=move || url.options.with(|o| o.locked || !o.shows("w"))>
                    <button type="button" class="small" data-testid="wdp-fig3-take-w" on:click=take_w>
                        {move || params.with(|p| format!("Take W from Figure 2 (seed {}, quantile {})", p.seed,
                            fmt_f64(dp_playground::wdp::synthetic::QUANTILES[p.quantile])))}
                    </button>
                    <button type="button" class="small" on:click=move |_| url.commit_set("w", "10")>"W = 10 (the paper)"</button>
                </div>
                <p class="status" role="status" data-testid="wdp-fig3-status">{progress}</p>
            </aside>
            <div class="results">
                <div class="stats">
                    <div class="stat">
                        <span class="stat-label">{move || params.with(|p| format!("ε = W − (ln δ)/β at W = {}, β = {}, δ = {}", fmt_f64(p.w), fmt_f64(p.beta), fmt_f64(p.delta)))}</span>
                        <span class="stat-value" data-testid="wdp-fig3-value" data-value=move || exact(value.get())>{move || sig(value.get(), 6)}</span>
                    </div>
                </div>
                <div class="chart-grid">
                    <XyCanvas testid="wdp-fig3-beta" title="(a) ε against β, one curve per δ"
                        alt=Signal::derive(move || format!("With W = {}, ε falls from {} at β = 1 towards W as β grows.", fmt_f64(w.get()), sig(w.get() - 1e-10f64.ln(), 4)))
                        chart=by_beta csv_name="wdp-fig3-beta.csv" height=300.0 />
                    <XyCanvas testid="wdp-fig3-delta" title="(b) ε against δ, one curve per β"
                        alt=Signal::derive(move || format!("With W = {}, ε falls linearly in ln δ, more slowly for larger β.", fmt_f64(w.get())))
                        chart=by_delta csv_name="wdp-fig3-delta.csv" height=300.0 />
                </div>
                <p class="explain">
                    "What it shows: Corollary 1 (from Theorem 3's tail bound) gives ε = Σ_t w_t − (ln δ)/β. The Wasserstein "
                    "term W does not depend on β or δ, so β only scales the price of a smaller δ: ε falls quickly while "
                    "β < 10 and then flattens towards W; against δ on a log axis, ε falls in straight lines of slope −1/β."
                </p>
                <div class="erratum">
                    "Where this departs from the paper's words: the text says the figure is based on Theorem 3 and "
                    "Corollary 1, but the published figure does not evaluate the Wasserstein term — it plots "
                    "W − (ln δ)/β with W = 10. We do the same by default; set W, or take it from a Figure 2 run."
                </div>
            </div>
        </div>
    }
}
