//! The share panel every lab carries: the link to this view, a ready `<iframe>` for a course page, the
//! host page's resizer, the key numbers as Markdown, and (where one exists) a snippet that checks our
//! numbers with a library people already use. Everything updates as the view changes, while the panel
//! is open: closed, it computes nothing (a slider move paid about 1 ms for texts nobody saw), and until
//! first opened its contents are not built (five text areas in every lab's first render and layout).

use crate::platform::browser::copy_text;
use crate::platform::column_probe::ColumnProbe;
use crate::platform::url::use_url;
use crate::widgets::parts::{Entry, PageParts};
use dp_playground::labs::Lab;
use dp_playground::link::embed::{
    embed_src, full_view, iframe_snippet, with_embed_choices, with_part_choices, COLUMN_WIDTH,
    HOST_SCRIPT,
};
use leptos::prelude::*;
use leptos::task::spawn_local;

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
    // The embed's choices start from what the page has (its controls=, show=, course= and lock=), and
    // write into the snippet only; the page itself keeps everything. The lists are what the page
    // registered (crate::widgets::parts): each control and part that exists, by its label.
    // The lab page provides the registry; a page without one (the WDP lab's figures) gets its own.
    let parts = use_context::<PageParts>().unwrap_or_else(PageParts::provide);
    let (controls, sections) = (parts.controls, parts.parts);
    // `None`: the default (every control; every part but the course material, unless the link
    // keeps it: the author sees it in the full playground, but ticking it is a choice, not a default).
    let chosen_controls = RwSignal::new(url.options.with_untracked(|o| o.controls.clone()));
    let chosen_parts = RwSignal::new(url.options.with_untracked(|o| o.show.clone()));
    let keep_course = url.options.with_untracked(|o| o.course);
    let read_only = RwSignal::new(url.options.with_untracked(|o| o.locked));
    let embed_query = Signal::derive(move || {
        let (all, shown) = ticked(&controls.get(), &chosen_controls.get(), keep_course);
        let q = with_embed_choices(&url.query.get(), &shown, &all, read_only.get());
        let every = sections.get();
        let (_, shown) = ticked(&every, &chosen_parts.get(), keep_course);
        let all: Vec<(String, bool)> = every.into_iter().map(|e| (e.key, e.course)).collect();
        with_part_choices(&q, &shown, &all)
    });
    // The snippet's height: the embed's own, measured in a hidden iframe as wide as a course page's
    // column, a moment after the choices settle.
    // `i32`, the chart canvases' width type: a signal of a type the module already has costs no code.
    let measured = RwSignal::new(None::<i32>);
    let probe = StoredValue::new_local(None::<ColumnProbe>);
    let generation = StoredValue::new(0u32);
    Effect::new(move |_| {
        let src = embed_src(&url.page_url(), &embed_query.get());
        generation.update_value(|g| *g += 1);
        probe.update_value(|p| *p = None);
        measured.set(None);
        if !open.get() {
            return;
        }
        let mine = generation.get_value();
        set_timeout(
            move || {
                if generation.try_get_value() == Some(mine) {
                    let seen = move |h: u32| {
                        measured.try_set(i32::try_from(h).ok());
                    };
                    probe.try_update_value(|p| *p = ColumnProbe::new(&src, COLUMN_WIDTH, seen));
                }
            },
            std::time::Duration::from_millis(400),
        );
    });
    on_cleanup(move || {
        probe.try_update_value(|p| *p = None);
    });
    let iframe = when_open(Signal::derive(move || {
        iframe_snippet(
            &url.page_url(),
            &embed_query.get(),
            lab,
            measured.get().map(|h| h.unsigned_abs()),
        )
    }));
    let height_note = move || match measured.get() {
        Some(h) => {
            format!("Its height, {h} px, is the embed's in a {COLUMN_WIDTH} px course column.")
        }
        None => format!("Measuring its height in a {COLUMN_WIDTH} px course column…"),
    };
    let controls_hint = "Tick what the embedded lab shows: the controls a student may move (the rest keep \
        their values from the link) and the sections and charts. Paste the snippet where the lab should appear.";
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
                <fieldset class="embed-choices" data-testid="share-controls">
                    <legend>"Controls shown in the embed"</legend>
                    <Checklist prefix="share-control" entries=controls chosen=chosen_controls keep_course=keep_course />
                    <label class="check read-only">
                        <input type="checkbox" data-testid="share-read-only"
                            prop:checked=move || read_only.get()
                            on:change=move |ev| read_only.set(event_target_checked(&ev)) />
                        "Read-only (a figure: controls shown but disabled)"
                    </label>
                </fieldset>
                <fieldset class="embed-choices" data-testid="share-parts">
                    <legend>"Sections and charts shown in the embed"</legend>
                    <Checklist prefix="share-part" entries=sections chosen=chosen_parts keep_course=keep_course />
                </fieldset>
                <CopyBlock id="share-iframe" text=iframe rows=3 />
                <p class="help" data-testid="share-iframe-height" data-value=move || measured.get().map(|h| h.to_string())>{height_note}</p>
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

/// Every entry's key, and the ticked ones: those `chosen` lists, or by default all but the course
/// material (unless `keep_course`).
fn ticked(
    entries: &[Entry],
    chosen: &Option<Vec<String>>,
    keep_course: bool,
) -> (Vec<String>, Vec<String>) {
    let all: Vec<String> = entries.iter().map(|e| e.key.clone()).collect();
    let shown = entries
        .iter()
        .filter(|e| match chosen {
            Some(c) => c.contains(&e.key),
            None => !e.course || keep_course,
        })
        .map(|e| e.key.clone())
        .collect();
    (all, shown)
}

/// A checkbox per entry (its label; "(course material)" where it is), writing `chosen` (the first
/// change fixes the list from the default ticks).
#[component]
fn Checklist(
    /// Test id prefix (`share-control`: ids `share-control-{key}`).
    prefix: &'static str,
    /// What the page registered.
    entries: RwSignal<Vec<Entry>>,
    /// The ticked keys (`None`: the default).
    chosen: RwSignal<Option<Vec<String>>>,
    /// Whether course material is ticked by default.
    keep_course: bool,
) -> impl IntoView {
    move || {
        entries
            .get()
            .into_iter()
            .map(|e| {
                let key = e.key.clone();
                let on = {
                    let key = key.clone();
                    move || ticked(&entries.get(), &chosen.get(), keep_course).1.contains(&key)
                };
                let toggle = {
                    let key = key.clone();
                    move |ev: leptos::ev::Event| {
                        let now = ticked(&entries.get_untracked(), &chosen.get_untracked(), keep_course).1;
                        let mut list: Vec<String> = now.into_iter().filter(|k| *k != key).collect();
                        if event_target_checked(&ev) {
                            list.push(key.clone());
                        }
                        chosen.set(Some(list));
                    }
                };
                let label = if e.course { format!("{} (course material)", e.label) } else { e.label };
                view! {
                    <label class="check" title=key.clone()>
                        <input type="checkbox" data-testid=format!("{prefix}-{key}") prop:checked=on on:change=toggle />
                        {label}
                    </label>
                }
            })
            .collect_view()
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
