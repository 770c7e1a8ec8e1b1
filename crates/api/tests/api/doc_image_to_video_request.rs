//! Interface document, POST /v1/image_to_video, "Request body": one test per
//! row, plus the response `data` and the status task object.

use crate::common::*;
use media_gen_api::*;
use serde_json::json;

#[test]
fn row_model_v_kl_s_and_required() {
    let json = serde_json::to_value(kl()).unwrap();
    assert_eq!(json["model"], "KL");
    let request = ImageToVideoRequest {
        model: None,
        ..v_start()
    };
    let message = assert_only_error(&i2v(&request), "model", Rule::Required);
    assert_eq!(message, "Choose a model: V, KL or S");
    let error = serde_json::from_value::<ImageToVideoRequest>(json!({"model": "X"})).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("model: `X` is not one of V, KL, S"),
        "{error}"
    );
}

#[test]
fn row_prompt_required_for_all_models() {
    for base in [v_start(), v_multi(), kl(), s()] {
        for blank in ["", " ", "\n\t "] {
            let request = ImageToVideoRequest {
                prompt: blank.into(),
                ..base.clone()
            };
            let message = assert_only_error(&i2v(&request), "prompt", Rule::Required);
            assert_eq!(message, "A prompt is required");
        }
    }
}

#[test]
fn row_aspect_ratio_16_9_or_9_16_and_optional() {
    for &ratio in AspectRatio::ALL {
        let request = ImageToVideoRequest {
            aspect_ratio: Some(ratio),
            ..v_start()
        };
        assert_clean(&i2v(&request));
    }
    let request = ImageToVideoRequest {
        aspect_ratio: None,
        ..v_start()
    };
    assert_clean(&i2v(&request));
    assert!(serde_json::to_value(&request)
        .unwrap()
        .get("aspect_ratio")
        .is_none());
}

#[test]
fn row_aspect_resolution_required_for_all_models() {
    for base in [v_start(), kl(), s()] {
        let request = ImageToVideoRequest {
            aspect_resolution: None,
            ..base
        };
        assert_only_error(&i2v(&request), "aspect_resolution", Rule::Required);
    }
}

#[test]
fn row_duration_required_and_one_of_the_listed_values() {
    for base in [v_start(), kl(), s()] {
        let request = ImageToVideoRequest {
            duration: None,
            ..base
        };
        assert_only_error(&i2v(&request), "duration", Rule::Required);
    }
    // Without a model the per-model set is unknown: the document's whole set applies.
    for seconds in [4, 5, 6, 8, 10, 12] {
        let request = ImageToVideoRequest {
            model: None,
            duration: Some(seconds),
            ..v_start()
        };
        assert_only_error(&i2v(&request), "model", Rule::Required);
    }
    for seconds in [-1, 0, 3, 7, 9, 11, 13, 60] {
        let request = ImageToVideoRequest {
            model: None,
            duration: Some(seconds),
            ..v_start()
        };
        let problems = i2v(&request);
        assert_eq!(
            problems.for_field("duration").next().unwrap().rule,
            Rule::OutOfRange,
            "{seconds}"
        );
    }
}

#[test]
fn row_image_url_is_an_http_url() {
    for bad in [
        "start.png",
        "ftp://example.com/a.png",
        "javascript:alert(1)",
        "data:image/png;base64,AAAA",
    ] {
        let request = ImageToVideoRequest {
            image_url: Some(bad.into()),
            ..s()
        };
        assert_only_error(&i2v(&request), "image_url", Rule::InvalidUrl);
    }
}

#[test]
fn row_image_url_at_most_20mb() {
    let mut context = Context::default();
    for (bytes, ok) in [(20 * 1024 * 1024, true), (20 * 1024 * 1024 + 1, false)] {
        context.images.insert(
            IMAGE.into(),
            ImageInfo {
                bytes: Some(bytes),
                ..Default::default()
            },
        );
        let problems = validate_image_to_video(&s(), &context);
        if ok {
            assert_clean(&problems);
        } else {
            let message = assert_only_error(&problems, "image_url", Rule::TooLarge);
            assert!(message.contains("at most 20 MB"), "{message}");
            assert!(message.ends_with("this one is 20.0 MB"), "{message}");
        }
    }
    context.images.insert(
        IMAGE.into(),
        ImageInfo {
            bytes: Some(25 * 1024 * 1024 + 300 * 1024),
            ..Default::default()
        },
    );
    let problems = validate_image_to_video(&s(), &context);
    let message = assert_only_error(&problems, "image_url", Rule::TooLarge);
    assert!(message.ends_with("this one is 25.3 MB"), "{message}");
}

#[test]
fn row_end_image_url_is_an_http_url() {
    let request = ImageToVideoRequest {
        end_image_url: Some("end.png".into()),
        ..v_start()
    };
    assert_only_error(&i2v(&request), "end_image_url", Rule::InvalidUrl);
}

