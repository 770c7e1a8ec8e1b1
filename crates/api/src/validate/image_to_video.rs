//! Rules of `POST /v1/image_to_video`: the request table, the per-model table
//! and the limits.

use super::common::{
    check_count, check_image_bytes, check_optional_url, check_prompt, check_url, items_past,
};
use super::{Context, Problems, Rule};
use crate::defaults;
use crate::image_to_video::ImageToVideoRequest;
use crate::model_rules::{Mode, Support, ALL_DURATIONS};
use crate::values::{AspectRatio, Model, Resolution};

/// The most videos one request makes.
pub const MAX_VIDEOS: i64 = 4;

/// `4, 6 or 8`
fn one_of<T: ToString>(values: &[T]) -> String {
    let words: Vec<String> = values.iter().map(ToString::to_string).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

fn non_empty(text: Option<&str>) -> Option<&str> {
    text.filter(|text| !text.trim().is_empty())
}

/// Every problem of an image-to-video request.
///
/// Choices where the document is silent (see the crate README): `model` is
/// required; `aspect_ratio` is optional; model `V` with both a start frame and
/// reference images is an error; model `V` with neither is an error; an end
/// frame without a start frame is a warning; `generate_audio: false` is
/// accepted for every model.
pub fn validate_image_to_video(request: &ImageToVideoRequest, context: &Context) -> Problems {
    let mut problems = Problems::default();
    let model = request.model;
    let start = non_empty(request.image_url.as_deref());
    let end = non_empty(request.end_image_url.as_deref());
    let references = &request.reference_images;
    let mode = model.map(|model| model.mode(!references.is_empty()));

    if model.is_none() {
        problems.error("model", Rule::Required, "Choose a model: V, KL or S");
    }
    check_prompt(&mut problems, &request.prompt);

    match (request.aspect_resolution, model) {
        (None, _) => problems.error(
            "aspect_resolution",
            Rule::Required,
            "Choose a resolution: 720p, 1080p or 4k",
        ),
        (Some(resolution), Some(model)) if !model.rules().resolutions.contains(&resolution) => {
            let allowed = model.rules().resolutions;
            let message = if allowed.len() == 1 {
                format!("Model {model} supports only {}", allowed[0])
            } else {
                format!("Model {model} supports {}", one_of(allowed))
            };
            problems.error("aspect_resolution", Rule::NotAllowedForModel, message);
        }
        _ => {}
    }

    match (request.duration, model.zip(mode)) {
        (None, _) => problems.error("duration", Rule::Required, "Choose a duration"),
        (Some(duration), Some((model, mode))) if !model.durations(mode).contains(&duration) => {
            let allowed = one_of(model.durations(mode));
            let message = match (model, mode) {
                (Model::V, Mode::MultiImage) => {
                    "In multi-image mode model V makes 8 second videos only".to_owned()
                }
                (Model::V, Mode::StartFrame) => {
                    format!("Model V makes {allowed} second videos from a start frame")
                }
                _ => format!("Model {model} makes {allowed} second videos"),
            };
            problems.error("duration", Rule::NotAllowedForModel, message);
        }
        (Some(duration), None) if !ALL_DURATIONS.contains(&duration) => problems.error(
            "duration",
            Rule::OutOfRange,
            format!("Duration is {} seconds", one_of(ALL_DURATIONS)),
        ),
        _ => {}
    }

    check_optional_url(&mut problems, "image_url", start);
    if let Some(start) = start {
        check_image_bytes(&mut problems, context, "image_url", start, true);
    }
    if let Some(model) = model {
        match (model.rules().image_url, start) {
            (Support::Required, None) => problems.error(
                "image_url",
                Rule::Required,
                format!("Model {model} needs a start frame"),
            ),
            (Support::NotSupported, Some(_)) => problems.error(
                "image_url",
                Rule::NotSupportedByModel,
                format!("Model {model} does not take a start frame; give reference images instead"),
            ),
            // Neither kind of image: where a form asked for one kind, that
            // kind is what is missing; otherwise either will do.
            (Support::RequiredInMode, None) if references.is_empty() => match context.mode {
                Some(Mode::StartFrame) => problems.error(
                    "image_url",
                    Rule::Required,
                    format!("Model {model} needs a start frame"),
                ),
                Some(Mode::MultiImage) => problems.error(
                    "reference_images",
                    Rule::Required,
                    format!(
                        "Model {model} needs 1 to {} reference images",
                        model.rules().max_reference_images
                    ),
                ),
                None => problems.error(
                    "image_url",
                    Rule::Required,
                    format!(
                        "Model {model} needs a start frame or 1 to {} reference images",
                        model.rules().max_reference_images
                    ),
                ),
            },
            _ => {}
        }
    }

    check_optional_url(&mut problems, "end_image_url", end);
    if let (Some(model), Some(_)) = (model, end) {
        if model.rules().end_image_url == Support::NotSupported {
            problems.error(
                "end_image_url",
                Rule::NotSupportedByModel,
                "Only model V takes an end frame",
            );
        } else if start.is_none() {
            problems.warning(
                "end_image_url",
                Rule::EndFrameWithoutStart,
                "An end frame goes with a start frame; without one it may be ignored",
            );
        }
    }
    if let (Some(start), Some(end)) = (start, end) {
        check_end_frame_aspect(&mut problems, context, start, end);
    }
    if let Some(start) = start {
        check_start_frame_shape(&mut problems, context, start, request.aspect_ratio);
    }

    for (index, url) in references.iter().enumerate() {
        let field = format!("reference_images[{index}]");
        check_url(&mut problems, &field, url);
        check_image_bytes(&mut problems, context, &field, url, true);
    }
    if let Some(model) = model {
        let rules = model.rules();
        match rules.reference_images {
            Support::NotSupported if !references.is_empty() => problems.error(
                "reference_images",
                Rule::NotSupportedByModel,
                format!("Model {model} does not take reference images"),
            ),
            Support::Required if references.is_empty() => problems.error(
                "reference_images",
                Rule::Required,
                format!(
                    "Model {model} needs 1 to {} reference images",
                    rules.max_reference_images
                ),
            ),
            Support::RequiredInMode if start.is_some() && !references.is_empty() => problems.error(
                "reference_images",
                Rule::ConflictingModes,
                format!("Model {model} takes either a start frame or reference images, not both"),
            ),
            _ => {}
        }
        if rules.reference_images != Support::NotSupported {
            for field in items_past("reference_images", references, rules.max_reference_images) {
                problems.error(
                    field,
                    Rule::TooMany,
                    format!(
                        "Model {model} takes at most {} reference images",
                        rules.max_reference_images
                    ),
                );
            }
        }
        if request.generate_audio == Some(true) && !rules.audio {
            problems.error(
                "generate_audio",
                Rule::NotSupportedByModel,
                "Only model V generates audio",
            );
        }
    }

    check_count(&mut problems, request.generate_count, MAX_VIDEOS, "videos");
    check_optional_url(
        &mut problems,
        "callback_url",
        request.callback_url.as_deref(),
    );
    problems
}

/// "landscape", "portrait" or "square", for a width-to-height ratio.
fn orientation(ratio: f64) -> &'static str {
    if ratio > 1.05 {
        "landscape"
    } else if ratio < 0.95 {
        "portrait"
    } else {
        "square"
    }
}

