//! A [`ChartCanvas`] for a [`HeatMap`]: draws it, offers its CSV (one row per cell) and its SVG.

use crate::charts::{draw_heatmap, heatmap_csv, render_svg, Cells, HeatMap};
use crate::widgets::chart_canvas::ChartCanvas;
use leptos::prelude::*;

/// A heat map chart.
#[component]
pub fn HeatCanvas(
    /// Stable id of the canvas.
    testid: &'static str,
    /// Heading.
    #[prop(into)]
    title: Signal<String>,
    /// Text alternative.
    #[prop(into)]
    alt: Signal<String>,
    /// The map (`None` draws nothing).
    map: Memo<Option<HeatMap>>,
    /// CSV file name.
    csv_name: &'static str,
    /// Height in CSS pixels.
    #[prop(default = 320.0)]
    height: f64,
    /// One line under the title saying what to look for.
    #[prop(optional)]
    look_for: &'static str,
) -> impl IntoView {
    view! {
        <ChartCanvas
            testid=testid
            look_for=look_for
            title=title
            alt=alt
            height=height
            ready=Signal::derive(move || map.with(Option::is_some))
            draw=move |root, scale| {
                map.with(|m| {
                    if let Some(m) = m {
                        if let Err(e) = draw_heatmap(root, m, scale, Cells::Bitmap) {
                            leptos::logging::warn!("{testid}: {e}");
                        }
                    }
                })
            }
            csv=Signal::derive(move || map.with(|m| m.as_ref().map(heatmap_csv).unwrap_or_default()))
            csv_name=csv_name
            svg=Callback::new(move |size| map.with_untracked(|m| render_svg(size, |root| {
                if let Some(m) = m {
                    let _ = draw_heatmap(root, m, 1.0, Cells::Rectangles);
                }
            })))
        />
    }
}
