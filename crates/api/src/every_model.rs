//! "Try it on every model": an image-to-video request made for one model,
//! carried to each other model with the nearest settings that model
//! allows, and what changed said in a sentence each ("KL: 10 s, not 8").
//!
//! The rule: what the other model takes as it is stays as it is (the
//! prompt, the aspect ratio, the count, the callback, and any duration,
//! resolution or image it allows); what it does not take becomes the
//! nearest value it does, and the images move to the kind the model reads
//! (a start frame becomes a reference image for KL, the first reference
//! image a start frame for S). From a request valid for its own model,
//! every model's version is valid for that model (property-tested below).

use crate::image_to_video::ImageToVideoRequest;
use crate::model_rules::{Mode, Support};
use crate::values::{Model, Resolution};

/// One thing changed for a model, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The request's field it changed (`duration`).
    pub field: &'static str,
    /// What changed, in words: "10 s, not 8: KL makes 5 or 10 s videos".
    pub said: String,
}

/// A request as one model takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForModel {
    /// The model.
    pub model: Model,
    /// The request for it.
    pub request: ImageToVideoRequest,
    /// What changed from the request asked, in the fields' order.
    pub changes: Vec<Change>,
}

impl ForModel {
    /// What changed, in one line: "KL: 10 s, not 8; …"; the model's name
    /// alone when nothing did.
    pub fn summary(&self) -> String {
        if self.changes.is_empty() {
            return format!("{}: as asked", self.model);
        }
        let said: Vec<&str> = self
            .changes
            .iter()
            .map(|change| change.said.as_str())
            .collect();
        format!("{}: {}", self.model, said.join("; "))
    }
}

/// `request` for every model, its own first, then the others in the
/// document's order.
pub fn for_every_model(request: &ImageToVideoRequest) -> Vec<ForModel> {
    let own = request.model;
    let others = Model::ALL
        .iter()
        .copied()
        .filter(|model| Some(*model) != own);
    own.into_iter()
        .chain(others)
        .map(|model| for_model(request, model))
        .collect()
}

/// Of `allowed` (ascending), the one nearest `wanted`; the larger of two
/// as near (a video a little longer, a picture a little sharper, rather
/// than less than asked).
fn nearest(wanted: i64, allowed: &[i64]) -> Option<i64> {
    allowed
        .iter()
        .copied()
        .min_by_key(|value| ((value - wanted).abs(), -value))
}

/// A resolution's place, for [`nearest`].
fn rank(resolution: Resolution) -> i64 {
    match resolution {
        Resolution::P720 => 0,
        Resolution::P1080 => 1,
        Resolution::K4 => 2,
    }
}

