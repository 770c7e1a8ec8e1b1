//! A submit, as the service takes it: checked by the contract's rules
//! (refused whole, creating nothing, when one breaks), then one task per
//! image, video or language, each with its outcome. Between the two, a
//! driver may fetch the inputs the request names, as the service must
//! before it can work ([`Accepted::inputs`], [`Accepted::inputs_failed`]).

use serde::Serialize;

use super::lifecycle::Outcome;
use super::refusal::Refusal;
use super::store::Detail;
use super::TARGET_LANGUAGES;
use crate::media_inputs::MediaInput;
use crate::url_parts::url_parts;
use crate::{
    defaults, predicted_name, validate_image_generate, validate_image_to_video,
    validate_video_translate, Context, Problems, Request, TaskIds, TranslationTaskRef,
};

/// What a prompt contains to make its tasks fail (image_to_video, image_generate).
pub const PROMPT_FAIL_TRIGGER: &str = "[fail]";
/// What a video URL contains to make its translations fail.
pub const VIDEO_FAIL_TRIGGER: &str = "fail";

/// A submit that passed the rules, before its tasks are made.
#[derive(Debug, Clone)]
pub struct Accepted {
    request: Request,
    /// One per task to make.
    pub(super) tasks: Vec<Detail>,
    /// How they all end.
    pub(super) outcome: Outcome,
    /// Whether the inputs are fetched first (not when the outcome is
    /// decided already by a video URL's trigger).
    fetches_inputs: bool,
    /// Where each task's callback goes.
    pub(super) callback: Option<String>,
}

impl Accepted {
    /// The kind of task it makes.
    pub fn kind(&self) -> crate::TaskKind {
        self.request.kind()
    }

    /// The media the service must fetch before it can work: none when the
    /// tasks fail whatever the inputs are.
    pub fn inputs(&self) -> Vec<MediaInput<'_>> {
        if !self.fetches_inputs {
            return Vec::new();
        }
        match &self.request {
            Request::ImageToVideo(request) => request.media_inputs(),
            Request::VideoTranslate(request) => request.media_inputs(),
            Request::ImageGenerate(request) => request.media_inputs(),
        }
    }

    /// An input could not be used: every task fails with `message`.
    pub fn inputs_failed(&mut self, message: String) {
        self.outcome = Outcome::Failure(message);
    }
}

/// What a submit answers once its tasks are made (the envelope's `data`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Created {
    /// `task_ids` (image_to_video, image_generate).
    Tasks(TaskIds),
    /// A task per language (video_translate).
    Translations(Vec<TranslationTaskRef>),
}

/// The errors among `problems`, one `field: message` each, or `None`.
pub fn refusal(problems: &Problems) -> Option<String> {
    let errors: Vec<String> = problems.errors().map(ToString::to_string).collect();
    (!errors.is_empty()).then(|| errors.join("; "))
}

/// Whether the service may call `url` back. Without `any_host`, only
/// `localhost` and loopback IP literals pass, and no name is looked up, so
/// the service cannot be used to reach other machines.
pub fn callback_allowed(url: &str, any_host: bool) -> Result<(), String> {
    let parsed = url_parts(url)
        .filter(|parts| parts.is_http())
        .ok_or_else(|| "callback_url: must be an absolute http or https URL".to_owned())?;
    if any_host {
        return Ok(());
    }
    let host = parsed.host.trim_start_matches('[').trim_end_matches(']');
    let loopback = host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<core::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if loopback {
        Ok(())
    } else {
        Err("callback_url: this sandbox calls back only to loopback addresses (localhost, 127.0.0.1, ::1); \
             start it with --callbacks-to-any-host to allow others"
            .to_owned())
    }
}

/// The callback address a submit gave, if one the service may call.
fn callback_target(url: Option<&str>, any_host: bool) -> Result<Option<String>, String> {
    match url.filter(|url| !url.is_empty()) {
        None => Ok(None),
        Some(url) => callback_allowed(url, any_host).map(|()| Some(url.to_owned())),
    }
}

/// The outcome for a prompt: failure when it holds the trigger.
fn prompt_outcome(prompt: &str, what: &str) -> Outcome {
    if prompt.contains(PROMPT_FAIL_TRIGGER) {
        Outcome::Failure(format!(
            "The {what} could not be generated: the prompt contains {PROMPT_FAIL_TRIGGER}, the sandbox's failure trigger"
        ))
    } else {
        Outcome::Success
    }
}

