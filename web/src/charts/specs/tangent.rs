//! The tangent lab's pictures: the data and the loss, q(w) as a line or a heat map, the tangent map,
//! the removal experiment against β and against the number of points, the Monte Carlo convergence
//! and a Langevin trace.

use crate::charts::{HeatMap, Kind, Legend, Series, XyChart, PALETTE};
use dp_playground::labs::tangent::background::Extras;
use dp_playground::labs::tangent::Report;
use dp_playground::tangent::removal::Change;
use dp_playground::tangent::{Model, Point};

/// The parameter of largest q (the MAP estimate).
fn map_w(r: &Report) -> (f64, f64) {
    let best = (0..r.log_q.len())
        .max_by(|&a, &b| r.log_q[a].total_cmp(&r.log_q[b]))
        .unwrap_or(0);
    r.params[best]
}

/// The data at their labels and the loss at the MAP parameter for both labels.
pub fn data_chart(r: &Report) -> XyChart {
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

/// The removal experiment: the actual change, its first order and the bound, in total variation
/// (`tv`) or in log q, against `x` (β on a log axis, or the points removed).
pub fn change_chart(
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

/// q(w) of the threshold model as a line (`None` for the 2-D model).
pub fn q_line_chart(r: &Report) -> Option<XyChart> {
    (r.instance.model == Model::Threshold).then(|| XyChart {
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
}

/// q(w) of the 2-D model as a heat map (`None` for the threshold model), at most 100 cells per axis
/// (every k-th grid point): 40 000 cells would cost more than the page's frame budget.
pub fn q_map(r: &Report) -> Option<HeatMap> {
    if r.instance.model != Model::Linear2d {
        return None;
    }
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
        rows_down: false,
    })
}

/// The tangent map of log q at the sampled rows and columns, once the worker sent it.
pub fn tangent_map(e: &Extras) -> Option<HeatMap> {
    let (rows, cols, dl) = e.picture.as_ref()?;
    Some(HeatMap {
        x_desc: "candidate x (data points first, then the feature grid)".into(),
        y_desc: "parameter w (index)".into(),
        xs: cols.iter().map(|&c| c as f64).collect(),
        ys: rows.iter().map(|&w| w as f64).collect(),
        values: dl.clone(),
        diverging: true,
        value_desc: "D(log∘A)".into(),
        rows_down: false,
    })
}

/// The grid Monte Carlo estimate of R against the draws, beside the exact R and Langevin's.
pub fn monte_carlo_chart(exact: f64, e: &Extras) -> Option<XyChart> {
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
}

/// w₁ along the Langevin chain (`None` before the trace arrives).
pub fn trace_chart(e: &Extras) -> Option<XyChart> {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::specs::smoke;
    use crate::charts::{draw_heatmap, svg_test::render, Cells};
    use dp_playground::labs::tangent::background::extras;
    use dp_playground::labs::tangent::{report, TangentParams};
    use dp_playground::link::query::{LinkParams, Query};

    #[test]
    fn both_models_pictures_draw() {
        for link in [
            "n=40&samples=200",
            "model=linear2d&n=40&wgrid=-3:3:15&samples=200",
        ] {
            let p = TangentParams::from_query(&Query::parse(link)).0;
            let r = report(&p).unwrap();
            let mut e = Extras::default();
            extras(&p, &r, &mut |x| {
                e.apply(x);
            });
            smoke(&data_chart(&r));
            let count: Vec<(f64, Change)> =
                e.by_count.iter().map(|(c, ch)| (*c as f64, *ch)).collect();
            for (points, tv, log) in [
                (&e.by_beta, true, true),
                (&e.by_beta, false, true),
                (&count, true, false),
            ] {
                smoke(&change_chart(points, tv, "x", log, Some(20.0)));
            }
            smoke(&monte_carlo_chart(r.norms.r_thm31, &e).unwrap());
            smoke(&trace_chart(&e).unwrap());
            for map in [q_map(&r), tangent_map(&e)].into_iter().flatten() {
                let svg = render(|root| draw_heatmap(root, &map, 1.0, Cells::Rectangles).unwrap());
                assert!(svg.len() > 1000);
            }
            if let Some(line) = q_line_chart(&r) {
                smoke(&line);
            }
        }
    }
}
