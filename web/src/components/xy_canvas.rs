//! A [`ChartCanvas`] for an [`XyChart`]: draws it, offers its CSV, and describes it for screen readers.

use super::chart_canvas::ChartCanvas;
use crate::charts::{draw_xy, xy_csv, XyChart};
use leptos::prelude::*;

/// A chart of the mechanisms lab.
#[component]
pub fn XyCanvas(
    /// Stable id of the canvas.
    testid: &'static str,
    /// The chart's heading.
    #[prop(into)]
    title: Signal<String>,
    /// The text alternative, with the chart's key numbers.
    #[prop(into)]
    alt: Signal<String>,
    /// The chart (nothing is drawn while `None`).
    chart: Memo<Option<XyChart>>,
    /// The CSV file's name.
    csv_name: &'static str,
    /// Height in CSS pixels.
    #[prop(default = 300.0)]
    height: f64,
) -> impl IntoView {
    view! {
        <ChartCanvas
            testid=testid
            title=title
            alt=alt
            height=height
            draw=move |root, scale| {
                chart.with(|c| {
                    if let Some(c) = c {
                        if let Err(e) = draw_xy(root, c, scale) {
                            leptos::logging::warn!("{testid}: {e}");
                        }
                    }
                })
            }
            csv=Signal::derive(move || chart.with(|c| c.as_ref().map(xy_csv).unwrap_or_default()))
            csv_name=csv_name
        />
    }
}
