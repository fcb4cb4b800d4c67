//! The exponential mechanism: selection probabilities, the worst neighbour, and how they sharpen with ε.

use crate::charts::specs::mechanisms::{em_bars_chart, em_eps_chart};
use crate::format::{exact, sig};
use crate::labs::mechanisms::use_mech;
use crate::widgets::stat::Stat;
use crate::widgets::xy_canvas::XyCanvas;
use leptos::prelude::*;

/// The exponential mechanism's view.
#[component]
pub fn MechEm() -> impl IntoView {
    let mech = use_mech();
    let names = Memo::new(move |_| {
        mech.params
            .with(|p| p.cands.iter().map(|c| c.name.clone()).collect::<Vec<_>>())
    });
    let report = Memo::new(move |_| mech.em.get().ok());
    let cands = Memo::new(move |_| mech.params.with(|p| p.cands.clone()));
    let bars =
        Memo::new(move |_| report.with(|r| r.as_ref().map(|r| em_bars_chart(r, &names.get()))));
    let by_eps = Memo::new(move |_| {
        report.with(|r| {
            r.as_ref()
                .map(|r| em_eps_chart(r, &names.get(), mech.params.with(|p| p.eps)))
        })
    });
    let log_ratio =
        Signal::derive(move || report.with(|r| r.as_ref().map_or(f64::NAN, |r| r.log_ratio)));
    let eps = Signal::derive(move || mech.params.with(|p| p.eps));
    view! {
        {move || mech.em.get().err().filter(|e| !e.is_empty()).map(|e| view! { <p class="notices" role="alert">{e}</p> })}
        <p class="explain">
            "The exponential mechanism picks a candidate r with probability ∝ exp(ε·u(x, r)/(2Δu)): "
            "the best-scoring candidate is likeliest, but every candidate keeps a chance, so no single "
            "person's data decides the outcome. A neighbour can shift every score by at most Δu, which "
            "changes any probability by a factor of at most e^ε."
        </p>
        <div class="table-wrap" tabindex="0">
            <table class="results-table" data-testid="mech-em-table">
                <caption>"Selection probabilities"</caption>
                <thead>
                    <tr><th scope="col">"candidate"</th><th scope="col">"score u"</th><th scope="col">"P[selected | x]"</th><th scope="col">"P[selected | worst x′]"</th></tr>
                </thead>
                <tbody>
                    // Rows follow the candidates (name and score); an ε move only updates the two
                    // probability cells of each, in place.
                    {move || cands.get().into_iter().enumerate().map(|(i, c)| {
                        let prob = move |f: fn(&dp_playground::labs::mechanisms::ExponentialReport) -> &Vec<f64>| {
                            Signal::derive(move || report.with(|r| r.as_ref().and_then(|r| f(r).get(i).copied()).unwrap_or(f64::NAN)))
                        };
                        let (p, q) = (prob(|r| &r.probs), prob(|r| &r.neighbour_probs));
                        view! {
                            <tr>
                                <th scope="row">{c.name}</th>
                                <td>{sig(c.score, 6)}</td>
                                <td data-testid=format!("mech-em-prob-{i}") data-value=move || exact(p.get())>{move || sig(p.get(), 4)}</td>
                                <td data-testid=format!("mech-em-neighbour-prob-{i}") data-value=move || exact(q.get())>{move || sig(q.get(), 4)}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
        <div class="stats">
            <Stat label="ln P[top | x] / P[top | x′]" testid="mech-em-log-ratio" value=log_ratio />
            <Stat label="guarantee ε" testid="mech-em-eps" value=eps />
        </div>
        <div class="chart-grid">
            <XyCanvas testid="mech-chart-em" look_for="Compare the likeliest candidate's two bars: its worst neighbour lowers that probability, but by a factor of at most e^ε." title="Selection probabilities under x and its worst neighbour"
                alt=Signal::derive(move || format!("The likeliest candidate's probability changes by a log-ratio of {} ≤ ε.", sig(log_ratio.get(), 3)))
                chart=bars csv_name="mech-exponential.csv" />
            <XyCanvas testid="mech-chart-em-eps" look_for="Watch the best-scoring candidate's line climb towards 1 as ε grows; near ε = 0 every candidate is about equally likely." title="Selection probability against ε"
                alt="As ε grows the best candidate's probability rises towards 1." chart=by_eps csv_name="mech-exponential-by-eps.csv" />
        </div>
    }
}
