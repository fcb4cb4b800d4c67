//! One general x–y chart for the mechanisms lab: lines, dashed lines, points, stems (point masses),
//! shaded areas and bars, on linear axes or on log10 axes (the data are then given as log10 values and
//! the ticks read 1e-5, 1e3, …). Each lab chart is a small [`XyChart`] built from core data.

use super::legend::{band_above, draw_legend, free_corner, legend_size, Chart, Ink, Legend};
use super::{axis, font, px, tick, DrawResult, INK};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::ShapeStyle;

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A solid line.
    Line,
    /// A dashed line (references, bounds).
    Dashed,
    /// Markers only (simulated values).
    Points,
    /// A vertical stem from 0 to y with a dot (a point mass).
    Stems,
    /// The area between the curve and 0, translucent.
    Area,
    /// Bars: consecutive point pairs (x0, 0), (x1, h) give one bar each.
    Bars,
}

/// One series.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Its legend entry (and CSV series name).
    pub name: String,
    /// Its colour.
    pub colour: RGBColor,
    /// How it is drawn.
    pub kind: Kind,
    /// Its points, in the axes' units (log10 on a log axis).
    pub points: Vec<(f64, f64)>,
}

impl Series {
    /// A series of `kind`.
    pub fn new(
        name: impl Into<String>,
        colour: RGBColor,
        kind: Kind,
        points: Vec<(f64, f64)>,
    ) -> Self {
        Series {
            name: name.into(),
            colour,
            kind,
            points,
        }
    }
}

/// A chart: axes, series and optional vertical markers.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct XyChart {
    /// x-axis title (with units).
    pub x_desc: String,
    /// y-axis title (with units).
    pub y_desc: String,
    /// x range; `None` fits the data.
    pub x_range: Option<(f64, f64)>,
    /// y range; `None` fits the data (from 0 on linear axes).
    pub y_range: Option<(f64, f64)>,
    /// The x data are log10 values.
    pub x_log10: bool,
    /// The y data are log10 values.
    pub y_log10: bool,
    /// Names for integer x ticks (bar charts of candidates).
    pub x_names: Vec<String>,
    /// Vertical markers (x, label).
    pub markers: Vec<(f64, String)>,
    /// The series, drawn in order.
    pub series: Vec<Series>,
    /// Where the legend would rather sit (it moves off data; default upper right).
    pub legend: Legend,
}

/// The x and y ranges a chart draws.
type Ranges = ((f64, f64), (f64, f64));

impl XyChart {
    /// The legend's entries: named series, those drawn nowhere in the ranges marked "(off scale)".
    fn legend_entries(&self, ((x0, x1), (y0, y1)): Ranges) -> Vec<(String, Kind, RGBColor)> {
        self.series
            .iter()
            .filter(|s| !s.name.is_empty())
            .map(|s| {
                let finite = s
                    .points
                    .iter()
                    .filter(|p| p.0.is_finite() && p.1.is_finite());
                let off = finite.clone().count() > 0
                    && !finite
                        .into_iter()
                        .any(|p| (x0..=x1).contains(&p.0) && (y0..=y1).contains(&p.1));
                let name = if off {
                    format!("{} (off scale)", s.name)
                } else {
                    s.name.clone()
                };
                (name, s.kind, s.colour)
            })
            .collect()
    }

