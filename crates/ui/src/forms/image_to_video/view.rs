//! The image-to-video form's fields, shown, hidden and limited per model.

use leptos::prelude::*;
use media_gen_api::media_inputs::InputKind;
use media_gen_api::validate::{MAX_PROMPT_CHARS, MAX_VIDEOS};
use media_gen_api::{defaults, AspectRatio, ImageToVideoRequest, Mode, Model, Request, Support};

use super::state::ImageToVideoState;
use crate::components::{Field, FieldProblems};
use crate::forms::callback::CallbackField;
use crate::forms::controls::{choice, number, Switch};
use crate::forms::file_target::FileTarget;
use crate::forms::image_previews::ImagePreviews;
use crate::forms::prompt::PromptField;
use crate::forms::references::ReferenceImagesField;
use crate::forms::{lines, FormHost, FormShell};

/// The model picker: one radio card per model, saying what it is for.
fn model_picker(form: ImageToVideoState) -> impl IntoView {
    view! {
        <fieldset class="field cards" id="model">
            <legend>"Model"</legend>
            {Model::ALL
                .iter()
                .copied()
                .map(|model| {
                    let id = format!("model-{model}");
                    view! {
                        <label class="card-choice" for=id>
                            <input
                                type="radio"
                                name="model"
                                id=id.clone()
                                value=model.to_string()
                                prop:checked=move || form.model.get() == model
                                on:change=move |_| form.set_model(model)
                            />
                            <strong>{format!("Model {model}")}</strong>
                            <span class="hint">{model.rules().purpose}</span>
                        </label>
                    }
                })
                .collect_view()}
        </fieldset>
    }
}

/// Model V's two modes.
fn mode_picker(form: ImageToVideoState) -> impl IntoView {
    let option = move |mode: Mode, id: &'static str, label: &'static str| {
        view! {
            <label class="field--inline" for=id>
                <input
                    type="radio"
                    name="v-mode"
                    id=id
                    prop:checked=move || form.v_mode.get() == mode
                    on:change=move |_| form.set_v_mode(mode)
                />
                {label}
            </label>
        }
    };
    view! {
        <fieldset class="field" id="v-mode">
            <legend>"Images"</legend>
            {option(Mode::StartFrame, "mode-start-frame", "A start frame (and optionally an end frame)")}
            {option(Mode::MultiImage, "mode-multi-image", "Reference images (8 second videos)")}
        </fieldset>
    }
}

/// A single image URL field with its preview.
fn url_field(
    form: ImageToVideoState,
    id: &'static str,
    label: Signal<String>,
    value: RwSignal<String>,
    problems: Memo<media_gen_api::Problems>,
    more: Option<RwSignal<Vec<String>>>,
) -> impl IntoView {
    let urls = Signal::derive(move || lines(&value.get()));
    view! {
        <Field id label=move || label.get()>
            <FileTarget value kind=InputKind::Image field=id more>
                <input
                    id=id
                    type="url"
                    placeholder="https://example.com/frame.png"
                    aria-describedby=format!("{id}-problems")
                    prop:value=move || value.get()
                    on:input=move |ev| value.set(event_target_value(&ev))
                />
            </FileTarget>
            <FieldProblems problems field=id/>
            <ImagePreviews urls measured=form.images/>
        </Field>
    }
}

/// Without uploads no more start frames are given.
#[cfg(not(feature = "uploads"))]
fn more_starts(_more: RwSignal<Vec<String>>) {}

