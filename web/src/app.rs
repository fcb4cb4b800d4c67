//! The app shell: header, navigation between labs, the notices a link produced, and the open lab.

use crate::labs::Labs;
use crate::platform::url::UrlState;
use crate::widgets::{header::SiteHeader, notices::Notices};
use dp_playground::labs::Lab;
use leptos::prelude::*;

/// The whole playground, showing the labs this page module holds.
#[component]
pub fn App(labs: Labs) -> impl IntoView {
    provide_context(labs);
    view! { <Shell labs=labs /> }
}

/// Everything the page shows: the URL is read here once and shared as context.
#[component]
fn Shell(labs: Labs) -> impl IntoView {
    let url = UrlState::from_window();
    provide_context(url);
    let lab = Memo::new(move |_| {
        let mut notices = Vec::new();
        (Lab::from_query(&url.query.get(), &mut notices), notices)
    });
    let lab_notices = Signal::derive(move || lab.get().1);
    // Each tab names its lab (issue 29: every tab was titled the same).
    Effect::new(move |_| {
        let title = format!("{} · dp-playground", lab.get().0.title());
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            doc.set_title(&title);
        }
    });
    let embed = move || url.options.with(|o| o.embed);
    Effect::new(move |done: Option<bool>| {
        // Once: an embedded view keeps its parent informed of its height.
        if done != Some(true) && embed() {
            crate::platform::browser::report_height_to_parent();
            return true;
        }
        done.unwrap_or(false)
    });
    let full_href = move || url.href_with(|q| *q = dp_playground::link::embed::full_view(q));
    view! {
        <a class="skip-link" href="#main" hidden=embed>"Skip to the lab"</a>
        <Show
            when=embed
            fallback=move || view! { <SiteHeader current=Signal::derive(move || lab.get().0) /> }
        >
            // An embed has no site header: its page still has a banner with one top-level heading (for
            // screen readers' heading lists, seen by them only) and the way out to the full playground.
            <header class="embed-header">
                <h1 class="visually-hidden">{move || format!("dp-playground: {}", lab.get().0.title())}</h1>
                <a class="open-full" href=full_href target="_blank" rel="noopener" data-testid="open-full">
                    "Open in the full playground ↗"
                </a>
            </header>
        </Show>
        <main id="main" tabindex="-1" class:embed=embed>
            <Notices notices=lab_notices />
            {move || {
                let lab = lab.get().0;
                if labs.has(lab) {
                    (labs.render)(lab)
                } else {
                    // A link inside a lab led to a lab another module holds: load the page again.
                    crate::platform::browser::load_module_for(lab.key());
                    view! { <p class="loading">"Opening " {lab.title()} "…"</p> }.into_any()
                }
            }}
        </main>
    }
}
