//! The instructor's side of the exercises ([`dp_playground::course`]): every exercise with a sample,
//! a problem-set link builder, and the answer-code reader that tells right from wrong by drawing each
//! exercise again and checking it, with no list of answers.

use crate::platform::url::use_url;
use dp_playground::course::code::{name_tag, Answer};
use dp_playground::course::{Task, TASKS};
use dp_playground::link::query::Query;
use leptos::prelude::*;

/// The exercises, the problem-set builder and the code reader.
#[component]
pub fn Exercises() -> impl IntoView {
    let url = use_url();
    let chosen = RwSignal::new(TASKS.iter().map(|t| t.key).collect::<Vec<_>>());
    let seed = RwSignal::new("1".to_string());
    let per_student = RwSignal::new(false);
    let sheet = move || {
        let mut q = Query::default()
            .with("tasks", chosen.get().join(","))
            .with("seed", seed.get().trim().to_owned());
        if per_student.get() {
            q.set("vary", "student");
        }
        format!("{}?{}", url.page_url(), q.to_query_string())
    };
    let codes = RwSignal::new(String::new());
    // Exercises answered by a training run, settled by their runs (or the run's failure), and the
    // runs under way: each exercise's run runs once, whatever the number of codes that name it.
    let settled = RwSignal::new(Vec::<(Task, Option<String>)>::new());
    let pending = StoredValue::new(Vec::<(u8, u32)>::new());
    let read = move |line: &str| {
        // "Name, CODE" or "CODE".
        let (who, code) = line
            .rsplit_once(',')
            .map_or(("", line), |(n, c)| (n.trim(), c.trim()));
        (who.to_owned(), code.to_owned(), Answer::decode(code))
    };
    Effect::new(move |_| {
        for line in codes.get().lines().map(str::trim).filter(|l| !l.is_empty()) {
            let Ok(a) = read(line).2 else { continue };
            let task = a.task();
            let id = (task.index, task.variant);
            if !task.needs_run() || pending.with_value(|p| p.contains(&id)) {
                continue;
            }
            pending.update_value(|p| p.push(id));
            leptos::task::spawn_local(async move {
                let done = match super::runs::settle(task.clone()).await {
                    Ok(t) => (t, None),
                    Err(e) => (task, Some(e)),
                };
                settled.update(|s| s.push(done));
            });
        }
    });
    let rows = move || {
        codes
            .get()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|line| {
                let (who, code, decoded) = read(line);
                let (who, code) = (who.as_str(), code.as_str());
                let cells = match &decoded {
                    Ok(a) => {
                        let drawn = a.task();
                        let run = settled.with(|s| {
                            s.iter()
                                .find(|(t, _)| (t.index, t.variant) == (drawn.index, drawn.variant))
                                .cloned()
                        });
                        let (task, failed) = match run {
                            Some((t, e)) => (t, e),
                            None => (drawn, None),
                        };
                        let name = if who.is_empty() {
                            "—".to_string()
                        } else if name_tag(who) == a.name {
                            "matches".to_string()
                        } else {
                            "another name's code".to_string()
                        };
                        (
                            format!("{}:{}", task.key, task.variant),
                            a.value.to_string(),
                            if let Some(e) = failed {
                                format!("not checked: {e}")
                            } else if task.needs_run() {
                                "checking (training run)…".to_string()
                            } else if a.is_right(&task) {
                                "right".to_string()
                            } else {
                                "wrong".to_string()
                            },
                            name,
                        )
                    }
                    Err(e) => (e.clone(), String::new(), "unreadable".to_string(), String::new()),
                };
                let verdict = cells.2.clone();
                view! {
                    <tr data-testid="code-row" data-value=verdict>
                        <th scope="row">{if who.is_empty() { code.to_string() } else { format!("{who}: {code}") }}</th>
                        <td>{cells.0}</td><td>{cells.1}</td><td>{cells.2}</td><td>{cells.3}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    view! {
        <h3 id="exercises">"Exercises the page checks"</h3>
        <p>
            "Each exercise is answered on a problem set, which links to the lab that answers it and checks "
            "the answer with the playground's own computation. A problem set draws every exercise in a "
            "variant from its seed (the same for everyone), or from "
            "each student's name as well (one per student). Students hand in short answer codes; paste them "
            "below to see which answers are right. The codes are not a proof: without a server a student who "
            "reads the source can write one, and the page's Check button can be tried until it says right. "
            "They suit homework, not exams."
        </p>
        <div class="table-wrap" tabindex="0">
            <table class="results-table text-table" data-testid="about-exercises">
                <thead><tr><th scope="col">"exercise"</th><th scope="col">"lab"</th><th scope="col">"in its textbook variant"</th></tr></thead>
                <tbody>
                    {TASKS.iter().map(|def| {
                        let key = def.key;
                        let ticked = move || chosen.with(|c| c.contains(&key));
                        let toggle = move |ev: leptos::ev::Event| {
                            let on = event_target_checked(&ev);
                            chosen.update(|c| {
                                c.retain(|k| *k != key);
                                if on {
                                    // Kept in the course path's order.
                                    c.push(key);
                                    c.sort_by_key(|k| TASKS.iter().position(|t| t.key == *k));
                                }
                            });
                        };
                        let sample = def.task(0);
                        let href = url.href_to(&sample.link().to_query_string());
                        view! {
                            <tr>
                                <th scope="row">
                                    <label class="check">
                                        <input type="checkbox" data-testid=format!("exercise-pick-{key}") prop:checked=ticked on:change=toggle />
                                        <code>{key}</code>
                                    </label>
                                </th>
                                <td>{def.lab.title()}</td>
                                <td><a href=href rel="external">{sample.question}</a></td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
        <div class="field-row sheet-options">
            <label for="sheet-seed">"Seed"</label>
            <input id="sheet-seed" type="text" data-testid="sheet-seed" prop:value=move || seed.get()
                on:input=move |ev| seed.set(event_target_value(&ev)) />
            <label class="check">
                <input type="checkbox" data-testid="sheet-per-student" prop:checked=move || per_student.get()
                    on:change=move |ev| per_student.set(event_target_checked(&ev)) />
                "one variant per student (drawn from their name)"
            </label>
        </div>
        <p>"The problem set's link: "<a href=sheet data-testid="sheet-link" rel="external">{sheet}</a></p>
        <h4>"Read answer codes"</h4>
        <label for="codes-in">"One code per line, optionally after the student's name and a comma (\"Ann Lee, 1A2B…\")"</label>
        <textarea id="codes-in" rows="5" data-testid="codes-in" prop:value=move || codes.get()
            on:input=move |ev| codes.set(event_target_value(&ev))></textarea>
        <div class="table-wrap" tabindex="0">
            <table class="results-table" data-testid="codes-table">
                <thead><tr><th scope="col">"code"</th><th scope="col">"exercise"</th><th scope="col">"answer"</th><th scope="col">"verdict"</th><th scope="col">"name"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}
