//! The problems of one field, shown beside it.

use leptos::prelude::*;
use media_gen_api::{Problems, Severity};

/// Errors and warnings of `field` (and of its items, for a list), as the user types.
#[component]
pub fn FieldProblems(
    /// Every problem of the form.
    problems: Memo<Problems>,
    /// The field path: `prompt`, `reference_images`.
    field: &'static str,
) -> impl IntoView {
    let list = move || {
        problems.with(|problems| {
            problems
                .for_field(field)
                .map(|problem| {
                    let class = match problem.severity {
                        Severity::Error => "problem problem--error",
                        Severity::Warning => "problem problem--warning",
                    };
                    let text = if problem.field == field {
                        problem.message.clone()
                    } else {
                        format!("{}: {}", problem.field, problem.message)
                    };
                    view! { <li class=class data-rule=problem.rule.code()>{text}</li> }
                })
                .collect_view()
        })
    };
    view! { <ul class="problems" id=format!("{field}-problems") aria-live="polite">{list}</ul> }
}
