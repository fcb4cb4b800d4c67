//! The site header: the project's name, the navigation between labs and the "Copy link" button.

use crate::labs::Labs;
use crate::platform::url::use_url;
use crate::widgets::copy_link::CopyLink;
use dp_playground::labs::Lab;
use leptos::prelude::*;

/// Header with one navigation link per lab. A link carries the view options and the keys both labs
/// read with the same meaning ([`Lab::link_to`]), never another lab's settings (Back returns to them).
/// A lab another page module holds opens with a page load.
#[component]
pub fn SiteHeader(
    /// The lab shown now (marked in the navigation).
    current: Signal<Lab>,
) -> impl IntoView {
    let url = use_url();
    let labs = use_context::<Labs>();
    view! {
        <header class="site-header">
            <div class="brand">
                <span class="logo" aria-hidden="true">"ε"</span>
                <div>
                    <h1>"dp-playground"</h1>
                    <p class="tagline">"Differential privacy you can move, in your browser."</p>
                </div>
            </div>
            <nav aria-label="Labs">
                {Lab::ALL
                    .into_iter()
                    .map(|lab| {
                        let href = move || url.href_with(|q| *q = Lab::link_to(q, lab));
                        let is_current = move || current.get() == lab;
                        view! {
                            <a
                                href=href
                                rel=labs.is_some_and(|l| !l.has(lab)).then_some("external")
                                data-testid=format!("nav-{}", lab.key())
                                class:current=is_current
                                aria-current=move || is_current().then_some("page")
                            >
                                {lab.title()}
                            </a>
                        }
                    })
                    .collect_view()}
            </nav>
            <CopyLink />
        </header>
    }
}
