//! The randomized-response lab's shuffle-model chart, from the bounds the core computed.

use crate::charts::{Kind, Legend, Series, XyChart, PALETTE};
use dp_playground::labs::rr::shuffle::ShufflePoint;

/// The central ε against the number of respondents, both on log axes: each upper bound, the lower
/// bound (K = 2) and ε0, what each report has without a shuffler.
pub fn shuffle_chart(points: &[ShufflePoint], eps0: f64) -> XyChart {
    let log = |v: f64| v.max(1e-6).log10();
    let line = |f: fn(&ShufflePoint) -> Option<f64>| -> Vec<(f64, f64)> {
        points
            .iter()
            .filter_map(|p| f(p).map(|e| ((p.n as f64).log10(), log(e))))
            .collect()
    };
    let (first, last) = points
        .first()
        .zip(points.last())
        .map_or((1.0, 6.0), |(a, b)| {
            ((a.n as f64).log10(), (b.n as f64).log10())
        });
    let mut series = vec![
        Series::new(
            "no shuffler: ε0",
            PALETTE[6],
            Kind::Dashed,
            vec![(first, log(eps0)), (last, log(eps0))],
        ),
        Series::new(
            "closed form (upper)",
            PALETTE[3],
            Kind::Dashed,
            line(|p| Some(p.eps_closed)),
        ),
        Series::new(
            "clones, 2021 (upper)",
            PALETTE[1],
            Kind::Line,
            line(|p| Some(p.eps_fmt2021)),
        ),
        Series::new(
            "K-RR pair (upper)",
            PALETTE[0],
            Kind::Line,
            line(|p| Some(p.eps_krr)),
        ),
    ];
    let lower = line(|p| p.eps_lower);
    if !lower.is_empty() {
        series.push(Series::new(
            "one pair (lower)",
            PALETTE[2],
            Kind::Dashed,
            lower,
        ));
    }
    XyChart {
        x_desc: "Respondents n (log scale)".into(),
        y_desc: "Central ε at δ (log scale)".into(),
        x_log10: true,
        y_log10: true,
        series,
        legend: Legend::LowerLeft,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::specs::smoke;
    use dp_playground::labs::rr::shuffle::shuffle_point;
    use dp_playground::labs::rr::RrParams;

    #[test]
    fn the_shuffle_chart_draws() {
        let p = RrParams::default();
        let points: Vec<ShufflePoint> = [10, 100, 1000, 10_000]
            .into_iter()
            .map(|n| shuffle_point(&p, n).unwrap())
            .collect();
        smoke(&shuffle_chart(&points, p.eps));
    }
}
