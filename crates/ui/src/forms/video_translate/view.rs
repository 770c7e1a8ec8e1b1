//! The video translation form's fields.

use leptos::prelude::*;
use media_gen_api::media_inputs::InputKind;
use media_gen_api::validate::{char_count, NAME_CHAR_LIMIT};
use media_gen_api::{predicted_name, Request, VideoTranslateRequest};

use super::languages::{load, LanguagePicker};
use super::state::VideoTranslateState;
use crate::components::{Field, FieldProblems};
use crate::forms::callback::CallbackField;
use crate::forms::controls::Switch;
use crate::forms::file_target::FileTarget;
use crate::forms::{FormHost, FormShell};
use media_gen_client::now_ms;

/// The video translation form: video URL, the service's languages as a
/// searchable multi-select, the predicted name per language as the name is
/// typed, speaker count, the three switches and the callback.
#[component]
pub fn VideoTranslateForm(
    /// The page or widget hosting the form.
    host: FormHost,
    /// Values to start from ("edit and re-run"); the defaults otherwise.
    #[prop(optional)]
    initial: Option<VideoTranslateRequest>,
) -> impl IntoView {
    let prefilled = initial.is_some();
    let form = VideoTranslateState::from_request(&initial.unwrap_or_default());
    let client = StoredValue::new_local(host.client.clone());
    let connection = host.connection_version;
    // Read the list now, and again when the connection changes (a token
    // entered, a new base URL).
    Effect::new(move |_| {
        connection.track();
        load(form, client.get_value(), connection);
    });
    let problems = form.problems();
    let request = Signal::derive(move || Request::VideoTranslate(form.request()));
    let name_count = move || form.name.with(|name| char_count(name.trim()));
    let most = NAME_CHAR_LIMIT - 1;
    let predicted = move || {
        // Unnamed videos get the submission time; now is the best guess.
        let now = (now_ms() / 1000.0) as i64;
        let name = form.name.get();
        let name = Some(name.trim()).filter(|name| !name.is_empty());
        form.languages
            .get()
            .into_iter()
            .map(|language| view! { <li>{predicted_name(&language, name, now)}</li> })
            .collect_view()
    };

    view! {
        <FormShell host=host.clone() prefilled request problems action="Translate">
            <Field id="video_url" label="Video URL">
                <FileTarget value=form.video_url kind=InputKind::Video field="video_url">
                    <input
                        id="video_url"
                        type="url"
                        placeholder="https://example.com/talk.mp4"
                        aria-describedby="video_url-problems"
                        prop:value=move || form.video_url.get()
                        on:input=move |ev| form.video_url.set(event_target_value(&ev))
                    />
                </FileTarget>
                <FieldProblems problems field="video_url"/>
            </Field>
            <LanguagePicker form problems client connection/>
            <Field id="name" label="Name (optional)">
                <input
                    id="name"
                    type="text"
                    aria-describedby="name-count name-problems"
                    prop:value=move || form.name.get()
                    on:input=move |ev| form.name.set(event_target_value(&ev))
                />
                <p class="hint" class:hint--over={move || name_count() > most} id="name-count">
                    {name_count}" / "{most}" characters"
                </p>
                <FieldProblems problems field="name"/>
            </Field>
            <Show when=move || form.languages.with(|l| !l.is_empty())>
                <div class="field">
                    <p class="label">"The translated videos will be named"</p>
                    <ul class="predicted-names" id="predicted-names">{predicted}</ul>
                </div>
            </Show>
            <Field id="speaker_num" label="Speakers (optional)">
                <input
                    id="speaker_num"
                    type="number"
                    inputmode="numeric"
                    min="0"
                    aria-describedby="speaker_num-hint speaker_num-problems"
                    prop:value=move || form.speakers.get()
                    on:input=move |ev| form.speakers.set(event_target_value(&ev))
                />
                <p class="hint" id="speaker_num-hint">"Leave empty and the service counts them."</p>
                <FieldProblems problems field="speaker_num"/>
            </Field>
            <Switch
                id="translate_audio_only"
                label="Voice only"
                about="Translate the voice track and leave faces alone: lips are not re-synced."
                value=form.audio_only
            />
            <Switch
                id="enable_dynamic_duration"
                label="Natural pacing"
                about="Stretch or shorten parts of the video so speech flows naturally in each language."
                value=form.dynamic_duration
            />
            <Switch
                id="enable_caption"
                label="Subtitles"
                about="Add subtitles in each target language, with a caption file (ASS) to download."
                value=form.captions
            />
            <CallbackField value=form.callback problems base_url=host.base_url client/>
        </FormShell>
    }
}
