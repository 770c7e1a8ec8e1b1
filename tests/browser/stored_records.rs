//! Task records as the browser reads them back from storage: what
//! `JSON.parse` made of the stored text, read by `TaskRecord::from_stored`,
//! agrees with the record's own `Deserialize` (the native tests' reading)
//! on every shape a record is stored in, good and bad.

use media_gen_api::*;
use media_gen_ui::store::record::TaskRecord;
use wasm_bindgen_test::*;

/// `text` read as the browser reads a stored record.
fn from_storage(text: &str) -> Result<TaskRecord, String> {
    TaskRecord::from_stored(&js_sys::JSON::parse(text).unwrap())
}

/// `text` read as the record's own `Deserialize` reads it.
fn from_text(text: &str) -> Result<TaskRecord, String> {
    serde_json::from_str(text).map_err(|error| error.to_string())
}

/// A record of an image task stored with `request` and `task`.
fn stored(request: &str, task: &str) -> String {
    format!(
        r#"{{"kind":"image_generate","task_id":"i2is-1","submitted_at":1.5,"request":{request},
        "status":"SUCCEEDED","updated_at":2,"task":{task},"relay":null}}"#
    )
}

const DATA: &str =
    r#"{"task_id":"i2is-1","status":"SUCCEEDED","image_url":"https://x.test/i.png"}"#;

#[wasm_bindgen_test]
fn a_record_written_by_the_app_reads_back_as_it_was() {
    let mut record = TaskRecord::submitted(
        &Request::ImageGenerate(ImageGenerateRequest {
            prompt: "a kite".into(),
            generate_count: Some(2),
            ..Default::default()
        }),
        "i2is-1",
        1_764_000_000_123.5,
    );
    let task = AnyTask::ImageGenerate(ImageGenerateTask {
        task_id: "i2is-1".into(),
        status: TaskStatus::Succeeded,
        image_url: "https://x.test/i.png".into(),
        thumbnail_url: String::new(),
        error_message: String::new(),
        kept: None,
        not_kept: None,
    });
    record.apply(Some(&task), None, 1_764_000_009_000.0);
    let text = serde_json::to_string(&record).unwrap();
    assert_eq!(from_storage(&text).unwrap(), record, "{text}");
    let followed = TaskRecord::followed(TaskKind::VideoTranslate, "vt-1", 3.0);
    let text = serde_json::to_string(&followed).unwrap();
    assert_eq!(from_storage(&text).unwrap(), followed, "{text}");
}

#[wasm_bindgen_test]
fn both_readings_agree_on_every_stored_shape() {
    let tagged = format!(r#"{{"task_type":"image_generate","data":{DATA}}}"#);
    let reversed = format!(r#"{{"data":{DATA},"task_type":"image_generate"}}"#);
    let cases = [
        // A request of its kind, none, and one that is not of its kind
        // (the task stays, followed, without a re-run).
        stored(r#"{"prompt":"cat","generate_count":2}"#, "null"),
        stored("null", "null"),
        stored(r#"{"prompt":42}"#, &tagged),
        // The callback's shape in either key order.
        stored("null", &tagged),
        stored("null", &reversed),
        // A task of the wrong shape, or of no known kind: not a record.
        stored(
            "null",
            r#"{"task_type":"image_generate","data":{"status":"SUCCEEDED"}}"#,
        ),
        stored("null", &tagged.replace("image_generate", "audio")),
        // Not a record at all.
        r#"{"kind":"image_generate"}"#.to_owned(),
        "[]".to_owned(),
    ];
    for text in &cases {
        let (browser, native) = (from_storage(text), from_text(text));
        match (&browser, &native) {
            (Ok(read), Ok(expected)) => assert_eq!(read, expected, "{text}"),
            (Err(_), Err(_)) => {}
            _ => panic!("{text}: the browser read {browser:?}, the text reads {native:?}"),
        }
    }
    let Some(Request::ImageGenerate(request)) = from_storage(&cases[0]).unwrap().request else {
        panic!("an image request");
    };
    assert_eq!(
        (request.prompt.as_str(), request.generate_count),
        ("cat", Some(2))
    );
    assert_eq!(from_storage(&cases[2]).unwrap().request, None);
    let error = from_storage(&cases[5]).unwrap_err();
    assert!(error.contains("task_id"), "{error}");
}
