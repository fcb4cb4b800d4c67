//! A [`ChartCanvas`] for an [`XyChart`]: draws it, offers its CSV, and describes it for screen readers.
//! A chart below or above the screen is redrawn only when it scrolls into view or the user pauses, so
//! that a slider move pays for the charts in sight alone.

use super::chart_canvas::ChartCanvas;
use crate::charts::{draw_xy, render_svg, xy_csv, XyChart};
use leptos::prelude::*;

/// How far outside the window a chart still counts as in view, in CSS pixels.
const VIEW_MARGIN: f64 = 150.0;
/// How long after the last change an off-screen chart is redrawn anyway.
const OFFSCREEN_DELAY_MS: u64 = 300;

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
    let node = NodeRef::<leptos::html::Div>::new();
    let visible = RwSignal::new(false);
    // Runs from a frame callback too, which may fire after the chart left the page: every read
    // tolerates a disposed signal (a plain read would panic and kill the page).
    let check = move || {
        if let Some(el) = node.try_get_untracked().flatten() {
            let rect = el.get_bounding_client_rect();
            let height = crate::browser::window_height();
            let now = rect.bottom() > -VIEW_MARGIN && rect.top() < height + VIEW_MARGIN;
            if visible.try_get_untracked().is_some_and(|v| v != now) {
                visible.set(now);
            }
        }
    };
    let on_scroll = window_event_listener(leptos::ev::scroll, move |_| check());
    let on_resize = window_event_listener(leptos::ev::resize, move |_| check());
    on_cleanup(move || {
        on_scroll.remove();
        on_resize.remove();
    });
    // What the canvas shows: the chart, copied over only while in view.
    let shown = RwSignal::new(None::<XyChart>);
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        node.track();
        // Measure after the browser's own layout of this frame, never in the middle of an update
        // (reading a position then would force an extra layout of the whole page).
        request_animation_frame(check);
        let current = chart.get();
        let show = move |current: Option<XyChart>| {
            shown.maybe_update(|s| {
                let changed = *s != current;
                if changed {
                    *s = current;
                }
                changed
            });
        };
        if visible.get() {
            show(current);
        } else {
            // Off screen: catch up once the user pauses, so that the whole page (printing, a
            // full-page screenshot, a quick scroll) shows current charts without slowing a slider.
            generation.update_value(|g| *g += 1);
            let mine = generation.get_value();
            set_timeout(
                move || {
                    if generation.try_get_value() == Some(mine) {
                        if let Some(current) = chart.try_get_untracked() {
                            show(current);
                        }
                    }
                },
                std::time::Duration::from_millis(OFFSCREEN_DELAY_MS),
            );
        }
    });
    view! {
        <div node_ref=node>
            <ChartCanvas
                testid=testid
                title=title
                alt=alt
                height=height
                draw=move |root, scale| {
                    shown.with(|c| {
                        if let Some(c) = c {
                            if let Err(e) = draw_xy(root, c, scale) {
                                leptos::logging::warn!("{testid}: {e}");
                            }
                        }
                    })
                }
                csv=Signal::derive(move || chart.with(|c| c.as_ref().map(xy_csv).unwrap_or_default()))
                csv_name=csv_name
                svg=Callback::new(move |size| chart.with_untracked(|c| render_svg(size, |root| {
                    if let Some(c) = c {
                        let _ = draw_xy(root, c, 1.0);
                    }
                })))
            />
        </div>
    }
}
