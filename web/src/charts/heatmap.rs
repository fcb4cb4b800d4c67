//! A heat map: values on a grid of cells (rows along y, columns along x), a diverging palette for signed
//! values (blue below 0, white at 0, vermillion above) or a sequential one, and a colour bar with its range.

use super::{axis, font, px, tick, DrawResult, INK};
use plotters::coord::Shift;
use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;
use plotters_backend::{BackendCoord, DrawingErrorKind};

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
    /// A matrix's rows, top down: the spec gives row r at y = −r and the labels read r.
    pub rows_down: bool,
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

/// How the cells are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cells {
    /// One bitmap of the whole plot area (one `putImageData` on a canvas): the cost no longer grows
    /// with the number of cells, which made a 200 × 200 map take 29 ms as rectangles.
    Bitmap,
    /// One rectangle per cell: vector output, for SVG.
    Rectangles,
}

/// Draws the heat map with a colour bar on the right.
pub fn draw_heatmap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    map: &HeatMap,
    scale: f64,
    cells: Cells,
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
        // Room for half the last x tick's label (a clipped "14000" once).
        .margin_right(px(26.0, scale))
        .x_label_area_size(px(40.0, scale))
        .y_label_area_size(px(58.0, scale))
        .build_cartesian_2d(axis(x0, x1), axis(y0, y1))?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(6)
        .y_labels(6)
        .x_label_formatter(&tick)
        .y_label_formatter(&|y: &f64| if map.rows_down { tick(&-y) } else { tick(y) })
        .x_desc(map.x_desc.as_str())
        .y_desc(map.y_desc.as_str())
        .label_style(font(12.0, scale))
        .axis_desc_style(font(12.0, scale))
        .axis_style(INK)
        .draw()?;
    let top = map
        .values
        .iter()
        .filter(|v| v.is_finite())
        .fold(0.0_f64, |m, v| m.max(v.abs()));
    let nx = map.xs.len();
    match cells {
        Cells::Rectangles => {
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
        }
        Cells::Bitmap => {
            // Cell edges in pixels, exactly where the rectangles would put them.
            let x_px: Vec<i32> = xe
                .iter()
                .map(|&x| chart.backend_coord(&(x, y0)).0)
                .collect();
            let y_px: Vec<i32> = ye
                .iter()
                .map(|&y| chart.backend_coord(&(x0, y)).1)
                .collect();
            let colours: Vec<RGBColor> = map
                .values
                .iter()
                .map(|&v| colour(v, top, map.diverging))
                .collect();
            let bitmap = cell_bitmap(&x_px, &y_px, &colours);
            let base = root.get_base_pixel();
            root.draw(&Bitmap {
                at: (bitmap.at.0 - base.0, bitmap.at.1 - base.1),
                ..bitmap
            })?;
        }
    }
    // Colour bar: from −top (or 0) at the bottom to top at the top, with both ends labelled.
    let (_, lh) = legend.dim_in_pixel();
    let (bx, by0, by1) = (
        px(8.0, scale) as i32,
        px(24.0, scale) as i32,
        lh as i32 - px(52.0, scale) as i32,
    );
    let steps = 40;
    let low = if map.diverging { -top } else { 0.0 };
    let bar_width = px(14.0, scale) as i32;
    // The colour of band s of `steps`, bottom to top.
    let band = |s: i32| {
        colour(
            low + (top - low) * (f64::from(s) + 0.5) / f64::from(steps),
            top,
            map.diverging,
        )
    };
    match cells {
        Cells::Rectangles => {
            for s in 0..steps {
                let t0 = f64::from(s) / f64::from(steps);
                let ya = by1 - (f64::from(by1 - by0) * t0) as i32;
                let yb = by1 - (f64::from(by1 - by0) * (t0 + 1.0 / f64::from(steps))) as i32;
                legend.draw(&Rectangle::new(
                    [(bx, yb), (bx + bar_width, ya)],
                    band(s).filled(),
                ))?;
            }
        }
        Cells::Bitmap if by1 > by0 && bar_width > 0 => {
            // One image, as for the cells: forty rectangles were forty fills, each with its own style.
            let (width, height) = (bar_width as usize + 1, (by1 - by0) as usize + 1);
            let mut rgb = Vec::with_capacity(width * height * 3);
            for y in by0..=by1 {
                let s = ((f64::from(by1 - y) / f64::from(by1 - by0)) * f64::from(steps)) as i32;
                let RGBColor(r, g, b) = band(s.clamp(0, steps - 1));
                for _ in 0..width {
                    rgb.extend([r, g, b]);
                }
            }
            legend.draw(&Bitmap {
                at: (bx, by0),
                size: (width as u32, height as u32),
                rgb,
            })?;
        }
        Cells::Bitmap => {}
    }
    legend.draw(&Rectangle::new(
        [(bx, by0), (bx + bar_width, by1)],
        INK.stroke_width(1),
    ))?;
    let label = |v: f64| crate::format::sig(v, 2);
    legend.draw(&Text::new(
        label(top),
        (bx, by0 - px(16.0, scale) as i32),
        font(12.0, scale),
    ))?;
    legend.draw(&Text::new(
        label(low),
        (bx, by1 + px(4.0, scale) as i32),
        font(12.0, scale),
    ))?;
    legend.draw(&Text::new(
        map.value_desc.clone(),
        (bx - px(4.0, scale) as i32, by1 + px(22.0, scale) as i32),
        font(12.0, scale),
    ))?;
    Ok(())
}

