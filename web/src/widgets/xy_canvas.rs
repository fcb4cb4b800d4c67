//! A [`ChartCanvas`] for an [`XyChart`]: draws it, offers its CSV, and describes it for screen readers.
//! A chart below or above the screen is redrawn only when it scrolls into view or the user pauses, so
//! that a slider move pays for the charts in sight alone.

use crate::charts::{draw_xy, render_svg, xy_csv, XyChart};
use crate::widgets::chart_canvas::ChartCanvas;
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
    /// One line under the title saying what to look for.
    #[prop(optional)]
    look_for: &'static str,
) -> impl IntoView {
    let node = NodeRef::<leptos::html::Div>::new();
    let visible = RwSignal::new(false);
    // An IntersectionObserver says when the chart comes into view or leaves it. It reports after the
    // browser's own layout: measuring positions ourselves in a frame callback forced a layout of the
    // whole page per chart (100 ms of the mechanisms lab's start, and again on slider moves).
    let observer = StoredValue::new_local(None::<crate::platform::browser::ViewObserver>);
    Effect::new(move |_| {
        if let Some(el) = node.get() {
            let seen = move |now: bool| {
                if visible.try_get_untracked().is_some_and(|v| v != now) {
                    visible.set(now);
                }
            };
            observer.set_value(crate::platform::browser::ViewObserver::new(
                &el,
                VIEW_MARGIN,
                seen,
            ));
        }
    });
    on_cleanup(move || {
        observer.try_update_value(|o| o.take());
    });
    // What the canvas shows: the chart, copied over only while in view.
    let shown = RwSignal::new(None::<XyChart>);
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
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
                look_for=look_for
                title=title
                alt=alt
                height=height
                ready=Signal::derive(move || shown.with(Option::is_some))
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
