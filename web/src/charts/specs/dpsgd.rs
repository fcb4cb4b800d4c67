//! The DP-SGD lab's charts, from the RDP report and the PLD points the worker sent.

use crate::charts::{Kind, Legend, Series, XyChart, PALETTE};
use dp_playground::accounting::training::RdpReport;

/// ε against the step: the RDP accountant's curve and the PLD accountant's points.
pub fn steps_chart(rdp: &RdpReport, pld_points: &[(f64, f64)], delta: f64) -> XyChart {
    XyChart {
        x_desc: "Steps".into(),
        y_desc: crate::charts::eps_at(delta),
        legend: Legend::LowerRight,
        series: vec![
            Series::new(
                "RDP accountant",
                PALETTE[1],
                Kind::Line,
                rdp.by_steps.clone(),
            ),
            Series::new(
                "PLD accountant",
                PALETTE[0],
                Kind::Points,
                pld_points.to_vec(),
            ),
        ],
        ..Default::default()
    }
}

/// ε at δ from each RDP order alone, with the best order marked.
pub fn order_chart(rdp: &RdpReport) -> XyChart {
    let top = 4.0 * rdp.eps.max(1e-6);
    XyChart {
        x_desc: "Order α (log scale)".into(),
        y_desc: "ε at the link's δ from order α alone".into(),
        x_log10: true,
        y_range: Some((0.0, top)),
        markers: vec![(
            rdp.best_order.log10(),
            format!("best order {}", crate::format::sig(rdp.best_order, 4)),
        )],
        legend: Legend::LowerRight,
        series: vec![Series::new(
            "ε(α) = T·ε_step(α) + ln(1 − 1/α) − ln(δα)/(α − 1)",
            PALETTE[0],
            Kind::Line,
            rdp.curve.iter().map(|&(a, e)| (a.log10(), e)).collect(),
        )],
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::specs::smoke;
    use dp_playground::accounting::training::rdp_report;
    use dp_playground::labs::dpsgd::DpsgdParams;
    use dp_playground::link::query::{LinkParams, Query};

    #[test]
    fn the_default_links_charts_draw() {
        let p = DpsgdParams::from_query(&Query::default()).0;
        let rdp = rdp_report(&p.event(), p.delta).unwrap();
        smoke(&steps_chart(&rdp, &[(100.0, 0.5), (1000.0, 1.0)], 1e-5));
        smoke(&order_chart(&rdp));
    }
}