/// `values` in words: "5 or 10", "720p, 1080p or 4k".
fn in_words<T: ToString>(values: &[T]) -> String {
    let words: Vec<String> = values.iter().map(ToString::to_string).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

/// `request` as `model` takes it.
pub fn for_model(request: &ImageToVideoRequest, model: Model) -> ForModel {
    let rules = model.rules();
    let mut changed = request.clone();
    changed.model = Some(model);
    let mut changes = Vec::new();
    let mut say = |field: &'static str, said: String| changes.push(Change { field, said });

    // The images, as the kinds this model reads.
    let start = request
        .image_url
        .clone()
        .filter(|url| !url.trim().is_empty());
    let end = request
        .end_image_url
        .clone()
        .filter(|url| !url.trim().is_empty());
    let references = &request.reference_images;
    match model.only_mode() {
        Some(Mode::MultiImage) => {
            if references.is_empty() {
                if let Some(start) = start {
                    changed.reference_images = vec![start];
                    changed.image_url = None;
                    say(
                        "reference_images",
                        "needs reference images: your start frame is used as one".to_owned(),
                    );
                }
            } else if start.is_some() {
                changed.image_url = None;
                say(
                    "image_url",
                    "takes no start frame: your reference images are used".to_owned(),
                );
            }
        }
        Some(Mode::StartFrame) => {
            if start.is_none() {
                if let Some(first) = references.first() {
                    changed.image_url = Some(first.clone());
                    say(
                        "image_url",
                        "needs a start frame: your first reference image is used".to_owned(),
                    );
                }
            }
            if !references.is_empty() {
                changed.reference_images = Vec::new();
                if start.is_some() {
                    say(
                        "reference_images",
                        "takes no reference images: your start frame is used".to_owned(),
                    );
                }
            }
        }
        None => {}
    }
    let max = rules.max_reference_images;
    if changed.reference_images.len() > max && rules.reference_images != Support::NotSupported {
        changed.reference_images.truncate(max);
        say(
            "reference_images",
            format!("takes at most {max} reference images: the first {max} are used"),
        );
    }
    if end.is_some() {
        let start_mode = model.mode(!changed.reference_images.is_empty()) == Mode::StartFrame;
        if rules.end_image_url == Support::NotSupported || !start_mode {
            changed.end_image_url = None;
            say(
                "end_image_url",
                if rules.end_image_url == Support::NotSupported {
                    "takes no end frame".to_owned()
                } else {
                    "no end frame with reference images".to_owned()
                },
            );
        }
    }

    // The settings: kept where allowed, else the nearest allowed.
    let mode = model.mode(!changed.reference_images.is_empty());
    let durations = model.durations(mode);
    if let Some(duration) = request.duration {
        if !durations.contains(&duration) {
            if let Some(near) = nearest(duration, durations) {
                changed.duration = Some(near);
                say(
                    "duration",
                    format!(
                        "{near} s, not {duration}: {model} makes {} s videos",
                        in_words(durations)
                    ),
                );
            }
        }
    }
    if let Some(resolution) = request.aspect_resolution {
        if !rules.resolutions.contains(&resolution) {
            let ranks: Vec<i64> = rules.resolutions.iter().map(|r| rank(*r)).collect();
            let near = nearest(rank(resolution), &ranks)
                .and_then(|near| rules.resolutions.iter().find(|r| rank(**r) == near));
            if let Some(near) = near {
                changed.aspect_resolution = Some(*near);
                say(
                    "aspect_resolution",
                    format!(
                        "{near}, not {resolution}: {model} makes {}",
                        in_words(rules.resolutions)
                    ),
                );
            }
        }
    }
    if request.generate_audio == Some(true) && !rules.audio {
        changed.generate_audio = None;
        say("generate_audio", format!("no sound: {model} makes none"));
    }
    ForModel {
        model,
        request: changed,
        changes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::{validate_image_to_video, Context};
    use crate::values::AspectRatio;
    use proptest::prelude::*;

    fn start_frame(model: Model, duration: i64) -> ImageToVideoRequest {
        ImageToVideoRequest {
            model: Some(model),
            prompt: "A harbour at dawn".to_owned(),
            aspect_resolution: Some(Resolution::P1080),
            duration: Some(duration),
            image_url: Some("https://example.com/start.png".to_owned()),
            ..ImageToVideoRequest::default()
        }
    }

    #[test]
    fn a_start_frame_for_v_becomes_a_reference_image_for_kl_and_stays_for_s() {
        let all = for_every_model(&start_frame(Model::V, 8));
        assert_eq!(
            all.iter().map(|made| made.model).collect::<Vec<_>>(),
            [Model::V, Model::Kl, Model::S],
            "its own model first"
        );
        assert_eq!(all[0].summary(), "V: as asked");
        let kl = &all[1];
        assert_eq!(
            kl.request.reference_images,
            ["https://example.com/start.png"]
        );
        assert_eq!(kl.request.image_url, None);
        assert_eq!(kl.request.duration, Some(10));
        assert_eq!(
            kl.summary(),
            "KL: needs reference images: your start frame is used as one; \
             10 s, not 8: KL makes 5 or 10 s videos"
        );
        let s = &all[2];
        assert_eq!(s.request.duration, Some(8), "8 s is one of S's");
        assert_eq!(s.request.aspect_resolution, Some(Resolution::P720));
        assert_eq!(s.summary(), "S: 720p, not 1080p: S makes 720p");
    }

    #[test]
    fn reference_images_for_kl_become_a_start_frame_for_s_and_three_for_v() {
        let request = ImageToVideoRequest {
            model: Some(Model::Kl),
            prompt: "Five products".to_owned(),
            aspect_resolution: Some(Resolution::P720),
            duration: Some(5),
            reference_images: (1..=5)
                .map(|n| format!("https://example.com/{n}.png"))
                .collect(),
            ..ImageToVideoRequest::default()
        };
        let v = for_model(&request, Model::V);
        assert_eq!(v.request.reference_images.len(), 3);
        assert_eq!(v.request.duration, Some(8), "V's multi-image mode is 8 s");
        let s = for_model(&request, Model::S);
        assert_eq!(
            s.request.image_url.as_deref(),
            Some("https://example.com/1.png")
        );
        assert!(s.request.reference_images.is_empty());
        assert_eq!(s.request.duration, Some(4), "5 s is nearest 4 and 8: 4");
    }

    #[test]
    fn a_tie_takes_the_longer_video_and_sound_is_dropped_where_none_is_made() {
        let mut request = start_frame(Model::V, 6);
        request.generate_audio = Some(true);
        let s = for_model(&request, Model::S);
        assert_eq!(s.request.duration, Some(8), "6 s is as near 4 as 8");
        assert_eq!(s.request.generate_audio, None);
        assert!(
            s.summary().ends_with("no sound: S makes none"),
            "{}",
            s.summary()
        );
    }

    fn any_model() -> impl Strategy<Value = Model> {
        prop::sample::select(Model::ALL.to_vec())
    }

    fn any_url() -> impl Strategy<Value = String> {
        "[a-z]{1,8}".prop_map(|name| format!("https://example.com/{name}.png"))
    }

    /// Any request valid for its own model.
    fn valid_request() -> impl Strategy<Value = ImageToVideoRequest> {
        (
            any_model(),
            prop::bool::ANY,
            any_url(),
            prop::option::of(any_url()),
            prop::collection::vec(any_url(), 1..8),
            prop::sample::select(crate::model_rules::ALL_DURATIONS.to_vec()),
            prop::sample::select(Resolution::ALL.to_vec()),
            prop::option::of(prop::bool::ANY),
            prop::option::of(1..=4i64),
            prop::option::of(prop::sample::select(AspectRatio::ALL.to_vec())),
        )
            .prop_map(
                |(
                    model,
                    multi,
                    start,
                    end,
                    references,
                    duration,
                    resolution,
                    audio,
                    count,
                    ratio,
                )| {
                    let rules = model.rules();
                    let mode = model.only_mode().unwrap_or(if multi {
                        Mode::MultiImage
                    } else {
                        Mode::StartFrame
                    });
                    let mut request = ImageToVideoRequest {
                        model: Some(model),
                        prompt: "A valid request".to_owned(),
                        aspect_ratio: ratio,
                        generate_count: count,
                        ..ImageToVideoRequest::default()
                    };
                    match mode {
                        Mode::StartFrame => {
                            request.image_url = Some(start);
                            if rules.end_image_url != Support::NotSupported {
                                request.end_image_url = end;
                            }
                        }
                        Mode::MultiImage => {
                            request.reference_images = references;
                            request
                                .reference_images
                                .truncate(rules.max_reference_images);
                        }
                    }
                    let durations = model.durations(mode);
                    request.duration = Some(nearest(duration, durations).unwrap());
                    request.aspect_resolution = Some(if rules.resolutions.contains(&resolution) {
                        resolution
                    } else {
                        rules.resolutions[0]
                    });
                    request.generate_audio = audio.map(|audio| audio && rules.audio);
                    request
                },
            )
    }

    proptest! {
        #[test]
        fn from_a_valid_request_every_models_version_is_valid_for_it(request in valid_request()) {
            let context = Context::default();
            prop_assert!(!validate_image_to_video(&request, &context).has_errors(), "the input is valid");
            for made in for_every_model(&request) {
                let problems = validate_image_to_video(&made.request, &context);
                prop_assert!(!problems.has_errors(), "{}: {:?} for {:?}", made.model, problems, made.request);
            }
        }

        #[test]
        fn what_a_model_takes_as_it_is_is_never_changed(request in valid_request(), model in any_model()) {
            let made = for_model(&request, model);
            prop_assert_eq!(made.request.model, Some(model));
            prop_assert_eq!(&made.request.prompt, &request.prompt);
            prop_assert_eq!(made.request.aspect_ratio, request.aspect_ratio);
            prop_assert_eq!(made.request.generate_count, request.generate_count);
            prop_assert_eq!(&made.request.callback_url, &request.callback_url);
            let rules = model.rules();
            if request.aspect_resolution.is_some_and(|r| rules.resolutions.contains(&r)) {
                prop_assert_eq!(made.request.aspect_resolution, request.aspect_resolution);
            }
            let mode = model.mode(!made.request.reference_images.is_empty());
            if request.duration.is_some_and(|d| model.durations(mode).contains(&d)) {
                prop_assert_eq!(made.request.duration, request.duration);
            }
            // Its own model changes nothing at all, and says so.
            if request.model == Some(model) {
                prop_assert_eq!(&made.request, &request);
                prop_assert!(made.changes.is_empty());
            }
            // Every change is said, and only changes are.
            let fields = [
                ("duration", made.request.duration != request.duration),
                ("aspect_resolution", made.request.aspect_resolution != request.aspect_resolution),
                ("generate_audio", made.request.generate_audio != request.generate_audio),
                ("end_image_url", made.request.end_image_url != request.end_image_url),
            ];
            for (field, differs) in fields {
                prop_assert_eq!(
                    made.changes.iter().any(|change| change.field == field),
                    differs,
                    "{}", field
                );
            }
        }
    }
}
