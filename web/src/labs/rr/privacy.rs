//! Why randomized response is private: the likelihood ratio of any report is at most e^ε.

use crate::format::sig;
use crate::labs::rr::use_rr;
use crate::widgets::slide_note::SlideNote;
use crate::widgets::stat::Stat;
use dp_playground::mechanisms::randomized_response::SLIDE_NOTE;
use leptos::prelude::*;

/// Largest K for which the full table P[report | truth] is shown.
const MATRIX_MAX_K: usize = 6;

/// The truthful and other-report probabilities, their ratio against e^ε, and for small K the whole
/// table of report probabilities.
#[component]
pub fn RrPrivacy() -> impl IntoView {
    let rr = use_rr();
    let value = move |f: fn(&dp_playground::labs::rr::RrReport) -> f64| {
        Signal::derive(move || rr.report.with(|r| r.as_ref().map_or(f64::NAN, f)))
    };
    let p = value(|r| r.p_truth);
    let q = value(|r| r.p_other);
    let ratio = value(|r| r.max_ratio);
    let eps = move || rr.params.with(|p| sig(p.eps, 4));
    // The table's shape depends on K alone: rebuilt when K changes, its cells updated in place on
    // an ε move (rebuilding it per move cost a relayout of the whole page).
    let k = Memo::new(move |_| rr.params.with(|p| p.k));
    let matrix = move || {
        let k = k.get();
        (k <= MATRIX_MAX_K).then(|| {
            view! {
                <div class="table-wrap" tabindex="0">
                    <table class="matrix">
                        <caption>"P[report | true answer]"</caption>
                        <thead>
                            <tr>
                                <th scope="col">"true ↓ / report →"</th>
                                {(0..k).map(|j| view! { <th scope="col">{j}</th> }).collect_view()}
                            </tr>
                        </thead>
                        <tbody>
                            {(0..k)
                                .map(|i| {
                                    view! {
                                        <tr>
                                            <th scope="row">{i}</th>
                                            {(0..k)
                                                .map(|j| {
                                                    let (v, class) = if i == j { (p, "diag") } else { (q, "") };
                                                    view! { <td class=class>{move || sig(v.get(), 3)}</td> }
                                                })
                                                .collect_view()}
                                        </tr>
                                    }
                                })
                                .collect_view()}
                        </tbody>
                    </table>
                </div>
            }
        })
    };
    view! {
        <section class="privacy" aria-labelledby="why-private" data-part="privacy" hidden={let shown = crate::widgets::parts::use_part("privacy", "Why it is private", false); move || !shown()}>
            <h3 id="why-private">"Why it is private"</h3>
            <div class="stats">
                <Stat label="p (report the truth)" testid="rr-p-truth" value=p />
                <Stat label="q (each other answer)" testid="rr-p-other" value=q />
                <Stat label="largest ratio p/q" testid="rr-max-ratio" value=ratio />
            </div>
            <p>
                "Whatever someone reports, that report is at most p/q = e"<sup>"ε"</sup>" = e"
                <sup>{eps}</sup>" = " {move || sig(ratio.get(), 4)}
                " times more likely under one true answer than under any other. Seeing the report "
                "changes an observer's odds between two answers by at most that factor: that is "
                "ε-differential privacy, for each respondent (local DP)."
            </p>
            {matrix}
            <SlideNote>
                <p>{SLIDE_NOTE}</p>
            </SlideNote>
        </section>
    }
}
