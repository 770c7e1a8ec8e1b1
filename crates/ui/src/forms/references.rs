//! `reference_images`: image URLs, one per line, each previewed with its
//! pixel size (image-to-video in reference mode, image generation).

use leptos::prelude::*;
use media_gen_api::Problems;

use media_gen_api::media_inputs::InputKind;

use super::file_target::FileTarget;
use super::image_previews::{ImagePreviews, Measured};
use super::lines;
use crate::components::{Field, FieldProblems};

/// The reference images field: a text area, its problems, the previews.
#[component]
pub fn ReferenceImagesField(
    /// The URLs typed so far, one per line.
    value: RwSignal<String>,
    /// The label, with how many the model takes.
    #[prop(into)]
    label: TextProp,
    /// The form's problems.
    problems: Memo<Problems>,
    /// Where the previews put the pixel sizes they measure.
    measured: Measured,
) -> impl IntoView {
    let urls = Signal::derive(move || lines(&value.get()));
    view! {
        <Field id="references" label>
            <FileTarget value kind=InputKind::Image field="reference_images" many=true>
                <textarea
                    id="references"
                    rows="3"
                    aria-describedby="reference_images-problems"
                    prop:value=move || value.get()
                    on:input=move |ev| value.set(event_target_value(&ev))
                ></textarea>
            </FileTarget>
            <FieldProblems problems field="reference_images"/>
            <ImagePreviews urls measured/>
        </Field>
    }
}
