//! A labelled form field: every field of the forms and the settings.

use leptos::prelude::*;

/// A form field: `label` tied to the control with id `id`; the control and
/// what belongs under it (hints, problems, previews) as children, in the
/// order they show; then, when given, a `hint` that screen readers announce
/// when it changes (id `{id}-hint`, for the control's `aria-describedby`).
#[component]
pub fn Field(
    /// The id of the control inside, for the label's `for`.
    id: &'static str,
    /// The label text; may change (a limit that depends on the model).
    #[prop(into)]
    label: TextProp,
    /// Text under the control that may change as the user types.
    #[prop(optional, into)]
    hint: Option<Signal<String>>,
    /// The control, and what shows under it.
    children: Children,
) -> impl IntoView {
    let hint = hint.map(|hint| {
        view! { <p class="hint" id=format!("{id}-hint") aria-live="polite">{move || hint.get()}</p> }
    });
    view! {
        <div class="field">
            <label for=id>{move || label.get()}</label>
            {children()}
            {hint}
        </div>
    }
}
