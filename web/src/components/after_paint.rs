//! Content built after the page's first frame is painted.
//!
//! A lab's first render builds and lays out every element in one task; for the text-heavy labs that
//! task held the page 100–190 ms before anything was on screen, and the first layout's text shaping
//! (cold, once per word and font) made the next one 35–65 ms. Content below the fold (charts, the share
//! panel) waits here for the frame after the first, so the first number is painted sooner and the work
//! is split over tasks.

use leptos::prelude::*;
use std::time::Duration;

/// Renders `children` once the frame after the component's first render has been painted.
#[component]
pub fn AfterPaint(children: ChildrenFn) -> impl IntoView {
    let ready = RwSignal::new(false);
    // A frame callback runs before that frame's paint; a timeout set from it runs after.
    request_animation_frame(move || {
        set_timeout(
            move || {
                // The lab may have been left meanwhile.
                let _ = ready.try_set(true);
            },
            Duration::ZERO,
        )
    });
    move || ready.get().then(|| children())
}
