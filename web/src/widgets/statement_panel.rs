//! The guarantee statement every accounting lab carries: the paragraph to paste into a paper or a model
//! card, its JSON record, the model-card fragment, the guarantee on other scales, the Python that
//! reproduces its numbers, and published deployments on the same axes. All of it is written by the
//! core from the lab's one [`Guarantee`], in a worker, as the panel's HTML
//! ([`dp_playground::statement::html::body`]); this panel only asks for it while open, sets it, and
//! copies what a copy button names.

use crate::charts::{Kind, Series, XyChart, INK, PALETTE};
use crate::platform::browser::copy_text;
use crate::platform::pool::{self, JobEnd, LabJobs};
use crate::platform::url::use_url;
use crate::widgets::xy_canvas::XyCanvas;
use dp_playground::accounting::guarantee::Guarantee;
use dp_playground::link::format::sig_up;
use dp_playground::statement::jobs::{Axes, StatementJob, StatementUpdate};
use dp_playground::statement::RunFacts;
use leptos::prelude::*;
use leptos::task::spawn_local;
use plotters::style::RGBColor;
use wasm_bindgen::JsCast;

/// The pool's group for the render job (one panel per page).
const GROUP: &str = "statement-render";

/// The statement panel for the lab's `guarantee` (`None` while the accountants compute).
#[component]
pub fn StatementPanel(
    /// The page's guarantee.
    guarantee: Signal<Option<Guarantee>>,
    /// What the lab knows beyond the event.
    facts: Signal<RunFacts>,
) -> impl IntoView {
    let url = use_url();
    let open = RwSignal::new(false);
    let html = RwSignal::new(String::new());
    let axes = RwSignal::new(None::<Axes>);
    let jobs = LabJobs::new(GROUP);
    // Rendered again whenever the guarantee or the facts change while the panel is open.
    let wanted = Memo::new(move |_| {
        open.get()
            .then(|| guarantee.get().map(|g| (g, facts.get())))
            .flatten()
    });
    Effect::new(move |_| {
        let Some((g, f)) = wanted.get() else {
            let waiting = open.get_untracked() && guarantee.with_untracked(Option::is_none);
            html.set(if waiting {
                "<p class=\"status\" role=\"status\">The accountants are computing.</p>".into()
            } else {
                String::new()
            });
            return;
        };
        let current = jobs.restart();
        spawn_local(async move {
            let job = StatementJob::Render(g, f);
            let ended = pool::run(GROUP, &job, |u| match u {
                StatementUpdate::Html(h) if current() => html.set(h),
                StatementUpdate::Axes(a) if current() => axes.set(Some(a)),
                _ => {}
            })
            .await;
            if let (Err(JobEnd::Failed(e)), true) = (ended, current()) {
                html.set(format!(
                    "<p class=\"notices\" role=\"alert\">The statement could not be written: {}</p>",
                    dp_playground::statement::html::escape(&e)
                ));
            }
        });
    });
    view! {
        <details class="panel statement" data-testid="statement-panel"
            hidden=move || url.options.with(|o| o.embed)
            on:toggle=move |ev| open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
            <summary data-testid="statement-open">"Guarantee statement: a paragraph to publish"</summary>
            <div class="statement-body" on:click=copy_named inner_html=move || html.get()></div>
            {move || axes.get().is_some().then(|| view! {
                <XyCanvas testid="statement-chart" title="Where this run sits among deployed systems"
                    alt=Signal::derive(move || axes.with(|a| a.as_ref().map(alt_text).unwrap_or_default()))
                    chart=Memo::new(move |_| axes.with(|a| a.as_ref().map(chart)))
                    csv_name="statement-deployments.csv" height=340.0 />
            })}
        </details>
    }
}

/// μ against the attacker's TPR at FPR 1 %: the Gaussian curve every ρ-zCDP release lies on, each
/// deployment, and this run.
fn chart(a: &Axes) -> XyChart {
    let mut series = vec![Series::new(
        "Gaussian mechanisms (exactly μ-GDP)",
        RGBColor(134, 142, 150),
        Kind::Dashed,
        a.gaussian.clone(),
    )];
    for (i, (label, mu, tpr)) in a.deployments.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        series.push(Series::new(
            label.clone(),
            colour,
            Kind::Points,
            vec![(*mu, *tpr)],
        ));
    }
    // This run: a black stem, apart from every deployment's dot.
    if let Some(own) = a.own {
        series.push(Series::new("This run", INK, Kind::Stems, vec![own]));
    }
    XyChart {
        x_desc: "μ (GDP, certified upper bound)".into(),
        y_desc: "attacker's TPR at FPR 1 % (%)".into(),
        series,
        ..XyChart::default()
    }
}

fn alt_text(a: &Axes) -> String {
    let own = a.own.map_or(String::new(), |(mu, tpr)| {
        format!(
            "This run: μ {}, TPR at most {} % at FPR 1 %. ",
            sig_up(mu, 3),
            sig_up(tpr, 3)
        )
    });
    let others: Vec<String> = a
        .deployments
        .iter()
        .map(|(l, mu, _)| format!("{l} μ {}", sig_up(*mu, 3)))
        .collect();
    format!("{own}Deployments: {}.", others.join("; "))
}

/// A click on a `data-copy` button copies the text of the element it names, and says so beside it.
fn copy_named(ev: leptos::ev::MouseEvent) {
    let button = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|e| e.closest("button[data-copy]").ok().flatten());
    let Some(button) = button else { return };
    let text = button
        .get_attribute("data-copy")
        .and_then(|id| web_sys::window()?.document()?.get_element_by_id(&id))
        .and_then(|e| e.text_content())
        .unwrap_or_default();
    let status = button.next_element_sibling();
    spawn_local(async move {
        let said = if copy_text(text).await {
            "Copied."
        } else {
            "Select the text and copy it."
        };
        if let Some(s) = status {
            s.set_text_content(Some(said));
        }
    });
}
