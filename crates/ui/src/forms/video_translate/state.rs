//! The video translation form's state.

use leptos::prelude::*;
use media_gen_api::{
    defaults, validate_video_translate, Context, Problems, Rule, VideoTranslateRequest,
};

use crate::forms::optional;

/// The service's language list, as far as the form knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Offered {
    /// The list is being read.
    Loading,
    /// The languages the service offers.
    Loaded(Vec<String>),
    /// Reading it failed; the message says why.
    Failed(String),
}

/// What the user has entered so far; every field a signal.
#[derive(Debug, Clone, Copy)]
pub struct VideoTranslateState {
    /// The video to translate.
    pub video_url: RwSignal<String>,
    /// Chosen target languages, in the order chosen.
    pub languages: RwSignal<Vec<String>>,
    /// Number of speakers as typed; blank lets the service detect them.
    pub speakers: RwSignal<String>,
    /// Translate only the voice track.
    pub audio_only: RwSignal<bool>,
    /// Stretch or shrink portions for fluid speech.
    pub dynamic_duration: RwSignal<bool>,
    /// Generate subtitles.
    pub captions: RwSignal<bool>,
    /// Video name; blank lets the service name it.
    pub name: RwSignal<String>,
    /// Callback URL; blank for none.
    pub callback: RwSignal<String>,
    /// The service's language list.
    pub offered: RwSignal<Offered>,
}

impl Default for VideoTranslateState {
    /// The service's published defaults.
    fn default() -> Self {
        Self::from_request(&VideoTranslateRequest::default())
    }
}

impl VideoTranslateState {
    /// A form filled in with `request` ("edit and re-run").
    pub fn from_request(request: &VideoTranslateRequest) -> Self {
        VideoTranslateState {
            video_url: RwSignal::new(request.video_url.clone()),
            languages: RwSignal::new(request.target_languages.clone()),
            speakers: RwSignal::new(
                request
                    .speaker_num
                    .map(|n| n.to_string())
                    .unwrap_or_default(),
            ),
            audio_only: RwSignal::new(
                request
                    .translate_audio_only
                    .unwrap_or(defaults::TRANSLATE_AUDIO_ONLY),
            ),
            dynamic_duration: RwSignal::new(
                request
                    .enable_dynamic_duration
                    .unwrap_or(defaults::ENABLE_DYNAMIC_DURATION),
            ),
            captions: RwSignal::new(request.enable_caption.unwrap_or(defaults::ENABLE_CAPTION)),
            name: RwSignal::new(request.name.clone().unwrap_or_default()),
            callback: RwSignal::new(request.callback_url.clone().unwrap_or_default()),
            offered: RwSignal::new(Offered::Loading),
        }
    }

    /// Add `language` to the chosen ones, or take it out.
    pub fn toggle_language(&self, language: &str) {
        self.languages.update(|chosen| {
            if let Some(at) = chosen.iter().position(|l| l == language) {
                chosen.remove(at);
            } else {
                chosen.push(language.to_owned());
            }
        });
    }

    /// The speaker count typed, when it is a whole number.
    fn speaker_num(&self) -> Result<Option<i64>, ()> {
        let text = self.speakers.get();
        match text.trim() {
            "" => Ok(None),
            text => text.parse().map(Some).map_err(|_| ()),
        }
    }

    /// The request these values make.
    pub fn request(&self) -> VideoTranslateRequest {
        VideoTranslateRequest {
            target_languages: self.languages.get(),
            video_url: self.video_url.get().trim().to_owned(),
            speaker_num: self.speaker_num().ok().flatten(),
            translate_audio_only: Some(self.audio_only.get()),
            enable_dynamic_duration: Some(self.dynamic_duration.get()),
            enable_caption: Some(self.captions.get()),
            name: optional(&self.name.get()),
            callback_url: optional(&self.callback.get()),
        }
    }

    /// Every problem of the request, checked against the service's language
    /// list once it is read, plus a speaker count that is not a number.
    pub fn problems(&self) -> Memo<Problems> {
        let form = *self;
        Memo::new(move |_| {
            let languages = match form.offered.get() {
                Offered::Loaded(languages) => Some(languages),
                Offered::Loading | Offered::Failed(_) => None,
            };
            let context = Context {
                languages,
                ..Context::default()
            };
            let mut problems = validate_video_translate(&form.request(), &context);
            if form.speaker_num().is_err() {
                problems.error(
                    "speaker_num",
                    Rule::OutOfRange,
                    "The number of speakers is a whole number, 0 or more",
                );
            }
            problems
        })
    }
}