/// `count` tasks of `detail`, counted as the request asked (at least none).
fn times(detail: Detail, count: i64) -> Vec<Detail> {
    (0..count.max(0)).map(|_| detail.clone()).collect()
}

/// Check `request` by the contract's rules and plan its tasks, at
/// `unix_seconds` (a translation's name), calling back only to loopback
/// unless `any_host`. The refusal otherwise: nothing is made.
pub fn accept(request: Request, unix_seconds: i64, any_host: bool) -> Result<Accepted, Refusal> {
    let invalid = Refusal::InvalidParameter;
    let (tasks, outcome, fetches_inputs, callback) = match &request {
        Request::ImageToVideo(asked) => {
            if let Some(message) = refusal(&validate_image_to_video(asked, &Context::default())) {
                return Err(invalid(message));
            }
            let (Some(resolution), Some(duration)) = (asked.aspect_resolution, asked.duration)
            else {
                return Err(invalid(
                    "aspect_resolution and duration are required".into(),
                ));
            };
            let callback =
                callback_target(asked.callback_url.as_deref(), any_host).map_err(invalid)?;
            let detail = Detail::ImageToVideo {
                aspect: asked.aspect_ratio.unwrap_or(defaults::ASPECT_RATIO),
                resolution,
                duration,
            };
            let count = asked
                .generate_count
                .unwrap_or(defaults::IMAGE_TO_VIDEO_COUNT);
            (
                times(detail, count),
                prompt_outcome(&asked.prompt, "video"),
                true,
                callback,
            )
        }
        Request::ImageGenerate(asked) => {
            // Answered as the document shows for this call: HTTP 200 with a code.
            let checked = match refusal(&validate_image_generate(asked, &Context::default())) {
                Some(message) => Err(message),
                None => callback_target(asked.callback_url.as_deref(), any_host),
            };
            let callback = checked.map_err(Refusal::InvalidParameterInOk)?;
            let detail = Detail::ImageGenerate {
                quality: asked.image_quality.unwrap_or(defaults::IMAGE_QUALITY),
                ratio: asked.image_ratio.unwrap_or(defaults::IMAGE_RATIO),
            };
            let count = asked
                .generate_count
                .unwrap_or(defaults::IMAGE_GENERATE_COUNT);
            (
                times(detail, count),
                prompt_outcome(&asked.prompt, "image"),
                true,
                callback,
            )
        }
        Request::VideoTranslate(asked) => {
            let context = Context {
                languages: Some(
                    TARGET_LANGUAGES
                        .iter()
                        .map(|name| (*name).to_owned())
                        .collect(),
                ),
                ..Context::default()
            };
            if let Some(message) = refusal(&validate_video_translate(asked, &context)) {
                return Err(invalid(message));
            }
            let callback =
                callback_target(asked.callback_url.as_deref(), any_host).map_err(invalid)?;
            let (outcome, fetches) = if asked.video_url.contains(VIDEO_FAIL_TRIGGER) {
                let message = format!(
                    "The source video could not be read: its URL contains \"{VIDEO_FAIL_TRIGGER}\", the sandbox's failure trigger"
                );
                (Outcome::Failure(message), false)
            } else {
                (Outcome::Success, true)
            };
            let caption = asked.enable_caption.unwrap_or(defaults::ENABLE_CAPTION);
            let tasks = asked
                .target_languages
                .iter()
                .map(|language| Detail::VideoTranslate {
                    language: language.clone(),
                    name: predicted_name(language, asked.name.as_deref(), unix_seconds),
                    caption,
                })
                .collect();
            (tasks, outcome, fetches, callback)
        }
    };
    Ok(Accepted {
        request,
        tasks,
        outcome,
        fetches_inputs,
        callback,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_only_unless_widened() {
        for ok in [
            "http://localhost:9000/hook",
            "http://127.0.0.1/x",
            "http://127.8.9.1/x",
            "http://[::1]:80/x",
            "https://LOCALHOST/x",
        ] {
            assert!(callback_allowed(ok, false).is_ok(), "{ok}");
        }
        for refused in [
            "http://example.com/hook",
            "http://10.0.0.1/x",
            "http://169.254.169.254/latest",
            "http://localhost.example.com/x",
            "http://[::2]/x",
        ] {
            assert!(callback_allowed(refused, false).is_err(), "{refused}");
            assert!(callback_allowed(refused, true).is_ok(), "{refused}");
        }
        assert!(callback_allowed("ftp://localhost/x", true).is_err());
    }
}
