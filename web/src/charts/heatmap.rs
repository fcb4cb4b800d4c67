//! A heat map: values on a grid of cells (rows along y, columns along x), a diverging palette for signed
//! values (blue below 0, white at 0, vermillion above) or a sequential one, and a colour bar with its range.

use super::{font, px, tick, DrawResult, INK};
use plotters::coord::Shift;
use plotters::prelude::*;

/// A heat map's data.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HeatMap {
    /// x-axis title.
    pub x_desc: String,
    /// y-axis title.
    pub y_desc: String,
    /// Cell centres along x (columns), increasing.
    pub xs: Vec<f64>,
    /// Cell centres along y (rows), increasing.
    pub ys: Vec<f64>,
    /// Values, row-major (`ys.len()` rows of `xs.len()`).
    pub values: Vec<f64>,
    /// Signed values: a diverging palette symmetric about 0.
    pub diverging: bool,
    /// What the colour means (colour-bar label).
    pub value_desc: String,
}

fn mix(a: (f64, f64, f64), b: (f64, f64, f64), t: f64) -> RGBColor {
    let c = |x: f64, y: f64| (x + (y - x) * t.clamp(0.0, 1.0)).round() as u8;
    RGBColor(c(a.0, b.0), c(a.1, b.1), c(a.2, b.2))
}

/// The colour of `v` on a scale reaching `top` (|v| ≤ top).
fn colour(v: f64, top: f64, diverging: bool) -> RGBColor {
    const WHITE3: (f64, f64, f64) = (255.0, 255.0, 255.0);
    const BLUE: (f64, f64, f64) = (0.0, 114.0, 178.0);
    const RED: (f64, f64, f64) = (213.0, 94.0, 0.0);
    if !v.is_finite() || top <= 0.0 {
        return RGBColor(255, 255, 255);
    }
    if diverging {
        if v >= 0.0 {
            mix(WHITE3, RED, v / top)
        } else {
            mix(WHITE3, BLUE, -v / top)
        }
    } else {
        mix(WHITE3, BLUE, v / top)
    }
}

fn edges(centres: &[f64]) -> Vec<f64> {
    match centres {
        [] => vec![0.0, 1.0],
        [c] => vec![c - 0.5, c + 0.5],
        _ => {
            let mut e = vec![centres[0] - (centres[1] - centres[0]) / 2.0];
            for w in centres.windows(2) {
                e.push((w[0] + w[1]) / 2.0);
            }
            let n = centres.len();
            e.push(centres[n - 1] + (centres[n - 1] - centres[n - 2]) / 2.0);
            e
        }
    }
}

/// Draws the heat map with a colour bar on the right.
pub fn draw_heatmap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    map: &HeatMap,
    scale: f64,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let (w, _) = root.dim_in_pixel();
    let bar = px(70.0, scale).min(w / 4);
    let (plot, legend) = root.split_horizontally(w - bar);
    let (xe, ye) = (edges(&map.xs), edges(&map.ys));
    let (x0, x1) = (xe[0], xe[xe.len() - 1]);
    let (y0, y1) = (ye[0], ye[ye.len() - 1]);
    let mut chart = ChartBuilder::on(&plot)
        .margin(px(10.0, scale))
        .x_label_area_size(px(40.0, scale))
        .y_label_area_size(px(58.0, scale))
        .build_cartesian_2d(x0..x1, y0..y1)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(6)
        .y_labels(6)
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .x_desc(map.x_desc.as_str())
        .y_desc(map.y_desc.as_str())
        .label_style(font(12.0, scale))
        .axis_desc_style(font(13.0, scale))
        .axis_style(INK)
        .draw()?;
    let top = map
        .values
        .iter()
        .filter(|v| v.is_finite())
        .fold(0.0_f64, |m, v| m.max(v.abs()));
    let nx = map.xs.len();
    chart.draw_series(
        map.values
            .iter()
            .enumerate()
            .filter(|(i, _)| i / nx.max(1) < map.ys.len())
            .map(|(i, &v)| {
                let (r, c) = (i / nx, i % nx);
                Rectangle::new(
                    [(xe[c], ye[r]), (xe[c + 1], ye[r + 1])],
                    colour(v, top, map.diverging).filled(),
                )
            }),
    )?;
    // Colour bar: from −top (or 0) at the bottom to top at the top, with both ends labelled.
    let (_, lh) = legend.dim_in_pixel();
    let (bx, by0, by1) = (
        px(8.0, scale) as i32,
        px(24.0, scale) as i32,
        lh as i32 - px(52.0, scale) as i32,
    );
    let steps = 40;
    let low = if map.diverging { -top } else { 0.0 };
    for s in 0..steps {
        let t0 = s as f64 / steps as f64;
        let v = low + (top - low) * (t0 + 0.5 / steps as f64);
        let ya = by1 - ((by1 - by0) as f64 * t0) as i32;
        let yb = by1 - ((by1 - by0) as f64 * (t0 + 1.0 / steps as f64)) as i32;
        legend.draw(&Rectangle::new(
            [(bx, yb), (bx + px(14.0, scale) as i32, ya)],
            colour(v, top, map.diverging).filled(),
        ))?;
    }
    legend.draw(&Rectangle::new(
        [(bx, by0), (bx + px(14.0, scale) as i32, by1)],
        INK.stroke_width(1),
    ))?;
    let label = |v: f64| crate::format::sig(v, 2);
    legend.draw(&Text::new(
        label(top),
        (bx, by0 - px(16.0, scale) as i32),
        font(11.0, scale),
    ))?;
    legend.draw(&Text::new(
        label(low),
        (bx, by1 + px(4.0, scale) as i32),
        font(11.0, scale),
    ))?;
    legend.draw(&Text::new(
        map.value_desc.clone(),
        (bx - px(4.0, scale) as i32, by1 + px(22.0, scale) as i32),
        font(11.0, scale),
    ))?;
    Ok(())
}

/// The heat map's data as CSV: one row per cell.
pub fn heatmap_csv(map: &HeatMap) -> String {
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let mut out = format!(
        "{},{},{}\n",
        quote(&map.x_desc),
        quote(&map.y_desc),
        quote(&map.value_desc)
    );
    let nx = map.xs.len();
    for (i, v) in map.values.iter().enumerate() {
        if let (Some(y), Some(x)) = (map.ys.get(i / nx.max(1)), map.xs.get(i % nx.max(1))) {
            out += &format!("{x},{y},{v}\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::svg_test::render;

    #[test]
    fn draws_cells_and_a_colour_bar_and_writes_csv() {
        let map = HeatMap {
            x_desc: "x".into(),
            y_desc: "w".into(),
            xs: vec![0.0, 1.0, 2.0],
            ys: vec![-1.0, 1.0],
            values: vec![-1.0, 0.0, 1.0, 0.5, f64::NAN, -0.5],
            diverging: true,
            value_desc: "DA".into(),
        };
        let svg = render(|root| draw_heatmap(root, &map, 1.0).unwrap_or_else(|e| panic!("{e}")));
        assert!(svg.matches("<rect").count() >= 6 + 40);
        let csv = heatmap_csv(&map);
        assert_eq!(csv.lines().count(), 7);
        assert!(csv.starts_with("\"x\",\"w\",\"DA\""));
    }
}
