//! Interface document, "Events": the callback body and `data` by `task_type`.

use media_gen_api::*;
use serde_json::json;

#[test]
fn callback_image_to_video() {
    let body = json!({
        "code": 0, "msg": "ok", "task_type": "image_to_video",
        "data": {
            "task_id": "i2v-0123456789abcdef0123456789abcdef", "status": "SUCCEEDED",
            "video_url": "https://cdn.example.com/v.mp4", "thumbnail_url": "https://cdn.example.com/v.webp",
            "error_message": ""
        }
    });
    let callback: Callback = serde_json::from_value(body.clone()).unwrap();
    assert_eq!((callback.code, callback.msg.as_str()), (0, "ok"));
    assert_eq!(callback.task.kind(), TaskKind::ImageToVideo);
    assert_eq!(callback.task.status(), &TaskStatus::Succeeded);
    // The callback has no duration, width or height, and we add none.
    assert_eq!(serde_json::to_value(&callback).unwrap(), body);
}

#[test]
fn callback_video_translate() {
    let body = json!({
        "code": 0, "msg": "ok", "task_type": "video_translate",
        "data": {
            "task_id": "vt-0123456789abcdef0123456789abcdef", "name": "English-my clip", "language": "English",
            "status": "FAILED", "video_url": "", "caption_url": "", "error_message": "audio track missing"
        }
    });
    let callback: Callback = serde_json::from_value(body.clone()).unwrap();
    let AnyTask::VideoTranslate(task) = &callback.task else {
        panic!("wrong kind: {callback:?}");
    };
    assert_eq!(task.error_message, "audio track missing");
    assert_eq!(
        callback.task.task_id(),
        "vt-0123456789abcdef0123456789abcdef"
    );
    assert_eq!(serde_json::to_value(&callback).unwrap(), body);
}

#[test]
fn callback_image_generate_with_or_without_a_thumbnail() {
    let mut body = json!({
        "code": 0, "msg": "ok", "task_type": "image_generate",
        "data": {
            "task_id": "i2is-0123456789abcdef0123456789abcdef", "status": "SUCCEEDED",
            "image_url": "https://cdn.example.com/i.png", "error_message": ""
        }
    });
    let callback: Callback = serde_json::from_value(body.clone()).unwrap();
    assert_eq!(callback.task.kind(), TaskKind::ImageGenerate);
    body["data"]["thumbnail"] = json!("https://cdn.example.com/t.png");
    let callback: Callback = serde_json::from_value(body).unwrap();
    let AnyTask::ImageGenerate(task) = callback.task else {
        panic!("wrong kind");
    };
    assert_eq!(task.thumbnail_url, "https://cdn.example.com/t.png");
}

#[test]
fn callback_of_an_unknown_task_type_is_refused() {
    let body = json!({"code": 0, "msg": "ok", "task_type": "audio", "data": {}});
    assert!(serde_json::from_value::<Callback>(body).is_err());
}
