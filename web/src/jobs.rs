//! Background work in slices: one σ search run to the end with a pause before each accountant
//! evaluation, so that the page stays responsive (the DP-SGD and attack labs share it).

use crate::browser::{next_tick, now_ms};
use dp_playground::accounting::pld::SigmaSearch;

/// Runs `search`, yielding before each step; `None` when `current()` turns false (the link changed).
/// Adds the compute time, without the pauses, to `busy`, and reports the evaluations so far after
/// each step that did not finish.
pub async fn run_search(
    mut search: SigmaSearch,
    current: impl Fn() -> bool,
    busy: &mut f64,
    progress: impl Fn(u32),
) -> Option<Result<f64, String>> {
    loop {
        next_tick().await;
        if !current() {
            return None;
        }
        let start = now_ms();
        let step = search.step();
        *busy += now_ms() - start;
        match step {
            Ok(Some(sigma)) => return Some(Ok(sigma)),
            Ok(None) => progress(search.evaluations),
            Err(e) => return Some(Err(e.to_string())),
        }
    }
}
