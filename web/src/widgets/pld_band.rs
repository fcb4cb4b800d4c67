//! The PLD accountant's two sides as a band: where the exact ε lies, how wide the band is, why, and a
//! finer grid when it is wide.

use crate::format::{exact, sig};
use crate::platform::url::use_url;
use dp_playground::accounting::pld::{EpsilonBand, DEFAULT_INTERVAL};
use dp_playground::link::query::fmt_f64;
use leptos::prelude::*;

/// The band [lower, upper] with its width, and "use a finer grid" when it is wider than 1% of ε.
#[component]
pub fn PldBand(
    /// Both sides, once computed.
    band: Signal<Option<EpsilonBand>>,
    /// Test id prefix (`compose` or `dpsgd`): ids `{prefix}-pld-band-width` and `{prefix}-finer-grid`.
    prefix: &'static str,
    /// Why the band can stay wide on any grid (entries or neighbours without a tight pair): shown
    /// instead of the finer-grid advice.
    #[prop(optional, into)]
    gap: Signal<Option<String>>,
    /// What to look for in the band, said after it.
    #[prop(optional)]
    look_for: &'static str,
) -> impl IntoView {
    let url = use_url();
    let asked = move || {
        url.query
            .with(|q| q.get("grid").and_then(|g| g.trim().parse::<f64>().ok()))
            .filter(|g| *g >= 1e-7 && *g <= 0.1)
            .unwrap_or(DEFAULT_INTERVAL)
    };
    let why = move || {
        band.get()
            .and_then(|b| b.why_wide(asked()))
            .filter(|_| gap.with(Option::is_none))
    };
    let finer = move |_| {
        if let Some(b) = band.get_untracked() {
            url.set("grid", fmt_f64((b.interval.min(asked()) / 4.0).max(1e-7)));
        }
    };
    view! {
        {move || band.get().filter(|b| b.upper.is_finite()).map(|b| view! {
            <p class="help" data-testid=format!("{prefix}-pld-band")>
                {format!(
                    "The exact ε lies between {} (lower bound) and {} (the guarantee): the PLD on a grid of width {}, discretized from both sides. Band width ",
                    sig(b.lower, 5),
                    sig(b.upper, 5),
                    fmt_f64(b.interval)
                )}
                <span data-testid=format!("{prefix}-pld-band-width") data-value=exact(b.width())>{sig(b.width(), 3)}</span>
                ". "{look_for}
            </p>
        })}
        {move || gap.get().filter(|_| band.with(|b| b.is_some_and(|b| b.upper.is_finite()))).map(|text| view! {
            <p class="notices" role="note" data-testid=format!("{prefix}-band-gap")>{text}</p>
        })}
        {move || why().map(|text| view! {
            <p class="notices" role="note">
                {text}" "
                <button type="button" class="small" data-testid=format!("{prefix}-finer-grid")
                    hidden=move || url.options.with(|o| o.locked) on:click=finer>
                    "Use a 4× finer grid"
                </button>
            </p>
        })}
    }
}
