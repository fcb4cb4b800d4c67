//! The spread of one category's estimate over repeated surveys, beside its theoretical normal law.

use super::legend::{band_above, draw_legend, free_corner, legend_size, Chart, Ink, Legend};
use super::{axis, font, px, tick, DrawResult, Kind, INK, PALETTE};
use dp_playground::labs::rr::EstimateHistogram;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Draws the histogram of estimates, the normal curve N(π, SE²) scaled to surveys per bin, and the true
/// value as a vertical line.
pub fn draw_estimate_histogram<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    hist: &EstimateHistogram,
    truth: f64,
    scale: f64,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let (lo, hi) = match (hist.edges.first(), hist.edges.last()) {
        (Some(&lo), Some(&hi)) if hi > lo => (lo, hi),
        _ => (truth - 1.0, truth + 1.0),
    };
    let top = hist
        .counts
        .iter()
        .map(|&c| c as f64)
        .chain(hist.normal_curve.iter().map(|p| p.1))
        .fold(1.0, f64::max)
        * 1.12;
    let build = |area| {
        ChartBuilder::on(area)
            .margin(px(10.0, scale))
            // Room for half the last x tick's label (a clipped "14000" once).
            .margin_right(px(26.0, scale))
            .x_label_area_size(px(40.0, scale))
            .y_label_area_size(px(50.0, scale))
            .build_cartesian_2d(axis(lo, hi), axis(0.0, top))
    };
    let entries = [
        ("Simulated surveys", Kind::Bars, PALETTE[0]),
        ("Theory: normal, closed-form SE", Kind::Line, PALETTE[1]),
        ("True frequency", Kind::Line, INK),
    ];
    let inks: Vec<Ink> = hist
        .edges
        .windows(2)
        .zip(&hist.counts)
        .map(|(e, &c)| Ink::Rect((e[0], 0.0), (e[1], c as f64)))
        .chain([
            Ink::Path(hist.normal_curve.clone()),
            Ink::Path(vec![(truth, 0.0), (truth, top)]),
        ])
        .collect();
    let size = legend_size(root, &entries, scale)?;
    let corner = free_corner(&build(root)?, &inks, size, Legend::UpperRight, scale);
    let (band, plot) = band_above(root, size, scale);
    let mut chart: Chart<DB> = build(if corner.is_some() { root } else { &plot })?;
    chart
        .configure_mesh()
        .x_labels(6)
        .y_labels(6)
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .x_desc(format!("Estimated frequency of category {}", hist.category))
        .y_desc("Surveys")
        .label_style(font(12.0, scale))
        .axis_desc_style(font(12.0, scale))
        .axis_style(INK)
        .light_line_style(WHITE)
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()?;
    let bar = PALETTE[0].mix(0.55).filled();
    chart.draw_series(
        hist.edges
            .windows(2)
            .zip(&hist.counts)
            .map(|(e, &c)| Rectangle::new([(e[0], 0.0), (e[1], c as f64)], bar)),
    )?;
    let curve = ShapeStyle::from(&PALETTE[1]).stroke_width(px(2.0, scale));
    chart.draw_series(LineSeries::new(hist.normal_curve.iter().copied(), curve))?;
    let line = ShapeStyle::from(&INK).stroke_width(px(1.5, scale));
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(truth, 0.0), (truth, top)],
        line,
    )))?;
    draw_legend(&chart, &band, &entries, corner, scale)?;
    Ok(())
}

/// The chart's data: one row per bin, with the normal law's expected count at the bin's centre.
pub fn histogram_csv(hist: &EstimateHistogram, truth: f64, stderr: f64) -> String {
    let mut out = String::from("bin_low,bin_high,surveys,expected_surveys_normal\n");
    let surveys: u64 = hist.counts.iter().sum();
    for (e, c) in hist.edges.windows(2).zip(&hist.counts) {
        let mid = 0.5 * (e[0] + e[1]);
        let expected = surveys as f64
            * (e[1] - e[0])
            * dp_playground::numerics::stats::normal_pdf(mid, truth, stderr);
        out += &format!("{},{},{c},{expected}\n", e[0], e[1]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::svg_test::render;
    use dp_playground::labs::rr::{run, RrParams};

    #[test]
    fn draws_bins_and_curve() {
        let report = run(&RrParams::default()).unwrap();
        let c = &report.categories[0];
        let svg =
            render(|root| draw_estimate_histogram(root, &report.histogram, c.truth, 2.0).unwrap());
        assert!(svg.matches("<rect").count() > report.histogram.counts.len());
        assert!(svg.contains("<polyline") && svg.contains("Surveys"));
        assert!(crate::charts::legend::check::legend_covers_nothing(&svg));
        let csv = histogram_csv(&report.histogram, c.truth, c.stderr);
        assert_eq!(csv.lines().count(), report.histogram.counts.len() + 1);
    }
}
