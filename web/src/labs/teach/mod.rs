//! The teaching view (`?lab=teach`): the exercises, a problem-set builder and the answer-code reader;
//! with `tasks=` (also from the bare address) the problem set a student answers. Its own page module:
//! it links every exercise's maths, which no other page needs.

mod exercises;
mod runs;
mod task_card;

use crate::platform::url::use_url;
use exercises::Exercises;
use leptos::prelude::*;

/// The problem set when the link names one, the teacher's view otherwise.
#[component]
pub fn Teach() -> impl IntoView {
    let url = use_url();
    match url
        .query
        .with_untracked(|q| q.get("tasks").map(str::to_owned))
    {
        Some(list) => view! { <ProblemSet list=list /> }.into_any(),
        None => view! {
            <section class="lab about" aria-labelledby="teach-title" data-testid="teach">
                <h2 id="teach-title">"Teaching with dp-playground"</h2>
                <Exercises />
            </section>
        }
        .into_any(),
    }
}

/// A problem set (`tasks=a,b&seed=7`, and `vary=student` for one per student): each exercise in the
/// variant the seed (and the student's name) draws, answered and checked here, each with the code to
/// hand in.
#[component]
fn ProblemSet(list: String) -> impl IntoView {
    use task_card::{StudentName, TaskCard};
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
                    <TaskCard task=task number=i + 1 name=name />
                }).collect_view()
            }}
        </section>
    }
}