#[test]
fn row_reference_images_are_http_urls_at_most_20mb_each() {
    let mut request = kl();
    request.reference_images = vec![images(1)[0].clone(), "not a url".into()];
    assert_only_error(&i2v(&request), "reference_images[1]", Rule::InvalidUrl);

    let request = kl();
    let mut context = Context::default();
    context.images.insert(
        request.reference_images[0].clone(),
        ImageInfo {
            bytes: Some(21 * 1024 * 1024),
            ..Default::default()
        },
    );
    assert_only_error(
        &validate_image_to_video(&request, &context),
        "reference_images[0]",
        Rule::TooLarge,
    );
}

#[test]
fn row_generate_audio_boolean() {
    let json = serde_json::to_value(ImageToVideoRequest {
        generate_audio: Some(true),
        ..v_start()
    })
    .unwrap();
    assert_eq!(json["generate_audio"], true);
}

#[test]
fn row_generate_count_1_to_4() {
    for count in [1, 2, 3, 4] {
        let request = ImageToVideoRequest {
            generate_count: Some(count),
            ..v_start()
        };
        assert_clean(&i2v(&request));
    }
    for count in [-1, 0, 5, 100] {
        let request = ImageToVideoRequest {
            generate_count: Some(count),
            ..v_start()
        };
        let message = assert_only_error(&i2v(&request), "generate_count", Rule::OutOfRange);
        assert_eq!(
            message,
            format!("Make 1 to 4 videos at a time (not {count})")
        );
    }
}

#[test]
fn row_callback_url_is_an_http_url() {
    let request = ImageToVideoRequest {
        callback_url: Some("https://example.com/hook".into()),
        ..v_start()
    };
    assert_clean(&i2v(&request));
    let request = ImageToVideoRequest {
        callback_url: Some("localhost/hook".into()),
        ..v_start()
    };
    assert_only_error(&i2v(&request), "callback_url", Rule::InvalidUrl);
}

#[test]
fn unset_optional_fields_are_left_out_of_the_json() {
    let request = ImageToVideoRequest {
        model: Some(Model::S),
        prompt: "p".into(),
        aspect_resolution: Some(Resolution::P720),
        duration: Some(4),
        image_url: Some(IMAGE.into()),
        ..Default::default()
    };
    assert_eq!(
        serde_json::to_value(&request).unwrap(),
        json!({"model": "S", "prompt": "p", "aspect_resolution": "720p", "duration": 4, "image_url": IMAGE})
    );
}

#[test]
fn every_field_round_trips_with_the_documents_names() {
    let request = ImageToVideoRequest {
        end_image_url: Some("https://example.com/end.png".into()),
        generate_audio: Some(true),
        generate_count: Some(2),
        callback_url: Some("https://example.com/hook".into()),
        ..v_start()
    };
    let json = serde_json::to_value(&request).unwrap();
    let mut keys: Vec<_> = json.as_object().unwrap().keys().cloned().collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "aspect_ratio",
            "aspect_resolution",
            "callback_url",
            "duration",
            "end_image_url",
            "generate_audio",
            "generate_count",
            "image_url",
            "model",
            "prompt"
        ]
    );
    assert_eq!(
        serde_json::from_value::<ImageToVideoRequest>(json).unwrap(),
        request
    );
}

#[test]
fn response_data_is_task_ids_one_per_video() {
    let body = br#"{"code":0,"msg":"ok","data":{"task_ids":["i2v-0123456789abcdef0123456789abcdef","i2v-fedcba9876543210fedcba9876543210"]}}"#;
    let ids: TaskIds = decode_data(200, body).unwrap();
    assert_eq!(ids.task_ids.len(), 2);
}

#[test]
fn status_task_object_every_field() {
    // service-facts.md: a 9:16, 720p, 8 second video is 720×1280.
    let body = json!({"code": 0, "msg": "ok", "data": {
        "task_id": "i2v-0123456789abcdef0123456789abcdef",
        "status": "SUCCEEDED",
        "video_url": "https://cdn.example.com/v.mp4",
        "thumbnail_url": "https://cdn.example.com/v.webp",
        "error_message": "",
        "duration": 8, "width": 720, "height": 1280
    }});
    let task: ImageToVideoTask = decode_data(200, body.to_string().as_bytes()).unwrap();
    assert_eq!(task.status, TaskStatus::Succeeded);
    assert_eq!(
        (task.duration, task.width, task.height),
        (Some(8), Some(720), Some(1280))
    );
    assert!(task.video_url.ends_with(".mp4") && task.thumbnail_url.ends_with(".webp"));
    assert_eq!(serde_json::to_value(&task).unwrap(), body["data"]);
}

#[test]
fn status_task_object_tolerates_missing_null_and_unknown_fields() {
    let task: ImageToVideoTask = serde_json::from_value(json!({
        "task_id": "i2v-1", "status": "GENERATING", "video_url": null, "progress": 40
    }))
    .unwrap();
    assert_eq!(task.video_url, "");
    assert_eq!(task.error_message, "");
    assert_eq!(task.duration, None);
}
