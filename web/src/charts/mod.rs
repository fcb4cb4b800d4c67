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

/// How far from 0 an axis may reach. plotters' search for round tick steps scales its step by 10 until
/// few enough ticks fit: an axis with an infinite or NaN end, or one so wide that its width or step
/// overflows (a range to ±1e308), never ends that search and froze the page for good (the RR lab's
/// interval at ε = 1e-300 was (−∞, ∞); the DP-SGD lab's order chart at σ = 1e-300 reached ε = ∞).
pub(crate) const AXIS_LIMIT: f64 = 1e300;

/// The range an axis shows for the data range `lo..hi`: both ends finite and within ±[`AXIS_LIMIT`]
/// (data beyond it are drawn at the edge), and a positive width (a single value gets ±½, or ±1‰ of a
/// large one). Every chart builds its axes through it.
pub(crate) fn axis(lo: f64, hi: f64) -> std::ops::Range<f64> {
    let inside = |x: f64| (!x.is_nan()).then(|| x.clamp(-AXIS_LIMIT, AXIS_LIMIT));
    match (inside(lo), inside(hi)) {
        (Some(lo), Some(hi)) if hi > lo => lo..hi,
        (Some(x), _) | (None, Some(x)) => {
            let half = (x.abs() * 1e-3).max(0.5);
            (x - half)..(x + half)
        }
        (None, None) => 0.0..1.0,
    }
}

/// An ε axis's title naming its δ: "ε at δ = 1×10⁻⁵" (an exported figure stands without the page).
pub fn eps_at(delta: f64) -> String {
    format!("ε at δ = {}", dp_playground::link::format::sig(delta, 3))
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

/// Height (CSS pixels) of an exported figure's heading: its title and the link's parameters.
pub const HEADING_HEIGHT: u32 = 44;

/// `params` cut to what fits `width` CSS pixels of 11 px text (an ellipsis where cut).
pub fn fit_params(params: &str, width: u32) -> String {
    let room = ((f64::from(width) - 20.0) / 6.0).max(10.0) as usize;
    if params.chars().count() > room {
        format!(
            "{}…",
            params
                .chars()
                .take(room.saturating_sub(1))
                .collect::<String>()
        )
    } else {
        params.to_owned()
    }
}

/// An exported SVG figure: a heading (`title` over `params`) written as SVG text, above `chart` (an
/// SVG document `width` × `chart_height`), nested in one document. Written as text rather than drawn
/// by plotters: the heading would otherwise instantiate plotters' text layout for a second backend
/// in every lab's module.
pub fn stack_svg(title: &str, params: &str, chart: &str, width: u32, chart_height: u32) -> String {
    let esc = |t: &str| {
        t.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let chart = chart.trim_start();
    let chart = match chart.strip_prefix("<?xml") {
        Some(rest) => rest.split_once("?>").map_or("", |(_, r)| r).trim_start(),
        None => chart,
    };
    let chart = chart.replacen("<svg ", &format!("<svg y=\"{HEADING_HEIGHT}\" "), 1);
    let height = HEADING_HEIGHT + chart_height;
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">\
         <rect width=\"{width}\" height=\"{HEADING_HEIGHT}\" fill=\"#fff\"/>\
         <text x=\"10\" y=\"18\" font-family=\"sans-serif\" font-size=\"15\" font-weight=\"bold\">{}</text>\
         <text x=\"10\" y=\"36\" font-family=\"sans-serif\" font-size=\"11\" fill=\"#495057\">{}</text>{chart}</svg>",
        esc(title),
        esc(&fit_params(params, width))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_axis_is_finite_bounded_and_wide() {
        let ugly = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            -f64::MAX,
            1e300,
            -1e300,
            4.9e-324,
            -0.0,
            0.0,
            1.0,
        ];
        for lo in ugly {
            for hi in ugly {
                let r = axis(lo, hi);
                assert!(
                    r.start.is_finite() && r.end.is_finite() && r.end > r.start,
                    "{lo}..{hi} → {r:?}"
                );
                assert!(r.start.abs() <= 1.01 * AXIS_LIMIT && r.end.abs() <= 1.01 * AXIS_LIMIT);
            }
        }
        assert_eq!(axis(-0.5, 2.0), -0.5..2.0);
        assert_eq!(axis(3.0, 3.0), 2.5..3.5);
    }

    /// An axis from −∞ to ∞, or from 0 to ∞, froze the page in plotters' tick search (an SVG chart
    /// of such data never finished before axes went through [`axis`]).
    #[test]
    fn charts_of_infinite_and_huge_data_draw() {
        use super::specs::smoke;
        for (lo, hi) in [
            (f64::NEG_INFINITY, f64::INFINITY),
            (0.0, f64::INFINITY),
            (-1e308, 1e308),
            (0.0, 1.7e308),
            (0.0, 4.9e-324),
        ] {
            let chart = XyChart {
                x_desc: "x".into(),
                y_desc: "y".into(),
                y_range: Some((lo, hi)),
                x_range: Some((lo, hi)),
                series: vec![Series::new(
                    "s",
                    PALETTE[0],
                    Kind::Line,
                    vec![(0.0, 1.0), (1.0, 2.0)],
                )],
                ..Default::default()
            };
            smoke(&chart);
        }
    }
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