    /// What the chart draws, for the legend to keep clear of (clamped and clipped as drawn).
    fn inks(&self, ((x0, x1), (y0, y1)): Ranges) -> Vec<Ink> {
        let clamp = |p: &(f64, f64)| (p.0.clamp(x0, x1), p.1.clamp(y0, y1));
        let base = y0.max(0.0).min(y1);
        let mut inks = Vec::new();
        for s in &self.series {
            let pts: Vec<(f64, f64)> = s
                .points
                .iter()
                .filter(|p| p.0.is_finite() && p.1.is_finite())
                .copied()
                .collect();
            match s.kind {
                Kind::Line | Kind::Dashed => inks.extend(
                    clip_runs(&pts, y0, y1)
                        .into_iter()
                        .map(|run| Ink::Path(run.iter().map(clamp).collect())),
                ),
                Kind::Points => inks.extend(pts.iter().map(|p| Ink::Dot(clamp(p), 3.5))),
                Kind::Stems => inks.extend(pts.iter().flat_map(|p| {
                    let p = clamp(p);
                    [Ink::Path(vec![(p.0, base), p]), Ink::Dot(p, 4.0)]
                })),
                Kind::Area => {
                    let pts: Vec<(f64, f64)> = pts.iter().map(clamp).collect();
                    inks.extend(
                        pts.windows(2)
                            .map(|w| Ink::Rect((w[0].0, base), (w[1].0, w[0].1.min(w[1].1)))),
                    );
                    inks.push(Ink::Path(pts));
                }
                Kind::Bars => inks.extend(
                    pts.chunks(2)
                        .filter(|c| c.len() == 2)
                        .map(|c| Ink::Rect(clamp(&(c[0].0, y0.max(0.0))), clamp(&c[1]))),
                ),
            }
        }
        for (x, label) in &self.markers {
            if (x0..=x1).contains(x) {
                inks.push(Ink::Path(vec![(*x, y0), (*x, y1)]));
                inks.push(Ink::Label(
                    (*x, y1),
                    label.chars().count() as f64 * 7.0,
                    *x > x0 + 0.75 * (x1 - x0),
                ));
            }
        }
        inks
    }

    fn fitted(&self) -> ((f64, f64), (f64, f64)) {
        let pts = self
            .series
            .iter()
            .flat_map(|s| s.points.iter())
            .filter(|p| p.0.is_finite() && p.1.is_finite());
        let (mut x0, mut x1, mut y0, mut y1) = (
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
        );
        for &(x, y) in pts {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        if !self.y_log10 {
            y0 = y0.min(0.0);
        }
        let pad = |lo: f64, hi: f64, frac: f64| {
            if !(lo.is_finite() && hi.is_finite()) {
                (0.0, 1.0)
            } else if hi > lo {
                (lo, hi + (hi - lo) * frac)
            } else {
                (lo - 0.5, hi + 0.5)
            }
        };
        let (x0, x1) = self.x_range.unwrap_or_else(|| pad(x0, x1, 0.0));
        let (y0, y1) = self.y_range.unwrap_or_else(|| pad(y0, y1, 0.08));
        let (x, y) = (axis(x0, x1), axis(y0, y1));
        ((x.start, x.end), (y.start, y.end))
    }
}

fn log_tick(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!(
            "10{}",
            dp_playground::link::format::superscript(&(v.round() as i64).to_string())
        )
    } else {
        crate::format::sig(10f64.powf(*v), 2)
    }
}

/// Splits a polyline into the runs that lie within y0 ≤ y ≤ y1, adding the points where it crosses the
/// bounds: a curve leaving the chart stops at its edge instead of running along it.
pub fn clip_runs(pts: &[(f64, f64)], y0: f64, y1: f64) -> Vec<Vec<(f64, f64)>> {
    let inside = |p: &(f64, f64)| p.1 >= y0 && p.1 <= y1;
    let cross = |a: (f64, f64), b: (f64, f64), y: f64| {
        let t = (y - a.1) / (b.1 - a.1);
        (a.0 + t * (b.0 - a.0), y)
    };
    let mut runs = Vec::new();
    let mut run: Vec<(f64, f64)> = Vec::new();
    for (i, &p) in pts.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| pts[j]);
        match (prev, inside(&p)) {
            (Some(a), true) if !inside(&a) => {
                let edge = if a.1 > y1 { y1 } else { y0 };
                run.push(cross(a, p, edge));
                run.push(p);
            }
            (_, true) => run.push(p),
            (Some(a), false) if inside(&a) => {
                let edge = if p.1 > y1 { y1 } else { y0 };
                run.push(cross(a, p, edge));
                runs.push(std::mem::take(&mut run));
            }
            (Some(a), false) if (a.1 > y1 && p.1 < y0) || (a.1 < y0 && p.1 > y1) => {
                let (e1, e2) = if a.1 > y1 { (y1, y0) } else { (y0, y1) };
                runs.push(vec![cross(a, p, e1), cross(a, p, e2)]);
            }
            _ => {}
        }
    }
    if !run.is_empty() {
        runs.push(run);
    }
    runs
}

