//! The image generation form's fields.

use leptos::prelude::*;
use media_gen_api::validate::{MAX_IMAGES, MAX_PROMPT_CHARS, MAX_REFERENCE_IMAGES};
use media_gen_api::{ImageGenerateRequest, ImageQuality, ImageRatio, Module, Request};

use super::state::ImageGenerateState;
use crate::components::{Field, FieldProblems};
use crate::forms::callback::CallbackField;
use crate::forms::controls::{choice, number};
use crate::forms::prompt::PromptField;
use crate::forms::references::ReferenceImagesField;
use crate::forms::{FormHost, FormShell};

/// The ratio's shape, 64 pixels on the long side.
fn ratio_box(ratio: ImageRatio) -> String {
    let (w, h) = ratio.parts();
    let long = w.max(h).max(1);
    // Integer rounding: formatting a float would bring the float printer into the wasm.
    let side = |part: u32| (part * 64 + long / 2) / long;
    format!("width: {}px; height: {}px", side(w), side(h))
}

/// The image generation form: prompt, reference images with previews,
/// module, count, quality, and ratio with its shape and pixel size.
#[component]
pub fn ImageGenerateForm(
    /// The page or widget hosting the form.
    host: FormHost,
    /// Values to start from ("edit and re-run"); the defaults otherwise.
    #[prop(optional)]
    initial: Option<ImageGenerateRequest>,
) -> impl IntoView {
    let prefilled = initial.is_some();
    let form = ImageGenerateState::from_request(&initial.unwrap_or_default());
    let problems = form.problems();
    let request = Signal::derive(move || Request::ImageGenerate(form.request()));
    let pixels = move || {
        let (w, h) = form.quality.get().image_size(form.ratio.get());
        format!("{w} × {h} px")
    };

    let callback_client = StoredValue::new_local(host.client.clone());
    view! {
        <FormShell host=host.clone() prefilled request problems action="Generate">
            <PromptField value=form.prompt problems limit=MAX_PROMPT_CHARS/>
            <ReferenceImagesField
                value=form.references
                label=format!("Reference image URLs, one per line (up to {MAX_REFERENCE_IMAGES})")
                problems
                measured=form.images
            />
            <div class="field-row">
                <Field id="module" label="Model" hint=Signal::derive(move || form.module.get().about().to_owned())>
                    {choice("module", Signal::stored(Module::ALL.to_vec()), form.module)}
                </Field>
                <Field id="count" label="Images">
                    {number("count", "generate_count", 1, MAX_IMAGES, form.count)}
                    <FieldProblems problems field="generate_count"/>
                </Field>
                <Field id="quality" label="Quality">
                    {choice("quality", Signal::stored(ImageQuality::ALL.to_vec()), form.quality)}
                </Field>
                <Field id="ratio" label="Ratio">
                    {choice("ratio", Signal::stored(ImageRatio::ALL.to_vec()), form.ratio)}
                </Field>
                <div class="ratio-preview" aria-hidden="true">
                    <div class="ratio-preview__shape" style=move || ratio_box(form.ratio.get())></div>
                    <span class="hint" id="image-pixels">{pixels}</span>
                </div>
            </div>
            <CallbackField value=form.callback problems base_url=host.base_url client=callback_client/>
        </FormShell>
    }
}

#[cfg(test)]
mod tests {
    use super::ratio_box;
    use media_gen_api::ImageRatio;

    #[test]
    fn the_ratio_shape_is_64_pixels_on_the_long_side_rounded() {
        assert_eq!(ratio_box(ImageRatio::R16x9), "width: 64px; height: 36px");
        assert_eq!(ratio_box(ImageRatio::R2x3), "width: 43px; height: 64px");
        assert_eq!(ratio_box(ImageRatio::R1x1), "width: 64px; height: 64px");
    }
}
