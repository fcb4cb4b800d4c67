//! The correlated-noise lab's chart: each strategy's error per step, from the core's report.

use crate::charts::heatmap::HeatMap;
use crate::charts::{Kind, Legend, Series, XyChart, PALETTE};
use dp_playground::labs::mf::{HeatMaps, Kind as Strategy, MfReport};

/// The released prefix sum's error std against the step, one line per strategy, both axes on log
/// scales (independent noise grows like √t, the square root like √ln t).
pub fn error_chart(report: &MfReport) -> XyChart {
    let series = report
        .rows
        .iter()
        .map(|row| {
            // Independent noise, the reference, in grey; the BLT dashed beside the square root it
            // approximates.
            let (colour, kind) = match row.kind {
                Strategy::Independent => (PALETTE[6], Kind::Dashed),
                Strategy::Tree => (PALETTE[1], Kind::Line),
                Strategy::Honaker => (PALETTE[1], Kind::Dashed),
                Strategy::Banded => (PALETTE[2], Kind::Line),
                Strategy::Sqrt => (PALETTE[0], Kind::Line),
                Strategy::Blt => (PALETTE[3], Kind::Dashed),
            };
            let points = row
                .curve
                .iter()
                .map(|&(t, e)| (t.log10(), e.max(1e-12).log10()))
                .collect();
            Series::new(row.name.clone(), colour, kind, points)
        })
        .collect();
    XyChart {
        x_desc: "Step t (log scale)".into(),
        y_desc: "Error std, clipping norms (log)".into(),
        x_log10: true,
        y_log10: true,
        series,
        legend: Legend::UpperLeft,
        ..Default::default()
    }
}

/// A matrix as a heat map, row 0 at the top: `rows` × `cols`, row-major.
fn matrix(values: &[f64], rows: usize, cols: usize, x_desc: &str, y_desc: &str) -> HeatMap {
    HeatMap {
        x_desc: x_desc.into(),
        y_desc: y_desc.into(),
        xs: (0..cols).map(|c| c as f64).collect(),
        // Row r at y = −r, listed bottom up (the map's rows increase along y).
        ys: (0..rows).rev().map(|r| -(r as f64)).collect(),
        values: (0..rows)
            .rev()
            .flat_map(|r| values[r * cols..(r + 1) * cols].iter().copied())
            .collect(),
        diverging: true,
        value_desc: "entry".into(),
        rows_down: true,
    }
}

/// The strategy matrix C (noise is added to C·x).
pub fn strategy_map(h: &HeatMaps) -> HeatMap {
    let rows = if h.c_rows == h.steps {
        "row (step)"
    } else {
        "row (tree node, level by level)"
    };
    matrix(&h.c, h.c_rows, h.steps, "column (step)", rows)
}

/// The decoder B = A·C⁻¹ (the released sums are B(Cx + z)), when drawn.
pub fn decoder_map(h: &HeatMaps) -> Option<HeatMap> {
    let cols = if h.c_rows == h.steps {
        "column (step)"
    } else {
        "column (tree node)"
    };
    h.b.as_ref()
        .map(|b| matrix(b, h.steps, h.c_rows, cols, "row (prefix sum)"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::specs::smoke;
    use dp_playground::labs::mf::{heat_maps, report, MfParams};

    #[test]
    fn the_error_chart_draws() {
        let r = report(&MfParams::default(), None, None).unwrap();
        let chart = error_chart(&r);
        assert_eq!(chart.series.len(), r.rows.len());
        smoke(&chart);
    }

    /// Row 0 of C (the square root's first row: 1 then zeros) is the map's top row.
    #[test]
    fn heat_maps_put_row_zero_on_top() {
        let h = heat_maps(&MfParams::default(), None).unwrap();
        let map = strategy_map(&h);
        let n = h.steps;
        assert_eq!(map.ys.last(), Some(&0.0));
        assert_eq!(map.values[(n - 1) * n], 1.0);
        assert!(map.values[(n - 1) * n + 1..].iter().all(|&v| v == 0.0));
        assert!(decoder_map(&h).is_some());
    }
}
