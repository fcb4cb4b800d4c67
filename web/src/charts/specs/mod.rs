//! What each lab's charts show, as [`XyChart`](super::XyChart)s built from data the core computed:
//! plain functions, so that native tests draw every lab's charts with the SVG backend. Components
//! call them inside their memos and only hand the result to a canvas.

pub mod attack;
pub mod compose;
pub mod dpsgd;
pub mod mechanisms;
pub mod mf;
pub mod rr;
pub mod tangent;
pub mod train;
pub mod wdp;

/// Draws `chart` on the SVG backend and checks it drew something (tests only).
#[cfg(test)]
pub fn smoke(chart: &super::XyChart) {
    let svg = super::svg_test::render(|root| super::draw_xy(root, chart, 1.0).unwrap());
    assert!(svg.len() > 1000, "{}: {} bytes", chart.y_desc, svg.len());
    let legend = super::legend::check::legend_covers_nothing(&svg);
    assert!(
        legend || chart.series.iter().all(|s| s.name.is_empty()),
        "{}: no legend",
        chart.y_desc
    );
}
