//! Figure 1 and Table 1 of the WDP paper: RDP and WDP budgets of the Laplace and Gaussian mechanisms
//! against the order, with the read-out of one panel at any real order.

use crate::charts::specs::wdp as specs;
use crate::format::sig;
use crate::labs::wdp::use_wdp;
use crate::platform::url::use_url;
use crate::widgets::number_field::NumberField;
use crate::widgets::select_field::{choices, SelectField};
use crate::widgets::stat::Stat;
use crate::widgets::xy_canvas::XyCanvas;
use dp_playground::labs::wdp::{format_scales, table1, Panel};
use dp_playground::link::query::fmt_f64;
use leptos::prelude::*;

const TEST_IDS: [&str; 4] = [
    "wdp-fig1-rdp-laplace",
    "wdp-fig1-wdp-laplace",
    "wdp-fig1-rdp-gauss",
    "wdp-fig1-wdp-gauss",
];
const CSV: [&str; 4] = [
    "wdp-fig1-rdp-laplace.csv",
    "wdp-fig1-wdp-laplace.csv",
    "wdp-fig1-rdp-gauss.csv",
    "wdp-fig1-wdp-gauss.csv",
];

/// Figure 1 with its controls, read-out, Table 1 and notes.
#[component]
pub fn Fig1() -> impl IntoView {
    let url = use_url();
    let lab = use_wdp();
    let params = lab.params;
    let value = Signal::derive(move || params.with(|p| p.fig1_value()));
    let chart =
        move |panel: Panel| Memo::new(move |_| params.with(|p| Some(specs::fig1_chart(p, panel))));
    let charts = Panel::ALL.into_iter().enumerate().map(|(i, panel)| {
        let title = Signal::derive(move || {
            let chosen = params.with(|p| p.panel == panel);
            format!("{}{}", panel.title(), if chosen { " (read out below)" } else { "" })
        });
        let alt = Signal::derive(move || {
            params.with(|p| {
                format!(
                    "{} against the order from {} to {}, one curve per {} in {}.",
                    panel.title(),
                    fmt_f64(p.order_min),
                    fmt_f64(p.order_max),
                    panel.scale_symbol(),
                    format_scales(&p.scales)
                )
            })
        });
        view! { <XyCanvas testid=TEST_IDS[i] title=title alt=alt chart=chart(panel) csv_name=CSV[i] height=280.0 /> }
    });
    let read_label = Signal::derive(move || {
        params.with(|p| {
            format!(
                "{} at {} = {}, {} = {}, Δ = {}",
                p.panel.title(),
                p.panel.scale_symbol(),
                fmt_f64(p.scale),
                p.panel.order_symbol(),
                fmt_f64(p.order),
                fmt_f64(p.sens)
            )
        })
    });
    view! {
        <div class="lab-grid">
            <aside class="controls" aria-label="Figure 1 parameters" hidden=move || !url.options.with(|o| o.shows_controls_panel())>
                <h3>"Read out one curve"</h3>
                <SelectField label="Panel" key="panel" options=choices(&Panel::ALL, Panel::key, Panel::title)
                    value=Signal::derive(move || params.with(|p| p.panel.key().to_owned())) error=lab.error_for("panel") />
                <NumberField label="Scale (λ or σ)" key="scale" value=url.raw_or("scale", move || fmt_f64(params.get().scale))
                    error=lab.error_for("scale") slider=(0.1, 10.0, 0.1) />
                <NumberField label="Order (α or μ), any real ≥ 1" key="order" value=url.raw_or("order", move || fmt_f64(params.get().order))
                    error=lab.error_for("order") slider=(1.0, 10.0, 0.01) />
                <h3>"The figure"</h3>
                <NumberField label="Scales drawn" key="scales" value=url.raw_or("scales", move || format_scales(&params.get().scales))
                    error=lab.error_for("scales") help="Comma-separated, up to 8 (the paper: 1, 2, 3, 5)." />
                <NumberField label="Sensitivity Δ" key="sens" value=url.raw_or("sens", move || fmt_f64(params.get().sens))
                    error=lab.error_for("sens") />
                <NumberField label="Orders from" key="omin" value=url.raw_or("omin", move || fmt_f64(params.get().order_min))
                    error=lab.error_for("omin") />
                <NumberField label="Orders to" key="omax" value=url.raw_or("omax", move || fmt_f64(params.get().order_max))
                    error=lab.error_for("omax") />
                <NumberField label="Top of the ε axis" key="ymax" value=url.raw_or("ymax", move || fmt_f64(params.get().y_max))
                    error=lab.error_for("ymax") help="Curves above it stop at the edge, as in the paper (which uses 2)." />
            </aside>
            <div class="results">
                <div class="stats">
                    <div class="stat">
                        <span class="stat-label">{read_label}</span>
                        <span class="stat-value" data-testid="wdp-fig1-value" data-value=move || crate::format::exact(value.get())>
                            {move || sig(value.get(), 6)}
                        </span>
                    </div>
                    <Stat label="pure DP ε of the Laplace mechanism, Δ/λ" testid="wdp-fig1-dp-laplace"
                        value=Signal::derive(move || params.with(|p| p.sens / p.scale)) />
                </div>
                <div class="table-wrap" tabindex="0">
                    <table class="results-table" data-testid="wdp-table1">
                        <caption>{move || params.with(|p| format!("Table 1 at λ = σ = {}, Δ = {}", fmt_f64(p.scale), fmt_f64(p.sens)))}</caption>
                        <thead><tr><th scope="col">"budget"</th><th scope="col">"Laplace, scale λ"</th><th scope="col">"Gaussian, s.d. σ"</th></tr></thead>
                        <tbody>
                            {move || table1(&params.get()).into_iter().map(|(name, lap, gauss)| view! {
                                <tr><th scope="row">{name}</th><td>{lap}</td><td>{gauss}</td></tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
                <div class="chart-grid">{charts.collect_view()}</div>
                <p class="explain">
                    "What it shows: the RDP budgets climb steeply with the order α (the Gaussian's linearly), while the "
                    "WDP budgets barely move with μ — the paper's argument that WDP is less sensitive to the choice of "
                    "order. Formulas: RDP from Mironov (2017), Table 2; WDP from Propositions 7 (Laplace) and 8 "
                    "(Gaussian); the grid has 100 real orders, and the read-out above takes any real order."
                </p>
                <div class="erratum">
                    "Where this departs from the paper's words: the WDP rows are the paper's formulas, labelled "
                    "\"as stated in the paper\". They are not Wasserstein distances: the exact W_μ between a "
                    "mechanism's output and its own shift by Δ is Δ for every μ and every scale (the last row of the "
                    "table), so a smaller WDP ε here does not mean less distance between the outputs. With Δ ≠ 1 the "
                    "Laplace RDP uses λ/Δ, while the WDP formulas put Δ where the paper does."
                </div>
            </div>
        </div>
    }
}