/// Draws the chart.
pub fn draw_xy<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart_spec: &XyChart,
    scale: f64,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let ((x0, x1), (y0, y1)) = chart_spec.fitted();
    let build = |area| {
        ChartBuilder::on(area)
            .margin(px(10.0, scale))
            // Room for half the last x tick's label (a clipped "14000" once).
            .margin_right(px(26.0, scale))
            .x_label_area_size(px(40.0, scale))
            .y_label_area_size(px(58.0, scale))
            .build_cartesian_2d(x0..x1, y0..y1)
    };
    let entries = chart_spec.legend_entries(((x0, x1), (y0, y1)));
    let entries: Vec<(&str, Kind, RGBColor)> = entries
        .iter()
        .map(|(n, k, c)| (n.as_str(), *k, *c))
        .collect();
    let size = legend_size(root, &entries, scale)?;
    let corner = free_corner(
        &build(root)?,
        &chart_spec.inks(((x0, x1), (y0, y1))),
        size,
        chart_spec.legend,
        scale,
    );
    let (band, plot) = band_above(root, size, scale);
    let mut chart: Chart<DB> = build(if corner.is_some() { root } else { &plot })?;
    let names = chart_spec.x_names.clone();
    let x_fmt = move |v: &f64| -> String {
        if !names.is_empty() {
            let i = v.round();
            return if (v - i).abs() < 1e-9 && i >= 0.0 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            };
        }
        tick(v)
    };
    let x_log = chart_spec.x_log10;
    let y_log = chart_spec.y_log10;
    let x_labels = if chart_spec.x_names.is_empty() {
        7
    } else {
        chart_spec.x_names.len() + 1
    };
    chart
        .configure_mesh()
        .x_labels(x_labels)
        .y_labels(6)
        .x_label_formatter(&|v| if x_log { log_tick(v) } else { x_fmt(v) })
        .y_label_formatter(&|v| if y_log { log_tick(v) } else { tick(v) })
        .x_desc(chart_spec.x_desc.as_str())
        .y_desc(chart_spec.y_desc.as_str())
        .label_style(font(12.0, scale))
        .axis_desc_style(font(12.0, scale))
        .axis_style(INK)
        .light_line_style(WHITE)
        .bold_line_style(RGBColor(225, 225, 225))
        .draw()?;
    let clamp = |p: &(f64, f64)| (p.0.clamp(x0, x1), p.1.clamp(y0, y1));
    for s in &chart_spec.series {
        let colour = s.colour;
        let stroke = ShapeStyle::from(&colour).stroke_width(px(2.0, scale));
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .filter(|p| p.0.is_finite() && p.1.is_finite())
            .map(clamp)
            .collect();
        match s.kind {
            Kind::Line | Kind::Dashed => {
                let raw: Vec<(f64, f64)> = s
                    .points
                    .iter()
                    .copied()
                    .filter(|p| p.0.is_finite() && p.1.is_finite())
                    .collect();
                for run in clip_runs(&raw, y0, y1) {
                    let run: Vec<(f64, f64)> = run.iter().map(clamp).collect();
                    if s.kind == Kind::Line {
                        chart.draw_series(LineSeries::new(run, stroke))?;
                    } else {
                        chart.draw_series(DashedLineSeries::new(
                            run,
                            px(6.0, scale),
                            px(4.0, scale),
                            stroke,
                        ))?;
                    }
                }
            }
            Kind::Points => {
                chart.draw_series(
                    pts.into_iter()
                        .map(|p| Circle::new(p, px(3.5, scale), colour.filled())),
                )?;
            }
            Kind::Stems => {
                let base = y0.max(0.0).min(y1);
                chart.draw_series(pts.into_iter().flat_map(|p| {
                    [
                        PathElement::new(vec![(p.0, base), p], stroke).into_dyn(),
                        Circle::new(p, px(4.0, scale), colour.filled()).into_dyn(),
                    ]
                }))?;
            }
            Kind::Area => {
                let base = y0.max(0.0).min(y1);
                chart.draw_series(
                    AreaSeries::new(pts, base, colour.mix(0.35)).border_style(colour.mix(0.6)),
                )?;
            }
            Kind::Bars => {
                let fill = colour.mix(0.7).filled();
                chart.draw_series(pts.chunks(2).filter(|c| c.len() == 2).map(move |c| {
                    Rectangle::new([(c[0].0, y0.max(0.0)), (c[1].0, c[1].1)], fill)
                }))?;
            }
        }
    }
    let marker = ShapeStyle::from(&INK.mix(0.7)).stroke_width(px(1.0, scale));
    for (x, label) in &chart_spec.markers {
        if (x0..=x1).contains(x) {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(*x, y0), (*x, y1)],
                marker,
            )))?;
            // Near the right edge the label reads leftwards from the marker, so it stays inside the chart.
            let side = if *x > x0 + 0.75 * (x1 - x0) {
                plotters::style::text_anchor::HPos::Right
            } else {
                plotters::style::text_anchor::HPos::Left
            };
            chart.draw_series(std::iter::once(Text::new(
                label.clone(),
                (*x, y1),
                font(12.0, scale).pos(plotters::style::text_anchor::Pos::new(
                    side,
                    plotters::style::text_anchor::VPos::Top,
                )),
            )))?;
        }
    }
    draw_legend(&chart, &band, &entries, corner, scale)?;
    Ok(())
}

