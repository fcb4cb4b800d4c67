//! "Copy link": copies the current address, which holds every parameter of the view.

use crate::platform::browser::{copy_text, current_href};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// A button that copies the page's address; says whether it worked, and shows the link to copy by hand
/// when the clipboard is not available (an insecure origin, an old browser).
#[component]
pub fn CopyLink() -> impl IntoView {
    let status = RwSignal::new(None::<Result<(), String>>);
    let copy = move |_| {
        let href = current_href();
        spawn_local(async move {
            let ok = copy_text(href.clone()).await;
            status.set(Some(if ok { Ok(()) } else { Err(href) }));
        });
    };
    view! {
        <div class="copy-link">
            <button type="button" data-testid="copy-link" on:click=copy>
                "Copy link"
            </button>
            <span role="status" class="copy-status">
                {move || match status.get() {
                    None => ().into_any(),
                    Some(Ok(())) => view! { "Link copied." }.into_any(),
                    Some(Err(href)) => {
                        view! {
                            "Copy this link: "
                            <input readonly aria-label="Link to this view" value=href />
                        }
                            .into_any()
                    }
                }}
            </span>
        </div>
    }
}
