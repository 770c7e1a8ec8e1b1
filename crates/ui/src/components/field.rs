//! A labelled form control with a hint below it.

use leptos::prelude::*;

/// A form field: `label` tied to the control with id `id`, the control itself
/// as children, and a hint that screen readers announce when it changes.
#[component]
pub fn Field(
    /// The id of the control inside, for the label's `for`.
    id: &'static str,
    /// The label text.
    label: &'static str,
    /// Text under the control; may change as the user types.
    #[prop(into)]
    hint: Signal<String>,
    /// The control.
    children: Children,
) -> impl IntoView {
    let hint_id = format!("{id}-hint");
    view! {
        <div class="field">
            <label for=id>{label}</label>
            {children()}
            <p class="hint" id=hint_id aria-live="polite">{move || hint.get()}</p>
        </div>
    }
}
