//! The app shell: header, navigation between labs, the notices a link produced, and the open lab.

use crate::components::{
    about::About, attack_lab::AttackLab, compose_lab::ComposeLab, dpsgd_lab::DpsgdLab,
    header::SiteHeader, mech_lab::MechLab, notices::Notices, rr_lab::RrLab,
    tangent_lab::TangentLab, wdp_lab::WdpLab,
};
use crate::url::UrlState;
use dp_playground::lab::Lab;
use leptos::prelude::*;
use leptos_router::components::Router;

/// The whole playground.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <Router>
            <Shell />
        </Router>
    }
}

/// Everything inside the router: the URL is read here once and shared as context.
#[component]
fn Shell() -> impl IntoView {
    let url = UrlState::from_router();
    provide_context(url);
    let lab = Memo::new(move |_| {
        let mut notices = Vec::new();
        (Lab::from_query(&url.query.get(), &mut notices), notices)
    });
    let lab_notices = Signal::derive(move || lab.get().1);
    let embed = move || url.options.with(|o| o.embed);
    Effect::new(move |done: Option<bool>| {
        // Once: an embedded view keeps its parent informed of its height.
        if done != Some(true) && embed() {
            crate::browser::report_height_to_parent();
            return true;
        }
        done.unwrap_or(false)
    });
    let full_href = move || url.href_with(|q| *q = dp_playground::embed::full_view(q));
    view! {
        <Show
            when=embed
            fallback=move || view! { <SiteHeader current=Signal::derive(move || lab.get().0) /> }
        >
            <a class="open-full" href=full_href target="_blank" rel="noopener" data-testid="open-full">
                "Open in the full playground ↗"
            </a>
        </Show>
        <main id="main" class:embed=embed>
            <Notices notices=lab_notices />
            {move || match lab.get().0 {
                Lab::RandomizedResponse => view! { <RrLab /> }.into_any(),
                Lab::Mechanisms => view! { <MechLab /> }.into_any(),
                Lab::Compose => view! { <ComposeLab /> }.into_any(),
                Lab::Dpsgd => view! { <DpsgdLab /> }.into_any(),
                Lab::Wdp => view! { <WdpLab /> }.into_any(),
                Lab::Tangent => view! { <TangentLab /> }.into_any(),
                Lab::Attack => view! { <AttackLab /> }.into_any(),
                Lab::About => view! { <About /> }.into_any(),
            }}
        </main>
    }
}
