//! Spreads chart draws over tasks so that none holds the page for long.
//!
//! A worker's result or the lab's start can change the data of many charts at once, and each chart
//! redraws in the effect that saw the change: the tangent lab's extras redrew seven charts in one 66 ms
//! task. Here the first draw of a task opens a budget; a draw asked for once it is spent waits for a
//! later task (a zero-delay timeout), where the budget is fresh. A slider move's charts in view fit the
//! budget and draw at once, as before.

use std::cell::{Cell, RefCell};
use std::time::Duration;

/// Drawing time a task may spend before further charts wait for the next one, in milliseconds.
const BUDGET_MS: f64 = 12.0;

thread_local! {
    /// When the current turn's first draw started (`None`: no draw since the last turn ended).
    static TURN_START: Cell<Option<f64>> = const { Cell::new(None) };
    /// Redraws waiting for the next turn.
    static WAITING: RefCell<Vec<Box<dyn FnOnce()>>> = RefCell::new(Vec::new());
}

/// Whether a chart may draw now. The first call of a turn starts it and schedules its end.
pub fn may_draw() -> bool {
    let now = crate::platform::browser::now_ms();
    match TURN_START.with(Cell::get) {
        None => {
            TURN_START.with(|t| t.set(Some(now)));
            leptos::prelude::set_timeout(end_turn, Duration::ZERO);
            true
        }
        Some(start) => now - start < BUDGET_MS,
    }
}

/// Runs `redraw` at the start of the next turn (it should ask [`may_draw`] again).
pub fn later(redraw: impl FnOnce() + 'static) {
    WAITING.with(|w| w.borrow_mut().push(Box::new(redraw)));
}

fn end_turn() {
    TURN_START.with(|t| t.set(None));
    let waiting = WAITING.with(|w| std::mem::take(&mut *w.borrow_mut()));
    for redraw in waiting {
        redraw();
    }
}