/// The width-to-height ratio of a video of `aspect`.
fn video_ratio(aspect: AspectRatio) -> f64 {
    let (w, h) = Resolution::P720.frame_size(aspect);
    f64::from(w) / f64::from(h)
}

/// The start frame's shape should be the video's, or the picture is cropped
/// or filled (a portrait photo made into a landscape video). A warning, on
/// `aspect_ratio`, naming the ratio that keeps the frame's shape. Needs the
/// frame's size.
fn check_start_frame_shape(
    problems: &mut Problems,
    context: &Context,
    start: &str,
    aspect: Option<AspectRatio>,
) {
    let Some((w, h)) = context
        .image(start)
        .and_then(|info| Some((info.width?, info.height?)))
        .filter(|(w, h)| *w > 0 && *h > 0)
    else {
        return;
    };
    let frame = f64::from(w) / f64::from(h);
    let chosen = aspect.unwrap_or(defaults::ASPECT_RATIO);
    let video = video_ratio(chosen);
    if (frame - video).abs() / video <= 0.1 {
        return;
    }
    // How far a ratio is from the frame's, either way round.
    let off = |aspect| (video_ratio(aspect) / frame).ln().abs();
    let better = AspectRatio::ALL
        .iter()
        .copied()
        .filter(|other| off(*other) + 0.01 < off(chosen))
        .min_by(|a, b| off(*a).total_cmp(&off(*b)));
    let named = if aspect.is_some() {
        ""
    } else {
        ", the service's default"
    };
    let advice = better
        .map(|better| format!(" Choose {better} to keep the frame's shape."))
        .unwrap_or_default();
    problems.warning(
        "aspect_ratio",
        Rule::AspectMismatch,
        format!(
            "The start frame is {w}×{h} ({}) but the video will be {chosen} ({}{named}): \
             the picture will be cropped or filled.{advice}",
            orientation(frame),
            orientation(video),
        ),
    );
}

/// The end frame should have the start frame's aspect ratio; a mismatch lowers
/// quality (no error is stated, so this is a warning). Needs both sizes.
fn check_end_frame_aspect(problems: &mut Problems, context: &Context, start: &str, end: &str) {
    let size = |url| {
        let info = context.image(url)?;
        Some((info.width?, info.height?)).filter(|(w, h)| *w > 0 && *h > 0)
    };
    let (Some((sw, sh)), Some((ew, eh))) = (size(start), size(end)) else {
        return;
    };
    let start_ratio = f64::from(sw) / f64::from(sh);
    let end_ratio = f64::from(ew) / f64::from(eh);
    if (start_ratio - end_ratio).abs() / start_ratio > 0.01 {
        problems.warning(
            "end_image_url",
            Rule::AspectMismatch,
            format!(
                "The end frame is {ew}×{eh} but the start frame is {sw}×{sh}; a different aspect ratio lowers quality"
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::one_of;

    #[test]
    fn lists_read_as_english() {
        assert_eq!(one_of(&[4, 6, 8]), "4, 6 or 8");
        assert_eq!(one_of(&[5, 10]), "5 or 10");
        assert_eq!(one_of(&[8]), "8");
    }
}
