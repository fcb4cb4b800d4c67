//! An exercise ([`dp_playground::course`]): the question, an answer field the page checks with the
//! core's computation, the link to the lab that answers it, its hint, and the answer code to hand in:
//! one per exercise on the teaching view's problem set (`tasks=`). A lab (`task=` in its link) shows
//! only the question and links here, so that no lab's module carries the card and the codes.

use crate::platform::url::use_url;
use dp_playground::course::code::Answer;
use dp_playground::course::Task;
use dp_playground::link::format::read_shown;
use leptos::prelude::*;

/// One exercise. `name` is the student's name, bound into the answer code.
#[component]
pub fn TaskCard(
    /// The exercise.
    task: Task,
    /// Its number on a sheet (`None` in a lab).
    #[prop(optional)]
    number: Option<usize>,
    /// The student's name (the code carries 16 bits of it).
    name: RwSignal<String>,
) -> impl IntoView {
    let url = use_url();
    let id = format!("task-{}", task.key);
    let typed = RwSignal::new(String::new());
    // The answer checked last, and whether it was right.
    let checked = RwSignal::new(None::<(f64, bool)>);
    // A task answered by a training run: the run is under way, or it failed.
    let running = RwSignal::new(false);
    let failed = RwSignal::new(None::<String>);
    let hint_open = RwSignal::new(false);
    let task = StoredValue::new(task);
    let check = move || {
        let Some(v) = read_shown(&typed.get_untracked()) else {
            checked.set(None);
            return;
        };
        if !task.with_value(Task::needs_run) {
            checked.set(Some((v, task.with_value(|t| t.is_right(v)))));
            return;
        }
        if running.get_untracked() {
            return;
        }
        running.set(true);
        failed.set(None);
        leptos::task::spawn_local(async move {
            match super::runs::settle(task.get_value()).await {
                Ok(t) => {
                    let right = t.is_right(v);
                    task.set_value(t);
                    // The answer may have changed while the run ran: check the one typed now.
                    if read_shown(&typed.get_untracked()) == Some(v) {
                        checked.set(Some((v, right)));
                    }
                }
                Err(e) => failed.set(Some(e)),
            }
            running.set(false);
        });
    };
    let verdict = move || match checked.get() {
        _ if running.get() => Some((
            "task-verdict",
            "Running the exercise's training run to check your answer…".to_string(),
        )),
        _ if failed.with(Option::is_some) => Some((
            "task-verdict wrong",
            format!(
                "The check's training run failed: {}",
                failed.get().unwrap_or_default()
            ),
        )),
        None if !typed.with(|t| t.trim().is_empty()) && read_shown(&typed.get()).is_none() => {
            Some(("task-verdict wrong", "That is not a number.".to_string()))
        }
        None => None,
        Some((_, true)) => Some(("task-verdict right", "Right.".to_string())),
        Some((_, false)) => Some((
            "task-verdict wrong",
            "Not yet: try again, or open the hint.".to_string(),
        )),
    };
    let answer_code = move || {
        checked.get().map(|(v, _)| {
            let n = name.get();
            task.with_value(|t| Answer::new(t, v, &n).code())
        })
    };
    let show_hint = move |_| hint_open.set(true);
    let locked = move || url.options.with(|o| o.locked);
    let heading = task.with_value(|t| match number {
        Some(n) => format!("Exercise {n}: {}", t.lab.title()),
        None => "Exercise".to_string(),
    });
    let lab_href = task.with_value(|t| url.href_to(&t.link().to_query_string()));
    let look_href =
        task.with_value(|t| url.href_to(&t.link().with("look", t.hint_target).to_query_string()));
    view! {
        <section class="task" aria-labelledby=format!("{id}-title") data-testid=id.clone()
            data-variant=task.with_value(|t| t.variant.to_string())>
            <h3 id=format!("{id}-title")>{heading}</h3>
            <p class="task-question" data-testid=format!("{id}-question")>{task.with_value(|t| t.question.clone())}</p>
            <p><a href=lab_href rel="external" target="_blank" data-testid=format!("{id}-open")>"Open it in the lab ↗"</a></p>
            <div class="task-answer">
                <label for=format!("{id}-answer")>{task.with_value(|t| format!("Your answer ({})", t.answer))}</label>
                <input id=format!("{id}-answer") type="text" inputmode="decimal" autocomplete="off"
                    data-testid=format!("{id}-answer") disabled=locked
                    prop:value=move || typed.get()
                    on:input=move |ev| { typed.set(event_target_value(&ev)); checked.set(None); }
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Enter" { check() } />
                <button type="button" data-testid=format!("{id}-check") disabled=locked on:click=move |_| check()>"Check"</button>
                <button type="button" class="small" data-testid=format!("{id}-hint-button") disabled=locked on:click=show_hint>"Hint"</button>
            </div>
            <p role="status" class=move || verdict().map_or("task-verdict", |v| v.0) data-testid=format!("{id}-verdict")
                data-value=move || checked.get().map(|(_, right)| right.to_string())>
                {move || verdict().map(|v| v.1)}
            </p>
            <p class="help" hidden=move || !hint_open.get() data-testid=format!("{id}-hint")>
                {task.with_value(|t| t.hint)}" "
                <a href=look_href rel="external" target="_blank">"Show me in the lab ↗"</a>
            </p>
            <p class="task-code" hidden=move || checked.with(Option::is_none)>
                "Answer code to hand in: "
                <code data-testid=format!("{id}-code")>{answer_code}</code>
            </p>
        </section>
    }
}

/// The student's name, for the answer codes: one field, shared by every exercise on the page.
#[component]
pub fn StudentName(
    /// The name.
    name: RwSignal<String>,
    /// Why it is asked.
    help: &'static str,
) -> impl IntoView {
    view! {
        <div class="field task-name">
            <label for="task-student-name">"Your name"</label>
            <input id="task-student-name" type="text" autocomplete="name" data-testid="task-name"
                prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev)) />
            <p class="help">{help}</p>
        </div>
    }
}
