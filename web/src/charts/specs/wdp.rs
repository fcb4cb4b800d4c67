//! The Wasserstein DP lab's charts: Figure 1's panels, Figure 2's accountants, Figure 3's curves.

use crate::charts::{Kind, Legend, Series, XyChart, PALETTE};
use crate::format::sig;
use dp_playground::labs::wdp::{fig1_curves, fig3_by_beta, fig3_by_delta, Panel, WdpParams};
use dp_playground::link::query::fmt_f64;
use dp_playground::wdp::accountants::PairRule;
use dp_playground::wdp::synthetic::Curves;

/// One panel of Figure 1: the budget against the order, a curve per scale, the link's order marked.
pub fn fig1_chart(p: &WdpParams, panel: Panel) -> XyChart {
    let series = fig1_curves(p, panel)
        .into_iter()
        .enumerate()
        .map(|(i, (scale, pts))| {
            let name = format!("{} = {}", panel.scale_symbol(), fmt_f64(scale));
            Series::new(name, PALETTE[i % PALETTE.len()], Kind::Line, pts)
        })
        .collect();
    let mut markers = Vec::new();
    if (p.order_min..=p.order_max).contains(&p.order) {
        markers.push((
            p.order,
            format!("{} = {}", panel.order_symbol(), fmt_f64(p.order)),
        ));
    }
    XyChart {
        x_desc: format!("order {}", panel.order_symbol()),
        y_desc: "ε".into(),
        x_range: Some((p.order_min, p.order_max)),
        y_range: Some((0.0, p.y_max)),
        legend: Legend::UpperRight,
        markers,
        series,
        ..Default::default()
    }
}

/// log10 of (step index, ε) for a log-scale chart.
fn log_points(v: &[f64]) -> Vec<(f64, f64)> {
    v.iter()
        .enumerate()
        .map(|(s, e)| (s as f64, e.log10()))
        .collect()
}

/// One panel of Figure 2: the three accountants' ε against the step.
pub fn fig2_chart(c: &Curves, rule: PairRule) -> XyChart {
    let lowest = c
        .wdp(rule)
        .first()
        .copied()
        .unwrap_or(1.0)
        .min(c.dp.first().copied().unwrap_or(1.0));
    XyChart {
        x_desc: "Step".into(),
        y_desc: "ε (log scale)".into(),
        x_range: Some((0.0, 99.0)),
        y_range: Some((lowest.max(1e-3).log10().floor(), 6.0)),
        y_log10: true,
        legend: Legend::UpperLeft,
        series: vec![
            Series::new(
                "DP (moments accountant)",
                PALETTE[1],
                Kind::Dashed,
                log_points(&c.dp),
            ),
            Series::new(
                "BDP (Bayesian accountant)",
                PALETTE[3],
                Kind::Dashed,
                log_points(&c.bdp),
            ),
            Series::new(
                "WDP (Wasserstein accountant)",
                PALETTE[0],
                Kind::Line,
                log_points(c.wdp(rule)),
            ),
        ],
        ..Default::default()
    }
}

/// Figure 3, left: ε = W − (ln δ)/β against β, a curve per δ, the link's β marked.
pub fn fig3_beta_chart(w: f64, beta: f64) -> XyChart {
    let series = fig3_by_beta(w)
        .into_iter()
        .enumerate()
        .map(|(i, (delta, pts))| {
            Series::new(
                format!("δ = {}", sig(delta, 1)),
                PALETTE[i],
                Kind::Line,
                pts,
            )
        })
        .collect();
    XyChart {
        x_desc: "β".into(),
        y_desc: "ε".into(),
        x_range: Some((1.0, 50.0)),
        y_range: Some((0.0, (w + 25.0).max(35.0))),
        legend: Legend::UpperRight,
        markers: vec![(beta, format!("β = {}", fmt_f64(beta)))],
        series,
        ..Default::default()
    }
}

/// Figure 3, right: ε against δ, a curve per β, the link's δ marked.
pub fn fig3_delta_chart(w: f64, delta: f64) -> XyChart {
    let series = fig3_by_delta(w)
        .into_iter()
        .enumerate()
        .map(|(i, (beta, pts))| {
            let pts = pts.into_iter().map(|(d, e)| (d.log10(), e)).collect();
            Series::new(
                format!("β = {}", fmt_f64(beta)),
                PALETTE[i],
                Kind::Line,
                pts,
            )
        })
        .collect();
    XyChart {
        x_desc: "δ (log scale)".into(),
        y_desc: "ε".into(),
        x_log10: true,
        x_range: Some((-10.0, -5.0)),
        y_range: Some((0.0, (w + 35.0).max(45.0))),
        legend: Legend::UpperRight,
        markers: vec![(delta.log10(), format!("δ = {}", sig(delta, 3)))],
        series,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::specs::smoke;
    use dp_playground::labs::wdp::jobs::wdp_fig2;
    use dp_playground::link::query::{LinkParams, Query};

    #[test]
    fn every_figure_draws() {
        let p = WdpParams::from_query(&Query::default()).0;
        for panel in Panel::ALL {
            smoke(&fig1_chart(&p, panel));
        }
        let mut last = Vec::new();
        wdp_fig2(1, 100, &mut |_, _, curves| last = curves);
        for rule in [PairRule::Sum, PairRule::Inf] {
            smoke(&fig2_chart(&last[0][0], rule));
        }
        smoke(&fig3_beta_chart(p.w, p.beta));
        smoke(&fig3_delta_chart(p.w, p.delta));
    }
}