/// The start frames beyond the first, one task each: their pictures, and
/// Remove.
#[cfg(feature = "uploads")]
fn more_starts(more: RwSignal<Vec<String>>) -> impl IntoView {
    let rows = move || {
        more.get()
            .into_iter()
            .enumerate()
            .map(|(index, url)| {
                view! {
                    <li class="upload">
                        <img class="upload__preview" src=url.clone() alt=format!("Start frame {}", index + 2) />
                        <span class="upload__name">{format!("Start frame {}", index + 2)}</span>
                        <button
                            type="button"
                            class="link-button"
                            on:click=move |_| more.update(|all| {
                                if index < all.len() {
                                    all.remove(index);
                                }
                            })
                        >
                            "Remove"
                        </button>
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <Show when=move || !more.with(Vec::is_empty)>
            <div class="field" id="more-starts">
                <p class="hint">
                    {move || {
                        let tasks = crate::text::count(more.with(Vec::len), "more task", "more tasks");
                        format!("{tasks}, one from each of these, with the same prompt and settings:")
                    }}
                </p>
                <ul class="uploads">{rows}</ul>
            </div>
        </Show>
    }
}

/// The aspect ratio: either value, or left to the service.
fn aspect_choice(form: ImageToVideoState) -> impl IntoView {
    view! {
        <select
            id="aspect_ratio"
            aria-describedby="aspect_ratio-problems"
            on:change=move |ev| form.aspect_ratio.set(event_target_value(&ev).parse().ok())
        >
            <option value="" selected=move || form.aspect_ratio.get().is_none()>"Service default"</option>
            {AspectRatio::ALL
                .iter()
                .copied()
                .map(|ratio| {
                    view! {
                        <option value=ratio.to_string() selected=move || form.aspect_ratio.get() == Some(ratio)>
                            {ratio.to_string()}
                        </option>
                    }
                })
                .collect_view()}
        </select>
    }
}

/// The image-to-video form: model picker, model V's mode, prompt, the image
/// fields the model takes with previews and pixel sizes, ratio, resolution
/// and duration limited per model, audio (V), count and callback.
#[component]
pub fn ImageToVideoForm(
    /// The page or widget hosting the form.
    host: FormHost,
    /// Values to start from ("edit and re-run"); the defaults otherwise.
    #[prop(optional)]
    initial: Option<ImageToVideoRequest>,
) -> impl IntoView {
    let prefilled = initial.is_some();
    let form = ImageToVideoState::from_request(&initial.unwrap_or_default());
    let problems = form.problems();
    let request = Signal::derive(move || Request::ImageToVideo(form.request()));
    let rules = move || form.model.get().rules();
    let start_frame = move || form.mode() == Mode::StartFrame;
    let is_v = move || form.model.get() == Model::V;
    let shows_start = move || start_frame() && rules().image_url != Support::NotSupported;
    let shows_end = move || start_frame() && rules().end_image_url != Support::NotSupported;
    let shows_references =
        move || !start_frame() && rules().reference_images != Support::NotSupported;
    let start_label = Signal::derive(move || {
        if rules().image_url == Support::Optional {
            "Start frame URL (optional)".to_owned()
        } else {
            "Start frame URL".to_owned()
        }
    });
    let end_label = Signal::stored("End frame URL (optional)".to_owned());
    let reference_label = move || {
        format!(
            "Reference image URLs, one per line (1 to {})",
            rules().max_reference_images
        )
    };
    let resolutions = Signal::derive(move || rules().resolutions.to_vec());
    let durations = Signal::derive(move || form.durations().to_vec());
    let duration_hint = move || {
        (form.durations().len() == 1).then(|| {
            format!(
                "Fixed at {} seconds for model {} here",
                form.durations()[0],
                form.model.get()
            )
        })
    };
    let frame = move || {
        let aspect = form.aspect_ratio.get().unwrap_or(defaults::ASPECT_RATIO);
        let (w, h) = form.resolution.get().frame_size(aspect);
        format!("{w} × {h} px")
    };

    // One more request per extra start frame, while the start frame is
    // asked for: the same settings, another picture.
    #[cfg(feature = "uploads")]
    let also = Some(Signal::derive(move || {
        if !shows_start() {
            return Vec::new();
        }
        let base = form.request();
        form.more_starts
            .get()
            .into_iter()
            .map(|url| {
                Request::ImageToVideo(ImageToVideoRequest {
                    image_url: Some(url),
                    ..base.clone()
                })
            })
            .collect()
    }));
    #[cfg(not(feature = "uploads"))]
    let also = None;
    let callback_client = StoredValue::new_local(host.client.clone());
    view! {
        <FormShell host=host.clone() prefilled request problems action="Generate video" also>
            {model_picker(form)}
            <Show when=is_v>{mode_picker(form)}</Show>
            <PromptField value=form.prompt problems limit=MAX_PROMPT_CHARS/>
            <Show when=shows_start>
                {url_field(form, "image_url", start_label, form.image_url, problems, Some(form.more_starts))}
                {more_starts(form.more_starts)}
            </Show>
            <Show when=shows_end>
                {url_field(form, "end_image_url", end_label, form.end_image_url, problems, None)}
            </Show>
            <Show when=shows_references>
                <ReferenceImagesField value=form.references label=reference_label problems measured=form.images/>
            </Show>
            <div class="field-row">
                <Field id="aspect_ratio" label="Aspect ratio">
                    {aspect_choice(form)}
                    <FieldProblems problems field="aspect_ratio" or_after="image_url"/>
                </Field>
                <Field id="aspect_resolution" label="Resolution">
                    {choice("aspect_resolution", resolutions, form.resolution)}
                    <p class="hint" id="frame-size">{frame}</p>
                    <FieldProblems problems field="aspect_resolution"/>
                </Field>
                <Field id="duration" label="Seconds">
                    {choice("duration", durations, form.duration)}
                    <p class="hint" id="duration-hint">{duration_hint}</p>
                    <FieldProblems problems field="duration"/>
                </Field>
                <Field id="count" label="Videos">
                    {number("count", "generate_count", 1, MAX_VIDEOS, form.count)}
                    <FieldProblems problems field="generate_count"/>
                </Field>
            </div>
            <Show when=is_v>
                <Switch
                    id="generate_audio"
                    label="Generate audio"
                    about="Model V can add a sound track that matches the video."
                    value=form.audio
                />
            </Show>
            <CallbackField value=form.callback problems base_url=host.base_url client=callback_client/>
        </FormShell>
    }
}
