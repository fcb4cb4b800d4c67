//! True, reported and estimated frequency per category, the estimate with its 95% interval.

use super::legend::{band_above, draw_legend, free_corner, legend_size, Chart, Ink, Legend};
use super::{axis, font, px, tick, DrawResult, Kind, INK, PALETTE};
use dp_playground::labs::rr::CategoryResult;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Draws grouped bars (true, reported, estimated) per category with the estimate's interval as a whisker.
pub fn draw_frequencies<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    cats: &[CategoryResult],
    scale: f64,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let k = cats.len();
    let lo = cats
        .iter()
        .map(|c| c.ci.0.min(c.estimate))
        .fold(0.0, f64::min);
    let hi = cats
        .iter()
        .map(|c| c.ci.1.max(c.reported).max(c.truth))
        .fold(0.0, f64::max)
        .max(0.05);
    let pad = 0.08 * (hi - lo);
    let width = 0.8 / 3.0;
    type Column = (&'static str, RGBColor, fn(&CategoryResult) -> f64);
    let series: [Column; 3] = [
        ("True", PALETTE[6], |c| c.truth),
        ("Reported", PALETTE[4], |c| c.reported),
        ("Estimated", PALETTE[0], |c| c.estimate),
    ];
    let y_range = axis(lo - if lo < 0.0 { pad } else { 0.0 }, hi + pad);
    let build = |area| {
        ChartBuilder::on(area)
            .margin(px(10.0, scale))
            // Room for half the last x tick's label (a clipped "14000" once).
            .margin_right(px(26.0, scale))
            .x_label_area_size(px(40.0, scale))
            .y_label_area_size(px(56.0, scale))
            .build_cartesian_2d(-0.5..k as f64 - 0.5, y_range.clone())
    };
    let mut entries: Vec<(&str, Kind, RGBColor)> = series
        .iter()
        .map(|(name, color, _)| (*name, Kind::Bars, *color))
        .collect();
    entries.push(("95% interval", Kind::Line, INK));
    let mut inks: Vec<Ink> = Vec::new();
    for (s, (_, _, value)) in series.iter().enumerate() {
        inks.extend(cats.iter().enumerate().map(|(j, c)| {
            let left = j as f64 - 0.4 + s as f64 * width;
            Ink::Rect((left, 0.0), (left + width, value(c)))
        }));
    }
    inks.extend(cats.iter().enumerate().map(|(j, c)| {
        let x = j as f64 - 0.4 + 2.5 * width;
        Ink::Path(vec![(x, c.ci.0), (x, c.ci.1)])
    }));
    let size = legend_size(root, &entries, scale)?;
    let corner = free_corner(&build(root)?, &inks, size, Legend::UpperRight, scale);
    let (band, plot) = band_above(root, size, scale);
    let mut chart: Chart<DB> = build(if corner.is_some() { root } else { &plot })?;
    let every = k.div_ceil(12).max(1);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(k.min(12) + 1)
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize).is_multiple_of(every) {
                format!("{}", i as usize)
            } else {
                String::new()
            }
        })
        .y_label_formatter(&tick)
        .x_desc("Category")
        .y_desc("Frequency")
        .label_style(font(12.0, scale))
        .axis_desc_style(font(12.0, scale))
        .axis_style(INK)
        .light_line_style(WHITE)
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()?;

    for (s, (_, color, value)) in series.iter().enumerate() {
        let left = |j: usize| j as f64 - 0.4 + s as f64 * width;
        chart.draw_series(cats.iter().enumerate().map(|(j, c)| {
            Rectangle::new(
                [(left(j), 0.0), (left(j) + width, value(c))],
                color.filled(),
            )
        }))?;
    }
    let stroke = ShapeStyle::from(&INK).stroke_width(px(1.5, scale));
    chart.draw_series(cats.iter().enumerate().flat_map(|(j, c)| {
        let x = j as f64 - 0.4 + 2.5 * width;
        let cap = width * 0.3;
        [
            PathElement::new(vec![(x, c.ci.0), (x, c.ci.1)], stroke),
            PathElement::new(vec![(x - cap, c.ci.0), (x + cap, c.ci.0)], stroke),
            PathElement::new(vec![(x - cap, c.ci.1), (x + cap, c.ci.1)], stroke),
        ]
    }))?;
    draw_legend(&chart, &band, &entries, corner, scale)?;
    Ok(())
}

/// The chart's data: one row per category.
pub fn frequencies_csv(cats: &[CategoryResult]) -> String {
    let mut out = String::from(
        "category,true_frequency,reported_frequency,estimated_frequency,standard_error,ci95_low,ci95_high,empirical_mean,empirical_sd\n",
    );
    for (j, c) in cats.iter().enumerate() {
        out += &format!(
            "{j},{},{},{},{},{},{},{},{}\n",
            c.truth,
            c.reported,
            c.estimate,
            c.stderr,
            c.ci.0,
            c.ci.1,
            c.empirical_mean,
            c.empirical_sd
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::svg_test::render;
    use dp_playground::labs::rr::{run, RrParams};

    #[test]
    fn draws_bars_for_every_category() {
        for k in [2, 7, 50] {
            let params = RrParams {
                k,
                truth: dp_playground::labs::rr::default_truth(k),
                ..RrParams::default()
            };
            let report = run(&params).unwrap();
            let svg = render(|root| draw_frequencies(root, &report.categories, 1.0).unwrap());
            assert!(svg.matches("<rect").count() >= 3 * k, "k = {k}");
            assert!(svg.contains("Frequency") && svg.contains("Estimated"));
            assert!(
                crate::charts::legend::check::legend_covers_nothing(&svg),
                "k = {k}"
            );
            let csv = frequencies_csv(&report.categories);
            assert_eq!(csv.lines().count(), k + 1);
            assert!(csv.starts_with("category,true_frequency,"));
        }
    }
}
