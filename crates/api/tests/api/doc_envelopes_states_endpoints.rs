//! Interface document: "Response envelope", "Error envelope", "States and
//! transitions", "Endpoints", "Errors" and "Authentication" tables.

use media_gen_api::envelope::{MSG_OK, MSG_SUCCESS};
use media_gen_api::*;
use serde_json::json;

#[test]
fn response_envelope_row_code_0_on_success() {
    let envelope: Envelope<Vec<String>> =
        decode_envelope(200, br#"{"code":0,"msg":"ok","data":[]}"#).unwrap();
    assert_eq!(envelope.code, SUCCESS_CODE);
    assert!(envelope.is_success());
}

#[test]
fn response_envelope_row_msg_ok_or_success_for_the_language_list() {
    assert_eq!(MSG_OK, "ok");
    assert_eq!(MSG_SUCCESS, "success");
    let list: TargetLanguages =
        decode_envelope(200, br#"{"code":0,"msg":"success","data":["English"]}"#).unwrap();
    assert_eq!(list.msg, "success");
}

#[test]
fn response_envelope_row_data_object_or_array() {
    let object: TaskIds =
        decode_data(200, br#"{"code":0,"msg":"ok","data":{"task_ids":[]}}"#).unwrap();
    assert!(object.task_ids.is_empty());
    let array: Vec<TranslationTaskRef> =
        decode_data(200, br#"{"code":0,"msg":"ok","data":[]}"#).unwrap();
    assert!(array.is_empty());
}

#[test]
fn error_envelope_rows_code_and_msg_required() {
    let error = decode_data::<TaskIds>(400, br#"{"code":100001,"msg":"invalid"}"#).unwrap_err();
    assert_eq!(error.code(), Some(100001));
    // Without msg it is not the documented error shape.
    let error = decode_data::<TaskIds>(400, br#"{"code":100001}"#).unwrap_err();
    assert_eq!(
        error,
        ResponseError::Http {
            status: 400,
            envelope: None
        }
    );
}

#[test]
fn language_list_endpoint_errors_use_http_400() {
    let error =
        decode_data::<Vec<String>>(400, br#"{"code":100001,"msg":"unexpected"}"#).unwrap_err();
    assert_eq!(error.to_string(), "HTTP 400 (code 100001): unexpected");
}

#[test]
fn language_list_all_three_fields_required() {
    for body in [
        r#"{"msg":"success","data":[]}"#,
        r#"{"code":0,"data":[]}"#,
        r#"{"code":0,"msg":"success"}"#,
    ] {
        assert!(
            serde_json::from_str::<TargetLanguages>(body).is_err(),
            "{body}"
        );
    }
}

#[test]
fn states_row_succeeded_terminal() {
    assert!(TaskStatus::from("SUCCEEDED").is_terminal());
}

#[test]
fn states_row_failed_terminal_with_error_message() {
    let task: ImageToVideoTask = serde_json::from_value(json!({
        "task_id": "i2v-1", "status": "FAILED", "error_message": "content policy"
    }))
    .unwrap();
    assert!(task.status.is_terminal());
    assert_eq!(task.error_message, "content policy");
}

#[test]
fn states_row_generating_in_progress() {
    assert!(!TaskStatus::from("GENERATING").is_terminal());
}

#[test]
fn states_other_values_kept_and_in_progress() {
    for other in ["QUEUED", "RUNNING", "", "succeeded"] {
        let status = TaskStatus::from(other);
        assert_eq!(status.as_str(), other);
        assert!(!status.is_terminal(), "{other}");
    }
}

#[test]
fn endpoints_table_paths() {
    let rows = [
        (TaskKind::ImageToVideo.submit_path(), "/v1/image_to_video"),
        (
            TaskKind::ImageToVideo.status_path("i2v-1"),
            "/v1/image_to_video/i2v-1",
        ),
        (
            TaskKind::VideoTranslate.submit_path(),
            "/v1/video_translate",
        ),
        (
            TaskKind::VideoTranslate.status_path("vt-1"),
            "/v1/video_translate/vt-1",
        ),
        (
            TARGET_LANGUAGES_PATH.to_owned(),
            "/v1/video_translate/target_languages",
        ),
        (TaskKind::ImageGenerate.submit_path(), "/v1/image_generate"),
        (
            TaskKind::ImageGenerate.status_path("i2is-1"),
            "/v1/image_generate/i2is-1",
        ),
    ];
    for (path, expected) in rows {
        assert_eq!(path, expected);
    }
}

#[test]
fn versioning_every_path_is_under_v1() {
    for &kind in TaskKind::ALL {
        assert!(kind.submit_path().starts_with("/v1/"));
        assert!(kind.status_path("x").starts_with("/v1/"));
    }
    assert!(TARGET_LANGUAGES_PATH.starts_with("/v1/"));
}
