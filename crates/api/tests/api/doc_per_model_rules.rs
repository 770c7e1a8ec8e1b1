//! Interface document, POST /v1/image_to_video, "Per-model rules": one test
//! per row of the table, each checking the V, KL and S cells.

use crate::common::*;
use media_gen_api::*;

#[test]
fn baselines_are_valid() {
    for request in [v_start(), v_multi(), kl(), s()] {
        assert_clean(&i2v(&request));
    }
}

#[test]
fn row_purpose_is_stated_for_each_model() {
    for &model in Model::ALL {
        assert!(!model.rules().purpose.is_empty(), "{model}");
    }
    assert!(Model::V.rules().purpose.contains("audio"));
    assert!(Model::Kl.rules().purpose.contains("reference images"));
    assert!(Model::S.rules().purpose.contains("start frame"));
}

#[test]
fn row_image_url_v_optional_but_required_in_start_frame_mode() {
    assert_eq!(Model::V.rules().image_url, Support::RequiredInMode);
    // Multi-image mode: no start frame needed.
    assert_clean(&i2v(&v_multi()));
    // Neither mode: the start frame is what is missing.
    let request = ImageToVideoRequest {
        image_url: None,
        ..v_start()
    };
    let message = assert_only_error(&i2v(&request), "image_url", Rule::Required);
    assert!(
        message.contains("start frame") && message.contains("reference images"),
        "{message}"
    );
    // A form that asked for one kind of image hears about that kind only.
    let asked = |mode| Context {
        mode: Some(mode),
        ..Context::default()
    };
    let problems = validate_image_to_video(&request, &asked(Mode::StartFrame));
    let message = assert_only_error(&problems, "image_url", Rule::Required);
    assert_eq!(message, "Model V needs a start frame");
    let problems = validate_image_to_video(&request, &asked(Mode::MultiImage));
    let message = assert_only_error(&problems, "reference_images", Rule::Required);
    assert_eq!(message, "Model V needs 1 to 3 reference images");
}

#[test]
fn row_image_url_kl_not_supported() {
    let request = ImageToVideoRequest {
        image_url: Some(IMAGE.into()),
        ..kl()
    };
    let message = assert_only_error(&i2v(&request), "image_url", Rule::NotSupportedByModel);
    assert_eq!(
        message,
        "Model KL does not take a start frame; give reference images instead"
    );
}

#[test]
fn row_image_url_s_required() {
    let request = ImageToVideoRequest {
        image_url: None,
        ..s()
    };
    let message = assert_only_error(&i2v(&request), "image_url", Rule::Required);
    assert_eq!(message, "Model S needs a start frame");
    // An empty or blank string is no start frame either.
    for blank in ["", "   "] {
        let request = ImageToVideoRequest {
            image_url: Some(blank.into()),
            ..s()
        };
        assert_only_error(&i2v(&request), "image_url", Rule::Required);
    }
}

#[test]
fn row_end_image_url_v_optional() {
    let request = ImageToVideoRequest {
        end_image_url: Some("https://example.com/end.png".into()),
        ..v_start()
    };
    assert_clean(&i2v(&request));
}

#[test]
fn row_end_image_url_kl_and_s_not_supported() {
    for base in [kl(), s()] {
        let request = ImageToVideoRequest {
            end_image_url: Some("https://example.com/end.png".into()),
            ..base
        };
        let message = assert_only_error(&i2v(&request), "end_image_url", Rule::NotSupportedByModel);
        assert_eq!(message, "Only model V takes an end frame");
    }
}

#[test]
fn row_end_image_url_v_without_start_frame_is_a_warning() {
    let request = ImageToVideoRequest {
        end_image_url: Some("https://example.com/end.png".into()),
        ..v_multi()
    };
    assert_only_warning(&i2v(&request), "end_image_url", Rule::EndFrameWithoutStart);
}

#[test]
fn row_reference_images_v_optional_max_3_required_in_multi_image_mode() {
    assert_eq!(Model::V.rules().reference_images, Support::RequiredInMode);
    assert_eq!(Model::V.rules().max_reference_images, 3);
    for count in 1..=3 {
        let request = ImageToVideoRequest {
            reference_images: images(count),
            ..v_multi()
        };
        assert_clean(&i2v(&request));
    }
    let request = ImageToVideoRequest {
        reference_images: images(5),
        ..v_multi()
    };
    let problems = i2v(&request);
    assert_eq!(
        summary(&problems),
        [
            (
                "reference_images[3]".to_owned(),
                "too_many",
                Severity::Error
            ),
            (
                "reference_images[4]".to_owned(),
                "too_many",
                Severity::Error
            ),
        ]
    );
    assert_eq!(
        problems.iter().next().unwrap().to_string(),
        "reference_images[3]: Model V takes at most 3 reference images"
    );
}

#[test]
fn row_reference_images_v_with_a_start_frame_too_is_an_error() {
    let request = ImageToVideoRequest {
        image_url: Some(IMAGE.into()),
        ..v_multi()
    };
    let message = assert_only_error(&i2v(&request), "reference_images", Rule::ConflictingModes);
    assert!(message.contains("not both"), "{message}");
}

