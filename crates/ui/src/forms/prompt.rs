//! The prompt, with a character counter against its limit.

use leptos::prelude::*;
use media_gen_api::validate::char_count;
use media_gen_api::Problems;

use crate::components::{Field, FieldProblems};

/// `prompt`: a text area, "20 / 1000 characters" below it, and its problems.
#[component]
pub fn PromptField(
    /// The prompt typed so far.
    value: RwSignal<String>,
    /// The form's problems.
    problems: Memo<Problems>,
    /// The most characters allowed.
    limit: usize,
) -> impl IntoView {
    let count = move || value.with(|text| char_count(text));
    view! {
        <Field id="prompt" label="Prompt">
            <textarea
                id="prompt"
                rows="4"
                aria-describedby="prompt-problems prompt-count"
                prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev))
            ></textarea>
            <p class="hint" class:hint--over={move || count() > limit} id="prompt-count">
                {count}" / "{limit}" characters"
            </p>
            <FieldProblems problems field="prompt"/>
        </Field>
    }
}
