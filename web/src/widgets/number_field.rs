//! A labelled text field (and optional slider) bound to one query key, with its inline message.

use crate::platform::url::use_url;
use dp_playground::link::query::Notice;
use leptos::prelude::*;

/// A parameter control. The field shows the raw text from the link, so a bad value stays visible
/// beside its message instead of silently turning into the default; every keystroke or slider move
/// rewrites the key in the URL (replacing the history entry).
#[component]
pub fn NumberField(
    /// The visible label.
    label: &'static str,
    /// The query key it writes.
    key: &'static str,
    /// The text to show: the link's raw value, or the value in use when the link has none.
    value: Signal<String>,
    /// The message about this key's value, if the link's value was refused.
    #[prop(into)]
    error: Signal<Option<Notice>>,
    /// A slider beside the field: (min, max, step).
    #[prop(optional)]
    slider: Option<(f64, f64, f64)>,
    /// A short explanation under the control.
    #[prop(optional)]
    help: &'static str,
    /// Writes the new text; defaults to setting `key` alone.
    #[prop(optional, into)]
    on_change: Option<Callback<String>>,
) -> impl IntoView {
    let url = use_url();
    let write = move |text: String| match on_change {
        Some(cb) => cb.run(text),
        None => url.set(key, text),
    };
    let id = format!("field-{key}");
    let error_id = format!("error-{key}");
    let shown = crate::widgets::parts::use_control(key, label);
    let locked = move || url.options.with(|o| o.locked);
    // The slider shows the value in use: after a refused value, the one the page falls back to (a
    // browser clamps an out-of-range value to the slider's end, which would claim it is in use).
    let slider_value = move || {
        error
            .with(|e| e.as_ref().and_then(|n| n.using.clone()))
            .unwrap_or_else(|| value.get())
    };
    let slider_view = slider.map(|(min, max, step)| {
        view! {
            <input
                type="range"
                min=min
                max=max
                step=step
                aria-label=format!("{label} slider")
                disabled=locked
                data-testid=format!("slider-{key}")
                prop:value=slider_value
                on:input=move |ev| write(event_target_value(&ev))
            />
        }
    });
    view! {
        <div class="field" class:invalid=move || error.with(Option::is_some) hidden=move || !shown()>
            <label for=id.clone()>{label}</label>
            <div class="field-row">
                {slider_view}
                <input
                    id=id
                    type="text"
                    inputmode="decimal"
                    spellcheck="false"
                    autocomplete="off"
                    data-testid=format!("input-{key}")
                    readonly=locked
                    aria-describedby=error_id.clone()
                    aria-invalid=move || error.with(Option::is_some).to_string()
                    prop:value=move || value.get()
                    on:input=move |ev| write(event_target_value(&ev))
                />
            </div>
            {(!help.is_empty()).then(|| view! { <p class="help">{help}</p> })}
            <p id=error_id class="field-error" role="alert" data-testid=format!("notice-{key}")
                hidden=move || error.with(Option::is_none)>
                {move || error.with(|e| e.as_ref().map(|n| n.message.clone()).unwrap_or_default())}
            </p>
        </div>
    }
}
