//! Charts: functions generic over plotters' `DrawingBackend` that draw data the core computed. The page
//! draws them into canvases; the tests draw them into SVG. Each chart has a CSV of the data it shows.
//!
//! `scale` is the device-pixel ratio: sizes are given in CSS pixels and multiplied by it, so that text
//! reads the same on a phone and a retina screen.

mod frequencies;
mod heatmap;
mod histogram;
mod legend;
mod respondents;
pub mod specs;
mod xy;

pub use frequencies::{draw_frequencies, frequencies_csv};
pub use heatmap::{draw_heatmap, heatmap_csv, Cells, HeatMap};
pub use histogram::{draw_estimate_histogram, histogram_csv};
pub use legend::Legend;
pub use respondents::{draw_respondents, respondents_csv, GRID_COLUMNS};
pub use xy::{draw_xy, xy_csv, Kind, Series, XyChart};

use plotters::coord::Shift;
use plotters::prelude::*;

/// The error a chart function returns for backend `DB`.
pub type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Okabe–Ito colours (safe for colour-blind readers), with the orange and sky blue darkened so that
/// every colour has at least 3:1 contrast on white (WCAG 1.4.11 for graphics); the yellow is left out.
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0, 114, 178),   // blue, 5.2:1
    RGBColor(213, 94, 0),    // vermillion, 3.9:1
    RGBColor(0, 158, 115),   // bluish green, 3.4:1
    RGBColor(204, 121, 167), // reddish purple, 3.1:1
    RGBColor(181, 122, 0),   // orange, darkened from (230, 159, 0): 3.7:1
    RGBColor(40, 140, 200),  // sky blue, darkened from (86, 180, 233): 3.7:1
    RGBColor(77, 77, 77),    // dark grey, 8.5:1
];

/// Text and axis colour: near-black, 15:1 on white.
pub const INK: RGBColor = RGBColor(33, 37, 41);

/// The font at `px` CSS pixels for device-pixel ratio `scale`.
pub(crate) fn font(px: f64, scale: f64) -> TextStyle<'static> {
    ("sans-serif", px * scale).into_font().color(&INK)
}

/// A CSS size in device pixels.
pub(crate) fn px(css: f64, scale: f64) -> u32 {
    (css * scale).round().max(1.0) as u32
}

/// Formats an axis tick without float noise (0.30000000000000004 → 0.3), a tick within rounding of
/// zero as 0 (a linear axis's zero came out as -5.551e-17 from its range's arithmetic; no linear axis
/// here has ticks below 1e-12).
pub(crate) fn tick(x: &f64) -> String {
    if x.abs() < 1e-12 {
        return "0".into();
    }
    crate::format::sig(*x, 4)
}

/// Renders a chart into an SVG document of `size` CSS pixels (scale 1): the export of every chart.
pub fn render_svg(size: (u32, u32), draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>)) -> String {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root);
        let _ = root.present();
    }
    svg
}

#[cfg(test)]
pub(crate) mod svg_test {
    use plotters::prelude::*;

    /// Draws into an in-memory SVG and returns it.
    pub fn render(draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>)) -> String {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (640, 360)).into_drawing_area();
            draw(&root);
            root.present().unwrap();
        }
        svg
    }
}