/// The chart's data in long form: one row per point, with a header naming the series and the two axes
/// (titles and units, quoted). Log axes are written back as plain values.
pub fn xy_csv(chart: &XyChart) -> String {
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let mut out = format!(
        "series,{},{}\n",
        quote(&format!("x: {}", chart.x_desc)),
        quote(&format!("y: {}", chart.y_desc))
    );
    for s in &chart.series {
        for &(x, y) in &s.points {
            let x = if chart.x_log10 { 10f64.powf(x) } else { x };
            let y = if chart.y_log10 { 10f64.powf(y) } else { y };
            out += &format!("{},{x},{y}\n", s.name.replace(',', ";"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::svg_test::render;
    use crate::charts::PALETTE;

    #[test]
    fn lines_leaving_the_box_stop_at_its_edge() {
        let pts = [
            (0.0, 0.0),
            (1.0, 1.0),
            (2.0, 3.0),
            (3.0, 3.0),
            (4.0, 1.0),
            (5.0, -3.0),
        ];
        let runs = clip_runs(&pts, 0.0, 2.0);
        assert_eq!(
            runs,
            vec![
                vec![(0.0, 0.0), (1.0, 1.0), (1.5, 2.0)],
                vec![(3.5, 2.0), (4.0, 1.0), (4.25, 0.0)]
            ]
        );
        // A segment jumping across the whole box keeps its crossing part.
        assert_eq!(
            clip_runs(&[(0.0, 5.0), (1.0, -5.0)], 0.0, 2.0),
            vec![vec![(0.3, 2.0), (0.5, 0.0)]]
        );
    }

    #[test]
    fn draws_every_kind_and_writes_csv() {
        let line: Vec<(f64, f64)> = (0..50)
            .map(|i| (i as f64 / 10.0, (i as f64 / 10.0).sin()))
            .collect();
        let chart = XyChart {
            x_desc: "x".into(),
            y_desc: "y".into(),
            markers: vec![(2.0, "mark".into())],
            series: vec![
                Series::new("line", PALETTE[0], Kind::Line, line.clone()),
                Series::new("dashed", PALETTE[1], Kind::Dashed, line.clone()),
                Series::new("points", PALETTE[2], Kind::Points, line.clone()),
                Series::new(
                    "stems",
                    PALETTE[3],
                    Kind::Stems,
                    vec![(1.0, 0.5), (f64::INFINITY, 0.2)],
                ),
                Series::new("area", PALETTE[4], Kind::Area, line[..10].to_vec()),
                Series::new("bars", PALETTE[5], Kind::Bars, vec![(0.0, 0.0), (0.5, 0.7)]),
            ],
            ..Default::default()
        };
        let svg = render(|root| draw_xy(root, &chart, 1.0).unwrap());
        assert!(svg.contains("<polyline") && svg.contains("<circle") && svg.contains("mark"));
        let csv = xy_csv(&chart);
        assert_eq!(csv.lines().next(), Some("series,\"x: x\",\"y: y\""));
        let log = XyChart {
            y_log10: true,
            series: vec![Series::new(
                "d",
                PALETTE[0],
                Kind::Line,
                vec![(0.0, -5.0), (1.0, -1.0)],
            )],
            ..Default::default()
        };
        let svg = render(|root| draw_xy(root, &log, 1.0).unwrap());
        assert!(svg.contains("10⁻"), "log ticks read 10⁻ⁿ");
    }
}
