//! The test service answered natively, as its JavaScript drives it.

use super::*;

fn json(answer: &Answer) -> serde_json::Value {
    serde_json::from_slice(&answer.body).unwrap_or_default()
}

fn headers(pairs: &[(&str, &str)]) -> uploads::Headers {
    pairs
        .iter()
        .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
        .collect()
}

fn submit(service: &mut TestService, body: &str, now: u64) -> Answer {
    service.respond(
        "POST",
        "/v1/image_generate",
        &headers(&[("content-type", "application/json")]),
        body.as_bytes(),
        now,
    )
}

#[test]
fn a_submit_ends_at_once_names_its_image_and_the_image_is_served() {
    let mut service = TestService::start("{}", "https://media-gen.test/", 1).unwrap();
    let submitted = submit(&mut service, r#"{"prompt":"a lighthouse"}"#, 1_000);
    assert_eq!(submitted.status, 200);
    let id = json(&submitted)["data"]["task_ids"][0]
        .as_str()
        .unwrap()
        .to_owned();
    let read = service.respond(
        "GET",
        &format!("/v1/image_generate/{id}"),
        &headers(&[]),
        b"",
        1_000,
    );
    let task = json(&read)["data"].clone();
    assert_eq!(task["status"], "SUCCEEDED", "instant by default: {task}");
    let image = task["image_url"].as_str().unwrap();
    let path = image.strip_prefix("https://media-gen.test").unwrap();
    let file = service.respond("GET", path, &headers(&[]), b"", 1_000);
    assert_eq!((file.status, file.mime.as_str()), (200, "image/png"));
    assert!(file.body.starts_with(b"\x89PNG"), "a PNG");
    let thumbnail = task["thumbnail_url"]
        .as_str()
        .unwrap()
        .strip_prefix("https://media-gen.test")
        .unwrap();
    assert_eq!(
        service
            .respond("GET", thumbnail, &headers(&[]), b"", 1_000)
            .status,
        200
    );
    assert_eq!(
        json(&submitted)["data"]["task_ids"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let submissions: serde_json::Value = serde_json::from_str(&service.submissions()).unwrap();
    assert_eq!(
        submissions,
        serde_json::json!([{ "kind": "image_generate", "body": { "prompt": "a lighthouse" } }])
    );
}

#[test]
fn a_refused_submit_has_the_sandboxs_code_and_words() {
    let mut service = TestService::start("", "https://media-gen.test", 1).unwrap();
    let refused = submit(&mut service, r#"{"prompt":""}"#, 0);
    assert_eq!(
        refused.status, 200,
        "image generation's refusals are in HTTP 200"
    );
    assert_eq!(
        json(&refused)["code"],
        media_gen_api::error_codes::INVALID_PARAMETER
    );
    assert!(json(&refused)["msg"]
        .as_str()
        .unwrap()
        .starts_with("prompt:"));
    assert_eq!(service.model().task_count(), 0);
}

#[test]
fn a_test_chooses_the_speed_the_next_outcome_and_the_faults() {
    let mut service =
        TestService::start(r#"{"speed": 2000, "seed": 5}"#, "https://media-gen.test", 1).unwrap();
    service.next_outcome(Some("The prompt was refused".to_owned()));
    let id = json(&submit(&mut service, r#"{"prompt":"p"}"#, 0))["data"]["task_ids"][0]
        .as_str()
        .unwrap()
        .to_owned();
    let read = |service: &mut TestService, now| {
        json(&service.respond(
            "GET",
            &format!("/v1/image_generate/{id}"),
            &headers(&[]),
            b"",
            now,
        ))["data"]
            .clone()
    };
    assert_eq!(read(&mut service, 1_999)["status"], "GENERATING");
    let ended = read(&mut service, 2_000);
    assert_eq!(
        (ended["status"].as_str(), ended["error_message"].as_str()),
        (Some("FAILED"), Some("The prompt was refused"))
    );
    service
        .change_faults(r#"{"http_429": 1.0, "retry_after_secs": 3}"#)
        .unwrap();
    let limited = submit(&mut service, r#"{"prompt":"p"}"#, 0);
    assert_eq!((limited.status, limited.retry_after), (429, Some(3)));
    assert!(service.change_faults(r#"{"http_429": 2}"#).is_err());
    service.reset();
    assert_eq!(service.submissions(), "[]");
    assert_eq!(
        submit(&mut service, r#"{"prompt":"p"}"#, 0).status,
        200,
        "faults reset"
    );
}

#[test]
fn options_name_what_is_wrong() {
    for (options, says) in [
        (r#"{"speed": "fast"}"#, "speed is"),
        (r#"{"sped": "instant"}"#, "unknown field `sped`"),
        (r#"{"faults": {"http_500": 3}}"#, "faults:"),
    ] {
        let error = TestService::start(options, "https://media-gen.test", 1)
            .err()
            .unwrap();
        assert!(error.contains(says), "{options}: {error}");
    }
    let capabilities = TestService::start("", "https://media-gen.test", 1)
        .unwrap()
        .respond("GET", "/capabilities", &headers(&[]), b"", 0);
    assert_eq!(
        json(&capabilities)["code"],
        0,
        "in the envelope, as a gateway answers"
    );
    assert_eq!(
        json(&capabilities)["data"]["relay"],
        serde_json::Value::Null
    );
    assert_eq!(json(&capabilities)["data"]["uploads"]["path"], "/uploads/");
}

#[test]
fn a_file_is_uploaded_in_pieces_judged_by_its_first_bytes_and_served_whole() {
    let mut service = TestService::start("", "https://media-gen.test", 1).unwrap();
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    png.resize(300, 7);
    let tus = |extra: &[(&str, &str)]| {
        let mut all = vec![("tus-resumable", "1.0.0")];
        all.extend_from_slice(extra);
        headers(&all)
    };
    let made = service.respond(
        "POST",
        "/uploads/",
        &tus(&[("upload-length", "300")]),
        b"",
        0,
    );
    assert_eq!(made.status, 201);
    let location = made
        .headers
        .iter()
        .find(|(name, _)| name == "Location")
        .unwrap()
        .1
        .clone();
    let path = location
        .strip_prefix("https://media-gen.test")
        .unwrap()
        .to_owned();
    for (from, to) in [(0, 100), (100, 300)] {
        let offset = from.to_string();
        let sent = service.respond(
            "PATCH",
            &path,
            &tus(&[
                ("upload-offset", &offset),
                ("content-type", "application/offset+octet-stream"),
            ]),
            &png[from..to],
            0,
        );
        assert_eq!(sent.status, 204, "{from}");
    }
    let wrong = service.respond("PATCH", &path, &tus(&[("upload-offset", "5")]), b"x", 0);
    assert_eq!(wrong.status, 409);
    let served = service.respond("GET", &path, &headers(&[]), b"", 0);
    assert_eq!(
        (served.status, served.mime.as_str(), served.body.len()),
        (200, "image/png", 300)
    );

    let page = service.respond(
        "POST",
        "/uploads/",
        &tus(&[("upload-length", "100")]),
        b"",
        0,
    );
    let page_path = page
        .headers
        .iter()
        .find(|(name, _)| name == "Location")
        .unwrap()
        .1
        .strip_prefix("https://media-gen.test")
        .unwrap()
        .to_owned();
    let refused = service.respond(
        "PATCH",
        &page_path,
        &tus(&[("upload-offset", "0")]),
        &[b'<'; 100],
        0,
    );
    assert_eq!(refused.status, 415);
    assert!(
        json(&refused)["msg"]
            .as_str()
            .unwrap()
            .starts_with("file: not an image"),
        "{:?}",
        json(&refused)
    );
}