#[test]
fn row_reference_images_kl_required_max_7() {
    assert_eq!(Model::Kl.rules().max_reference_images, 7);
    let request = ImageToVideoRequest {
        reference_images: vec![],
        ..kl()
    };
    let message = assert_only_error(&i2v(&request), "reference_images", Rule::Required);
    assert_eq!(message, "Model KL needs 1 to 7 reference images");
    for count in [1, 7] {
        let request = ImageToVideoRequest {
            reference_images: images(count),
            ..kl()
        };
        assert_clean(&i2v(&request));
    }
    let request = ImageToVideoRequest {
        reference_images: images(8),
        ..kl()
    };
    assert_only_error(&i2v(&request), "reference_images[7]", Rule::TooMany);
}

#[test]
fn row_reference_images_s_not_supported() {
    let request = ImageToVideoRequest {
        reference_images: images(1),
        ..s()
    };
    let message = assert_only_error(
        &i2v(&request),
        "reference_images",
        Rule::NotSupportedByModel,
    );
    assert_eq!(message, "Model S does not take reference images");
}

#[test]
fn row_aspect_resolution_per_model() {
    let cases = [
        (v_start(), Resolution::P720, true),
        (v_start(), Resolution::P1080, true),
        (v_start(), Resolution::K4, true),
        (kl(), Resolution::P720, true),
        (kl(), Resolution::P1080, true),
        (kl(), Resolution::K4, false),
        (s(), Resolution::P720, true),
        (s(), Resolution::P1080, false),
        (s(), Resolution::K4, false),
    ];
    for (base, resolution, allowed) in cases {
        let model = base.model.unwrap();
        let request = ImageToVideoRequest {
            aspect_resolution: Some(resolution),
            ..base
        };
        let problems = i2v(&request);
        if allowed {
            assert_clean(&problems);
        } else {
            assert_only_error(&problems, "aspect_resolution", Rule::NotAllowedForModel);
        }
        assert_eq!(
            model.rules().resolutions.contains(&resolution),
            allowed,
            "{model} {resolution}"
        );
    }
    let request = ImageToVideoRequest {
        aspect_resolution: Some(Resolution::P1080),
        ..s()
    };
    let message = assert_only_error(
        &i2v(&request),
        "aspect_resolution",
        Rule::NotAllowedForModel,
    );
    assert_eq!(message, "Model S supports only 720p");
    let request = ImageToVideoRequest {
        aspect_resolution: Some(Resolution::K4),
        ..kl()
    };
    let message = assert_only_error(
        &i2v(&request),
        "aspect_resolution",
        Rule::NotAllowedForModel,
    );
    assert_eq!(message, "Model KL supports 720p or 1080p");
}

/// Every model, in every mode, with every duration of the document.
#[test]
fn row_duration_every_model_mode_and_duration() {
    let allowed = |model: Model, mode: Mode, seconds: i64| match (model, mode) {
        (Model::V, Mode::StartFrame) => [4, 6, 8].contains(&seconds),
        (Model::V, Mode::MultiImage) => seconds == 8,
        (Model::Kl, _) => [5, 10].contains(&seconds),
        (Model::S, _) => [4, 8, 12].contains(&seconds),
    };
    let bases = [
        (v_start(), Mode::StartFrame),
        (v_multi(), Mode::MultiImage),
        (kl(), Mode::MultiImage),
        (s(), Mode::StartFrame),
    ];
    for (base, mode) in bases {
        let model = base.model.unwrap();
        for seconds in [4, 5, 6, 8, 10, 12] {
            let request = ImageToVideoRequest {
                duration: Some(seconds),
                ..base.clone()
            };
            let problems = i2v(&request);
            if allowed(model, mode, seconds) {
                assert_clean(&problems);
            } else {
                assert_only_error(&problems, "duration", Rule::NotAllowedForModel);
            }
        }
    }
}

#[test]
fn row_duration_messages_name_the_rule() {
    let message = |request: ImageToVideoRequest| {
        assert_only_error(&i2v(&request), "duration", Rule::NotAllowedForModel)
    };
    assert_eq!(
        message(ImageToVideoRequest {
            duration: Some(6),
            ..v_multi()
        }),
        "In multi-image mode model V makes 8 second videos only"
    );
    assert_eq!(
        message(ImageToVideoRequest {
            duration: Some(5),
            ..v_start()
        }),
        "Model V makes 4, 6 or 8 second videos from a start frame"
    );
    assert_eq!(
        message(ImageToVideoRequest {
            duration: Some(8),
            ..kl()
        }),
        "Model KL makes 5 or 10 second videos"
    );
    assert_eq!(
        message(ImageToVideoRequest {
            duration: Some(6),
            ..s()
        }),
        "Model S makes 4, 8 or 12 second videos"
    );
}

