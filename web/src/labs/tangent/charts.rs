//! The tangent lab's pictures: the data and the loss, q(w), the tangent map, the removal experiment
//! against β and against the number of points, the Monte Carlo convergence and a Langevin trace.

use crate::charts::specs::tangent as specs;
use crate::format::sig;
use crate::labs::tangent::use_tangent;
use crate::widgets::after_paint::AfterPaint;
use crate::widgets::heat_canvas::HeatCanvas;
use crate::widgets::xy_canvas::XyCanvas;
use dp_playground::tangent::removal::Change;
use dp_playground::tangent::Model;
use leptos::prelude::*;

/// The pictures.
#[component]
pub fn TangentCharts() -> impl IntoView {
    let lab = use_tangent();
    let report = lab.report;
    let extras = lab.extras;
    let data = Memo::new(move |_| report.with(|r| r.as_ref().map(specs::data_chart)));
    let q_line = Memo::new(move |_| report.with(|r| r.as_ref().and_then(specs::q_line_chart)));
    let q_map = Memo::new(move |_| report.with(|r| r.as_ref().and_then(specs::q_map)));
    let tangent_map = Memo::new(move |_| extras.with(specs::tangent_map));
    let beta_now = move || lab.params.with(|p| p.beta);
    let by_beta_tv = Memo::new(move |_| {
        extras.with(|e| {
            (!e.by_beta.is_empty()).then(|| {
                specs::change_chart(&e.by_beta, true, "β (log scale)", true, Some(beta_now()))
            })
        })
    });
    let by_beta_log = Memo::new(move |_| {
        extras.with(|e| {
            (!e.by_beta.is_empty()).then(|| {
                specs::change_chart(&e.by_beta, false, "β (log scale)", true, Some(beta_now()))
            })
        })
    });
    let by_count = Memo::new(move |_| {
        extras.with(|e| {
            let pts: Vec<(f64, Change)> =
                e.by_count.iter().map(|(c, ch)| (*c as f64, *ch)).collect();
            (!pts.is_empty())
                .then(|| specs::change_chart(&pts, true, "points removed", false, None))
        })
    });
    let mc = Memo::new(move |_| {
        let exact = report.with(|r| r.as_ref().map(|r| r.norms.r_thm31))?;
        extras.with(|e| specs::monte_carlo_chart(exact, e))
    });
    let trace = Memo::new(move |_| extras.with(specs::trace_chart));
    let is_2d = move || lab.params.with(|p| p.model == Model::Linear2d);
    let alt_count = move || {
        extras.with(|e| {
            e.by_count.last().map_or(String::new(), |(c, ch)| {
                format!(
                    "Removing {c} points: actual {}, first order {}, bound {}.",
                    sig(ch.actual_tv, 3),
                    sig(ch.linear_tv, 3),
                    sig(ch.bound_tv, 3)
                )
            })
        })
    };
    view! {
        <div class="chart-grid">
            <XyCanvas testid="tdp-chart-data" title="The data and the loss at the most likely w" alt=Signal::derive(|| "Data points at heights ±1 by label, and the loss at the most likely parameter for each label.".to_string()) chart=data csv_name="tangent-data.csv" height=280.0 />
            <Show when=move || !is_2d() fallback=move || view! {
                <HeatCanvas testid="tdp-chart-q" title="The Gibbs distribution q(w₁, w₂)" alt="The Gibbs distribution over the 2-D parameter grid." map=q_map csv_name="tangent-q.csv" height=300.0 />
            }>
                <XyCanvas testid="tdp-chart-q" title="The Gibbs distribution q(w)" alt=Signal::derive(|| "The Gibbs distribution over the threshold grid.".to_string()) chart=q_line csv_name="tangent-q.csv" height=280.0 />
            </Show>
        </div>
        <HeatCanvas testid="tdp-chart-map" title="The tangent map D(log∘A)_p = −β(I − 1qᵀ)r (rows and columns sampled evenly)"
            alt="Heat map of the tangent map of log q: rows are parameters, columns candidate points." map=tangent_map csv_name="tangent-map.csv" height=320.0 />
        // The removal experiment, Monte Carlo and Langevin: a frame later, in a task of their own.
        <AfterPaint>
            <div class="chart-grid">
                <XyCanvas testid="tdp-chart-beta-tv" title="Removing the point, against β: ‖q − q̃‖₁" alt=Signal::derive(|| "Actual change, first-order prediction and bound against β.".to_string()) chart=by_beta_tv csv_name="tangent-removal-beta-tv.csv" height=280.0 />
                <XyCanvas testid="tdp-chart-beta-log" title="Removing the point, against β: max |ln q − ln q̃|" alt=Signal::derive(|| "Actual change of log q, first-order prediction and bound against β.".to_string()) chart=by_beta_log csv_name="tangent-removal-beta-log.csv" height=280.0 />
                <XyCanvas testid="tdp-chart-count" title="Removing more points: ‖q − q̃‖₁" alt=Signal::derive(alt_count) chart=by_count csv_name="tangent-removal-count.csv" height=280.0 />
                <XyCanvas testid="tdp-chart-mc" title="Monte Carlo estimate of R (Remark 3.2(c))" alt=Signal::derive(|| "The estimate of R against the number of draws, with the exact value.".to_string()) chart=mc csv_name="tangent-mc.csv" height=280.0 />
            </div>
            <XyCanvas testid="tdp-chart-langevin" title="A Langevin chain (Remark 3.1)" alt=Signal::derive(|| "The first parameter along the Langevin chain.".to_string()) chart=trace csv_name="tangent-langevin.csv" height=260.0 />
            <p class="explain">
                "Langevin dynamics samples q without the grid. At large β, q has separated modes and the chain stays in the one it "
                "found first for a very long time (metastability, the paper's closing remark). Open the \"Metastable\" example: q has "
                "two equal modes, the chain started between them settles in one, and its R̂ misses the exact value that the exact grid "
                "draws recover."
            </p>
        </AfterPaint>
    }
}
