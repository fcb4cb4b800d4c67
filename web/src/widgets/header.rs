//! The site header: the project's name (a link to the landing view), the navigation between labs in
//! the course path's groups, and the "Copy link" button.

use crate::labs::Labs;
use crate::platform::url::use_url;
use crate::widgets::copy_link::CopyLink;
use dp_playground::labs::path::GROUPS;
use dp_playground::labs::Lab;
use leptos::prelude::*;

/// Header with one navigation link per lab, grouped as the course path groups them
/// ([`dp_playground::labs::path::GROUPS`]). A link carries the view options and the keys both labs
/// read with the same meaning ([`Lab::link_to`]), never another lab's settings (Back returns to them).
/// A lab another page module holds opens with a page load.
#[component]
pub fn SiteHeader(
    /// The lab shown now (marked in the navigation).
    current: Signal<Lab>,
) -> impl IntoView {
    let url = use_url();
    let labs = use_context::<Labs>();
    let start = move || url.href_with(|q| *q = Lab::link_to(q, Lab::Start));
    view! {
        <header class="site-header">
            <a class="brand" href=start rel=labs.is_some_and(|l| !l.has(Lab::Start)).then_some("external")
                data-testid="nav-start" aria-current=move || (current.get() == Lab::Start).then_some("page")>
                <span class="logo" aria-hidden="true">"ε"</span>
                <span>
                    <h1>"dp-playground"</h1>
                    <span class="tagline">"Differential privacy you can move, in your browser."</span>
                </span>
            </a>
            // One list of links, each group's first marked (a rule before it): a nested view per group
            // cost every lab's module a second copy of the link's code.
            <nav aria-label="Labs">
                {GROUPS
                    .iter()
                    .flat_map(|(group, members)| members.iter().enumerate().map(move |(i, &lab)| (group.key(), i == 0, lab)))
                    .map(|(group, first, lab)| {
                        let href = move || url.href_with(|q| *q = Lab::link_to(q, lab));
                        let is_current = move || current.get() == lab;
                        view! {
                            <a
                                href=href
                                rel=labs.is_some_and(|l| !l.has(lab)).then_some("external")
                                data-testid=format!("nav-{}", lab.key())
                                data-group=group
                                class:group-start=first
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