/// Every model with every resolution and every duration: the problems are
/// exactly those the two rows predict, no more.
#[test]
fn rows_resolution_and_duration_combined_matrix() {
    for base in [v_start(), v_multi(), kl(), s()] {
        let model = base.model.unwrap();
        let mode = model.mode(!base.reference_images.is_empty());
        for &resolution in Resolution::ALL {
            for seconds in [4, 5, 6, 8, 10, 12] {
                let request = ImageToVideoRequest {
                    aspect_resolution: Some(resolution),
                    duration: Some(seconds),
                    ..base.clone()
                };
                let mut expected = Vec::new();
                if !model.rules().resolutions.contains(&resolution) {
                    expected.push((
                        "aspect_resolution".to_owned(),
                        "not_allowed_for_model",
                        Severity::Error,
                    ));
                }
                if !model.durations(mode).contains(&seconds) {
                    expected.push((
                        "duration".to_owned(),
                        "not_allowed_for_model",
                        Severity::Error,
                    ));
                }
                assert_eq!(
                    summary(&i2v(&request)),
                    expected,
                    "{model} {resolution} {seconds}s"
                );
            }
        }
    }
}

#[test]
fn row_generate_audio_v_only() {
    for audio in [true, false] {
        let request = ImageToVideoRequest {
            generate_audio: Some(audio),
            ..v_start()
        };
        assert_clean(&i2v(&request));
    }
    for base in [kl(), s()] {
        let request = ImageToVideoRequest {
            generate_audio: Some(true),
            ..base.clone()
        };
        let message =
            assert_only_error(&i2v(&request), "generate_audio", Rule::NotSupportedByModel);
        assert_eq!(message, "Only model V generates audio");
        // Asking for no audio asks for nothing unsupported.
        let request = ImageToVideoRequest {
            generate_audio: Some(false),
            ..base
        };
        assert_clean(&i2v(&request));
    }
}

#[test]
fn note_end_frame_with_another_aspect_ratio_is_a_warning() {
    let end = "https://example.com/end.png";
    let request = ImageToVideoRequest {
        end_image_url: Some(end.into()),
        ..v_start()
    };
    let sized = |width, height| ImageInfo {
        width: Some(width),
        height: Some(height),
        bytes: None,
    };
    let mut context = Context::default();
    context.images.insert(IMAGE.into(), sized(1920, 1080));
    context.images.insert(end.into(), sized(1024, 768));
    let problems = validate_image_to_video(&request, &context);
    let message = assert_only_warning(&problems, "end_image_url", Rule::AspectMismatch);
    assert!(
        message.contains("1024×768") && message.contains("1920×1080"),
        "{message}"
    );

    // Same ratio at another size: fine. Unknown sizes: no guess.
    context.images.insert(end.into(), sized(1280, 720));
    assert_clean(&validate_image_to_video(&request, &context));
    context.images.remove(end);
    assert_clean(&validate_image_to_video(&request, &context));
}

#[test]
fn problems_of_several_rows_come_all_at_once() {
    let request = ImageToVideoRequest {
        model: Some(Model::S),
        prompt: " ".into(),
        aspect_resolution: Some(Resolution::K4),
        duration: Some(5),
        image_url: None,
        end_image_url: Some("https://example.com/end.png".into()),
        reference_images: vec!["not a url".into()],
        generate_audio: Some(true),
        generate_count: Some(9),
        callback_url: Some("ftp://example.com/hook".into()),
        ..Default::default()
    };
    let fields: Vec<String> = i2v(&request).iter().map(|p| p.field.clone()).collect();
    assert_eq!(
        fields,
        [
            "prompt",
            "aspect_resolution",
            "duration",
            "image_url",
            "end_image_url",
            "reference_images[0]",
            "reference_images",
            "generate_audio",
            "generate_count",
            "callback_url",
        ]
    );
}

#[test]
fn note_start_frame_of_another_shape_than_the_video_is_a_warning() {
    let sized = |width, height| ImageInfo {
        width: Some(width),
        height: Some(height),
        bytes: None,
    };
    let mut context = Context::default();
    // A portrait photo, and the ratio left to the service (landscape).
    context.images.insert(IMAGE.into(), sized(1080, 1920));
    let request = ImageToVideoRequest {
        aspect_ratio: None,
        ..v_start()
    };
    let message = assert_only_warning(
        &validate_image_to_video(&request, &context),
        "aspect_ratio",
        Rule::AspectMismatch,
    );
    assert!(
        message.contains("1080×1920 (portrait)")
            && message.contains("16:9 (landscape, the service's default)")
            && message.contains("Choose 9:16"),
        "{message}"
    );

    // The ratio that keeps its shape: fine.
    let portrait = ImageToVideoRequest {
        aspect_ratio: Some(AspectRatio::Portrait9x16),
        ..v_start()
    };
    assert_clean(&validate_image_to_video(&portrait, &context));

    // A square frame fits neither: said, with no ratio to suggest.
    context.images.insert(IMAGE.into(), sized(1024, 1024));
    let message = assert_only_warning(
        &validate_image_to_video(&portrait, &context),
        "aspect_ratio",
        Rule::AspectMismatch,
    );
    assert!(
        message.contains("(square)") && !message.contains("Choose"),
        "{message}"
    );

    // Unknown size: no guess.
    context.images.remove(IMAGE);
    assert_clean(&validate_image_to_video(&request, &context));
}
