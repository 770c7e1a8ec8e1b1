//! A relayed submit's body and answer.

use axum::body::Bytes;
use media_gen_api::{decode_data, TaskIds, TaskKind, TranslationTaskRef};

/// `body` with `callback_url` set to `url`, when it is a JSON object whose
/// `callback_url` is missing, null or empty; `None` otherwise.
pub fn with_callback_url(body: &Bytes, url: &str) -> Option<Bytes> {
    let mut request: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(body).ok()?;
    let given = request
        .get("callback_url")
        .and_then(serde_json::Value::as_str)
        .is_some_and(|given| !given.trim().is_empty());
    if given
        || request
            .get("callback_url")
            .is_some_and(|v| !v.is_null() && !v.is_string())
    {
        return None;
    }
    request.insert("callback_url".into(), url.into());
    serde_json::to_vec(&request).ok().map(Bytes::from)
}

/// The task ids a submit's answer created (none for a refusal).
pub fn created_ids(kind: TaskKind, status: u16, body: &[u8]) -> Vec<String> {
    match kind {
        TaskKind::VideoTranslate => decode_data::<Vec<TranslationTaskRef>>(status, body)
            .map(|tasks| tasks.into_iter().map(|task| task.task_id).collect())
            .unwrap_or_default(),
        TaskKind::ImageToVideo | TaskKind::ImageGenerate => decode_data::<TaskIds>(status, body)
            .map(|ids| ids.task_ids)
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_empty_callback_url_is_filled_in() {
        let url = "https://gw.example/callbacks/c";
        for body in [
            r#"{"prompt":"p"}"#,
            r#"{"prompt":"p","callback_url":""}"#,
            r#"{"prompt":"p","callback_url":null}"#,
        ] {
            let filled = with_callback_url(&Bytes::from(body), url).expect("filled in");
            let json: serde_json::Value = serde_json::from_slice(&filled).unwrap_or_default();
            assert_eq!(json["callback_url"], url, "{body}");
            assert_eq!(json["prompt"], "p");
        }
        for body in [
            r#"{"callback_url":"https://mine.example/hook"}"#,
            "not json",
            "[1]",
            r#"{"callback_url":5}"#,
        ] {
            assert_eq!(with_callback_url(&Bytes::from(body), url), None, "{body}");
        }
    }

    #[test]
    fn the_answer_names_the_tasks_created() {
        let ids = br#"{"code":0,"msg":"ok","data":{"task_ids":["a","b"]}}"#;
        assert_eq!(created_ids(TaskKind::ImageGenerate, 200, ids), ["a", "b"]);
        let translations =
            br#"{"code":0,"msg":"ok","data":[{"task_id":"t","language":"English"}]}"#;
        assert_eq!(
            created_ids(TaskKind::VideoTranslate, 200, translations),
            ["t"]
        );
        let refused = br#"{"code":100001,"msg":"prompt: required"}"#;
        assert!(created_ids(TaskKind::ImageGenerate, 400, refused).is_empty());
    }
}
