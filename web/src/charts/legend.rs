//! Legends that never cover data: each chart lists what it inks ([`Ink`]), the legend goes in the first
//! corner of the plot (the chart's preference first) whose box touches none of it, and when every corner
//! is taken, into a band above the plot. Written out instead of plotters' series labels, which measure
//! text through the page's layout (slow in a browser; see `fast_canvas.rs`) and sit where they are told.

use super::{font, px, DrawResult, Kind};
use plotters::coord::cartesian::Cartesian2d;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The charts' coordinate system (every chart here has f64 axes).
pub(crate) type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// One legend entry: its name, how its series is drawn, its colour.
pub(crate) type Entry<'a> = (&'a str, Kind, RGBColor);

/// Where a chart's legend would rather sit; it moves when that corner covers data.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Legend {
    /// Upper right corner.
    #[default]
    UpperRight,
    /// Upper left corner.
    UpperLeft,
    /// Lower right corner.
    LowerRight,
    /// Lower left corner.
    LowerLeft,
}

/// What a chart draws, in its data coordinates, for the legend to keep clear of.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ink {
    /// A polyline (lines, curves, stems, whiskers).
    Path(Vec<(f64, f64)>),
    /// A filled rectangle between two corners (bars, areas' columns).
    Rect((f64, f64), (f64, f64)),
    /// A marker of the given radius in CSS pixels.
    Dot((f64, f64), f64),
    /// A label hanging from a point: its width in CSS pixels, and whether it reads leftwards.
    Label((f64, f64), f64, bool),
}

/// A box in pixels: left, top, right, bottom.
type Px = (i32, i32, i32, i32);

/// The legend's size in pixels (0 × 0 without entries).
pub(crate) fn legend_size<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[Entry],
    scale: f64,
) -> Result<(i32, i32), DrawingAreaErrorKind<DB::ErrorType>> {
    if entries.is_empty() {
        return Ok((0, 0));
    }
    let (pad, row, swatch) = metrics(scale);
    let style = font(12.0, scale);
    let mut text = 0;
    for (name, _, _) in entries {
        text = text.max(area.estimate_text_size(name, &style)?.0 as i32);
    }
    Ok((
        pad * 3 + swatch + text,
        pad * 2 + row * entries.len() as i32,
    ))
}

fn metrics(scale: f64) -> (i32, i32, i32) {
    (
        px(6.0, scale) as i32,
        px(17.0, scale) as i32,
        px(16.0, scale) as i32,
    )
}

/// The gap between the legend and the plot's edge.
pub(crate) fn margin(scale: f64) -> i32 {
    px(8.0, scale) as i32
}

/// The corner, the preferred one first, whose legend box of `size` touches none of `inks`; `None` when
/// every corner does (the legend then goes above the plot).
pub(crate) fn free_corner<DB: DrawingBackend>(
    chart: &Chart<DB>,
    inks: &[Ink],
    size: (i32, i32),
    preferred: Legend,
    scale: f64,
) -> Option<Legend> {
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    let m = margin(scale);
    let corners = [
        Legend::UpperRight,
        Legend::UpperLeft,
        Legend::LowerRight,
        Legend::LowerLeft,
    ];
    std::iter::once(preferred)
        .chain(corners.into_iter().filter(|c| *c != preferred))
        .find(|&c| {
            let (x0, y0) = corner_origin(c, (xs.end - xs.start, ys.end - ys.start), size, m);
            let b = (
                xs.start + x0,
                ys.start + y0,
                xs.start + x0 + size.0,
                ys.start + y0 + size.1,
            );
            !inks.iter().any(|ink| touches(chart, ink, b, scale))
        })
}

/// The legend box's top-left corner inside an area of `dims` pixels.
fn corner_origin(corner: Legend, dims: (i32, i32), size: (i32, i32), m: i32) -> (i32, i32) {
    let x = match corner {
        Legend::UpperLeft | Legend::LowerLeft => m,
        _ => dims.0 - size.0 - m,
    };
    let y = match corner {
        Legend::UpperLeft | Legend::UpperRight => m,
        _ => dims.1 - size.1 - m,
    };
    (x, y)
}

/// Whether `ink` reaches into the pixel box `b` (non-finite points are not drawn, so not counted).
fn touches<DB: DrawingBackend>(chart: &Chart<DB>, ink: &Ink, b: Px, scale: f64) -> bool {
    let at = |p: &(f64, f64)| {
        (p.0.is_finite() && p.1.is_finite()).then(|| {
            let (x, y) = chart.backend_coord(p);
            (x as f64, y as f64)
        })
    };
    let grown = |r: f64| {
        (
            b.0 as f64 - r,
            b.1 as f64 - r,
            b.2 as f64 + r,
            b.3 as f64 + r,
        )
    };
    match ink {
        Ink::Dot(p, r) => at(p).is_some_and(|q| inside(q, grown(r * scale))),
        Ink::Label(p, width, leftwards) => at(p).is_some_and(|q| {
            let w = width * scale;
            let (l, r) = if *leftwards {
                (q.0 - w, q.0)
            } else {
                (q.0, q.0 + w)
            };
            l <= b.2 as f64
                && r >= b.0 as f64
                && q.1 <= b.3 as f64
                && q.1 + 16.0 * scale >= b.1 as f64
        }),
        Ink::Rect(a, c) => match (at(a), at(c)) {
            (Some(a), Some(c)) => {
                let (l, r) = (a.0.min(c.0), a.0.max(c.0));
                let (t, u) = (a.1.min(c.1), a.1.max(c.1));
                l <= b.2 as f64 && r >= b.0 as f64 && t <= b.3 as f64 && u >= b.1 as f64
            }
            _ => false,
        },
        Ink::Path(pts) => {
            let g = grown(2.0 * scale);
            let pts: Vec<Option<(f64, f64)>> = pts.iter().map(at).collect();
            pts.iter().flatten().any(|&q| inside(q, g))
                || pts.windows(2).any(|w| match (w[0], w[1]) {
                    (Some(a), Some(c)) => crosses(a, c, g),
                    _ => false,
                })
        }
    }
}

