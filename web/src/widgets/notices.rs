//! What a link asked for that could not be used, and what the page uses instead.

use dp_playground::link::query::Notice;
use leptos::prelude::*;

/// The message about `key` among a lab's notices, if its value in the link was refused (what each
/// control shows beside itself).
pub fn notice_for(notices: Memo<Vec<Notice>>, key: &'static str) -> Signal<Option<Notice>> {
    Signal::derive(move || notices.with(|ns| ns.iter().find(|n| n.key == key).cloned()))
}

/// A list of notices (nothing when there are none).
#[component]
pub fn Notices(
    /// The notices to show.
    notices: Signal<Vec<Notice>>,
    /// The list's test id (a lab's own list beside the shell's).
    #[prop(default = "notices")]
    testid: &'static str,
) -> impl IntoView {
    view! {
        <Show when=move || !notices.with(Vec::is_empty)>
            <div class="notices" role="alert" data-testid=testid>
                <ul>
                    {move || {
                        notices
                            .get()
                            .into_iter()
                            .map(|n| view! { <li data-key=n.key>{n.message}</li> })
                            .collect_view()
                    }}
                </ul>
            </div>
        </Show>
    }
}
