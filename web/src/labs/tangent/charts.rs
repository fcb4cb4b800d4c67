//! The tangent lab's pictures: the data and the loss, q(w), the tangent map, the removal experiment
//! against β and against the number of points, the Monte Carlo convergence and a Langevin trace.

use crate::charts::{HeatMap, Kind, Legend, Series, XyChart, PALETTE};
use crate::format::sig;
use crate::labs::tangent::use_tangent;
use crate::widgets::after_paint::AfterPaint;
use crate::widgets::heat_canvas::HeatCanvas;
use crate::widgets::xy_canvas::XyCanvas;
use dp_playground::labs::tangent::Report;
use dp_playground::tangent::removal::Change;
use dp_playground::tangent::{Model, Point};
use leptos::prelude::*;

fn map_w(r: &Report) -> (f64, f64) {
    let best = (0..r.log_q.len())
        .max_by(|&a, &b| r.log_q[a].total_cmp(&r.log_q[b]))
        .unwrap_or(0);
    r.params[best]
}

fn data_chart(r: &Report) -> XyChart {
    let w = map_w(r);
    let inst = &r.instance;
    let (lo, hi) = inst
        .data
        .iter()
        .fold((inst.xgrid.min, inst.xgrid.max), |(a, b), p| {
            (a.min(p.x), b.max(p.x))
        });
    let curve = |y: f64| -> Vec<(f64, f64)> {
        (0..=200)
            .map(|i| lo + (hi - lo) * i as f64 / 200.0)
            .map(|x| (x, inst.risk_at(w, Point { x, y })))
            .collect()
    };
    let step = (inst.data.len() / 2000).max(1);
    let dots = |y: f64| -> Vec<(f64, f64)> {
        inst.data
            .iter()
            .step_by(step)
            .filter(|p| p.y == y)
            .map(|p| (p.x, y))
            .collect()
    };
    XyChart {
        x_desc: "feature x".into(),
        y_desc: "loss r(w*, x) (data drawn at their labels ±1)".into(),
        legend: Legend::UpperRight,
        series: vec![
            Series::new("r(w*, (x, +1))", PALETTE[1], Kind::Line, curve(1.0)),
            Series::new("r(w*, (x, −1))", PALETTE[0], Kind::Line, curve(-1.0)),
            Series::new("data, y = +1", PALETTE[1], Kind::Points, dots(1.0)),
            Series::new("data, y = −1", PALETTE[0], Kind::Points, dots(-1.0)),
        ],
        ..Default::default()
    }
}

fn change_chart(
    points: &[(f64, Change)],
    tv: bool,
    x_desc: &str,
    x_log: bool,
    marker: Option<f64>,
) -> XyChart {
    let pick = |f: fn(&Change) -> f64| -> Vec<(f64, f64)> {
        points
            .iter()
            .map(|(x, c)| (if x_log { x.log10() } else { *x }, f(c)))
            .filter(|p| p.1 > 0.0)
            .map(|(x, y)| (x, y.log10()))
            .collect()
    };
    type Pick = fn(&Change) -> f64;
    let (actual, linear, bound): (Pick, Pick, Pick) = if tv {
        (|c| c.actual_tv, |c| c.linear_tv, |c| c.bound_tv)
    } else {
        (|c| c.actual_log, |c| c.linear_log, |c| c.bound_log)
    };
    XyChart {
        x_desc: x_desc.into(),
        y_desc: if tv {
            "‖q − q̃‖₁ (log scale)".into()
        } else {
            "max |ln q − ln q̃| (log scale)".into()
        },
        x_log10: x_log,
        y_log10: true,
        legend: Legend::LowerRight,
        markers: marker
            .map(|m| vec![(if x_log { m.log10() } else { m }, "the link's".to_string())])
            .unwrap_or_default(),
        series: vec![
            Series::new("actual (exact)", PALETTE[0], Kind::Line, pick(actual)),
            Series::new("first order", PALETTE[2], Kind::Dashed, pick(linear)),
            Series::new("bound 2βR‖p − p̃‖₁", PALETTE[1], Kind::Dashed, pick(bound)),
        ],
        ..Default::default()
    }
}

