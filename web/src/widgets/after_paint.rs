//! Content built after the page's first frame is painted.
//!
//! A lab's first render builds and lays out every element in one task; for the text-heavy labs that
//! task held the page 100–190 ms before anything was on screen, and the first layout's text shaping
//! (cold, once per word and font) made the next one 35–65 ms. Content below the fold (charts, the share
//! panel) waits here for the frame after the first, so the first number is painted sooner and the work
//! is split over tasks. An `AfterPaint` inside another waits one frame more: a lab stages its content.

use leptos::either::Either;
use leptos::prelude::*;
use std::time::Duration;

/// Renders `children` once `frames` frames (one unless set) after the component's first render have
/// been painted, so a lab can stage its content over several tasks. Until then it holds an empty,
/// hidden `data-after-paint="pending"` marker, which browser tests wait to be gone.
#[component]
pub fn AfterPaint(#[prop(default = 1)] frames: u32, children: ChildrenFn) -> impl IntoView {
    let ready = RwSignal::new(false);
    after_frames(frames, move || {
        // The lab may have been left meanwhile.
        let _ = ready.try_set(true);
    });
    move || {
        if ready.get() {
            Either::Left(children())
        } else {
            Either::Right(view! { <span data-after-paint="pending" hidden></span> })
        }
    }
}

/// Runs `then` after `frames` more frames have been painted: a frame callback runs before that frame's
/// paint, and a timeout set from it runs after.
fn after_frames(frames: u32, then: impl FnOnce() + 'static) {
    if frames == 0 {
        then();
        return;
    }
    request_animation_frame(move || {
        set_timeout(move || after_frames(frames - 1, then), Duration::ZERO)
    });
}
