//! Results kept, over HTTP: a status read that finds a task succeeded
//! makes the gateway fetch its files from the service's addresses, keep
//! them in the uploads' store and say where in the read's `data.kept`;
//! the copies are served (type, `Range`, safe headers, `ETag`) after the
//! service's own URLs stop answering, fetched once however many reads ask;
//! a page named `.mp4`, a file over the bound and an address that never
//! answers are not kept and the read says why in `data.not_kept`; the
//! oldest copies go when the quota is full; `--keep-results off` keeps
//! nothing.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path as UrlPath, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::StreamExt;
use media_gen_gateway::kept::KeepSettings;
use media_gen_gateway::uploads::UploadSettings;
use reqwest::StatusCode;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::support::{settings, start_gateway_at, TOKEN};

/// An MP4 of `length` bytes: an `ftyp` box, then filler.
fn mp4(length: usize) -> Vec<u8> {
    let mut bytes = b"\0\0\0\x18ftypmp42\0\0\0\0mp42isom".to_vec();
    bytes.extend((0..length.saturating_sub(bytes.len())).map(|n| (n % 253) as u8));
    bytes.truncate(length);
    bytes
}

/// A PNG of 300 bytes.
fn png() -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    bytes.resize(300, 7);
    bytes
}

/// The stand-in service: status reads of image-to-video tasks answer
/// `SUCCEEDED` with files at its own `/media/` (which file by the task's
/// id), counting each fetch of a file, until its files are `gone`.
#[derive(Clone, Default)]
struct Service {
    base: Arc<Mutex<String>>,
    fetched: Arc<Mutex<HashMap<String, usize>>>,
    gone: Arc<AtomicBool>,
    /// The video address a task `aim-…` names, by its id.
    aims: Arc<Mutex<HashMap<String, String>>>,
    /// The callback address each submit carried, by the task it made.
    callbacks: Arc<Mutex<HashMap<String, String>>>,
    /// Slow files being sent now, and the most sent at once.
    sending: Arc<std::sync::atomic::AtomicUsize>,
    most_at_once: Arc<std::sync::atomic::AtomicUsize>,
}

impl Service {
    async fn start() -> Service {
        let service = Service::default();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        *service.base.lock().unwrap() = format!("http://{}", listener.local_addr().unwrap());
        let app = axum::Router::new()
            .route("/v1/image_to_video/{id}", get(status))
            .route("/v1/image_to_video", axum::routing::post(submit))
            .route("/media/{name}", get(media))
            .route("/redirect/{port}", get(redirect))
            .with_state(service.clone());
        tokio::spawn(async move { axum::serve(listener, app).await });
        service
    }

    fn base(&self) -> String {
        self.base.lock().unwrap().clone()
    }

    /// Task `id` names `url` as its video.
    fn aim(&self, id: &str, url: &str) {
        self.aims
            .lock()
            .unwrap()
            .insert(id.to_owned(), url.to_owned());
    }

    fn fetches(&self, name: &str) -> usize {
        self.fetched.lock().unwrap().get(name).copied().unwrap_or(0)
    }
}

async fn status(State(service): State<Service>, UrlPath(id): UrlPath<String>) -> Response {
    let base = service.base();
    let video = match id.split('-').next().unwrap_or_default() {
        "html" => "page.mp4",
        "big" => "big.mp4",
        "silent" => "never.mp4",
        "slow" => "slow.mp4",
        "streamed" => "streamed.mp4",
        _ => "clip.mp4",
    };
    let aimed = service.aims.lock().unwrap().get(&id).cloned();
    let status = if id == "running" {
        "GENERATING"
    } else {
        "SUCCEEDED"
    };
    axum::Json(serde_json::json!({
        "code": 0,
        "msg": "success",
        "data": {
            "task_id": id,
            "status": status,
            "video_url": aimed.unwrap_or_else(|| format!("{base}/media/{video}")),
            "thumbnail_url": format!("{base}/media/cover.png"),
            "error_message": "",
        }
    }))
    .into_response()
}

