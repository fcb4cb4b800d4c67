//! The guarantee statement every accounting lab carries: the paragraph to paste into a paper or a model
//! card, its JSON record, the model-card fragment, the guarantee on other scales, the Python that
//! reproduces its numbers, and published deployments on the same axes. All of it is rendered by the
//! core's [`Statement`] from the lab's one [`Guarantee`]; this panel only shows it. Closed, it builds
//! nothing; open, it asks the worker pool for the other scales (a PLD composition) and, when its
//! deployments section is opened, for theirs.

use crate::platform::browser::copy_text;
use crate::platform::pool::{self, JobEnd, LabJobs};
use dp_playground::accounting::guarantee::Guarantee;
use dp_playground::jobs::{Job, Update as JobUpdate};
use dp_playground::link::format::{sig, sig_up};
use dp_playground::statement::deployments::{Deployment, DEPLOYMENTS};
use dp_playground::statement::jobs::{StatementJob, StatementUpdate};
use dp_playground::statement::reproduce::snippet;
use dp_playground::statement::scales::Scales;
use dp_playground::statement::{model_card, paragraph, RunFacts, Statement};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The pool's group for the scales job (one panel per page).
const SCALES_GROUP: &str = "statement-scales";
/// See [`SCALES_GROUP`].
const DEPLOYMENTS_GROUP: &str = "statement-deployments";

/// The statement panel for the lab's `guarantee` (`None` while the accountants compute).
#[component]
pub fn StatementPanel(
    /// The page's guarantee.
    guarantee: Signal<Option<Guarantee>>,
    /// What the lab knows beyond the event.
    facts: Signal<RunFacts>,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let scales: RwSignal<Option<Result<Scales, String>>> = RwSignal::new(None);
    let jobs = LabJobs::new(SCALES_GROUP);
    // Only a guarantee that certifies its run has a curve; the job restarts when it changes.
    let wanted = Memo::new(move |_| {
        open.get()
            .then(|| guarantee.get())
            .flatten()
            .filter(Guarantee::certifies_run)
    });
    Effect::new(move |_| {
        let job = wanted
            .get()
            .map(|g| Job::Statement(StatementJob::Scales(g)));
        jobs.show_latest(job, scales, |u| match u {
            JobUpdate::Statement(StatementUpdate::Scales(s)) => Some(Ok(s)),
            _ => None,
        });
    });
    let statement = Memo::new(move |_| {
        open.get().then(|| {
            guarantee.get().map(|g| {
                let sc = scales.get().and_then(Result::ok);
                (Statement::new(&g, &facts.get(), sc), g)
            })
        })?
    });
    let contents = move || {
        statement.get().map(|(s, g)| {
            let text = paragraph(&s);
            let json = s.json();
            let card = model_card(&s);
            let code = snippet(&g, facts.with(|f| f.records));
            let scales_status = match (s.epsilon.certified, scales.get()) {
                (false, _) => Some("No other scales: no certified trade-off curve is known for this run as it is.".to_string()),
                (true, None) => Some("Composing the trade-off curve for the other scales…".to_string()),
                (true, Some(Err(e))) => Some(format!("The other scales could not be computed: {e}")),
                (true, Some(Ok(_))) => None,
            };
            view! {
                <p class="statement-text" data-testid="statement-text" data-value=s.epsilon.value.to_string()
                    data-certified=s.epsilon.certified.to_string()>{text.clone()}</p>
                <CopyButton id="statement-copy" text=text />
                {scales_status.map(|m| view! { <p class="status" role="status" data-testid="statement-scales-status">{m}</p> })}
                {s.scales.map(scales_table)}
                <details class="statement-part">
                    <summary>"The record (JSON, schema "{dp_playground::statement::SCHEMA}")"</summary>
                    <pre tabindex="0" data-testid="statement-json">{json.clone()}</pre>
                    <CopyButton id="statement-json-copy" text=json />
                </details>
                <details class="statement-part">
                    <summary>"Model card fragment (Hugging Face)"</summary>
                    <pre tabindex="0" data-testid="statement-model-card">{card.clone()}</pre>
                    <CopyButton id="statement-model-card-copy" text=card />
                </details>
                <details class="statement-part">
                    <summary>"Reproduce it (Python)"</summary>
                    {match code {
                        Some(c) => view! {
                            <ul class="repro-lines">
                                {c.lines.iter().map(|l| view! {
                                    <li data-testid=format!("statement-repro-{}", l.key) data-value=l.expected.to_string()>
                                        <code>{l.key}</code>" ("{l.library}"): "{l.reproduces.clone()}
                                    </li>
                                }).collect_view()}
                            </ul>
                            <pre tabindex="0" data-testid="statement-python">{c.code.clone()}</pre>
                            <CopyButton id="statement-python-copy" text=c.code />
                        }.into_any(),
                        None => view! {
                            <p class="help">"No library accounts for this run as it is (another sampler, users, phases or tuning): their numbers would not be its guarantee."</p>
                        }.into_any(),
                    }}
                </details>
                <DeploymentsPart own=s.scales />
            }
        })
    };
    view! {
        <details class="panel statement" data-testid="statement-panel"
            on:toggle=move |ev| open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
            <summary data-testid="statement-open">"Guarantee statement: a paragraph to publish"</summary>
            {move || match contents() {
                Some(v) => v.into_any(),
                None => view! { <p class="status" role="status">{move || open.get().then_some("The accountants are computing.")}</p> }.into_any(),
            }}
        </details>
    }
}

