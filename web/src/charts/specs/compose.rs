//! The composition lab's charts: ε against δ for every accountant, and the RDP conversion's curve.

use crate::charts::{Kind, Legend, Series, XyChart, PALETTE};
use crate::format::sig;
use dp_playground::accounting::entry::Item;
use dp_playground::accounting::pld::EpsilonBand;
use dp_playground::labs::compose::{accountants_grid, Accountants, ComposedPld};

/// δ values of the ε-against-δ chart: 10⁻¹⁰ to 10⁻¹, three per decade.
pub fn delta_grid() -> Vec<f64> {
    (0..=27)
        .map(|i| 10f64.powf(-10.0 + i as f64 / 3.0))
        .collect()
}

/// ε of the whole list against δ: the closed forms, RDP on dp_accounting's orders (28 δ must redraw
/// within a frame) and zCDP, and the PLD's two sides once the worker has composed it.
pub fn eps_delta_chart(list: &[Item], pld: Option<&ComposedPld>, link_delta: f64) -> XyChart {
    let grid = delta_grid();
    let per: Vec<Accountants> = grid.iter().map(|&d| accountants_grid(list, d)).collect();
    let line = |f: &dyn Fn(&Accountants) -> Option<f64>| -> Vec<(f64, f64)> {
        grid.iter()
            .zip(&per)
            .filter_map(|(d, a)| f(a).filter(|e| e.is_finite()).map(|e| (d.log10(), e)))
            .collect()
    };
    let mut series = vec![
        Series::new("basic", PALETTE[6], Kind::Dashed, line(&|a| Some(a.basic))),
        Series::new("advanced", PALETTE[4], Kind::Line, line(&|a| a.advanced)),
        Series::new(
            "RDP (dp_accounting's orders)",
            PALETTE[1],
            Kind::Line,
            line(&|a| a.rdp.map(|x| x.0)),
        ),
        Series::new("zCDP", PALETTE[3], Kind::Line, line(&|a| a.zcdp)),
    ];
    if let Some(c) = pld {
        // One walk down each PLD for all 28 δ (112 walks took 39 ms on the page).
        let bands = c.bands(&grid);
        let side = |f: fn(&EpsilonBand) -> f64| -> Vec<(f64, f64)> {
            grid.iter()
                .zip(&bands)
                .map(|(d, b)| (d.log10(), f(b)))
                .filter(|p| p.1.is_finite())
                .collect()
        };
        series.push(Series::new(
            "PLD, certified upper",
            PALETTE[0],
            Kind::Line,
            side(|b| b.upper),
        ));
        series.push(Series::new(
            "PLD, lower bound",
            PALETTE[0],
            Kind::Dashed,
            side(|b| b.lower),
        ));
    }
    let top = per.last().map_or(1.0, |a| a.basic).max(1e-6);
    let lowest = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(f64::INFINITY, f64::min);
    XyChart {
        x_desc: "δ (log scale)".into(),
        y_desc: "ε of the whole list".into(),
        x_log10: true,
        y_range: Some((0.0, (lowest.max(0.0) * 6.0).min(top * 1.05).max(1e-6))),
        legend: Legend::UpperRight,
        markers: vec![(link_delta.log10(), "δ of the link".into())],
        series,
        ..Default::default()
    }
}

/// ε at δ from each RDP order alone, with the best order marked (`None` without RDP).
pub fn order_chart(a: &Accountants, delta: f64) -> Option<XyChart> {
    let (eps, order) = a.rdp?;
    Some(XyChart {
        x_desc: "Order α (log scale)".into(),
        y_desc: format!("{} from order α alone", crate::charts::eps_at(delta)),
        x_log10: true,
        y_range: Some((0.0, 4.0 * eps.max(1e-6))),
        legend: Legend::LowerRight,
        markers: vec![(order.log10(), format!("best order {}", sig(order, 3)))],
        series: vec![Series::new(
            "RDP conversion at each order",
            PALETTE[1],
            Kind::Line,
            a.rdp_by_order
                .iter()
                .map(|&(o, e)| (o.log10(), e))
                .collect(),
        )],
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::specs::smoke;
    use dp_playground::accounting::entry::parse_list;
    use dp_playground::labs::compose::accountants;

    #[test]
    fn the_default_lists_charts_draw_with_and_without_the_pld() {
        let list = parse_list("gauss:3*10,lap:0.2*5").unwrap();
        let pld = ComposedPld::with_grid(&list, None).unwrap();
        smoke(&eps_delta_chart(&list, None, 1e-5));
        smoke(&eps_delta_chart(&list, Some(&pld), 1e-5));
        smoke(&order_chart(&accountants(&list, 1e-5), 1e-5).unwrap());
    }
}