async fn media(State(service): State<Service>, UrlPath(name): UrlPath<String>) -> Response {
    *service
        .fetched
        .lock()
        .unwrap()
        .entry(name.clone())
        .or_default() += 1;
    if service.gone.load(Ordering::SeqCst) {
        return StatusCode::NOT_FOUND.into_response();
    }
    match name.as_str() {
        "clip.mp4" => mp4(100_000).into_response(),
        "big.mp4" => mp4(300_000).into_response(),
        "cover.png" => png().into_response(),
        // Sent as it is made, with no length: over the bound only as it comes.
        "streamed.mp4" => {
            let pieces = mp4(300_000)
                .chunks(10_000)
                .map(|piece| Ok::<_, std::io::Error>(piece.to_vec()))
                .collect::<Vec<_>>();
            axum::body::Body::from_stream(futures_util::stream::iter(pieces)).into_response()
        }
        "page.mp4" => (
            [("content-type", "text/html")],
            "<!DOCTYPE html><html><body>Not found</body></html>",
        )
            .into_response(),
        // 700 KiB with its length, sent over about 400 ms.
        "slow.mp4" => {
            let now = service.sending.fetch_add(1, Ordering::SeqCst) + 1;
            service.most_at_once.fetch_max(now, Ordering::SeqCst);
            let sending = Arc::clone(&service.sending);
            let pieces: Vec<Vec<u8>> = mp4(700 << 10)
                .chunks(70 << 10)
                .map(<[u8]>::to_vec)
                .collect();
            let last = pieces.len() - 1;
            let stream = futures_util::stream::iter(pieces.into_iter().enumerate()).then(
                move |(n, piece)| {
                    let sending = Arc::clone(&sending);
                    async move {
                        tokio::time::sleep(Duration::from_millis(40)).await;
                        if n == last {
                            sending.fetch_sub(1, Ordering::SeqCst);
                        }
                        Ok::<_, std::io::Error>(piece)
                    }
                },
            );
            (
                [("content-length", (700 << 10).to_string())],
                axum::body::Body::from_stream(stream),
            )
                .into_response()
        }
        "never.mp4" => {
            tokio::time::sleep(Duration::from_secs(60)).await;
            StatusCode::OK.into_response()
        }
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}

/// A submit: one task, named by the request's prompt; its callback
/// address noted.
async fn submit(State(service): State<Service>, body: axum::body::Bytes) -> Response {
    let body: Value = serde_json::from_slice(&body).unwrap_or_default();
    let id = body["prompt"].as_str().unwrap_or("task").to_owned();
    if let Some(url) = body["callback_url"].as_str() {
        service
            .callbacks
            .lock()
            .unwrap()
            .insert(id.clone(), url.to_owned());
    }
    axum::Json(serde_json::json!({
        "code": 0, "msg": "success", "data": { "task_ids": [id] }
    }))
    .into_response()
}

/// A 302 from the service's own host to this machine's `port`.
async fn redirect(UrlPath(port): UrlPath<u16>) -> Response {
    (
        StatusCode::FOUND,
        [("location", format!("http://127.0.0.1:{port}/clip.mp4"))],
    )
        .into_response()
}

/// Another server on this machine, as an internal service would be: it
/// answers every path with a video and counts who reached it.
async fn internal_service() -> (u16, Arc<std::sync::atomic::AtomicUsize>) {
    let reached = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let counted = Arc::clone(&reached);
    let app = axum::Router::new().fallback(move || {
        let counted = Arc::clone(&counted);
        async move {
            counted.fetch_add(1, Ordering::SeqCst);
            mp4(1_000).into_response()
        }
    });
    tokio::spawn(async move { axum::serve(listener, app).await });
    (port, reached)
}

/// A gateway in front of `service`, keeping results in `dir` as `change`
/// says; its base URL.
async fn gateway(
    service: &Service,
    dir: &Path,
    change: impl FnOnce(&mut Option<KeepSettings>),
) -> String {
    start_gateway_at(settings(Some(&service.base())), |settings, base| {
        let uploads = UploadSettings::new(dir.to_owned(), base.to_owned());
        let mut keep = KeepSettings::new(TOKEN.as_bytes());
        keep.max_bytes = 200_000;
        keep.fetch_deadline = Duration::from_secs(2);
        keep.wait = Duration::from_secs(10);
        settings.keep = Some(keep);
        change(&mut settings.keep);
        settings.uploads = Some(uploads);
    })
    .await
}

/// The `data` of a status read of task `id` through the gateway.
async fn read(gateway: &str, id: &str) -> Value {
    let answer = reqwest::get(format!("{gateway}/v1/image_to_video/{id}"))
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    answer.json::<Value>().await.unwrap()["data"].clone()
}

fn sha256(bytes: &[u8]) -> Vec<u8> {
    Sha256::digest(bytes).to_vec()
}

#[tokio::test]
async fn a_succeeded_tasks_files_are_kept_once_served_and_outlive_the_services_urls() {
    let dir = tempfile::tempdir().unwrap();
    let service = Service::start().await;
    let gateway = gateway(&service, dir.path(), |_| {}).await;
    // Two pages read the task at once: one fetch of each file in all.
    let (first, second) = tokio::join!(read(&gateway, "t-1"), read(&gateway, "t-1"));
    let data = read(&gateway, "t-1").await;
    assert_eq!(
        data["video_url"],
        format!("{}/media/clip.mp4", service.base()),
        "the service's own field passes through"
    );
    let video = data["kept"]["video_url"].as_str().unwrap().to_owned();
    let cover = data["kept"]["thumbnail_url"].as_str().unwrap().to_owned();
    assert!(video.starts_with(&format!("{gateway}/kept/")), "{video}");
    assert!(video.ends_with("/t-1.mp4"), "{video}");
    assert!(cover.ends_with("/t-1-thumbnail.png"), "{cover}");
    assert_eq!(data.get("not_kept"), None);
    for earlier in [first, second] {
        let kept = &earlier["kept"];
        assert!(
            kept.is_null() || kept["video_url"] == video.as_str(),
            "{earlier}"
        );
    }
    assert_eq!(
        (service.fetches("clip.mp4"), service.fetches("cover.png")),
        (1, 1)
    );

    service.gone.store(true, Ordering::SeqCst);
    let gone = reqwest::get(format!("{}/media/clip.mp4", service.base()))
        .await
        .unwrap();
    assert_eq!(
        gone.status(),
        StatusCode::NOT_FOUND,
        "the service's URL is gone"
    );
    let answer = reqwest::get(&video).await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    let headers = answer.headers().clone();
    assert_eq!(headers["content-type"], "video/mp4");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert!(headers["content-security-policy"]
        .to_str()
        .unwrap()
        .starts_with("sandbox"));
    assert_eq!(
        headers["content-disposition"],
        "inline; filename=\"t-1.mp4\""
    );
    assert!(headers.contains_key("etag"));
    let bytes = answer.bytes().await.unwrap();
    assert_eq!(
        sha256(&bytes),
        sha256(&mp4(100_000)),
        "exactly the bytes the service served"
    );
    let part = reqwest::Client::new()
        .get(&video)
        .header("range", "bytes=10-19")
        .send()
        .await
        .unwrap();
    assert_eq!(part.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(part.bytes().await.unwrap(), mp4(100_000)[10..20]);
    let head = reqwest::Client::new().head(&cover).send().await.unwrap();
    assert_eq!(
        (
            head.status(),
            head.headers()["content-type"].to_str().unwrap()
        ),
        (StatusCode::OK, "image/png")
    );

    // Read again after the service's files are gone: the same copies.
    let asked = service.fetches("clip.mp4");
    let again = read(&gateway, "t-1").await;
    assert_eq!(again["kept"]["video_url"], video.as_str());
    assert_eq!(service.fetches("clip.mp4"), asked, "never fetched again");
    // A copy is not an upload: the uploads' address does not serve it.
    let id = video.split('/').rev().nth(1).unwrap();
    let as_upload = reqwest::get(format!("{gateway}/uploads/{id}"))
        .await
        .unwrap();
    assert_eq!(as_upload.status(), StatusCode::NOT_FOUND);
    let guessed = reqwest::get(format!("{gateway}/kept/{}/t-1.mp4", "0".repeat(32)))
        .await
        .unwrap();
    assert_eq!(guessed.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_page_named_mp4_a_file_over_the_bound_and_a_silent_address_are_not_kept_and_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let service = Service::start().await;
    let gateway = gateway(&service, dir.path(), |_| {}).await;
    let html = read(&gateway, "html-1").await;
    assert_eq!(
        html["not_kept"]["video_url"],
        "the service's file was an HTML page, not a video"
    );
    assert!(
        html["kept"]["thumbnail_url"].is_string(),
        "its cover is kept: {html}"
    );
    assert_eq!(html["kept"].get("video_url"), None);
    let big = read(&gateway, "big-1").await;
    let why = big["not_kept"]["video_url"].as_str().unwrap();
    assert!(
        why.starts_with("the service's file was ") && why.ends_with("over 200 KB"),
        "{why}"
    );
    let silent = read(&gateway, "silent-1").await;
    assert_eq!(
        silent["not_kept"]["video_url"],
        "the service did not give the file: no answer in time"
    );
    let streamed = read(&gateway, "streamed-1").await;
    let why = streamed["not_kept"]["video_url"].as_str().unwrap();
    assert!(why.ends_with("over 200 KB"), "{why}");
    // What arrived before the bound was passed is not left behind.
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".part"))
        .collect();
    // The kept covers only: one for each task read.
    assert_eq!(left.len(), 4, "{left:?}");
    // Said again to a later read, never fetched again.
    let again = read(&gateway, "html-1").await;
    assert_eq!(again["not_kept"], html["not_kept"]);
    assert_eq!(service.fetches("page.mp4"), 1);
    // Nothing is kept of a task still running.
    let running = read(&gateway, "running").await;
    assert_eq!((running.get("kept"), running.get("not_kept")), (None, None));
}

#[tokio::test]
async fn the_oldest_copies_go_first_when_the_quota_is_full() {
    let dir = tempfile::tempdir().unwrap();
    let service = Service::start().await;
    // Room for two videos and their covers, not three.
    let gateway = gateway(&service, dir.path(), |keep| {
        keep.as_mut().unwrap().quota = 250_000;
    })
    .await;
    let mut videos = Vec::new();
    for id in ["q-1", "q-2", "q-3"] {
        let data = read(&gateway, id).await;
        videos.push(data["kept"]["video_url"].as_str().unwrap().to_owned());
        // A second apart: the oldest is the one made first.
        tokio::time::sleep(Duration::from_millis(1_100)).await;
    }
    let status = |url: String| async move { reqwest::get(url).await.unwrap().status() };
    assert_eq!(
        status(videos[0].clone()).await,
        StatusCode::GONE,
        "the oldest went"
    );
    assert_eq!(status(videos[1].clone()).await, StatusCode::OK);
    assert_eq!(status(videos[2].clone()).await, StatusCode::OK);
    let metrics = reqwest::get(format!("{gateway}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(metrics.contains("gateway_kept_evicted_total"), "{metrics}");
}

#[tokio::test]
async fn with_keep_results_off_nothing_is_kept_or_fetched() {
    let dir = tempfile::tempdir().unwrap();
    let service = Service::start().await;
    let gateway = gateway(&service, dir.path(), |keep| *keep = None).await;
    let data = read(&gateway, "t-1").await;
    assert_eq!((data.get("kept"), data.get("not_kept")), (None, None));
    assert_eq!(service.fetches("clip.mp4"), 0);
}

#[tokio::test]
async fn with_keys_a_persons_kept_results_count_toward_their_budgets() {
    let dir = tempfile::tempdir().unwrap();
    let keys = media_gen_gateway::access::key_file::KeyFile::new(dir.path());
    let (ada, grace) = (
        keys.add("ada", None, 0).unwrap(),
        keys.add("grace", None, 0).unwrap(),
    );
    let service = Service::start().await;
    let uploads = dir.path().join("uploads");
    let base = start_gateway_at(settings(Some(&service.base())), |settings, base| {
        settings.access = media_gen_gateway::access::AccessMode::Keys;
        settings.data_dir = Some(dir.path().to_owned());
        let mut keep = KeepSettings::new(TOKEN.as_bytes());
        // One video and its cover a day each.
        keep.bytes_per_day = 150_000;
        settings.keep = Some(keep);
        settings.uploads = Some(UploadSettings::new(uploads.clone(), base.to_owned()));
    })
    .await;
    let read = |key: String, id: &'static str| {
        let url = format!("{base}/v1/image_to_video/{id}");
        async move {
            let answer = reqwest::Client::new()
                .get(url)
                .bearer_auth(key)
                .send()
                .await
                .unwrap();
            answer.json::<Value>().await.unwrap()["data"].clone()
        }
    };
    let first = read(ada.clone(), "b-1").await;
    assert!(first["kept"]["video_url"].is_string(), "{first}");
    let second = read(ada.clone(), "b-2").await;
    assert_eq!(
        second["not_kept"]["video_url"],
        "no room to keep it: your 150 KB of kept results a day are used; more from midnight UTC",
        "{second}"
    );
    let other = read(grace, "b-3").await;
    assert!(
        other["kept"]["video_url"].is_string(),
        "another person's budget: {other}"
    );
}

#[tokio::test]
async fn a_task_naming_this_machine_or_its_network_gets_nothing_fetched_from_there() {
    let service = Service::start().await;
    let (port, reached) = internal_service().await;
    let dir = tempfile::tempdir().unwrap();
    let gateway = gateway(&service, dir.path(), |_| {}).await;
    let cases = [
        (
            "loopback",
            format!("http://127.0.0.1:{port}/clip.mp4"),
            "127.0.0.1 is loopback",
        ),
        (
            "name",
            format!("http://localhost:{port}/clip.mp4"),
            "localhost resolves to",
        ),
        (
            "decimal",
            format!("http://2130706433:{port}/clip.mp4"),
            "127.0.0.1 is loopback",
        ),
        (
            "v6",
            format!("http://[::1]:{port}/clip.mp4"),
            "::1 is loopback",
        ),
        (
            "mapped",
            format!("http://[::ffff:127.0.0.1]:{port}/clip.mp4"),
            "is loopback",
        ),
        (
            "https",
            format!("https://127.0.0.1:{port}/clip.mp4"),
            "127.0.0.1 is loopback",
        ),
        (
            "redirected",
            format!("{}/redirect/{port}", service.base()),
            "127.0.0.1 is loopback",
        ),
        (
            "metadata",
            "http://169.254.169.254/latest/meta-data/".to_owned(),
            "is link-local",
        ),
        (
            "private",
            "http://10.0.0.7/clip.mp4".to_owned(),
            "10.0.0.7 is private",
        ),
        (
            "the gateway",
            format!("{gateway}/metrics"),
            "127.0.0.1 is loopback",
        ),
    ];
    for (case, url, why) in &cases {
        let id = format!("aim-{case}");
        service.aim(&id, url);
        let data = read(&gateway, &id).await;
        assert!(data["kept"]["video_url"].is_null(), "{case}: {data}");
        let said = data["not_kept"]["video_url"].as_str().unwrap_or_default();
        assert!(said.contains(why), "{case}: {said}");
        assert!(said.contains("not public"), "{case}: {said}");
    }
    assert_eq!(
        reached.load(Ordering::SeqCst),
        0,
        "nothing reached the internal service"
    );

    // Allowed by --keep-from, the same host is fetched from and kept.
    let dir = tempfile::tempdir().unwrap();
    let allowing = self::gateway(&service, dir.path(), |keep| {
        keep.as_mut().unwrap().from = vec![format!("127.0.0.1:{port}").parse().unwrap()];
    })
    .await;
    service.aim("aim-allowed", &format!("http://127.0.0.1:{port}/clip.mp4"));
    let data = read(&allowing, "aim-allowed").await;
    assert!(data["kept"]["video_url"].is_string(), "{data}");
    assert_eq!(reached.load(Ordering::SeqCst), 1);
}

/// A gateway in keys mode in front of `service`, keeping results under
/// `dir` as `change` says, with the relay when `relay`; its base URL and
/// the keys of ada, grace and lin.
async fn keyed(
    service: &Service,
    dir: &Path,
    relay: bool,
    change: impl FnOnce(&mut KeepSettings),
) -> (String, [String; 3]) {
    let keys = media_gen_gateway::access::key_file::KeyFile::new(dir);
    let people = ["ada", "grace", "lin"].map(|name| keys.add(name, None, 0).unwrap());
    let uploads = dir.join("uploads");
    let base = start_gateway_at(settings(Some(&service.base())), |settings, base| {
        settings.access = media_gen_gateway::access::AccessMode::Keys;
        settings.data_dir = Some(dir.to_owned());
        let mut keep = KeepSettings::new(TOKEN.as_bytes());
        change(&mut keep);
        settings.keep = Some(keep);
        settings.uploads = Some(UploadSettings::new(uploads, base.to_owned()));
        if relay {
            settings.relay = Some(media_gen_gateway::relay::RelaySettings::new(
                base.to_owned(),
                64,
            ));
        }
    })
    .await;
    (base, people)
}

/// The `data` of `key`'s status read of task `id` through `gateway`.
async fn read_as(gateway: &str, key: &str, id: &str) -> Value {
    let answer = reqwest::Client::new()
        .get(format!("{gateway}/v1/image_to_video/{id}"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap();
    answer.json::<Value>().await.unwrap()["data"].clone()
}

/// `key` submits a task the service names `id`.
async fn submit_as(gateway: &str, key: &str, id: &str) {
    let answer = reqwest::Client::new()
        .post(format!("{gateway}/v1/image_to_video"))
        .bearer_auth(key)
        .json(&serde_json::json!({
            "model": "V",
            "image_url": "https://example.com/a.png",
            "prompt": id,
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK, "{:?}", answer.text().await);
}

const DAY_SPENT: &str =
    "no room to keep it: your 150 KB of kept results a day are used; more from midnight UTC";

#[tokio::test]
async fn a_relayed_task_is_kept_against_its_submitters_budget() {
    let service = Service::start().await;
    let dir = tempfile::tempdir().unwrap();
    let (gateway, [ada, ..]) = keyed(&service, dir.path(), true, |keep| {
        keep.bytes_per_day = 150_000;
    })
    .await;
    // Ada's day: one video and its cover.
    assert!(read_as(&gateway, &ada, "b-1").await["kept"]["video_url"].is_string());
    // Her relayed task ends while her page only listens.
    submit_as(&gateway, &ada, "s-1").await;
    let callback = service.callbacks.lock().unwrap()["s-1"].clone();
    let ended = reqwest::Client::new()
        .post(callback)
        .json(&serde_json::json!({
            "code": 0, "msg": "ok", "task_type": "image_to_video",
            "data": { "task_id": "s-1", "status": "SUCCEEDED",
                      "video_url": format!("{}/media/clip.mp4", service.base()),
                      "thumbnail_url": "", "error_message": "" }
        }))
        .send()
        .await
        .unwrap();
    assert!(ended.status().is_success(), "{:?}", ended.text().await);
    assert_eq!(
        read_as(&gateway, &ada, "s-1").await["not_kept"]["video_url"],
        DAY_SPENT,
        "the relay's copy counts against ada"
    );
}

#[tokio::test]
async fn the_first_reader_does_not_decide_whose_copy_it_is() {
    let service = Service::start().await;
    let dir = tempfile::tempdir().unwrap();
    let (gateway, [_, grace, lin]) = keyed(&service, dir.path(), false, |keep| {
        keep.bytes_per_day = 150_000;
    })
    .await;
    assert!(read_as(&gateway, &grace, "g-1").await["kept"]["video_url"].is_string());
    assert_eq!(
        read_as(&gateway, &grace, "g-2").await["not_kept"]["video_url"],
        DAY_SPENT
    );
    // Lin's task, read first by grace, whose day is spent: kept as lin's.
    submit_as(&gateway, &lin, "s-2").await;
    let first = read_as(&gateway, &grace, "s-2").await;
    assert!(first["kept"]["video_url"].is_string(), "{first}");
    assert!(read_as(&gateway, &lin, "s-2").await["kept"]["video_url"].is_string());
}

#[tokio::test]
async fn a_budget_refusal_is_tried_again_when_the_task_is_read_again() {
    let service = Service::start().await;
    let dir = tempfile::tempdir().unwrap();
    let (gateway, [ada, ..]) = keyed(&service, dir.path(), false, |keep| {
        keep.bytes_per_person = 150_000;
        keep.keep_for = Duration::from_secs(2);
    })
    .await;
    assert!(read_as(&gateway, &ada, "b-1").await["kept"]["video_url"].is_string());
    let refused = read_as(&gateway, &ada, "b-2").await;
    let said = refused["not_kept"]["video_url"]
        .as_str()
        .unwrap_or_default();
    assert!(
        said.contains("your kept results take 100 KB of your 150 KB"),
        "{refused}"
    );
    // Ada's first copies end: there is room again, and the refusal was for now.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    let again = read_as(&gateway, &ada, "b-2").await;
    assert!(again["kept"]["video_url"].is_string(), "{again}");
}

/// The bytes of every file kept under `dir`.
fn kept_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|entry| entry.path().extension().is_some_and(|ext| ext == "part"))
        .map(|entry| entry.metadata().unwrap().len())
        .sum()
}

/// `count` tasks with a slow 700 KiB video each, read at once.
fn read_slow_tasks_together(gateway: &str, count: usize) -> Vec<tokio::task::JoinHandle<Value>> {
    (0..count)
        .map(|n| {
            let gateway = gateway.to_owned();
            tokio::spawn(async move { read(&gateway, &format!("slow-{n}")).await })
        })
        .collect()
}

#[tokio::test]
async fn fetches_running_together_stay_under_the_quota() {
    let service = Service::start().await;
    let dir = tempfile::tempdir().unwrap();
    let gateway = gateway(&service, dir.path(), |keep| {
        let keep = keep.as_mut().unwrap();
        keep.quota = 1 << 20;
        keep.max_bytes = 1 << 20;
    })
    .await;
    // Five 700 KiB results at once under 1 MiB.
    let reads = read_slow_tasks_together(&gateway, 5);
    let mut kept = 0;
    for read in reads {
        let data = read.await.unwrap();
        if data["kept"]["video_url"].is_string() {
            kept += 1;
        } else {
            let said = data["not_kept"]["video_url"].as_str().unwrap_or_default();
            assert!(said.starts_with("no room to keep it"), "{data}");
        }
    }
    assert!(kept >= 1, "one of them is kept");
    let bytes = kept_bytes(dir.path());
    assert!(
        bytes <= 1 << 20,
        "{bytes} bytes kept under a quota of 1 MiB"
    );
}

#[tokio::test]
async fn at_most_keep_fetches_at_once_files_are_fetched_together() {
    let service = Service::start().await;
    let dir = tempfile::tempdir().unwrap();
    let gateway = gateway(&service, dir.path(), |keep| {
        let keep = keep.as_mut().unwrap();
        keep.max_bytes = 1 << 20;
        keep.fetches_at_once = 2;
    })
    .await;
    let reads = read_slow_tasks_together(&gateway, 5);
    for read in reads {
        let data = read.await.unwrap();
        assert!(
            data["kept"]["video_url"].is_string(),
            "every one in turn: {data}"
        );
    }
    assert_eq!(service.most_at_once.load(Ordering::SeqCst), 2);
}

/// Whether `needle` is in the file at `path` (false when there is none).
fn file_holds(path: &Path, needle: &[u8]) -> bool {
    std::fs::read(path).is_ok_and(|bytes| bytes.windows(needle.len()).any(|w| w == needle))
}

/// Whether any file under `dir` holds `needle`.
fn folder_holds(dir: &Path, needle: &[u8]) -> bool {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .any(|entry| file_holds(&entry.path(), needle))
}

/// `key`'s upload of a PNG: its address.
async fn upload_as(gateway: &str, key: &str) -> String {
    let mut png = png();
    png.resize(2_000, 1);
    let made = reqwest::Client::new()
        .post(format!("{gateway}/uploads/"))
        .bearer_auth(key)
        .header("tus-resumable", "1.0.0")
        .header("upload-length", png.len())
        .header("content-type", "application/offset+octet-stream")
        .body(png)
        .send()
        .await
        .unwrap();
    assert_eq!(
        made.status(),
        StatusCode::CREATED,
        "{:?}",
        made.text().await
    );
    made.headers()["location"].to_str().unwrap().to_owned()
}

/// The status of a `GET` of `url`, once it is `wanted` or two seconds have
/// passed: a running gateway drops a forgotten person's files within one.
async fn status_soon(url: &str, wanted: StatusCode) -> StatusCode {
    let mut status = StatusCode::OK;
    for _ in 0..20 {
        status = reqwest::get(url).await.unwrap().status();
        if status == wanted {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    status
}

#[tokio::test]
async fn forgetting_a_person_leaves_nothing_of_theirs_on_disk_or_in_a_running_gateway() {
    let service = Service::start().await;
    let dir = tempfile::tempdir().unwrap();
    let (gateway, [ada, grace, _]) = keyed(&service, dir.path(), false, |_| {}).await;
    let marker = "zebra-7f3a";
    submit_as(&gateway, &ada, marker).await;
    let read = read_as(&gateway, &ada, marker).await;
    let copy = read["kept"]["video_url"].as_str().unwrap().to_owned();
    let upload = upload_as(&gateway, &ada).await;
    let theirs = read_as(&gateway, &grace, "b-1").await["kept"]["video_url"]
        .as_str()
        .unwrap()
        .to_owned();
    for url in [&copy, &upload, &theirs] {
        assert_eq!(reqwest::get(url).await.unwrap().status(), StatusCode::OK);
    }
    let (database, log) = (
        dir.path().join("library.sqlite3"),
        dir.path().join("library.sqlite3-wal"),
    );
    // The use is kept every second: wait for ada's.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert!(
        file_holds(&database, marker.as_bytes()) || file_holds(&log, marker.as_bytes()),
        "the prompt is on disk before"
    );

    let path = dir.path().to_str().unwrap();
    let uploads = dir.path().join("uploads");
    let (_, said, ok) = crate::library::command(&[
        "keys",
        "revoke",
        "ada",
        "--forget",
        "--data-dir",
        path,
        "--upload-dir",
        uploads.to_str().unwrap(),
    ]);
    assert!(ok, "{said}");
    assert!(
        said.contains("ada is forgotten: 1 request, 1 task, 1 day of figures, 1 record of use, 1 upload, 2 kept copies"),
        "{said}"
    );
    assert!(
        !said.contains(marker),
        "what was removed is counted, never shown: {said}"
    );

    // Their files answer 410 on the running gateway; another's are served.
    assert_eq!(status_soon(&copy, StatusCode::GONE).await, StatusCode::GONE);
    assert_eq!(
        status_soon(&upload, StatusCode::GONE).await,
        StatusCode::GONE
    );
    assert_eq!(
        reqwest::get(&theirs).await.unwrap().status(),
        StatusCode::OK
    );
    assert!(
        !folder_holds(&uploads, b"person:ada"),
        "no record names them"
    );
    // Grace goes on calling; the gateway never writes ada's use back.
    for _ in 0..3 {
        read_as(&gateway, &grace, "b-1").await;
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    for file in [&database, &log] {
        assert!(!file_holds(file, marker.as_bytes()), "{}", file.display());
    }
    let library = media_gen_gateway::library::Library::open(
        &media_gen_gateway::library::LibraryAt::in_dir(dir.path()),
    )
    .await
    .unwrap();
    let used = library.use_of_everyone().await.unwrap();
    assert!(
        !used.contains_key("ada") && used.contains_key("grace"),
        "{used:?}"
    );
    let refused = reqwest::Client::new()
        .get(format!("{gateway}/v1/image_to_video/b-1"))
        .bearer_auth(&ada)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
}
