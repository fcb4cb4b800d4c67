//! A labelled `<select>` bound to one query key, with its inline message: the choice counterpart of
//! [`NumberField`](crate::widgets::number_field::NumberField).

use crate::platform::url::use_url;
use dp_playground::link::query::Notice;
use leptos::prelude::*;

/// A choice control: picking an option rewrites the key in the URL; hidden when an embed's
/// `controls=` leaves the key out, disabled when the view is locked.
#[component]
pub fn SelectField(
    /// The visible label.
    label: &'static str,
    /// The query key it writes.
    key: &'static str,
    /// The options as (value written to the link, text shown).
    options: Vec<(String, String)>,
    /// The value selected now.
    #[prop(into)]
    value: Signal<String>,
    /// The message about this key's value, if the link's value was refused.
    #[prop(into)]
    error: Signal<Option<Notice>>,
    /// A short explanation under the control.
    #[prop(optional)]
    help: &'static str,
) -> impl IntoView {
    let url = use_url();
    let id = format!("field-{key}");
    let shown = crate::widgets::parts::use_control(key, label);
    view! {
        <div class="field" class:invalid=move || error.with(Option::is_some) hidden=move || !shown()>
            <label for=id.clone()>{label}</label>
            <select
                id=id
                data-testid=format!("select-{key}")
                prop:value=move || value.get()
                disabled=move || url.options.with(|o| o.locked)
                on:change=move |ev| url.commit_set(key, event_target_value(&ev))
            >
                {options.into_iter().map(|(v, t)| view! { <option value=v>{t}</option> }).collect_view()}
            </select>
            {(!help.is_empty()).then(|| view! { <p class="help">{help}</p> })}
            <p class="field-error" role="alert" data-testid=format!("notice-{key}") hidden=move || error.with(Option::is_none)>
                {move || error.with(|e| e.as_ref().map(|n| n.message.clone()).unwrap_or_default())}
            </p>
        </div>
    }
}

/// The options of a `choice!` enum: (key, title) of each value.
pub fn choices<T: Copy>(
    all: &[T],
    key: fn(T) -> &'static str,
    title: fn(T) -> &'static str,
) -> Vec<(String, String)> {
    all.iter()
        .map(|&c| (key(c).to_owned(), title(c).to_owned()))
        .collect()
}
