//! What a lab's page holds, as the share panel's embed builder lists it: its controls (each
//! [`use_control`] call, with its label) and its sections and charts ([`use_part`]), the latter
//! shown or hidden by the link's `show=` and `course=`. Each registers itself when it is built
//! and leaves when it is dropped, so the builder lists exactly what the page has: a control that
//! exists can be ticked, and nothing is listed that does not exist.

use crate::platform::url::use_url;
use leptos::prelude::*;

/// One entry of the builder's lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The key the link names it by (`controls=` or `show=`).
    pub key: String,
    /// What the builder's checkbox says.
    pub label: String,
    /// Whether it is material of one course (the lecture slides' corrections, its scenarios): left
    /// out of an embed unless kept (`course=1` or `show=`).
    pub course: bool,
}

/// The page's controls and parts, in the order they were built (provided by each lab's page).
#[derive(Clone, Copy)]
pub struct PageParts {
    /// Controls, one entry per key.
    pub controls: RwSignal<Vec<Entry>>,
    /// Sections and charts, one entry per key.
    pub parts: RwSignal<Vec<Entry>>,
}

impl PageParts {
    /// Provides an empty registry to the page being built.
    pub fn provide() -> Self {
        let parts = PageParts {
            controls: RwSignal::new(Vec::new()),
            parts: RwSignal::new(Vec::new()),
        };
        provide_context(parts);
        parts
    }
}

/// Adds `entry` to `list` (once per key) until the calling component is dropped.
fn register(list: RwSignal<Vec<Entry>>, entry: Entry) {
    let key = entry.key.clone();
    let added = list
        .try_update_untracked(|l| {
            let new = !l.iter().any(|e| e.key == entry.key);
            if new {
                l.push(entry);
            }
            new
        })
        .unwrap_or(false);
    if added {
        // Notified in a task of its own: the builder's list is not worth a re-render mid-build.
        list.notify();
        on_cleanup(move || {
            list.try_update(|l| l.retain(|e| e.key != key));
        });
    }
}

/// Registers the control for `key` (labelled `label`) and returns whether the link's `controls=`
/// shows it.
pub fn use_control(key: &'static str, label: &str) -> impl Fn() -> bool + Copy + 'static {
    if let Some(parts) = use_context::<PageParts>() {
        register(
            parts.controls,
            Entry {
                key: key.to_owned(),
                label: label.to_owned(),
                course: false,
            },
        );
    }
    let url = use_url();
    move || url.options.with(|o| o.shows(key))
}

/// Registers the section or chart `key` and returns whether the link shows it.
pub fn use_part(
    key: &'static str,
    label: &str,
    course: bool,
) -> impl Fn() -> bool + Copy + 'static {
    if let Some(parts) = use_context::<PageParts>() {
        register(
            parts.parts,
            Entry {
                key: key.to_owned(),
                label: label.to_owned(),
                course,
            },
        );
    }
    let url = use_url();
    move || url.options.with(|o| o.shows_part(key, course))
}
