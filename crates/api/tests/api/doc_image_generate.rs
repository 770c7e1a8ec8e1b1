//! Interface document, POST /v1/image_generate (request body, response,
//! business errors) and the image generation task object.

use crate::common::*;
use media_gen_api::*;
use serde_json::json;

#[test]
fn baseline_is_valid() {
    assert_clean(&ig(&image_generation()));
}

#[test]
fn row_prompt_required() {
    let request = ImageGenerateRequest {
        prompt: "  ".into(),
        ..image_generation()
    };
    assert_only_error(&ig(&request), "prompt", Rule::Required);
}

#[test]
fn row_reference_images_up_to_5_extra_dropped_silently() {
    for count in [0, 1, 5] {
        let request = ImageGenerateRequest {
            reference_images: images(count),
            ..image_generation()
        };
        assert_clean(&ig(&request));
    }
    let request = ImageGenerateRequest {
        reference_images: images(7),
        ..image_generation()
    };
    let problems = ig(&request);
    assert!(!problems.has_errors());
    assert_eq!(
        summary(&problems),
        [
            (
                "reference_images[5]".to_owned(),
                "will_be_dropped",
                Severity::Warning
            ),
            (
                "reference_images[6]".to_owned(),
                "will_be_dropped",
                Severity::Warning
            ),
        ]
    );
    assert!(problems
        .iter()
        .next()
        .unwrap()
        .message
        .contains("silently drops"));
}

#[test]
fn row_reference_images_formats() {
    for ext in ["jpg", "JPEG", "png", "bmp", "webp", "gif"] {
        let request = ImageGenerateRequest {
            reference_images: vec![format!("https://x.io/a.{ext}")],
            ..image_generation()
        };
        assert_clean(&ig(&request));
    }
    let request = ImageGenerateRequest {
        reference_images: vec!["https://x.io/a.tiff".into()],
        ..image_generation()
    };
    let message = assert_only_warning(
        &ig(&request),
        "reference_images[0]",
        Rule::UnexpectedFileType,
    );
    assert!(message.ends_with(".tiff"), "{message}");
    // No extension in the URL: nothing to say.
    let request = ImageGenerateRequest {
        reference_images: vec!["https://x.io/image?id=7".into()],
        ..image_generation()
    };
    assert_clean(&ig(&request));
}

#[test]
fn row_reference_images_under_20mb() {
    let request = ImageGenerateRequest {
        reference_images: images(1),
        ..image_generation()
    };
    let mut context = Context::default();
    for (bytes, ok) in [(20 * 1024 * 1024 - 1, true), (20 * 1024 * 1024, false)] {
        context.images.insert(
            request.reference_images[0].clone(),
            ImageInfo {
                bytes: Some(bytes),
                ..Default::default()
            },
        );
        let problems = validate_image_generate(&request, &context);
        if ok {
            assert_clean(&problems);
        } else {
            assert_only_error(&problems, "reference_images[0]", Rule::TooLarge);
        }
    }
}

#[test]
fn row_module_std_or_pro() {
    for &module in Module::ALL {
        let request = ImageGenerateRequest {
            module: Some(module),
            ..image_generation()
        };
        assert_clean(&ig(&request));
    }
    assert_eq!(defaults::IMAGE_GENERATE_MODULE, Module::Std);
}

#[test]
fn row_generate_count_1_to_8() {
    for count in 1..=8 {
        let request = ImageGenerateRequest {
            generate_count: Some(count),
            ..image_generation()
        };
        assert_clean(&ig(&request));
    }
    for count in [0, 9] {
        let request = ImageGenerateRequest {
            generate_count: Some(count),
            ..image_generation()
        };
        let message = assert_only_error(&ig(&request), "generate_count", Rule::OutOfRange);
        assert_eq!(
            message,
            format!("Make 1 to 8 images at a time (not {count})")
        );
    }
}

#[test]
fn rows_image_quality_and_ratio() {
    for &quality in ImageQuality::ALL {
        for &ratio in ImageRatio::ALL {
            let request = ImageGenerateRequest {
                image_quality: Some(quality),
                image_ratio: Some(ratio),
                ..image_generation()
            };
            assert_clean(&ig(&request));
            let json = serde_json::to_value(&request).unwrap();
            assert_eq!(json["image_quality"], quality.as_str());
            assert_eq!(json["image_ratio"], ratio.as_str());
        }
    }
    assert_eq!(defaults::IMAGE_QUALITY, ImageQuality::K2);
    assert_eq!(defaults::IMAGE_RATIO, ImageRatio::R9x16);
    assert_eq!(defaults::IMAGE_GENERATE_COUNT, 1);
}

#[test]
fn callback_url_is_accepted_and_checked() {
    let request = ImageGenerateRequest {
        callback_url: Some("https://example.com/hook".into()),
        ..image_generation()
    };
    assert_clean(&ig(&request));
    let request = ImageGenerateRequest {
        callback_url: Some("hook".into()),
        ..image_generation()
    };
    assert_only_error(&ig(&request), "callback_url", Rule::InvalidUrl);
}

#[test]
fn response_data_is_task_ids_one_per_image() {
    let body =
        br#"{"code":0,"msg":"ok","data":{"task_ids":["i2is-0123456789ab","i2is-ba9876543210"]}}"#;
    let ids: TaskIds = decode_data(200, body).unwrap();
    assert_eq!(ids.task_ids, ["i2is-0123456789ab", "i2is-ba9876543210"]);
}

#[test]
fn http_200_with_a_business_error() {
    let error = decode_data::<TaskIds>(
        200,
        br#"{"code":100001,"msg":"prompt: A prompt is required"}"#,
    )
    .unwrap_err();
    assert!(
        matches!(error, ResponseError::Business { code: 100001, .. }),
        "{error:?}"
    );
}

#[test]
fn status_task_object_generating_then_succeeded() {
    let generating: ImageGenerateTask = serde_json::from_value(json!({
        "task_id": "i2is-0123456789ab", "status": "GENERATING", "image_url": "", "thumbnail_url": "", "error_message": ""
    }))
    .unwrap();
    assert_eq!(generating.status, TaskStatus::Generating);
    assert!(generating.image_url.is_empty() && generating.thumbnail_url.is_empty());
    let data = json!({
        "task_id": "i2is-0123456789ab", "status": "SUCCEEDED",
        "image_url": "https://cdn.example.com/i.png", "thumbnail_url": "https://cdn.example.com/i_t.png", "error_message": ""
    });
    let done: ImageGenerateTask = serde_json::from_value(data.clone()).unwrap();
    assert!(done.status.is_terminal());
    assert_eq!(serde_json::to_value(&done).unwrap(), data);
}

#[test]
fn every_field_round_trips_with_the_documents_names() {
    let request = ImageGenerateRequest {
        reference_images: images(2),
        module: Some(Module::Pro),
        generate_count: Some(3),
        image_quality: Some(ImageQuality::K4),
        image_ratio: Some(ImageRatio::R21x9),
        callback_url: Some("https://example.com/hook".into()),
        ..image_generation()
    };
    let json = serde_json::to_value(&request).unwrap();
    let mut keys: Vec<_> = json.as_object().unwrap().keys().cloned().collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "callback_url",
            "generate_count",
            "image_quality",
            "image_ratio",
            "module",
            "prompt",
            "reference_images"
        ]
    );
    assert_eq!(
        serde_json::from_value::<ImageGenerateRequest>(json).unwrap(),
        request
    );
    assert_eq!(
        serde_json::to_value(image_generation()).unwrap(),
        json!({"prompt": "A lighthouse at dawn"})
    );
}
