//! Interface document, POST /v1/video_translate (request body, naming rule,
//! response) and the video translation task object.

use crate::common::*;
use media_gen_api::*;
use serde_json::json;

#[test]
fn baseline_is_valid() {
    assert_clean(&vt(&translation()));
}

#[test]
fn row_target_languages_required_non_empty() {
    let request = VideoTranslateRequest {
        target_languages: vec![],
        ..translation()
    };
    assert_only_error(&vt(&request), "target_languages", Rule::Required);
    let request = VideoTranslateRequest {
        target_languages: vec![" ".into()],
        ..translation()
    };
    assert_only_error(&vt(&request), "target_languages[0]", Rule::Required);
}

#[test]
fn row_target_languages_no_duplicates() {
    let request = VideoTranslateRequest {
        target_languages: vec!["English".into(), "Korean".into(), "English".into()],
        ..translation()
    };
    let message = assert_only_error(&vt(&request), "target_languages[2]", Rule::Duplicate);
    assert_eq!(
        message,
        "English is listed twice; each language makes one task"
    );
}

#[test]
fn row_target_languages_from_the_language_list() {
    let request = VideoTranslateRequest {
        target_languages: vec!["English".into(), "Klingon".into()],
        ..translation()
    };
    // Without the list, only that check is skipped.
    assert_clean(&vt(&request));
    let context = Context {
        languages: Some(vec!["English".into(), "Japanese".into()]),
        ..Default::default()
    };
    let problems = validate_video_translate(&request, &context);
    let message = assert_only_error(&problems, "target_languages[1]", Rule::UnknownLanguage);
    assert_eq!(
        message,
        "Klingon is not one of the languages the service offers"
    );
}

#[test]
fn row_video_url_required_http_url() {
    let request = VideoTranslateRequest {
        video_url: String::new(),
        ..translation()
    };
    assert_only_error(&vt(&request), "video_url", Rule::Required);
    let request = VideoTranslateRequest {
        video_url: "talk.mp4".into(),
        ..translation()
    };
    assert_only_error(&vt(&request), "video_url", Rule::InvalidUrl);
}

#[test]
fn video_url_of_an_unlisted_type_is_a_warning() {
    for ok in [
        "https://x.io/a.mp4",
        "https://x.io/a.MOV",
        "https://x.io/a.webm",
        "https://x.io/stream",
    ] {
        let request = VideoTranslateRequest {
            video_url: ok.into(),
            ..translation()
        };
        assert_clean(&vt(&request));
    }
    let request = VideoTranslateRequest {
        video_url: "https://x.io/a.avi".into(),
        ..translation()
    };
    assert_only_warning(&vt(&request), "video_url", Rule::UnexpectedFileType);
}

#[test]
fn row_speaker_num_0_or_more() {
    for speakers in [0, 1, 12] {
        let request = VideoTranslateRequest {
            speaker_num: Some(speakers),
            ..translation()
        };
        assert_clean(&vt(&request));
    }
    let request = VideoTranslateRequest {
        speaker_num: Some(-1),
        ..translation()
    };
    assert_only_error(&vt(&request), "speaker_num", Rule::OutOfRange);
}

#[test]
fn rows_translate_audio_only_dynamic_duration_caption_are_booleans() {
    let request = VideoTranslateRequest {
        translate_audio_only: Some(true),
        enable_dynamic_duration: Some(false),
        enable_caption: Some(true),
        ..translation()
    };
    assert_clean(&vt(&request));
    let json = serde_json::to_value(&request).unwrap();
    assert_eq!(
        (
            json["translate_audio_only"].clone(),
            json["enable_dynamic_duration"].clone(),
            json["enable_caption"].clone()
        ),
        (json!(true), json!(false), json!(true))
    );
}

#[test]
fn row_name_fewer_than_100_characters() {
    for (name, ok) in [
        ("a".repeat(99), true),
        ("a".repeat(100), false),
        ("語".repeat(99), true),
        ("語".repeat(100), false),
    ] {
        let request = VideoTranslateRequest {
            name: Some(name),
            ..translation()
        };
        let problems = vt(&request);
        if ok {
            assert_clean(&problems);
        } else {
            let message = assert_only_error(&problems, "name", Rule::TooLong);
            assert_eq!(
                message,
                "A name has fewer than 100 characters; this one has 100"
            );
        }
    }
}

