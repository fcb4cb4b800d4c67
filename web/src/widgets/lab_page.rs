//! The shell every lab's page shares: its heading, its headline result and introduction, the controls beside the results,
//! the link to the next lab on the course path, and the embed options that hide the controls.

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
    // Before the controls and results are built: they register in it (the share panel lists them).
    crate::widgets::parts::PageParts::provide();
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
        // The headline is the section's own child, not the intro's, so that on a phone it can stay in
        // view (sticky) while the controls far below it are edited.
        <section class="lab" aria-labelledby=heading_id>
            <header class="lab-intro">
                <h2 id=heading_id>{title}</h2>
            </header>
            <Headline text=headline />
            // On paper the link is the parameters: it restores every setting.
            <p class="print-only print-link">
                {move || format!("Settings: {}?{}", url.page_url(),
                    dp_playground::link::embed::full_view(&url.query.get()).to_query_string())}
            </p>
            <div class="lab-lead">
                <button type="button" class="small jump-controls" data-testid="jump-controls"
                    hidden=move || !url.options.with(|o| o.shows_controls_panel())
                    on:click=move |_| jump_to_controls()>
                    "Parameters ↓"
                </button>
                {intro.run()}
                <ResetButton />
            </div>
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
            <Exercise />
            <div class="lab-grid">
                {aside}
                <div class="results">{children()}</div>
            </div>
            <NextLab />
        </section>
    }
}

/// A lab opened from a problem set's exercise (`task=key:variant`): a line leading back to it, where
/// the question is and the answer is checked; with `look=`, what answers it brought into view. Nothing
/// of the exercise is computed here, so no lab's module carries the exercises' code.
#[component]
fn Exercise() -> impl IntoView {
    let url = use_url();
    // Read once, at load: a slider move must neither render it again nor scroll again.
    let value = url
        .query
        .with_untracked(|q| q.get("task").map(|v| v.trim().to_owned()))?;
    let key = value.split(':').next().unwrap_or_default().to_owned();
    let known = dp_playground::course::KEYS.iter().any(|(k, _)| *k == key);
    let back = url.href_to(&format!("tasks={value}"));
    // A hint's link names what answers the question (`look=`): brought into view once the lab's
    // staged sections are in.
    if let Some(target) = url
        .query
        .with_untracked(|q| q.get("look").map(str::to_owned))
    {
        set_timeout(
            move || crate::platform::browser::bring_into_view(&target),
            std::time::Duration::from_millis(700),
        );
    }
    let says = if known {
        "this lab starts from its settings. "
    } else {
        "this playground has no exercise of that name. "
    };
    Some(view! {
        <p class="task" data-testid="exercise">
            <strong>"Exercise "</strong><code>{value}</code>": "{says}
            <a href=back rel="external" data-testid="exercise-answer" hidden=!known>"Back to the question, to answer it →"</a>
        </p>
    })
}

/// "Next: …", the lab after this one on the course path ([`dp_playground::labs::Lab::next`]), with
/// the line saying what it shows. Not in an embed (the course page around it leads the way).
#[component]
fn NextLab() -> impl IntoView {
    use dp_playground::labs::Lab;
    let url = use_url();
    let lab = url
        .query
        .with_untracked(|q| Lab::from_query(q, &mut Vec::new()));
    // The next lab, or after the last one the landing view; one view for both (each branch of a
    // view is code in every lab's module).
    let (to, testid, before, label, after) = match lab.next() {
        Some(next) => (
            next,
            "next-lab",
            "",
            format!("Next: {} →", next.title()),
            format!(" {}", next.what_you_see()),
        ),
        None if lab.group() == Some(dp_playground::labs::path::Group::Course) => (
            Lab::Start,
            "next-lab-end",
            "This is the last lab of the course path. ",
            "Back to the start".to_string(),
            ", or on to the papers' labs and the About page's formulas.".to_string(),
        ),
        None => return None,
    };
    // A lab another page module holds opens with a page load (as in the navigation).
    let external = use_context::<crate::labs::Labs>()
        .is_some_and(|l| !l.has(to))
        .then_some("external");
    // The link carries the view options, fixed at load like the lab.
    let href = url
        .query
        .with_untracked(|q| url.href_to(&Lab::link_to(q, to).to_query_string()));
    let embed = url.options.with_untracked(|o| o.embed);
    Some(view! {
        <nav class="next-lab" aria-label="Course path" hidden=embed>
            <p>{before}<a href=href rel=external data-testid=testid>{label}</a>{after}</p>
        </nav>
    })
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