/// A percentage rounded up.
fn pct_up(x: f64) -> String {
    format!("{} %", sig_up(100.0 * x, 3))
}

/// The other scales as a small table, each with its side.
fn scales_table(s: Scales) -> impl IntoView {
    let row =
        |id: &'static str, name: &'static str, value: f64, shown: String, side: &'static str| {
            view! {
                <tr>
                    <th scope="row">{name}</th>
                    <td data-testid=id data-value=value.to_string()>{shown}</td>
                    <td>{side}</td>
                </tr>
            }
        };
    view! {
        <table class="scales" data-testid="statement-scales">
            <caption>"The same guarantee on other scales (from its certified trade-off curve)"</caption>
            <thead><tr><th scope="col">"Scale"</th><th scope="col">"Value"</th><th scope="col">"Side"</th></tr></thead>
            <tbody>
                {row("statement-mu", "μ-GDP", s.mu, format!("μ ≤ {}", sig_up(s.mu, 3)), "certified upper bound")}
                {row("statement-regret", "Fit of μ-GDP (gdpnum's regret)", s.regret, sig(s.regret, 2), "estimate (0: exactly Gaussian)")}
                {row("statement-tpr-1", "Attacker's TPR at FPR 1 %", s.tpr[0], format!("≤ {}", pct_up(s.tpr[0])), "certified upper bound")}
                {row("statement-tpr-01", "Attacker's TPR at FPR 0.1 %", s.tpr[1], format!("≤ {}", pct_up(s.tpr[1])), "certified upper bound")}
                {row("statement-advantage", "Advantage (TPR − FPR)", s.advantage, format!("≤ {}", sig_up(s.advantage, 3)), "certified upper bound")}
            </tbody>
        </table>
    }
}