/// An RGB image placed at a pixel: plotters' backends blit it (a canvas in one call).
#[derive(Debug, Clone, PartialEq)]
struct Bitmap {
    /// Upper-left pixel.
    at: BackendCoord,
    /// Width and height in pixels.
    size: (u32, u32),
    /// Row-major RGB bytes.
    rgb: Vec<u8>,
}

impl<'a> PointCollection<'a, BackendCoord> for &'a Bitmap {
    type Point = &'a BackendCoord;
    type IntoIter = std::iter::Once<&'a BackendCoord>;
    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.at)
    }
}

impl<DB: DrawingBackend> Drawable<DB> for Bitmap {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut pos: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        match pos.next() {
            Some(at) if self.size.0 > 0 && self.size.1 > 0 => {
                backend.blit_bitmap(at, self.size, &self.rgb)
            }
            _ => Ok(()),
        }
    }
}

/// The pixels of a grid of cells: `x_px` are the column edges in pixels (increasing), `y_px` the row
/// edges (decreasing: row 0 is at the bottom), `colours` row-major. A pixel on an inner edge goes to
/// the cell after it (plotters' filled rectangles share their edge pixels; one has to win).
fn cell_bitmap(x_px: &[i32], y_px: &[i32], colours: &[RGBColor]) -> Bitmap {
    let empty = |at| Bitmap {
        at,
        size: (0, 0),
        rgb: Vec::new(),
    };
    let (nx, ny) = (x_px.len().saturating_sub(1), y_px.len().saturating_sub(1));
    let (Some(&left), Some(&right), Some(&bottom), Some(&upper)) =
        (x_px.first(), x_px.last(), y_px.first(), y_px.last())
    else {
        return empty((0, 0));
    };
    if nx == 0 || ny == 0 || right < left || bottom < upper {
        return empty((left, upper));
    }
    let columns: Vec<usize> = (left..=right)
        .map(|p| x_px[1..nx].partition_point(|&e| e <= p).min(nx - 1))
        .collect();
    let (width, height) = (columns.len(), (bottom - upper + 1) as usize);
    let mut rgb = vec![0u8; width * height * 3];
    // One pixel line per cell row, copied down the row's height (a per-pixel loop is slow in wasm
    // built for size).
    let mut line = vec![0u8; width * 3];
    let mut line_row = usize::MAX;
    for (q, out) in (upper..=bottom).zip(rgb.chunks_exact_mut(width * 3)) {
        // Rows run upwards: the row of pixel q is the number of inner edges at or below it.
        let row = y_px[1..ny].partition_point(|&e| e >= q).min(ny - 1);
        if row != line_row {
            for (&c, pixel) in columns.iter().zip(line.chunks_exact_mut(3)) {
                let RGBColor(r, g, b) = colours.get(row * nx + c).copied().unwrap_or(WHITE);
                (pixel[0], pixel[1], pixel[2]) = (r, g, b);
            }
            line_row = row;
        }
        out.copy_from_slice(&line);
    }
    Bitmap {
        at: (left, upper),
        size: (width as u32, height as u32),
        rgb,
    }
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
            // A matrix's row index, as its labels read it.
            let y = if map.rows_down { -y + 0.0 } else { *y };
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
            rows_down: false,
        };
        let svg = render(|root| draw_heatmap(root, &map, 1.0, Cells::Rectangles).unwrap());
        assert!(svg.matches("<rect").count() >= 6 + 40);
        let csv = heatmap_csv(&map);
        assert_eq!(csv.lines().count(), 7);
        assert!(csv.starts_with("\"x\",\"w\",\"DA\""));
    }

    #[test]
    fn bitmap_pixels_follow_the_cell_edges() {
        let (a, b, c, d) = (RED, GREEN, BLUE, BLACK);
        // Two columns split at pixel 20, two rows split at pixel 40 (row 0 at the bottom).
        let bitmap = cell_bitmap(&[10, 20, 30], &[50, 40, 30], &[a, b, c, d]);
        assert_eq!((bitmap.at, bitmap.size), ((10, 30), (21, 21)));
        let pixel = |x: i32, y: i32| {
            let i = 3 * ((y - 30) as usize * 21 + (x - 10) as usize);
            RGBColor(bitmap.rgb[i], bitmap.rgb[i + 1], bitmap.rgb[i + 2])
        };
        assert_eq!(pixel(10, 50), a);
        assert_eq!(pixel(19, 41), a);
        assert_eq!(pixel(20, 50), b);
        assert_eq!(pixel(19, 40), c);
        assert_eq!(pixel(30, 30), d);
        for bad in [
            cell_bitmap(&[], &[], &[]),
            cell_bitmap(&[5], &[5, 1], &[a]),
            cell_bitmap(&[9, 3], &[5, 1], &[a]),
        ] {
            assert_eq!(bad.size, (0, 0));
        }
    }

    /// A backend that keeps the bitmaps blitted on it and ignores everything else.
    #[allow(clippy::type_complexity)]
    struct Blits(std::rc::Rc<std::cell::RefCell<Vec<(BackendCoord, (u32, u32), Vec<u8>)>>>);

    impl DrawingBackend for Blits {
        type ErrorType = std::fmt::Error;
        fn get_size(&self) -> (u32, u32) {
            (640, 360)
        }
        fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
            Ok(())
        }
        fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
            Ok(())
        }
        fn draw_pixel(
            &mut self,
            _: BackendCoord,
            _: plotters_backend::BackendColor,
        ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
            Ok(())
        }
        fn draw_text<S: plotters_backend::BackendTextStyle>(
            &mut self,
            _: &str,
            _: &S,
            _: BackendCoord,
        ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
            Ok(())
        }
        fn estimate_text_size<S: plotters_backend::BackendTextStyle>(
            &self,
            text: &str,
            _: &S,
        ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
            Ok((6 * text.len() as u32, 12))
        }
        fn blit_bitmap(
            &mut self,
            at: BackendCoord,
            size: (u32, u32),
            src: &[u8],
        ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
            self.0.borrow_mut().push((at, size, src.to_vec()));
            Ok(())
        }
    }

    #[test]
    fn a_bitmap_heat_map_is_two_blits_cells_and_colour_bar_with_each_colour_in_place() {
        let map = HeatMap {
            xs: (0..200).map(f64::from).collect(),
            ys: (0..150).map(|i| f64::from(i) / 10.0).collect(),
            values: (0..30_000)
                .map(|i| f64::from(i % 200) - f64::from(i / 200))
                .collect(),
            diverging: true,
            ..Default::default()
        };
        let blits = std::rc::Rc::default();
        let root = Blits(std::rc::Rc::clone(&blits)).into_drawing_area();
        draw_heatmap(&root, &map, 1.0, Cells::Bitmap).unwrap();
        let blits = blits.borrow();
        let [((x, y), (w, h), rgb), (_, (bar_w, bar_h), bar)] = blits.as_slice() else {
            panic!("{} blits", blits.len());
        };
        assert_eq!(rgb.len(), 3 * (*w * *h) as usize);
        assert!(*w > 300 && *h > 200, "{w}×{h}");
        // Centres of a few cells, in pixels: the same mapping as the plot's axes.
        let top = 199.0;
        for (r, c) in [(0, 0), (0, 199), (149, 0), (75, 120), (149, 199)] {
            let px = x + ((c as f64 + 0.5) / 200.0 * f64::from(*w)) as i32;
            let py = y + ((150.0 - r as f64 - 0.5) / 150.0 * f64::from(*h)) as i32;
            let i = 3 * ((py - y) as usize * *w as usize + (px - x) as usize);
            let want = colour(map.values[r * 200 + c], top, true);
            assert_eq!(
                RGBColor(rgb[i], rgb[i + 1], rgb[i + 2]),
                want,
                "cell ({r}, {c})"
            );
        }
        // The colour bar: its top row is the top band's colour, its bottom row the bottom band's.
        let steps = 40.0;
        let pixel = |row: u32| {
            let i = 3 * (row * bar_w) as usize;
            RGBColor(bar[i], bar[i + 1], bar[i + 2])
        };
        assert_eq!(bar.len(), 3 * (bar_w * bar_h) as usize);
        assert_eq!(pixel(0), colour(top * (1.0 - 1.0 / steps), top, true));
        assert_eq!(
            pixel(bar_h - 1),
            colour(-top * (1.0 - 1.0 / steps), top, true)
        );
    }
}
