//! Valid baseline requests and assertions shared by the table tests.
#![allow(dead_code)]

use media_gen_api::*;

/// An image URL that passes every URL rule.
pub const IMAGE: &str = "https://example.com/start.png";

/// `n` distinct valid image URLs.
pub fn images(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| format!("https://example.com/ref{i}.png"))
        .collect()
}

/// Model V in start-frame mode, valid.
pub fn v_start() -> ImageToVideoRequest {
    ImageToVideoRequest {
        model: Some(Model::V),
        prompt: "A cat walks across a sunny kitchen".into(),
        aspect_ratio: Some(AspectRatio::Landscape16x9),
        aspect_resolution: Some(Resolution::P720),
        duration: Some(8),
        image_url: Some(IMAGE.into()),
        ..Default::default()
    }
}

/// Model V in multi-image mode, valid.
pub fn v_multi() -> ImageToVideoRequest {
    ImageToVideoRequest {
        image_url: None,
        reference_images: images(2),
        ..v_start()
    }
}

/// Model KL, valid.
pub fn kl() -> ImageToVideoRequest {
    ImageToVideoRequest {
        model: Some(Model::Kl),
        image_url: None,
        reference_images: images(1),
        duration: Some(5),
        ..v_start()
    }
}

/// Model S, valid.
pub fn s() -> ImageToVideoRequest {
    ImageToVideoRequest {
        model: Some(Model::S),
        duration: Some(4),
        ..v_start()
    }
}

/// A valid video translation request.
pub fn translation() -> VideoTranslateRequest {
    VideoTranslateRequest {
        target_languages: vec!["English".into(), "Japanese".into()],
        video_url: "https://example.com/talk.mp4".into(),
        ..Default::default()
    }
}

/// A valid image generation request.
pub fn image_generation() -> ImageGenerateRequest {
    ImageGenerateRequest {
        prompt: "A lighthouse at dawn".into(),
        ..Default::default()
    }
}

pub fn i2v(request: &ImageToVideoRequest) -> Problems {
    validate_image_to_video(request, &Context::default())
}

pub fn vt(request: &VideoTranslateRequest) -> Problems {
    validate_video_translate(request, &Context::default())
}

pub fn ig(request: &ImageGenerateRequest) -> Problems {
    validate_image_generate(request, &Context::default())
}

/// `(field, code, severity)` of every problem, for compact assertions.
pub fn summary(problems: &Problems) -> Vec<(String, &'static str, Severity)> {
    problems
        .iter()
        .map(|p| (p.field.clone(), p.rule.code(), p.severity))
        .collect()
}

/// No problem at all, not even a warning.
#[track_caller]
pub fn assert_clean(problems: &Problems) {
    assert!(
        problems.is_empty(),
        "expected no problems, got {:#?}",
        summary(problems)
    );
}

/// Exactly one problem, of `severity` and `rule`, on `field`; returns its message.
#[track_caller]
pub fn assert_only(problems: &Problems, severity: Severity, field: &str, rule: Rule) -> String {
    assert_eq!(
        summary(problems),
        [(field.to_owned(), rule.code(), severity)],
        "{problems:#?}"
    );
    problems
        .iter()
        .next()
        .map(|p| p.message.clone())
        .unwrap_or_default()
}

/// Exactly one problem: an error of `rule` on `field`; returns its message.
#[track_caller]
pub fn assert_only_error(problems: &Problems, field: &str, rule: Rule) -> String {
    assert_only(problems, Severity::Error, field, rule)
}

/// Exactly one problem: a warning of `rule` on `field`; returns its message.
#[track_caller]
pub fn assert_only_warning(problems: &Problems, field: &str, rule: Rule) -> String {
    assert_only(problems, Severity::Warning, field, rule)
}