/// Deployed systems on the same axes, with this run among them.
#[component]
fn DeploymentsPart(own: Option<Scales>) -> impl IntoView {
    let rows: RwSignal<Vec<Option<Result<Scales, String>>>> =
        RwSignal::new(vec![None; DEPLOYMENTS.len()]);
    let started = RwSignal::new(false);
    let start = move || {
        if started.get_untracked() {
            return;
        }
        started.set(true);
        spawn_local(async move {
            let ended = pool::run(
                DEPLOYMENTS_GROUP,
                &Job::Statement(StatementJob::Deployments),
                |u| {
                    if let JobUpdate::Statement(StatementUpdate::Deployment(i, r)) = u {
                        rows.update(|rs| {
                            if let Some(slot) = rs.get_mut(i) {
                                *slot = Some(r);
                            }
                        });
                    }
                },
            )
            .await;
            if matches!(ended, Err(JobEnd::Cancelled)) {
                started.set(false);
            }
        });
    };
    let own_row = own.map(|s| {
        view! {
            <tr class="own" data-testid="deployment-own">
                <th scope="row">"This run"</th><td>"as stated above"</td>
                {cells(&s)}
                <td></td>
            </tr>
        }
    });
    view! {
        <details class="statement-part" data-testid="statement-deployments"
            on:toggle=move |ev| {
                if event_target::<web_sys::HtmlDetailsElement>(&ev).open() {
                    start()
                }
            }>
            <summary>"Deployed systems on the same axes"</summary>
            <p class="help">"Each deployment reports on its own scale; converted where its published parameters determine a curve, with the conversion's assumption. Units differ (a record, a person, a device-day): compare with care."</p>
            <div class="table-scroll" tabindex="0" role="region" aria-label="Deployments">
            <table class="deployments">
                <thead><tr>
                    <th scope="col">"System"</th><th scope="col">"Unit; reported"</th>
                    <th scope="col">"μ"</th><th scope="col">"TPR @ 1 %"</th><th scope="col">"TPR @ 0.1 %"</th><th scope="col">"Advantage"</th>
                    <th scope="col">"Source"</th>
                </tr></thead>
                <tbody>
                    {own_row}
                    {DEPLOYMENTS.iter().enumerate().map(|(i, d)| deployment_row(i, d, rows)).collect_view()}
                </tbody>
            </table>
            </div>
        </details>
    }
}

/// μ, the two TPRs and the advantage as cells.
fn cells(s: &Scales) -> impl IntoView {
    view! {
        <td data-value=s.mu.to_string()>{sig_up(s.mu, 3)}</td>
        <td>{pct_up(s.tpr[0])}</td>
        <td>{pct_up(s.tpr[1])}</td>
        <td>{sig_up(s.advantage, 3)}</td>
    }
}

fn deployment_row(
    i: usize,
    d: &'static Deployment,
    rows: RwSignal<Vec<Option<Result<Scales, String>>>>,
) -> impl IntoView {
    let values = move || match rows.with(|r| r.get(i).cloned().flatten()) {
        None => view! { <td colspan="4">"computing…"</td> }.into_any(),
        Some(Ok(s)) => cells(&s).into_any(),
        Some(Err(why)) => {
            view! { <td colspan="4">{format!("Not converted: {why}")}</td> }.into_any()
        }
    };
    view! {
        <tr data-testid=format!("deployment-{}", d.id)>
            <th scope="row">{d.name}" ("{d.organisation}", "{d.year}")"</th>
            <td>{d.unit}"; "{d.reported}<br/><span class="help">{d.assumptions}</span></td>
            {values}
            <td>{d.sources.iter().map(|s| view! {
                <a href=s.url rel="noopener" target="_blank">{s.title}</a>" ("{s.date}"; "{s.locator}") "
            }).collect_view()}</td>
        </tr>
    }
}

/// A copy button for a text shown beside it.
#[component]
fn CopyButton(id: &'static str, text: String) -> impl IntoView {
    let status = RwSignal::new("");
    let copy = move |_| {
        let t = text.clone();
        spawn_local(async move {
            status.set(if copy_text(t).await {
                "Copied."
            } else {
                "Select the text and copy it."
            });
        });
    };
    view! {
        <div class="copy-row">
            <button type="button" class="small" data-testid=id on:click=copy>"Copy"</button>
            <span role="status">{move || status.get()}</span>
        </div>
    }
}
