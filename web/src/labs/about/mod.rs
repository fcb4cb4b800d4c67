//! The About page: what the playground is, and every formula it uses with its source.

use crate::platform::url::use_url;
use crate::widgets::glossary::{Term, GLOSSARY};
use dp_playground::labs::Lab;
use dp_playground::labs::ABOUT;
use leptos::prelude::*;

/// Every formula, grouped by lab, from the core's list (so the page cannot drift from the code).
#[component]
pub fn About() -> impl IntoView {
    let url = use_url();
    let start = move || url.href_with(|q| *q = Lab::link_to(q, Lab::Start));
    let teach = move || url.href_with(|q| *q = Lab::link_to(q, Lab::Teach));
    view! {
        <section class="lab about" aria-labelledby="about-title">
            <h2 id="about-title">"About dp-playground"</h2>
            <p>
                "A differential-privacy playground that runs entirely in your browser: the maths is a "
                "Rust library compiled to WebAssembly, nothing is sent to a server, and every setting "
                "lives in the page's address, so a link reproduces exactly what you see."
            </p>
            <h3>"What differential privacy promises"</h3>
            <p data-testid="about-intro">
                "A computation on people's data is differentially private when its output hardly depends on "
                "whether any one person is in the data: whatever an observer sees, they could have seen almost "
                "as easily without that person. Two numbers say how hardly. "<Term id="epsilon">"ε"</Term>
                " bounds how much more likely any outcome becomes because of one person (at most e"<sup>"ε"</sup>
                " times), and "<Term id="delta">"δ"</Term>" is the small probability with which that bound may fail. "
                "Smaller is more private; the price is noise, and so accuracy."
            </p>
            <p>
                "Where to start: the "<a href=start rel="external" data-testid="about-start">"course path"</a>
                " runs from randomized response (a survey that protects each answer) through the mechanisms, "
                "composition, DP-SGD and training labs to the attack lab (what the guarantee means for "
                "someone trying to find you). Teaching with it: the "<a href=teach rel="external" data-testid="about-teach">"exercises and problem sets"</a>"."
            </p>
            <h3>"Glossary"</h3>
            <dl class="glossary" data-testid="about-glossary">
                {GLOSSARY.iter().map(|(id, term, meaning)| view! {
                    <dt id=format!("glossary-{id}")>{*term}</dt>
                    <dd>{*meaning}</dd>
                }).collect_view()}
            </dl>
            <h3>"Which side each number errs on"</h3>
            <p>
                "A privacy number that is too small is the worst kind of error: every ε and δ here is "
                "exact, a certified upper bound, a certified lower bound, or labelled as an estimate."
            </p>
            <div class="table-wrap" tabindex="0">
                <table class="results-table" data-testid="about-sides">
                    <thead><tr><th scope="col">"lab"</th><th scope="col">"number"</th><th scope="col">"errs on"</th><th scope="col">"why"</th></tr></thead>
                    <tbody>
                        {ABOUT.iter().flat_map(|a| a.sides.iter().map(move |s| (a.lab, s))).map(|(lab, s)| view! {
                            <tr><td>{lab.key()}</td><th scope="row">{s.number}</th><td>{s.side.label()}</td><td>{s.why}</td></tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            <h3>"Formulas and their sources"</h3>
            {ABOUT
                .iter()
                .filter(|a| !a.formulas.is_empty())
                .map(|a| {
                    view! {
                        <h4>{a.lab.title()}</h4>
                        <dl class="formulas" data-testid=format!("formulas-{}", a.lab.key())>
                            {a.formulas
                                .iter()
                                .map(|f| {
                                    view! {
                                        <dt>{f.name}</dt>
                                        <dd>
                                            <code class="formula">{f.formula}</code>
                                            <p class="source">"Source: " {f.source}</p>
                                            {(!f.note.is_empty()).then(|| view! { <p class="note">{f.note}</p> })}
                                        </dd>
                                    }
                                })
                                .collect_view()}
                        </dl>
                    }
                })
                .collect_view()}
        </section>
    }
}
