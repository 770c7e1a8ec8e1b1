//! The prompt, with a character counter against its limit.

use leptos::prelude::*;
use media_gen_api::validate::char_count;
use media_gen_api::Problems;

use super::controls::text_area;
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
            {text_area("prompt", "4", "prompt-problems prompt-count", value)}
            <p class="hint" class:hint--over={move || count() > limit} id="prompt-count">
                {count}" / "{limit}" characters"
            </p>
            <FieldProblems problems field="prompt"/>
        </Field>
    }
}
