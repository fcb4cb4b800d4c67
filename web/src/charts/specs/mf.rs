//! The correlated-noise lab's chart: each strategy's error per step, from the core's report.

use crate::charts::{Kind, Legend, Series, XyChart, PALETTE};
use dp_playground::labs::mf::MfReport;

/// The released prefix sum's error std against the step, one line per strategy, both axes on log
/// scales (independent noise grows like √t, the square root like √ln t).
pub fn error_chart(report: &MfReport) -> XyChart {
    let series = report
        .rows
        .iter()
        .map(|row| {
            // Independent noise, the reference, in grey; the BLT dashed beside the square root it
            // approximates.
            let (colour, kind) = match row.key {
                "independent" => (PALETTE[6], Kind::Dashed),
                "tree" => (PALETTE[1], Kind::Line),
                "banded" => (PALETTE[2], Kind::Line),
                "sqrt" => (PALETTE[0], Kind::Line),
                _ => (PALETTE[3], Kind::Dashed),
            };
            let points = row
                .curve
                .iter()
                .map(|&(t, e)| (t.log10(), e.max(1e-12).log10()))
                .collect();
            Series::new(row.name, colour, kind, points)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::specs::smoke;
    use dp_playground::labs::mf::{report, MfParams};

    #[test]
    fn the_error_chart_draws() {
        let r = report(&MfParams::default()).unwrap();
        let chart = error_chart(&r);
        assert_eq!(chart.series.len(), r.rows.len());
        smoke(&chart);
    }
}
