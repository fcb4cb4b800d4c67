//! The glossary: short plain-language meanings of the terms the labs use, shown beside a term on hover,
//! on keyboard focus and on tap (a touch screen has no hover).

use leptos::prelude::*;

/// (id, meaning) for every glossary term. One sentence or two; the About page lists them all.
pub const GLOSSARY: [(&str, &str, &str); 12] = [
    (
        "epsilon",
        "ε (epsilon)",
        "How much one person's data can change what anyone sees: every outcome is at most e^ε times \
         more likely with that person in the data than without. Smaller is more private; ε = 1 means \
         at most about 2.7 times.",
    ),
    (
        "delta",
        "δ (delta)",
        "A small probability with which the ε promise may fail. It should be far below 1/n (n people), \
         or one person could be exposed outright.",
    ),
    (
        "neighbours",
        "neighbouring data sets",
        "Two data sets that differ in one person's record (added, removed or replaced). Differential \
         privacy compares what a mechanism does on every such pair.",
    ),
    (
        "bad-set",
        "bad set",
        "The outputs where the ratio of the two output densities exceeds e^ε. δ is at least the extra \
         probability the mechanism puts there (Lemma 1.4 of the lecture).",
    ),
    (
        "privacy-loss",
        "privacy loss",
        "For an output y, the log of how much more likely y is under one neighbour than under the other. \
         ε bounds it, except with probability about δ.",
    ),
    (
        "privacy-profile",
        "privacy profile",
        "The curve δ(ε): for each ε, the smallest δ the mechanism satisfies. Every (ε, δ) pair on or above \
         it is a valid guarantee.",
    ),
    (
        "f-dp",
        "f-DP (trade-off curve)",
        "The best possible attack's errors: for each false-positive rate α, the lowest false-negative \
         rate β any test telling the two neighbours apart can reach (Dong, Roth & Su 2022).",
    ),
    (
        "zcdp",
        "zCDP and ρ",
        "Zero-concentrated DP: a guarantee with one number ρ that adds up under composition; Gaussian \
         noise of σ on sensitivity Δ is ρ = Δ²/(2σ²). It converts to (ε, δ) (Bun & Steinke 2016).",
    ),
    (
        "rdp-order",
        "RDP order α",
        "Rényi DP bounds the Rényi divergence of order α between the outputs on neighbours; each order \
         gives an (ε, δ), and the accountant keeps the best one.",
    ),
    (
        "pld",
        "privacy loss distribution (PLD)",
        "The distribution of the privacy loss when the output comes from one neighbour. Composing \
         mechanisms convolves their PLDs, which gives the tightest ε for a given δ.",
    ),
    (
        "iid",
        "i.i.d.",
        "Independent and identically distributed: each draw is made the same way and does not depend on \
         the others.",
    ),
    (
        "subsampling",
        "sampling rate q",
        "Each step uses each record with probability q; a record left out of a step reveals nothing in \
         that step, which amplifies privacy.",
    ),
];

/// The glossary's meaning of `id` (empty for an unknown id: a programming error caught by a test).
pub fn meaning(id: &str) -> &'static str {
    GLOSSARY
        .iter()
        .find(|(k, _, _)| *k == id)
        .map_or("", |(_, _, m)| m)
}

/// A term with its meaning: dotted underline; the meaning shows on hover and keyboard focus, and a tap
/// or click toggles it (for touch screens). The tooltip is the term's accessible description.
#[component]
pub fn Term(
    /// The glossary id (`pld`, `bad-set`, …).
    id: &'static str,
    /// The words shown.
    children: Children,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let tip = format!("term-tip-{id}-{}", next_tip());
    view! {
        <span class="term" class:open=move || open.get()>
            <button type="button" class="term-word" data-testid=format!("term-{id}")
                aria-describedby=tip.clone() aria-expanded=move || open.get().to_string()
                on:click=move |_| open.update(|o| *o = !*o)
                on:blur=move |_| open.set(false)>
                {children()}
            </button>
            <span class="term-tip" role="tooltip" id=tip data-testid=format!("term-tip-{id}")>{meaning(id)}</span>
        </span>
    }
}

/// A page-unique number for tooltip ids (a term may appear twice on a page).
fn next_tip() -> usize {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}
