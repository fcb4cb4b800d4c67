//! Many counting queries (approximate-DP notes §2.2): Laplace against Gaussian as k grows.

use crate::charts::specs::mechanisms::queries_chart;
use crate::labs::mechanisms::use_mech;
use crate::widgets::stat::Stat;
use crate::widgets::xy_canvas::XyCanvas;
use leptos::prelude::*;

/// The many-queries chart and its crossover.
#[component]
pub fn MechQueries() -> impl IntoView {
    let mech = use_mech();
    let chart = Memo::new(move |_| mech.queries.with(|q| q.as_ref().map(queries_chart)));
    let crossover = Signal::derive(move || {
        mech.queries.with(|q| {
            q.as_ref()
                .and_then(|q| q.crossover)
                .map_or(f64::NAN, |k| k as f64)
        })
    });
    let rule = Signal::derive(move || {
        mech.queries
            .with(|q| q.as_ref().map_or(f64::NAN, |q| q.rule_of_thumb as f64))
    });
    let reps = move || mech.queries.with(|q| q.as_ref().map_or(0, |q| q.reps));
    view! {
        <section class="panel" aria-labelledby="mq-title" data-part="queries" hidden={let shown = crate::widgets::parts::use_part("queries", "Many queries", false); move || !shown()}>
            <h3 id="mq-title">"Many queries: ℓ1 against ℓ2 sensitivity"</h3>
            <p class="explain">
                "k counting queries, each person in every count: Laplace noise must cover Δ₁ = k, Gaussian noise "
                "only Δ₂ = √k. The expected largest error over the k answers grows like k·ln k/ε for Laplace and "
                "like √(k ln k ln(1/δ))/ε for Gaussian (notes, eqs. 36–37), so past some k the Gaussian wins."
            </p>
            <div class="stats">
                <Stat label="Gaussian error below Laplace from k =" testid="mech-crossover-k" value=crossover digits=6 />
                <Stat label="notes' rule k·ln k ≥ ln(1/δ) from k =" testid="mech-rule-of-thumb-k" value=rule digits=6 />
            </div>
            <XyCanvas
                testid="mech-chart-queries"
                look_for="Compare the slopes on these log axes: Laplace's error grows about like k, the Gaussian's like √k, so the Gaussian ends up lower."
                title=Signal::derive(move || format!("Expected largest error over k queries (simulated: {} repetitions)", reps()))
                alt=Signal::derive(move || format!("Laplace error grows faster; the Gaussian is better from k = {}.", crossover.get()))
                chart=chart
                csv_name="mech-many-queries.csv"
                height=320.0
            />
        </section>
    }
}