/// The pictures.
#[component]
pub fn TangentCharts() -> impl IntoView {
    let lab = use_tangent();
    let report = lab.report;
    let extras = lab.extras;
    let data = Memo::new(move |_| report.with(|r| r.as_ref().map(data_chart)));
    let q_line = Memo::new(move |_| {
        report.with(|r| {
            let r = r
                .as_ref()
                .filter(|r| r.instance.model == Model::Threshold)?;
            Some(XyChart {
                x_desc: "threshold w".into(),
                y_desc: "q(w)".into(),
                series: vec![Series::new(
                    "q(w)",
                    PALETTE[0],
                    Kind::Line,
                    r.params
                        .iter()
                        .zip(&r.log_q)
                        .map(|(w, l)| (w.0, l.exp()))
                        .collect(),
                )],
                ..Default::default()
            })
        })
    });
    let q_map = Memo::new(move |_| {
        report.with(|r| {
            let r = r.as_ref().filter(|r| r.instance.model == Model::Linear2d)?;
            // At most 100 cells per axis on screen (every k-th grid point): drawing 40 000 cells would
            // cost more than the page's frame budget.
            let g = r.instance.wgrid.points();
            let k = g.len().div_ceil(100);
            let idx: Vec<usize> = (0..g.len()).step_by(k).collect();
            let values = idx
                .iter()
                .flat_map(|&a| idx.iter().map(move |&b| (a, b)))
                .map(|(a, b)| r.log_q[a * g.len() + b].exp())
                .collect();
            let sub: Vec<f64> = idx.iter().map(|&i| g[i]).collect();
            Some(HeatMap {
                x_desc: "w₂ (intercept)".into(),
                y_desc: "w₁ (slope)".into(),
                xs: sub.clone(),
                ys: sub,
                values,
                diverging: false,
                value_desc: "q(w)".into(),
            })
        })
    });
    let tangent_map = Memo::new(move |_| {
        extras.with(|e| {
            let (rows, cols, dl) = e.picture.as_ref()?;
            Some(HeatMap {
                x_desc: "candidate x (data points first, then the feature grid)".into(),
                y_desc: "parameter w (index)".into(),
                xs: cols.iter().map(|&c| c as f64).collect(),
                ys: rows.iter().map(|&w| w as f64).collect(),
                values: dl.clone(),
                diverging: true,
                value_desc: "D(log∘A)".into(),
            })
        })
    });
    let beta_now = move || lab.params.with(|p| p.beta);
    let by_beta_tv = Memo::new(move |_| {
        extras.with(|e| {
            (!e.by_beta.is_empty())
                .then(|| change_chart(&e.by_beta, true, "β (log scale)", true, Some(beta_now())))
        })
    });
    let by_beta_log = Memo::new(move |_| {
        extras.with(|e| {
            (!e.by_beta.is_empty())
                .then(|| change_chart(&e.by_beta, false, "β (log scale)", true, Some(beta_now())))
        })
    });
    let by_count = Memo::new(move |_| {
        extras.with(|e| {
            let pts: Vec<(f64, Change)> =
                e.by_count.iter().map(|(c, ch)| (*c as f64, *ch)).collect();
            (!pts.is_empty()).then(|| change_chart(&pts, true, "points removed", false, None))
        })
    });
    let mc = Memo::new(move |_| {
        let exact = report.with(|r| r.as_ref().map(|r| r.norms.r_thm31))?;
        extras.with(|e| {
            let g = e.grid.as_ref()?;
            let xs: Vec<f64> = g.curve.iter().map(|c| (c.0 as f64).log10()).collect();
            let (x0, x1) = (
                xs.first().copied().unwrap_or(0.0),
                xs.last().copied().unwrap_or(1.0),
            );
            let mut series = vec![
                Series::new(
                    "R̂ from grid draws",
                    PALETTE[0],
                    Kind::Line,
                    g.curve
                        .iter()
                        .map(|c| ((c.0 as f64).log10(), c.1))
                        .collect(),
                ),
                Series::new(
                    "exact R",
                    PALETTE[6],
                    Kind::Dashed,
                    vec![(x0, exact), (x1, exact)],
                ),
            ];
            if let Some(lr) = e.langevin_r {
                series.push(Series::new(
                    "R̂ from Langevin",
                    PALETTE[1],
                    Kind::Points,
                    vec![(x1, lr)],
                ));
            }
            Some(XyChart {
                x_desc: "draws (log scale)".into(),
                y_desc: "R = max_x Σ_w q r".into(),
                x_log10: true,
                legend: Legend::UpperRight,
                series,
                ..Default::default()
            })
        })
    });
    let trace = Memo::new(move |_| {
        extras.with(|e| {
            (!e.trace.is_empty()).then(|| XyChart {
                x_desc: "Langevin step".into(),
                y_desc: "w₁".into(),
                series: vec![Series::new(
                    "w₁ along the chain",
                    PALETTE[0],
                    Kind::Line,
                    e.trace.clone(),
                )],
                ..Default::default()
            })
        })
    });
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