#[test]
fn row_callback_url_is_an_http_url() {
    let request = VideoTranslateRequest {
        callback_url: Some("mailto:me@example.com".into()),
        ..translation()
    };
    assert_only_error(&vt(&request), "callback_url", Rule::InvalidUrl);
}

#[test]
fn naming_rule_per_language() {
    assert_eq!(
        predicted_name("English", Some("my clip"), 0),
        "English-my clip"
    );
    assert_eq!(
        predicted_name("Korean", None, 1_700_000_000),
        "Korean-videoTranslate-1700000000"
    );
}

#[test]
fn response_data_is_one_task_per_language() {
    let body = br#"{"code":0,"msg":"ok","data":[{"task_id":"vt-0123456789abcdef0123456789abcdef","language":"English"},{"task_id":"vt-fedcba9876543210fedcba9876543210","language":"Japanese"}]}"#;
    let tasks: Vec<TranslationTaskRef> = decode_data(200, body).unwrap();
    let languages: Vec<_> = tasks.iter().map(|t| t.language.as_str()).collect();
    assert_eq!(languages, ["English", "Japanese"]);
}

#[test]
fn status_task_object_every_field() {
    let data = json!({
        "task_id": "vt-0123456789abcdef0123456789abcdef",
        "name": "English-my clip",
        "language": "English",
        "status": "SUCCEEDED",
        "video_url": "https://cdn.example.com/t.mp4",
        "caption_url": "https://cdn.example.com/t.ass",
        "error_message": ""
    });
    let task: VideoTranslateTask = serde_json::from_value(data.clone()).unwrap();
    assert_eq!(task.name, "English-my clip");
    assert!(task.caption_url.ends_with(".ass"));
    assert_eq!(serde_json::to_value(&task).unwrap(), data);
}

#[test]
fn defaults_published_for_optional_fields() {
    const { assert!(!defaults::TRANSLATE_AUDIO_ONLY) };
    const { assert!(defaults::ENABLE_DYNAMIC_DURATION) };
    const { assert!(!defaults::ENABLE_CAPTION) };
    // speaker_num: detected by the service when left out.
    assert!(serde_json::to_value(translation())
        .unwrap()
        .get("speaker_num")
        .is_none());
}

#[test]
fn every_field_round_trips_with_the_documents_names() {
    let request = VideoTranslateRequest {
        speaker_num: Some(2),
        translate_audio_only: Some(false),
        enable_dynamic_duration: Some(true),
        enable_caption: Some(true),
        name: Some("my clip".into()),
        callback_url: Some("https://example.com/hook".into()),
        ..translation()
    };
    let json = serde_json::to_value(&request).unwrap();
    let mut keys: Vec<_> = json.as_object().unwrap().keys().cloned().collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "callback_url",
            "enable_caption",
            "enable_dynamic_duration",
            "name",
            "speaker_num",
            "target_languages",
            "translate_audio_only",
            "video_url"
        ]
    );
    assert_eq!(
        serde_json::from_value::<VideoTranslateRequest>(json).unwrap(),
        request
    );
    // Only the two required fields when nothing else is set.
    let json = serde_json::to_value(translation()).unwrap();
    assert_eq!(json.as_object().unwrap().len(), 2);
}

#[test]
fn a_list_longer_than_the_limit_is_refused_once_not_name_by_name() {
    // A hundred thousand names: one problem for the list, the first hundred
    // checked (their duplicates found), nothing past them.
    let mut names: Vec<String> = (0..110_000).map(|i| format!("Language {i}")).collect();
    names[5] = "Language 1".into();
    let request = VideoTranslateRequest {
        target_languages: names,
        ..translation()
    };
    let problems = vt(&request);
    let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
    assert_eq!(fields, ["target_languages", "target_languages[5]"]);
    assert_eq!(problems.iter().next().unwrap().rule, Rule::TooMany);
    assert_eq!(
        problems.iter().next().unwrap().message,
        "At most 100 target languages at a time (not 110000)"
    );
    // At the limit, no problem for the list.
    let request = VideoTranslateRequest {
        target_languages: (0..media_gen_api::validate::MAX_TARGET_LANGUAGES)
            .map(|i| format!("L{i}"))
            .collect(),
        ..translation()
    };
    assert_clean(&vt(&request));
}
