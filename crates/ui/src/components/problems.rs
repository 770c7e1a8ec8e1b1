//! The problems of one field, shown beside it once the person has met the
//! field: a pristine form does not greet anyone with errors.

use leptos::prelude::*;
use media_gen_api::validate::field_label;
use media_gen_api::{Problems, Severity};
use wasm_bindgen::JsCast;

/// The id of the list of `field`'s problems; controls name it in
/// `aria-describedby`, which is also how [`Touched`] learns which field a
/// control belongs to.
pub fn problems_id(field: &str) -> String {
    format!("{field}-problems")
}

/// Which fields' problems a form shows: a field's once it was left or
/// changed, every field's once a submit was tried (or when the form
/// started filled in). A form provides it; [`FieldProblems`] outside one
/// shows everything.
#[derive(Debug, Clone, Copy)]
pub struct Touched {
    /// A list rather than a set: a signal of `Vec<String>` is already in the
    /// app, a new signal type is another copy of the reactive machinery.
    fields: RwSignal<Vec<String>>,
    all: RwSignal<bool>,
}

impl Touched {
    /// Provide the form's record; `all` shows every field's problems at once.
    pub fn provide(all: bool) -> Touched {
        let touched = Touched {
            fields: RwSignal::new(Vec::new()),
            all: RwSignal::new(all),
        };
        provide_context(touched);
        touched
    }

    /// Whether `field`'s problems are shown.
    pub fn shows(self, field: &str) -> bool {
        self.all.get() || self.fields.with(|fields| fields.iter().any(|f| f == field))
    }

    /// Whether some field's problems are still held back.
    pub fn holds_back(self) -> bool {
        !self.all.get()
    }

    /// Show every field's problems (a submit was tried).
    pub fn show_all(self) {
        self.all.set(true);
    }

    /// The person left or changed the control `event` came from: show the
    /// problems of the fields it names in `aria-describedby`.
    pub fn touch(self, event: &web_sys::Event) {
        let Some(control) = event
            .target()
            .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        let described_by = control
            .get_attribute("aria-describedby")
            .unwrap_or_default();
        let fields: Vec<String> = described_by
            .split_whitespace()
            .filter_map(|id| id.strip_suffix("-problems"))
            .map(str::to_owned)
            .collect();
        if fields.iter().any(|field| {
            !self
                .fields
                .with_untracked(|touched| touched.contains(field))
        }) {
            self.fields.update(|touched| touched.extend(fields));
        }
    }
}

/// Errors and warnings of `field` (and of its items, for a list), as the
/// user types, once the field was touched (see [`Touched`]).
#[component]
pub fn FieldProblems(
    /// Every problem of the form.
    problems: Memo<Problems>,
    /// The field path: `prompt`, `reference_images`.
    field: &'static str,
    /// Another field whose touch shows these too: a problem of one field
    /// that another one causes (the start frame's shape, said at the
    /// aspect ratio).
    #[prop(optional)]
    or_after: Option<&'static str>,
) -> impl IntoView {
    let touched = use_context::<Touched>();
    let list = move || {
        let shown = |touched: Touched| {
            touched.shows(field) || or_after.is_some_and(|other| touched.shows(other))
        };
        if touched.is_some_and(|touched| !shown(touched)) {
            return None;
        }
        let items = problems.with(|problems| {
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
                        format!("{}: {}", field_label(&problem.field), problem.message)
                    };
                    view! { <li class=class data-rule=problem.rule.code()>{text}</li> }
                })
                .collect_view()
        });
        Some(items)
    };
    view! { <ul class="problems" id=problems_id(field) aria-live="polite">{list}</ul> }
}
