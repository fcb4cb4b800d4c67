//! A correction to the lecture slides the playground teaches from, collapsed under a heading that names
//! them: a reader of another course sees one line, a student of this one opens it.

use leptos::prelude::*;

/// The lecture the notes correct (`../shared/papers/differential-privacy-lecture-dpsgd.md`).
pub const LECTURE: &str = "the lecture slides \"Differential Privacy\" (Sinan Yıldırım)";

/// A collapsed note correcting [`LECTURE`].
#[component]
pub fn SlideNote(
    /// The note's test id.
    #[prop(optional)]
    testid: Option<&'static str>,
    /// The correction.
    children: Children,
) -> impl IntoView {
    view! {
        <details class="erratum" data-testid=testid>
            <summary>{format!("A correction to {LECTURE}")}</summary>
            {children()}
        </details>
    }
}
