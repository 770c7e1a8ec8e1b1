//! Controls the forms share: a select over a closed value set, a number
//! input, a switch with a line on what it does.

use leptos::prelude::*;

use crate::components::problems_id;

/// A `<select id=id>` over `options`, bound to `value`.
pub fn choice<T>(id: &'static str, options: Signal<Vec<T>>, value: RwSignal<T>) -> impl IntoView
where
    T: Copy + PartialEq + std::fmt::Display + std::str::FromStr + Send + Sync + 'static,
{
    view! {
        <select
            id=id
            on:change=move |ev| {
                if let Ok(parsed) = event_target_value(&ev).parse::<T>() {
                    value.set(parsed);
                }
            }
        >
            {move || {
                options
                    .get()
                    .into_iter()
                    .map(|option| {
                        // The property, not the attribute: when the options change
                        // (another model), the rendered ones are reused in place and
                        // only the property moves the selection with them.
                        view! {
                            <option value=option.to_string() prop:selected=move || value.get() == option>
                                {option.to_string()}
                            </option>
                        }
                    })
                    .collect_view()
            }}
        </select>
    }
}

/// A whole-number `<input id=id>` for the request's `field`, bound to
/// `value`; what is not a number reads as 0, which validation names.
pub fn number(
    id: &'static str,
    field: &'static str,
    min: i64,
    max: i64,
    value: RwSignal<i64>,
) -> impl IntoView {
    view! {
        <input
            id=id
            type="number"
            inputmode="numeric"
            min=min
            max=max
            aria-describedby=problems_id(field)
            prop:value=move || value.get().to_string()
            on:input=move |ev| value.set(event_target_value(&ev).trim().parse().unwrap_or(0))
        />
    }
}

/// A checkbox `id` labelled `label`, with `about` (what it does) below it.
#[component]
pub fn Switch(
    /// The checkbox id.
    id: &'static str,
    /// Its label.
    label: &'static str,
    /// One line on what turning it on does.
    about: &'static str,
    /// The value.
    value: RwSignal<bool>,
) -> impl IntoView {
    let about_id = format!("{id}-about");
    view! {
        <div class="switch">
            <input
                id=id
                type="checkbox"
                aria-describedby=about_id.clone()
                prop:checked=move || value.get()
                on:change=move |ev| value.set(event_target_checked(&ev))
            />
            <label for=id>{label}</label>
            <p class="hint" id=about_id>{about}</p>
        </div>
    }
}
