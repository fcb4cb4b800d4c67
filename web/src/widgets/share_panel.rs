//! The share panel every lab carries: the link to this view, a ready `<iframe>` for a course page, the
//! host page's resizer, the key numbers as Markdown, and (where one exists) a snippet that checks our
//! numbers with a library people already use. Everything updates as the view changes, while the panel
//! is open: closed, it computes nothing (a slider move paid about 1 ms for texts nobody saw), and until
//! first opened its contents are not built (five text areas in every lab's first render and layout).

use crate::platform::browser::copy_text;
use crate::platform::url::use_url;
use dp_playground::labs::Lab;
use dp_playground::link::embed::{full_view, iframe_snippet, with_embed_choices, HOST_SCRIPT};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The lab's current height in CSS pixels (its `section.lab`), for the embed snippet.
fn lab_height() -> Option<u32> {
    let section = web_sys::window()?
        .document()?
        .query_selector("section.lab")
        .ok()??;
    let height = section.get_bounding_client_rect().height().ceil();
    (height > 0.0).then_some(height as u32)
}

/// The share panel of `lab`.
#[component]
pub fn SharePanel(
    /// The lab (for the iframe's title and height).
    lab: Lab,
    /// The lab's key numbers and parameters as a Markdown table.
    markdown: Signal<String>,
    /// A snippet reproducing a number with another library: (what it is, the code).
    #[prop(optional)]
    snippet: Option<Signal<(String, String)>>,
) -> impl IntoView {
    let url = use_url();
    let open = RwSignal::new(false);
    let opened = RwSignal::new(false);
    let when_open = move |text: Signal<String>| {
        Signal::derive(move || {
            if open.get() {
                text.get()
            } else {
                String::new()
            }
        })
    };
    let markdown = when_open(markdown);
    let link = when_open(Signal::derive(move || {
        format!(
            "{}?{}",
            url.page_url(),
            full_view(&url.query.get()).to_query_string()
        )
    }));
    // The embed's choices start from what the page has (its controls= and lock=), and write into the
    // snippet only; the page itself keeps every control. Its height is the lab's current height (the
    // host script fits it exactly; without it, this is what shows).
    let all_keys: Vec<String> = lab.keys().into_iter().map(str::to_owned).collect();
    let shown = RwSignal::new(url.options.with_untracked(|o| {
        all_keys
            .iter()
            .filter(|k| o.shows(k))
            .cloned()
            .collect::<Vec<_>>()
    }));
    let read_only = RwSignal::new(url.options.with_untracked(|o| o.locked));
    let embed_query = Signal::derive({
        let all_keys = all_keys.clone();
        move || with_embed_choices(&url.query.get(), &shown.get(), &all_keys, read_only.get())
    });
    let iframe = when_open(Signal::derive(move || {
        iframe_snippet(&url.page_url(), &embed_query.get(), lab, lab_height())
    }));
    let checklist = {
        let all_keys = all_keys.clone();
        move || {
            all_keys
                .iter()
                .map(|key| {
                    let key = key.clone();
                    let k = key.clone();
                    let checked = move || shown.with(|s| s.contains(&k));
                    let k = key.clone();
                    let toggle = move |ev: leptos::ev::Event| {
                        let on = event_target_checked(&ev);
                        shown.update(|s| {
                            s.retain(|x| *x != k);
                            if on {
                                s.push(k.clone());
                            }
                        });
                    };
                    view! {
                        <label class="check">
                            <input type="checkbox" data-testid=format!("share-control-{key}")
                                prop:checked=checked on:change=toggle />
                            <code>{key.clone()}</code>
                        </label>
                    }
                })
                .collect_view()
        }
    };
    let controls_hint = move || {
        format!(
            "Tick the controls the embedded lab shows (this lab's: {}); the rest keep their values from \
             the link. Paste the snippet where the lab should appear.",
            lab.keys().join(", ")
        )
    };
    let snippet_view = move || {
        snippet.map(|s| {
            view! {
                <h4>{move || open.get().then(|| s.with(|s| s.0.clone()))}</h4>
                <CopyBlock id="share-snippet" text=when_open(Signal::derive(move || s.get().1)) rows=5 />
            }
        })
    };
    let contents = move || {
        opened.get().then(|| {
            view! {
                <h4>"Link to this view"</h4>
                <CopyBlock id="share-link" text=link rows=2 />
                <h4>"Embed in a course page"</h4>
                <p class="help" data-testid="share-controls-hint">{controls_hint}</p>
                <fieldset class="embed-choices">
                    <legend>"Controls shown in the embed"</legend>
                    {checklist.clone()}
                    <label class="check read-only">
                        <input type="checkbox" data-testid="share-read-only"
                            prop:checked=move || read_only.get()
                            on:change=move |ev| read_only.set(event_target_checked(&ev)) />
                        "Read-only (a figure: controls shown but disabled)"
                    </label>
                </fieldset>
                <CopyBlock id="share-iframe" text=iframe rows=3 />
                <p class="help">"Once per page, these three lines let each embedded lab set its own height:"</p>
                <CopyBlock id="share-host-script" text=Signal::stored(HOST_SCRIPT.to_string()) rows=4 />
                <h4>"The numbers, for slides and notes (Markdown)"</h4>
                <CopyBlock id="share-markdown" text=markdown rows=8 />
                {snippet_view()}
            }
        })
    };
    view! {
        <details class="share" data-testid="share-panel" hidden=move || url.options.with(|o| o.embed)
            on:toggle=move |ev| {
                let now = event_target::<web_sys::HtmlDetailsElement>(&ev).open();
                opened.update(|o| *o |= now);
                open.set(now);
            }>
            <summary data-testid="share-open">"Share, embed and export"</summary>
            {contents}
        </details>
    }
}

/// A read-only text area with a copy button.
#[component]
fn CopyBlock(
    /// Test id of the text (the button is `{id}-copy`).
    id: &'static str,
    /// The text.
    text: Signal<String>,
    /// Visible rows.
    rows: u32,
) -> impl IntoView {
    let status = RwSignal::new("");
    let copy = move |_| {
        let t = text.get_untracked();
        spawn_local(async move {
            status.set(if copy_text(t).await {
                "Copied."
            } else {
                "Select the text and copy it."
            });
        });
    };
    view! {
        <div class="copy-block">
            <textarea readonly rows=rows data-testid=id aria-label=id.replace('-', " ") prop:value=move || text.get()></textarea>
            <div class="copy-row">
                <button type="button" class="small" data-testid=format!("{id}-copy") on:click=copy>"Copy"</button>
                <span role="status">{move || status.get()}</span>
            </div>
        </div>
    }
}
