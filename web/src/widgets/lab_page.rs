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

/// The exercise the link names (`task=key:variant`), when it is about this lab; a notice otherwise.
#[component]
fn Exercise() -> impl IntoView {
    use crate::widgets::task_card::TaskCard;
    use dp_playground::labs::Lab;
    let url = use_url();
    let name = RwSignal::new(String::new());
    move || {
        let (lab, value) = url.query.with(|q| {
            (
                Lab::from_query(q, &mut Vec::new()),
                q.get("task").map(str::to_owned),
            )
        });
        let value = value?;
        Some(match dp_playground::course::from_link(&value) {
            Ok(task) if task.lab == lab => view! {
                <div class="exercise" data-testid="exercise">
                    <TaskCard task=task name=name ask_name=true />
                </div>
            }
            .into_any(),
            Ok(task) => {
                let href = url.href_to(&task.link().to_query_string());
                view! {
                    <p class="notices" role="alert" data-testid="notice-task">
                        {format!("This exercise is about the {} lab: ", task.lab.title())}
                        <a href=href rel="external">"open it there"</a>"."
                    </p>
                }
                .into_any()
            }
            Err(message) => {
                view! { <p class="notices" role="alert" data-testid="notice-task">{message}</p> }
                    .into_any()
            }
        })
    }
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
    let embed = move || url.options.with(|o| o.embed);
    // A lab another page module holds opens with a page load (as in the navigation).
    let labs = use_context::<crate::labs::Labs>();
    let external = move |to: Lab| labs.is_some_and(|l| !l.has(to)).then_some("external");
    let next = match lab.next() {
        Some(next) => {
            let href = move || url.href_with(|q| *q = Lab::link_to(q, next));
            view! {
                <p>
                    <a href=href rel=external(next) data-testid="next-lab">{format!("Next: {} →", next.title())}</a>
                    " "{next.what_you_see()}
                </p>
            }
            .into_any()
        }
        None if lab.group() == Some(dp_playground::labs::path::Group::Course) => {
            let start = move || url.href_with(|q| *q = Lab::link_to(q, Lab::Start));
            view! {
                <p data-testid="next-lab-end">
                    "This is the last lab of the course path. "
                    <a href=start rel=external(Lab::Start)>"Back to the start"</a>
                    ", or on to the papers' labs and the About page's formulas."
                </p>
            }
            .into_any()
        }
        None => return None,
    };
    Some(view! { <nav class="next-lab" aria-label="Course path" hidden=embed>{next}</nav> })
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
