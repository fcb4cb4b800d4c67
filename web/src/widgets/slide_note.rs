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
    // Material of one course: an embed leaves it out unless its author keeps it (`course=1`, `show=`).
    let shown =
        crate::widgets::parts::use_part("slides", "Corrections to the lecture slides", true);
    view! {
        <details class="erratum" data-testid=testid hidden=move || !shown()>
            <summary>{format!("A correction to {LECTURE}")}</summary>
            {children()}
        </details>
    }
}
