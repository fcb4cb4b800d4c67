//! The landing view (the bare address, `?lab=start`): what the playground is, and the course path
//! through its labs, from the core's [`dp_playground::labs::path`].

use crate::platform::url::use_url;
use dp_playground::labs::path::{Group, GROUPS};
use dp_playground::labs::Lab;
use leptos::prelude::*;

/// The landing view: two sentences, then each group of labs as a list of links, each with the line
/// saying what a student sees there (the course path numbered, in its order).
#[component]
pub fn Start() -> impl IntoView {
    let url = use_url();
    let labs = use_context::<crate::labs::Labs>();
    let item = move |lab: Lab| {
        let href = move || url.href_with(|q| *q = Lab::link_to(q, lab));
        view! {
            <li data-testid=format!("start-{}", lab.key())>
                <a href=href rel=labs.is_some_and(|l| !l.has(lab)).then_some("external")>{lab.title()}</a>
                ": "{lab.what_you_see()}
            </li>
        }
    };
    let groups = GROUPS
        .iter()
        .map(|&(group, members)| {
            let list = members.iter().map(|&lab| item(lab)).collect_view();
            let list = if group == Group::Course {
                view! { <ol class="path">{list}</ol> }.into_any()
            } else {
                view! { <ul class="path">{list}</ul> }.into_any()
            };
            let heading = format!("start-{}-title", group.key());
            view! {
                <section class="path-group" aria-labelledby=format!("start-{}-title", group.key()) data-testid=format!("start-group-{}", group.key())>
                    <h3 id=heading>{group.title()}</h3>
                    {(group == Group::Course).then(|| view! {
                        <p class="help">"The order of an introductory course: each lab ends with a link to the next."</p>
                    })}
                    {list}
                </section>
            }
        })
        .collect_view();
    view! {
        <section class="lab start" aria-labelledby="start-title" data-testid="start">
            <h2 id="start-title">"Differential privacy you can move"</h2>
            <p class="lead">
                "dp-playground lets you change the parameters of differentially private algorithms and see "
                "at once what they cost in privacy and in accuracy, with numbers certified the way a "
                "published guarantee must be. Everything runs in your browser, and every setting lives in "
                "the page's address: a link shows others exactly what you see."
            </p>
            {groups}
            <p class="help">
                "Teaching with it? Every lab's \"Share, embed and export\" panel builds an embed for a course "
                "page (with the controls and charts you choose) and a link that reproduces the view. The "
                "Teaching page lists exercises the page checks, builds problem sets and reads students' answer codes."
            </p>
        </section>
    }
}
