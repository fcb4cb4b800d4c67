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
    let sheet = url
        .query
        .with_untracked(|q| q.get("tasks").map(str::to_owned));
    if let Some(list) = sheet {
        return view! { <ProblemSet list=list /> }.into_any();
    }
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
                "About page lists exercises the page checks, builds problem sets and reads students' answer codes."
            </p>
        </section>
    }
    .into_any()
}

/// A problem set (`tasks=a,b&seed=7`, and `vary=student` for one per student): each exercise in the
/// variant the seed (and the student's name) draws, answered and checked here, each with the code to
/// hand in.
#[component]
fn ProblemSet(list: String) -> impl IntoView {
    use crate::widgets::task_card::{StudentName, TaskCard};
    let url = use_url();
    let (seed, per_student) = url.query.with_untracked(|q| {
        (
            q.get("seed").unwrap_or("0").to_owned(),
            q.get("vary").is_some_and(|v| v.trim() == "student"),
        )
    });
    let name = RwSignal::new(String::new());
    // The name draws the exercises only when each student gets their own (otherwise typing it must
    // not draw the sheet again and clear the answers).
    let drawn = Memo::new(move |_| {
        let n = if per_student {
            name.get()
        } else {
            String::new()
        };
        let who = (!n.trim().is_empty()).then_some(n.as_str());
        dp_playground::course::sheet(&list, &seed, who)
    });
    let help = if per_student {
        "Your exercises are drawn from your name: type it first. Your answer codes carry it."
    } else {
        "Your answer codes carry it, so that your teacher can tell they are yours."
    };
    view! {
        <section class="lab start" aria-labelledby="sheet-title" data-testid="problem-set">
            <h2 id="sheet-title">"Problem set"</h2>
            <p>"Answer each exercise with the lab it names; the page checks your answer. Hand in the answer codes."</p>
            <StudentName name=name help=help />
            {move || drawn.with(|(_, unknown)| (!unknown.is_empty()).then(|| view! {
                <p class="notices" role="alert" data-testid="notice-tasks">
                    {format!("tasks = … names exercises this playground does not have: {}.", unknown.join(", "))}
                </p>
            }))}
            {move || {
                drawn.get().0.into_iter().enumerate().map(|(i, task)| view! {
                    <TaskCard task=task number=i + 1 name=name link_to_lab=true />
                }).collect_view()
            }}
        </section>
    }
}
