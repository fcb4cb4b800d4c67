//! The shell every lab's page shares: its heading, its headline result and introduction, the controls beside the results,
//! and the embed options that hide the controls.

use crate::platform::url::use_url;
use leptos::prelude::*;

/// A lab's page: a section labelled by its heading, the introduction, then the controls in an aside
/// (hidden when an embed's `controls=` shows none of them) beside the results.
#[component]
pub fn LabPage(
    /// The id of the heading that labels the section (`rr-title`).
    heading_id: &'static str,
    /// The heading.
    title: &'static str,
    /// The one sentence that sums up the results, under the heading (and read out when it changes).
    #[prop(into)]
    headline: Signal<String>,
    /// The introduction under the headline.
    #[prop(into)]
    intro: ViewFnOnce,
    /// The controls.
    #[prop(into)]
    controls: ViewFnOnce,
    /// Shown under the controls even when an embed hides them (the randomized-response lab's
    /// privacy box).
    #[prop(optional, into)]
    beside: Option<ViewFnOnce>,
    /// The results.
    children: Children,
) -> impl IntoView {
    let url = use_url();
    let hide_controls = move || !url.options.with(|o| o.shows_controls_panel());
    let aside = match beside {
        Some(beside) => view! {
            <aside class="controls" aria-label="Parameters">
                <div hidden=hide_controls>{controls.run()}</div>
                {beside.run()}
            </aside>
        }
        .into_any(),
        None => view! {
            <aside class="controls" aria-label="Parameters" hidden=hide_controls>
                {controls.run()}
            </aside>
        }
        .into_any(),
    };
    view! {
        <section class="lab" aria-labelledby=heading_id>
            <header class="lab-intro">
                <h2 id=heading_id>{title}</h2>
                <Headline text=headline />
                <button type="button" class="small jump-controls" data-testid="jump-controls"
                    hidden=move || !url.options.with(|o| o.shows_controls_panel())
                    on:click=move |_| jump_to_controls()>
                    "Parameters ↓"
                </button>
                {intro.run()}
                <ResetButton />
            </header>
            {move || {
                let lab = url.query.with(|q| dp_playground::labs::Lab::from_query(q, &mut Vec::new()));
                let names = url.options.with(|o| lab.unknown_controls(o));
                (!names.is_empty()).then(|| view! {
                    <p class="notices" role="alert" data-testid="notice-controls">
                        {format!(
                            "controls = {} names no control of this lab, so nothing shows for it. This lab's controls: {}.",
                            names.join(","),
                            lab.keys().join(", ")
                        )}
                    </p>
                })
            }}
            <div class="lab-grid">
                {aside}
                <div class="results">{children()}</div>
            </div>
        </section>
    }
}

/// "Reset to defaults": every key but the lab and the view options goes, in one history entry (Back
/// restores the settings). Hidden in a read-only or controls-free embed.
#[component]
pub fn ResetButton() -> impl IntoView {
    let url = use_url();
    let reset = move |_| {
        url.commit(|q| {
            *q = dp_playground::labs::Lab::link_to(
                q,
                dp_playground::labs::Lab::from_query(q, &mut Vec::new()),
            );
            q.remove("seed");
            q.remove("delta");
        })
    };
    view! {
        <button type="button" class="small" data-testid="reset-defaults" on:click=reset
            hidden=move || url.options.with(|o| o.locked || !o.shows_controls_panel())>
            "Reset to defaults"
        </button>
    }
}

/// A lab's headline: one sentence summing up its results, read out by screen readers when it changes.
#[component]
pub fn Headline(
    /// The sentence.
    #[prop(into)]
    text: Signal<String>,
) -> impl IntoView {
    view! {
        <p class="headline" data-testid="lab-headline" aria-live="polite" aria-atomic="true">
            {move || text.get()}
        </p>
    }
}

/// Scrolls the lab's controls into view and puts the focus on the first of them (narrow screens show
/// the results first).
fn jump_to_controls() {
    use wasm_bindgen::JsCast;
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Ok(Some(aside)) = doc.query_selector("aside.controls") {
        aside.scroll_into_view();
        if let Ok(Some(first)) = aside.query_selector("input, select, button") {
            if let Ok(el) = first.dyn_into::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        }
    }
}