fn inside(q: (f64, f64), b: (f64, f64, f64, f64)) -> bool {
    q.0 >= b.0 && q.0 <= b.2 && q.1 >= b.1 && q.1 <= b.3
}

/// Whether the segment a–c crosses the box (Liang–Barsky clipping).
fn crosses(a: (f64, f64), c: (f64, f64), b: (f64, f64, f64, f64)) -> bool {
    let (dx, dy) = (c.0 - a.0, c.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - b.0),
        (dx, b.2 - a.0),
        (-dy, a.1 - b.1),
        (dy, b.3 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// Splits `root` for a legend above the plot when `corner` is `None`: the band (drawn into) and the
/// rest (for the chart). With a corner, the band is empty.
pub(crate) fn band_above<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    size: (i32, i32),
    scale: f64,
) -> (DrawingArea<DB, Shift>, DrawingArea<DB, Shift>) {
    root.split_vertically(size.1 + 2 * margin(scale))
}

/// Draws the legend where [`free_corner`] placed it: in that corner of the chart's plot, or (`None`)
/// at the right of `band`, the band [`band_above`] cut above the plot.
pub(crate) fn draw_legend<DB: DrawingBackend>(
    chart: &Chart<DB>,
    band: &DrawingArea<DB, Shift>,
    entries: &[Entry],
    corner: Option<Legend>,
    scale: f64,
) -> DrawResult<DB> {
    match corner {
        Some(_) => draw_box(
            &chart.plotting_area().strip_coord_spec(),
            entries,
            corner,
            scale,
        ),
        None => draw_box(band, entries, None, scale),
    }
}

/// Draws the legend box at `corner` of `area` (`None`: at its upper right).
fn draw_box<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[Entry],
    corner: Option<Legend>,
    scale: f64,
) -> DrawResult<DB> {
    if entries.is_empty() {
        return Ok(());
    }
    let (w, h) = legend_size(area, entries, scale)?;
    let (pad, row, swatch) = metrics(scale);
    let (aw, ah) = area.dim_in_pixel();
    let (x0, y0) = corner_origin(
        corner.unwrap_or(Legend::UpperRight),
        (aw as i32, ah as i32),
        (w, h),
        margin(scale),
    );
    area.draw(&Rectangle::new(
        [(x0, y0), (x0 + w, y0 + h)],
        WHITE.mix(0.88).filled(),
    ))?;
    area.draw(&Rectangle::new(
        [(x0, y0), (x0 + w, y0 + h)],
        RGBColor(200, 200, 200),
    ))?;
    let stroke = |c: RGBColor| ShapeStyle::from(&c).stroke_width(px(2.0, scale));
    for (i, &(name, kind, colour)) in entries.iter().enumerate() {
        let y = y0 + pad + row * i as i32 + row / 2;
        let x = x0 + pad;
        match kind {
            Kind::Area | Kind::Bars => area.draw(&Rectangle::new(
                [(x, y - row / 4), (x + swatch, y + row / 4)],
                colour.mix(0.6).filled(),
            ))?,
            Kind::Points | Kind::Stems => area.draw(&Circle::new(
                (x + swatch / 2, y),
                px(4.0, scale),
                colour.filled(),
            ))?,
            Kind::Dashed => {
                area.draw(&PathElement::new(
                    vec![(x, y), (x + swatch / 3, y)],
                    stroke(colour),
                ))?;
                area.draw(&PathElement::new(
                    vec![(x + 2 * swatch / 3, y), (x + swatch, y)],
                    stroke(colour),
                ))?
            }
            Kind::Line => area.draw(&PathElement::new(
                vec![(x, y), (x + swatch, y)],
                stroke(colour),
            ))?,
        }
        let anchor = plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Left,
            plotters::style::text_anchor::VPos::Center,
        );
        area.draw(&Text::new(
            name.to_string(),
            (x + swatch + pad, y),
            font(12.0, scale).pos(anchor),
        ))?;
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod check {
    //! Reads an SVG the charts drew and checks that the legend box covers nothing drawn before it
    //! (grid lines and the white background aside).

    /// The numbers of attribute `name` in an SVG element's text.
    fn attr(el: &str, name: &str) -> Option<String> {
        let key = format!(" {name}=\"");
        let start = el.find(&key)? + key.len();
        let len = el[start..].find('"')?;
        Some(el[start..start + len].to_string())
    }

    fn num(el: &str, name: &str) -> f64 {
        attr(el, name)
            .and_then(|v| v.parse().ok())
            .unwrap_or(f64::NAN)
    }

    /// Asserts that no element drawn before the legend box lies inside it. Returns whether a legend
    /// was found.
    pub fn legend_covers_nothing(svg: &str) -> bool {
        let elements: Vec<&str> = svg.split('<').skip(1).collect();
        let Some(at) = elements
            .iter()
            .position(|e| e.starts_with("rect") && e.contains("opacity=\"0.88\""))
        else {
            return false;
        };
        let lb = elements[at];
        let b = (
            num(lb, "x"),
            num(lb, "y"),
            num(lb, "x") + num(lb, "width"),
            num(lb, "y") + num(lb, "height"),
        );
        let inside = |x: f64, y: f64| x > b.0 && x < b.2 && y > b.1 && y < b.3;
        let grid = |e: &str| {
            ["#E1E1E1", "#D7D7D7", "#FFFFFF"].iter().any(|c| {
                attr(e, "stroke").as_deref() == Some(c) || attr(e, "fill").as_deref() == Some(c)
            })
        };
        for e in &elements[..at] {
            if grid(e) || e.starts_with("text") || e.starts_with('/') {
                continue;
            }
            if e.starts_with("circle") {
                assert!(
                    !inside(num(e, "cx"), num(e, "cy")),
                    "legend over a point: <{e}"
                );
            } else if e.starts_with("polyline") || e.starts_with("path") {
                let pts: Vec<(f64, f64)> = attr(e, "points")
                    .unwrap_or_default()
                    .split_whitespace()
                    .filter_map(|p| {
                        let (x, y) = p.split_once(',')?;
                        Some((x.parse().ok()?, y.parse().ok()?))
                    })
                    .collect();
                for w in pts.windows(2) {
                    for k in 0..=16 {
                        let t = k as f64 / 16.0;
                        let (x, y) = (
                            w[0].0 + t * (w[1].0 - w[0].0),
                            w[0].1 + t * (w[1].1 - w[0].1),
                        );
                        assert!(!inside(x, y), "legend over a line at ({x}, {y}): <{e}");
                    }
                }
            } else if e.starts_with("rect") {
                let (x, y) = (num(e, "x"), num(e, "y"));
                let (x1, y1) = (x + num(e, "width"), y + num(e, "height"));
                let overlaps = x < b.2 && x1 > b.0 && y < b.3 && y1 > b.1;
                assert!(!overlaps, "legend over a bar: <{e}");
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::check::legend_covers_nothing;
    use crate::charts::svg_test::render;
    use crate::charts::{draw_xy, Kind, Legend, Series, XyChart, PALETTE};

    fn chart(points: Vec<(f64, f64)>) -> XyChart {
        XyChart {
            x_desc: "x".into(),
            y_desc: "y".into(),
            series: vec![
                Series::new("a long legend entry", PALETTE[0], Kind::Line, points),
                Series::new(
                    "far away",
                    PALETTE[1],
                    Kind::Line,
                    vec![(0.0, 50.0), (1.0, 60.0)],
                ),
            ],
            y_range: Some((0.0, 1.0)),
            legend: Legend::UpperRight,
            ..Default::default()
        }
    }

    #[test]
    fn the_legend_moves_off_data_and_above_the_plot_when_every_corner_is_taken() {
        // A rising line takes the lower left and upper right corners: the legend goes upper left.
        let svg = render(|root| draw_xy(root, &chart(vec![(0.0, 0.0), (1.0, 1.0)]), 1.0).unwrap());
        std::fs::write("/tmp/legend.svg", &svg).unwrap();
        assert!(legend_covers_nothing(&svg), "a legend is drawn");
        assert!(
            svg.contains("far away (off scale)"),
            "an off-scale series says so"
        );
        // Lines along all four edges: no corner is free, the legend sits above the plot.
        let edges = vec![
            (0.0, 0.98),
            (1.0, 0.98),
            (1.0, 0.02),
            (0.0, 0.02),
            (0.0, 0.98),
        ];
        let mut c = chart(vec![(0.0, 0.5), (1.0, 0.5)]);
        c.series
            .push(Series::new("edges", PALETTE[2], Kind::Line, edges));
        c.x_range = Some((0.0, 1.0));
        let svg = render(|root| draw_xy(root, &c, 1.0).unwrap());
        assert!(legend_covers_nothing(&svg));
    }

    #[test]
    #[should_panic(expected = "legend over a line")]
    fn the_check_sees_a_line_under_the_legend() {
        let svg = r##"<svg><rect x="0" y="0" width="10" height="10" fill="#FFFFFF"/><polyline fill="none" stroke="#0072B2" points="0,5 20,5 "/><rect x="2" y="2" width="6" height="6" opacity="0.88" fill="#FFFFFF"/></svg>"##;
        legend_covers_nothing(svg);
    }
}
