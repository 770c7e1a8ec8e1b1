//! Without the `uploads` feature (the widgets): a media field is a URL
//! field only, and nothing of uploading is in the build.

use leptos::prelude::*;
use media_gen_api::media_inputs::InputKind;

/// The field's control as it is.
#[component]
pub fn FileTarget(
    /// The field's text.
    value: RwSignal<String>,
    /// What the field takes.
    kind: InputKind,
    /// The field's name.
    field: &'static str,
    /// Whether it takes several.
    #[prop(optional)]
    many: bool,
    /// Where more files' addresses would go.
    #[prop(default = None)]
    more: Option<RwSignal<Vec<String>>>,
    /// The field's control.
    children: Children,
) -> impl IntoView {
    let _ = (value, kind, field, many, more);
    children()
}
