//! Each person's library over HTTP, in SQLite (the default under
//! `--data-dir`) and PostgreSQL (Debian's, started in a folder of its
//! own): a submit is written before its answer reaches the page, a status
//! read updates it, a person sees only their own, pages and filters hold
//! over hundreds of requests, removals undo within a minute, the schema
//! migrates from empty and from the previous version, and the owner's
//! commands (`usage`, `library export`, `keys revoke --forget`) read it.

use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use axum::extract::Request;
use axum::response::IntoResponse;
use media_gen_api::library::{LibraryQuery, RequestId};
use media_gen_api::{TaskKey, TaskKind};
use media_gen_gateway::access::AccessMode;
use media_gen_gateway::library::database::{Database, MIGRATIONS};
use media_gen_gateway::library::shares::{NewLink, SharedTask};
use media_gen_gateway::library::{Library, LibraryAt, LibraryFlag};
use serde_json::{json, Value};
use tokio::net::TcpListener;

use crate::support::{settings, start_gateway_at};

/// A stand-in service that makes new ids for every submit (one per
/// `generate_count`, one per language) and reads every task as
/// succeeded, with its files.
async fn start_maker() -> String {
    let next = Arc::new(AtomicU64::new(1));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = axum::Router::new().fallback(move |request: Request| {
        let next = Arc::clone(&next);
        async move {
            let (parts, body) = request.into_parts();
            let body = axum::body::to_bytes(body, usize::MAX).await.unwrap();
            let path = parts.uri.path().to_owned();
            let segments: Vec<&str> = path.trim_start_matches("/v1/").split('/').collect();
            let data = match (parts.method.as_str(), &segments[..]) {
                ("POST", ["video_translate"]) => {
                    let asked: Value = serde_json::from_slice(&body).unwrap();
                    let languages = asked["target_languages"].as_array().unwrap().clone();
                    json!(languages
                        .iter()
                        .map(|language| json!({
                            "task_id": format!("vt-{}", next.fetch_add(1, Ordering::SeqCst)),
                            "language": language,
                        }))
                        .collect::<Vec<_>>())
                }
                ("POST", [kind]) => {
                    let asked: Value = serde_json::from_slice(&body).unwrap();
                    let count = asked["generate_count"].as_u64().unwrap_or(1);
                    let ids: Vec<String> = (0..count)
                        .map(|_| format!("{kind}-{}", next.fetch_add(1, Ordering::SeqCst)))
                        .collect();
                    json!({ "task_ids": ids })
                }
                ("GET", ["image_generate", id]) => json!({
                    "task_id": id, "status": "SUCCEEDED",
                    "image_url": format!("https://files.example/{id}.png"),
                }),
                ("GET", [_, id]) => json!({
                    "task_id": id, "status": "SUCCEEDED",
                    "video_url": format!("https://files.example/{id}.mp4"),
                }),
                _ => Value::Null,
            };
            axum::Json(json!({ "code": 0, "msg": "ok", "data": data })).into_response()
        }
    });
    tokio::spawn(async move { axum::serve(listener, app).await });
    base
}

/// `media-gen-gateway` with `args`: standard output, error, success.
pub(crate) fn command(args: &[&str]) -> (String, String, bool) {
    let output = Command::new(env!("CARGO_BIN_EXE_media-gen-gateway"))
        .args(args)
        .env_remove("MEDIA_GEN_DATA_DIR")
        .env_remove("MEDIA_GEN_LIBRARY")
        .env_remove("MEDIA_GEN_REDIS")
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.success(),
    )
}

/// A new key for `name` in the library `at` (`--data-dir DIR` or
/// `--library URL`), as the owner makes one.
fn new_key(at: &[&str], name: &str) -> String {
    let mut args = vec!["keys", "add", name];
    args.extend_from_slice(at);
    let (out, err, ok) = command(&args);
    assert!(ok, "{err}");
    out.trim().to_owned()
}

/// A gateway in `keys` mode in front of `service`, its library where
/// `configure` says; its base URL.
async fn keyed(service: &str, configure: impl FnOnce(&mut media_gen_gateway::Settings)) -> String {
    start_gateway_at(settings(Some(service)), |settings, _| {
        settings.access = AccessMode::Keys;
        settings.upstream_timeout = std::time::Duration::from_secs(5);
        configure(settings);
    })
    .await
}

/// A person's calls on one gateway.
struct Person {
    base: String,
    key: String,
    http: reqwest::Client,
}

impl Person {
    fn new(base: &str, key: &str) -> Person {
        Person {
            base: base.to_owned(),
            key: key.to_owned(),
            http: reqwest::Client::new(),
        }
    }

    async fn submit(&self, kind: &str, body: Value) -> (Value, String) {
        let answer = self
            .http
            .post(format!("{}/v1/{kind}", self.base))
            .bearer_auth(&self.key)
            .json(&body)
            .send()
            .await
            .unwrap();
        if answer.status() != 200 {
            panic!(
                "{kind}: {} {}",
                answer.status(),
                answer.text().await.unwrap()
            );
        }
        let request = answer.headers()["media-gen-library-request"]
            .to_str()
            .unwrap()
            .to_owned();
        (answer.json().await.unwrap(), request)
    }

    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut call = self
            .http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.key);
        if let Some(body) = body {
            call = call.json(&body);
        }
        let answer = call.send().await.unwrap();
        let status = answer.status().as_u16();
        let body: Value = answer.json().await.unwrap_or(Value::Null);
        // Answers come in the service's envelope; a refusal's is kept whole.
        if status == 200 {
            assert_eq!(body["code"], 0, "{body}");
            (status, body["data"].clone())
        } else {
            (status, body)
        }
    }

    async fn list(&self, query: &str) -> Value {
        let (status, page) = self
            .call(reqwest::Method::GET, &format!("/library?{query}"), None)
            .await;
        assert_eq!(status, 200, "{page}");
        page
    }

    /// Every request the listing `query` pages through, 50 at a time.
    async fn all(&self, query: &str) -> Vec<Value> {
        let mut items = Vec::new();
        let mut cursor = String::new();
        loop {
            let page = self.list(&format!("{query}&cursor={cursor}")).await;
            items.extend(page["items"].as_array().unwrap().iter().cloned());
            match page["next"].as_str() {
                Some(next) => cursor = next.to_owned(),
                None => return items,
            }
        }
    }
}

#[tokio::test]
async fn a_submit_is_in_its_persons_library_and_in_no_one_elses() {
    let dir = tempfile::tempdir().unwrap();
    let at = ["--data-dir", dir.path().to_str().unwrap()];
    let (ada_key, grace_key) = (new_key(&at, "ada"), new_key(&at, "grace"));
    let service = start_maker().await;
    let base = keyed(&service, |s| s.data_dir = Some(dir.path().to_owned())).await;
    let (ada, grace) = (Person::new(&base, &ada_key), Person::new(&base, &grace_key));

    let (answer, request) = ada
        .submit(
            "image_generate",
            json!({ "prompt": "A red fox at dusk", "generate_count": 2 }),
        )
        .await;
    let ids = answer["data"]["task_ids"].clone();
    for file in ["library.sqlite3", "library.sqlite3-wal"] {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path().join(file))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{file} is its user's alone");
    }
    let page = ada.list("").await;
    assert_eq!(page["next"], Value::Null);
    let item = &page["items"][0];
    assert_eq!(item["request"], request.as_str());
    assert_eq!(item["kind"], "image_generate");
    assert_eq!(item["body"]["prompt"], "A red fox at dusk");
    assert_eq!(item["tasks"][0]["task_id"], ids[0]);
    assert_eq!(item["tasks"][1]["task_id"], ids[1]);
    assert_eq!(item["tasks"][0]["status"], "PENDING");

    // A status read the page makes is learnt, with the result.
    let first = ids[0].as_str().unwrap();
    let (status, _) = ada
        .call(
            reqwest::Method::GET,
            &format!("/v1/image_generate/{first}"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let (status, one) = ada
        .call(reqwest::Method::GET, &format!("/library/{request}"), None)
        .await;
    assert_eq!(status, 200, "{one}");
    assert_eq!(one["tasks"][0]["status"], "SUCCEEDED");
    assert_eq!(one["tasks"][0]["task"]["task_type"], "image_generate");
    assert_eq!(
        one["tasks"][0]["task"]["data"]["image_url"],
        format!("https://files.example/{first}.png")
    );
    assert_eq!(one["tasks"][1]["status"], "PENDING");

    // Another person sees none of it, even by its id; a guess is a 404.
    assert_eq!(grace.list("").await["items"], json!([]));
    for path in [
        format!("/library/{request}"),
        "/library/AAAAAAAAAAAAAAAAAAAAAA".to_owned(),
        "/library/..%2Fetc".to_owned(),
    ] {
        let (status, body) = grace.call(reqwest::Method::GET, &path, None).await;
        assert_eq!(status, 404, "{path}: {body}");
    }
    let (status, _) = grace
        .call(
            reqwest::Method::DELETE,
            &format!("/library/{request}"),
            None,
        )
        .await;
    assert_eq!(status, 404, "nobody removes another's request");
    assert_eq!(ada.list("").await["items"].as_array().unwrap().len(), 1);

    // Nobody signed in: 401; a bad filter: 400 naming it.
    let anonymous = reqwest::get(format!("{base}/library")).await.unwrap();
    assert_eq!(anonymous.status(), 401);
    let (status, wrong) = ada
        .call(reqwest::Method::GET, "/library?kind=video", None)
        .await;
    assert_eq!(status, 400);
    assert!(
        wrong["msg"].as_str().unwrap().starts_with("kind: `video`"),
        "{wrong}"
    );

    // A change sent by another site's page is refused.
    let cross = reqwest::Client::new()
        .delete(format!("{base}/library/{request}"))
        .bearer_auth(&ada_key)
        .header("origin", "https://elsewhere.example")
        .header("sec-fetch-site", "cross-site")
        .send()
        .await
        .unwrap();
    assert_eq!(cross.status(), 403);
}

/// Read `stream` until its text so far satisfies `enough` (10 s at most);
/// the text.
async fn read_until(stream: &mut reqwest::Response, enough: impl Fn(&str) -> bool) -> String {
    let mut text = String::new();
    let read = async {
        while !enough(&text) {
            match stream.chunk().await.unwrap() {
                Some(chunk) => text.push_str(&String::from_utf8_lossy(&chunk)),
                None => break,
            }
        }
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(10), read).await;
    text
}

#[tokio::test]
async fn a_persons_open_pages_hear_each_new_task_and_its_changes() {
    let dir = tempfile::tempdir().unwrap();
    let at = ["--data-dir", dir.path().to_str().unwrap()];
    let (ada_key, grace_key) = (new_key(&at, "ada"), new_key(&at, "grace"));
    let service = start_maker().await;
    let base = keyed(&service, |s| {
        s.data_dir = Some(dir.path().to_owned());
        s.relay = Some(media_gen_gateway::relay::RelaySettings::new(
            "http://127.0.0.1:9".to_owned(),
            64,
        ));
    })
    .await;
    let (ada, grace) = (Person::new(&base, &ada_key), Person::new(&base, &grace_key));
    let http = reqwest::Client::new();
    let listen = |key: &str| {
        http.get(format!("{base}/events?library=1"))
            .bearer_auth(key)
            .send()
    };
    let mut ada_hears = listen(&ada_key).await.unwrap();
    assert_eq!(ada_hears.status(), 200);
    let mut grace_hears = listen(&grace_key).await.unwrap();
    assert_eq!(grace_hears.status(), 200);

    // A submit from another of Ada's pages: her stream hears the task as
    // pending, then each change a read brings, and only once.
    let (made, fox_request) = ada
        .submit(
            "image_generate",
            json!({ "prompt": "a red fox", "image_quality": "1K", "image_ratio": "1:1" }),
        )
        .await;
    let task_id = made["data"]["task_ids"][0].as_str().unwrap().to_owned();
    let heard = read_until(&mut ada_hears, |text| text.contains("PENDING")).await;
    assert!(heard.contains("event: image_generate"), "{heard}");
    assert!(
        heard.contains(&format!("\"task_id\":\"{task_id}\"")),
        "{heard}"
    );
    let (status, _) = ada
        .call(
            reqwest::Method::GET,
            &format!("/v1/image_generate/{task_id}"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let heard = read_until(&mut ada_hears, |text| text.contains("SUCCEEDED")).await;
    assert!(
        heard.contains(&format!("{task_id}.png")),
        "the result is told: {heard}"
    );
    // The same read again changes nothing, so tells nothing; Grace's own
    // submit is the first thing her stream hears.
    ada.call(
        reqwest::Method::GET,
        &format!("/v1/image_generate/{task_id}"),
        None,
    )
    .await;
    let (theirs, _) = grace
        .submit(
            "image_generate",
            json!({ "prompt": "a blue jay", "image_quality": "1K", "image_ratio": "1:1" }),
        )
        .await;
    let grace_task = theirs["data"]["task_ids"][0].as_str().unwrap().to_owned();
    let heard = read_until(&mut grace_hears, |text| text.contains("PENDING")).await;
    assert!(
        heard.contains(&grace_task) && !heard.contains(&task_id),
        "{heard}"
    );
    // And Ada's next submit is the next thing hers hears: nothing of Grace's.
    let (next, _) = ada
        .submit(
            "image_generate",
            json!({ "prompt": "a green frog", "image_quality": "1K", "image_ratio": "1:1" }),
        )
        .await;
    let next = next["data"]["task_ids"][0].as_str().unwrap().to_owned();
    let heard = read_until(&mut ada_hears, |text| text.contains(&next)).await;
    assert!(heard.contains(&next), "{heard}");
    assert!(
        !heard.contains(&grace_task) && !heard.contains(&task_id),
        "{heard}"
    );

    // A star on the fox, from another of Ada's pages: her stream hears
    // its task again, as last known, so her pages read its request anew;
    // Grace's hears nothing.
    let (status, starred) = ada
        .call(
            reqwest::Method::POST,
            "/library/star",
            Some(json!({ "requests": [fox_request], "starred": true })),
        )
        .await;
    assert_eq!(status, 200, "{starred}");
    let heard = read_until(&mut ada_hears, |text| text.contains(&task_id)).await;
    assert!(
        heard.contains(&format!("\"task_id\":\"{task_id}\"")) && heard.contains("SUCCEEDED"),
        "the starred request's task, as last known: {heard}"
    );
    // So is a collection's change.
    let (_, made) = ada
        .call(
            reqwest::Method::POST,
            "/library/collections",
            Some(json!({ "name": "Foxes", "requests": [] })),
        )
        .await;
    let collection = made["id"].as_str().unwrap().to_owned();
    ada.call(
        reqwest::Method::POST,
        &format!("/library/collections/{collection}/add"),
        Some(json!({ "requests": [fox_request] })),
    )
    .await;
    let heard = read_until(&mut ada_hears, |text| text.contains(&task_id)).await;
    assert!(
        heard.contains(&task_id),
        "the collected request's task: {heard}"
    );
    // And the collection renamed, then removed: its requests' pages show
    // its name, and hear each.
    for (method, body) in [
        (reqwest::Method::PATCH, Some(json!({ "name": "Red foxes" }))),
        (reqwest::Method::DELETE, None),
    ] {
        let (status, answer) = ada
            .call(
                method.clone(),
                &format!("/library/collections/{collection}"),
                body,
            )
            .await;
        assert_eq!(status, 200, "{method}: {answer}");
        let heard = read_until(&mut ada_hears, |text| text.contains(&task_id)).await;
        assert!(
            heard.contains(&task_id),
            "{method}: the collection's request's task: {heard}"
        );
    }
    // Ada's stream heard both already: Grace's would have by now.
    let grace_heard =
        tokio::time::timeout(std::time::Duration::from_millis(500), grace_hears.chunk()).await;
    if let Ok(Ok(Some(chunk))) = grace_heard {
        let text = String::from_utf8_lossy(&chunk);
        assert!(!text.contains(&task_id), "{text}");
    }

    // Nobody signed in is refused; a stream names no person by address.
    let anyone = http
        .get(format!("{base}/events?library=1"))
        .send()
        .await
        .unwrap();
    assert_eq!(anyone.status(), 401);
}

#[tokio::test]
async fn a_library_stream_needs_a_gateway_that_keeps_one() {
    let dir = tempfile::tempdir().unwrap();
    let at = [
        "--data-dir",
        dir.path().to_str().unwrap(),
        "--library",
        "off",
    ];
    let key = new_key(&at, "ada");
    let service = start_maker().await;
    let base = keyed(&service, |s| {
        s.data_dir = Some(dir.path().to_owned());
        s.library = LibraryFlag::Off;
        s.relay = Some(media_gen_gateway::relay::RelaySettings::new(
            "http://127.0.0.1:9".to_owned(),
            64,
        ));
    })
    .await;
    let http = reqwest::Client::new();
    let get = |path: &str| http.get(format!("{base}{path}")).bearer_auth(&key).send();
    assert_eq!(get("/events?library=1").await.unwrap().status(), 404);
    // Without it, a stream still needs a capability, and says so.
    let answer = get("/events").await.unwrap();
    assert_eq!(answer.status(), 400);
    let said: Value = answer.json().await.unwrap();
    assert!(
        said["msg"].as_str().unwrap().contains("relays: 1 to"),
        "{said}"
    );
}

#[tokio::test]
async fn stars_collections_and_settings_over_http_each_persons_own() {
    let dir = tempfile::tempdir().unwrap();
    let at = ["--data-dir", dir.path().to_str().unwrap()];
    let (ada_key, grace_key) = (new_key(&at, "ada"), new_key(&at, "grace"));
    let service = start_maker().await;
    let base = keyed(&service, |s| s.data_dir = Some(dir.path().to_owned())).await;
    let (ada, grace) = (Person::new(&base, &ada_key), Person::new(&base, &grace_key));
    let (_, fox) = ada
        .submit("image_generate", json!({ "prompt": "a fox" }))
        .await;
    let (_, owl) = ada
        .submit("image_generate", json!({ "prompt": "an owl" }))
        .await;
    let post = reqwest::Method::POST;

    let (status, starred) = ada
        .call(
            post.clone(),
            "/library/star",
            Some(json!({ "requests": [fox], "starred": true })),
        )
        .await;
    assert_eq!(
        (status, &starred["requests"]),
        (200, &json!([fox])),
        "{starred}"
    );
    let page = ada.list("starred=true").await;
    assert_eq!(page["items"].as_array().unwrap().len(), 1);
    assert_eq!(page["items"][0]["starred"], true);

    let (status, made) = ada
        .call(
            post.clone(),
            "/library/collections",
            Some(json!({ "name": " Animals ", "requests": [fox, owl] })),
        )
        .await;
    assert_eq!(status, 200, "{made}");
    assert_eq!(
        (made["name"].as_str(), made["requests"].as_u64()),
        (Some("Animals"), Some(2))
    );
    let collection = made["id"].as_str().unwrap().to_owned();
    let page = ada.list(&format!("collection={collection}")).await;
    assert_eq!(page["items"].as_array().unwrap().len(), 2);
    assert_eq!(page["items"][0]["collections"], json!([collection]));
    let (status, out) = ada
        .call(
            post.clone(),
            &format!("/library/collections/{collection}/take-out"),
            Some(json!({ "requests": [owl] })),
        )
        .await;
    assert_eq!((status, &out["requests"]), (200, &json!([owl])));

    // Refusals name the field and the rule; another person's is unknown.
    let (status, refused) = ada
        .call(
            post.clone(),
            "/library/collections",
            Some(json!({ "name": "" })),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        refused["msg"]
            .as_str()
            .unwrap()
            .contains("name: 1 to 60 characters"),
        "{refused}"
    );
    let (status, _) = grace
        .call(
            post.clone(),
            &format!("/library/collections/{collection}/add"),
            Some(json!({ "requests": [fox] })),
        )
        .await;
    assert_eq!(status, 404);
    let (status, _) = grace
        .call(
            reqwest::Method::DELETE,
            &format!("/library/collections/{collection}"),
            None,
        )
        .await;
    assert_eq!(status, 404);
    assert_eq!(grace.list("").await["items"].as_array().unwrap().len(), 0);
    assert_eq!(
        grace
            .call(reqwest::Method::GET, "/library/collections", None)
            .await
            .1,
        json!([])
    );

    // Settings saved by name, without the media.
    let (status, saved) = ada
        .call(
            reqwest::Method::PUT,
            "/library/presets",
            Some(json!({ "kind": "image_generate", "name": "Square", "body": { "image_ratio": "1:1", "prompt": "x" } })),
        )
        .await;
    assert_eq!(status, 200, "{saved}");
    let (status, refused) = ada
        .call(
            reqwest::Method::PUT,
            "/library/presets",
            Some(json!({ "kind": "image_generate", "name": "Media", "body": { "reference_images": ["https://example.com/a.png"] } })),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        refused["msg"]
            .as_str()
            .unwrap()
            .contains("`reference_images` is a job's media"),
        "{refused}"
    );
    let (_, presets) = ada
        .call(reqwest::Method::GET, "/library/presets", None)
        .await;
    assert_eq!(presets[0]["name"], "Square");
    assert_eq!(presets[0]["body"]["image_ratio"], "1:1");
    assert_eq!(
        grace
            .call(reqwest::Method::GET, "/library/presets", None)
            .await
            .1,
        json!([])
    );
    let (status, _) = ada
        .call(
            reqwest::Method::DELETE,
            "/library/presets/image_generate/Square",
            None,
        )
        .await;
    assert_eq!(status, 200);
    let (status, _) = ada
        .call(
            reqwest::Method::DELETE,
            &format!("/library/collections/{collection}"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        ada.list("").await["items"].as_array().unwrap().len(),
        2,
        "the requests stay"
    );
}

#[tokio::test]
async fn renames_removals_undo_and_imports() {
    let dir = tempfile::tempdir().unwrap();
    let at = ["--data-dir", dir.path().to_str().unwrap()];
    let key = new_key(&at, "ada");
    let service = start_maker().await;
    let base = keyed(&service, |s| s.data_dir = Some(dir.path().to_owned())).await;
    let ada = Person::new(&base, &key);
    let mut requests = Vec::new();
    for prompt in ["a lighthouse", "a harbour", "a storm"] {
        requests.push(
            ada.submit("image_generate", json!({ "prompt": prompt }))
                .await
                .1,
        );
    }

    let (status, renamed) = ada
        .call(
            reqwest::Method::PATCH,
            &format!("/library/{}", requests[0]),
            Some(json!({ "name": "  Cover for the book " })),
        )
        .await;
    assert_eq!(status, 200, "{renamed}");
    assert_eq!(renamed["name"], "Cover for the book");
    let found = ada.list("q=BOOK").await;
    assert_eq!(
        found["items"][0]["request"],
        requests[0].as_str(),
        "a name is searched"
    );
    let (status, refused) = ada
        .call(
            reqwest::Method::PATCH,
            &format!("/library/{}", requests[0]),
            Some(json!({ "name": "two\nlines" })),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        refused["msg"].as_str().unwrap().starts_with("name:"),
        "{refused}"
    );

    // Remove one, then two at once; each comes back within the minute.
    let (status, removed) = ada
        .call(
            reqwest::Method::DELETE,
            &format!("/library/{}", requests[2]),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert!(removed["undo_until"].as_u64().unwrap() > 0);
    assert_eq!(ada.list("").await["items"].as_array().unwrap().len(), 2);
    let (status, removed) = ada
        .call(
            reqwest::Method::POST,
            "/library/remove",
            Some(json!({ "requests": [requests[0], requests[1], "AAAAAAAAAAAAAAAAAAAAAA"] })),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        removed["requests"].as_array().unwrap().len(),
        2,
        "{removed}"
    );
    assert_eq!(ada.list("").await["items"], json!([]));
    let (status, restored) = ada
        .call(
            reqwest::Method::POST,
            "/library/restore",
            Some(json!({ "requests": requests })),
        )
        .await;
    assert_eq!(status, 200, "{restored}");
    assert_eq!(ada.list("").await["items"].as_array().unwrap().len(), 3);
    let (status, _) = ada
        .call(
            reqwest::Method::POST,
            "/library/restore",
            Some(json!({ "requests": [requests[0]] })),
        )
        .await;
    assert_eq!(status, 410, "nothing removed: nothing to restore");

    // What a browser knew is added once.
    let known = json!({ "tasks": [
        { "kind": "image_to_video", "task_id": "old-1", "submitted_at": 1_700_000_000_000_f64,
          "request": { "prompt": "waves", "model": "V", "duration": 5 }, "status": "SUCCEEDED",
          "task": { "task_type": "image_to_video", "data": { "task_id": "old-1", "status": "SUCCEEDED", "video_url": "https://x/v.mp4" } } },
        { "kind": "image_generate", "task_id": "old-2", "submitted_at": 1_700_000_000_001_f64,
          "request": null, "status": "FAILED", "task": null },
    ]});
    let (status, imported) = ada
        .call(
            reqwest::Method::POST,
            "/library/import",
            Some(known.clone()),
        )
        .await;
    assert_eq!((status, imported), (200, json!({ "added": 2 })));
    let (_, again) = ada
        .call(reqwest::Method::POST, "/library/import", Some(known))
        .await;
    assert_eq!(again, json!({ "added": 0 }));
    let all = ada.all("").await;
    assert_eq!(all.len(), 5);
    assert_eq!(all[4]["tasks"][0]["task_id"], "old-1", "oldest last");
    assert_eq!(
        ada.list("status=FAILED").await["items"][0]["tasks"][0]["task_id"],
        "old-2"
    );
}

/// Pages of 50 over `count` requests of three kinds, with filters: every
/// request once, newest first.
async fn pages_and_filters_hold(ada: &Person, count: usize) {
    let mut made = Vec::new();
    for n in 0..count {
        let (kind, words, body) = match n % 3 {
            0 => {
                let prompt = format!("fox number {n}");
                (
                    "image_generate",
                    prompt.clone(),
                    json!({ "prompt": prompt }),
                )
            }
            1 => {
                let prompt = format!("owl number {n}");
                let body = json!({ "prompt": prompt, "model": "V", "duration": 5 });
                ("image_to_video", prompt, body)
            }
            _ => {
                let name = format!("talk {n}");
                let body = json!({ "video_url": "https://x/v.mp4", "target_languages": ["fr", "de"], "name": name });
                ("video_translate", name, body)
            }
        };
        made.push((kind, words, ada.submit(kind, body).await.1));
    }
    let ids = |items: &[Value]| -> Vec<String> {
        items
            .iter()
            .map(|item| item["request"].as_str().unwrap().to_owned())
            .collect()
    };
    let expected = |keep: &dyn Fn(&str, &str) -> bool| -> Vec<String> {
        made.iter()
            .rev()
            .filter(|(kind, words, _)| keep(kind, words))
            .map(|(_, _, id)| id.clone())
            .collect()
    };
    assert_eq!(
        ids(&ada.all("limit=50").await),
        expected(&|_, _| true),
        "every request once, newest first"
    );
    assert_eq!(
        ids(&ada.all("kind=image_generate").await),
        expected(&|kind, _| kind == "image_generate")
    );
    assert_eq!(
        ids(&ada.all("q=OWL").await),
        expected(&|_, words| words.contains("owl"))
    );
    let twelve = |_: &str, words: &str| words.contains("fox") && words.contains("12");
    assert_eq!(
        ids(&ada.all("q=fox%20%2012&limit=2").await),
        expected(&twelve)
    );
    assert!(expected(&twelve).len() > 2, "over more than one page");
    let talks = ada.list("kind=video_translate&limit=3").await;
    assert_eq!(
        talks["items"][0]["tasks"].as_array().unwrap().len(),
        2,
        "a task per language"
    );
    assert_eq!(ada.list("status=SUCCEEDED").await["items"], json!([]));
}

#[tokio::test]
async fn pages_and_filters_hold_over_300_requests_in_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let key = new_key(&["--data-dir", dir.path().to_str().unwrap()], "ada");
    let service = start_maker().await;
    let base = keyed(&service, |s| s.data_dir = Some(dir.path().to_owned())).await;
    pages_and_filters_hold(&Person::new(&base, &key), 300).await;
}

#[tokio::test]
async fn two_gateways_share_one_library_in_postgres() {
    let postgres = tokio::task::spawn_blocking(media_gen_launch::postgres::Postgres::start)
        .await
        .unwrap()
        .unwrap();
    let url = postgres.database("library").unwrap();
    let key = new_key(&["--library", &url], "ada");
    let other = new_key(&["--library", &url], "grace");
    let service = start_maker().await;
    let flag = LibraryFlag::At(LibraryAt::Postgres(url.clone()));
    let one = keyed(&service, |s| s.library = flag.clone()).await;
    let two = keyed(&service, |s| s.library = flag.clone()).await;
    let (ada_one, ada_two) = (Person::new(&one, &key), Person::new(&two, &key));
    let (_, request) = ada_one
        .submit("image_generate", json!({ "prompt": "seen on the other" }))
        .await;
    assert_eq!(
        ada_two.list("").await["items"][0]["request"],
        request.as_str()
    );
    pages_and_filters_hold(&Person::new(&two, &other), 300).await;
    assert_eq!(
        ada_one.all("").await.len(),
        1,
        "another's requests are not theirs"
    );
    drop(postgres);
}

#[tokio::test]
async fn forgetting_in_postgres_removes_every_row_and_both_gateways_keep_it_so() {
    let postgres = tokio::task::spawn_blocking(media_gen_launch::postgres::Postgres::start)
        .await
        .unwrap()
        .unwrap();
    let url = postgres.database("forget").unwrap();
    let (ada, grace) = (
        new_key(&["--library", &url], "ada"),
        new_key(&["--library", &url], "grace"),
    );
    let service = start_maker().await;
    let flag = LibraryFlag::At(LibraryAt::Postgres(url.clone()));
    let one = keyed(&service, |s| s.library = flag.clone()).await;
    let two = keyed(&service, |s| s.library = flag.clone()).await;
    for base in [&one, &two] {
        Person::new(base, &ada)
            .submit("image_generate", json!({ "prompt": "zebra-7f3a" }))
            .await;
        Person::new(base, &grace)
            .submit("image_generate", json!({ "prompt": "grace's" }))
            .await;
    }
    let naming_ada = "SELECT (SELECT count(*) FROM library_requests WHERE person = 'ada') \
         + (SELECT count(*) FROM library_spent WHERE person = 'ada') \
         + (SELECT count(*) FROM access_use WHERE name = 'ada') \
         + (SELECT count(*) FROM access_keys WHERE name = 'ada')";
    // Both gateways keep their use every second: wait for it.
    tokio::time::sleep(std::time::Duration::from_millis(1_500)).await;
    assert_ne!(postgres.psql("forget", naming_ada).unwrap().trim(), "0");

    let (_, err, ok) = command(&["keys", "revoke", "ada", "--forget", "--library", &url]);
    assert!(ok, "{err}");
    assert!(
        err.contains("ada is forgotten: 2 requests, 2 tasks, 1 day of figures, 1 record of use"),
        "{err}"
    );
    assert!(!err.contains("zebra") && !err.contains(&url), "{err}");
    // Both gateways go on, grace calling each; neither writes ada back.
    for _ in 0..3 {
        for base in [&one, &two] {
            Person::new(base, &grace).list("").await;
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
    assert_eq!(postgres.psql("forget", naming_ada).unwrap().trim(), "0");
    assert_eq!(
        postgres
            .psql(
                "forget",
                "SELECT count(*) FROM access_forgotten WHERE who = 'ada'"
            )
            .unwrap()
            .trim(),
        "0",
        "the mark does not name them"
    );
    assert_eq!(
        Person::new(&one, &grace).all("").await.len(),
        2,
        "grace's stay"
    );
    drop(postgres);
}

#[tokio::test]
async fn a_submit_answered_is_in_the_library_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let key = new_key(&["--data-dir", dir.path().to_str().unwrap()], "ada");
    let service = start_maker().await;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let mut gateway_settings = settings(Some(&service));
    gateway_settings.access = AccessMode::Keys;
    gateway_settings.data_dir = Some(dir.path().to_owned());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let first = {
        let gateway_settings = gateway_settings.clone();
        tokio::spawn(async move {
            media_gen_gateway::serve(listener, &gateway_settings, async {
                let _ = stopped.await;
            })
            .await
            .unwrap();
        })
    };
    let (_, request) = Person::new(&base, &key)
        .submit(
            "image_generate",
            json!({ "prompt": "kept through a restart" }),
        )
        .await;
    // Stopped right after the answer.
    stop.send(()).unwrap();
    first.await.unwrap();
    let again = start_gateway_at(gateway_settings, |_, _| {}).await;
    let page = Person::new(&again, &key).list("").await;
    assert_eq!(page["items"][0]["request"], request.as_str());
}

#[tokio::test]
async fn the_owners_commands_read_the_library() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_str().unwrap();
    let at = ["--data-dir", path];
    let (ada_key, grace_key) = (new_key(&at, "ada"), new_key(&at, "grace"));
    let service = start_maker().await;
    let base = keyed(&service, |s| s.data_dir = Some(dir.path().to_owned())).await;
    let (ada, grace) = (Person::new(&base, &ada_key), Person::new(&base, &grace_key));
    ada.submit(
        "image_generate",
        json!({ "prompt": "a", "generate_count": 3 }),
    )
    .await;
    ada.submit(
        "image_to_video",
        json!({ "prompt": "b", "model": "V", "duration": 8, "generate_count": 2 }),
    )
    .await;
    let (_, removed) = grace
        .submit(
            "video_translate",
            json!({ "video_url": "https://x/v.mp4", "target_languages": ["fr", "de", "es"] }),
        )
        .await;
    // A removed request still counts: the service was spent.
    grace
        .call(
            reqwest::Method::DELETE,
            &format!("/library/{removed}"),
            None,
        )
        .await;

    let (out, err, ok) = command(&["usage", "--json", "--data-dir", path]);
    assert!(ok, "{err}");
    let usage: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        usage,
        json!({
            "ada": { "tasks": 5, "images": 3, "video_seconds": 16 },
            "grace": { "tasks": 3, "images": 0, "video_seconds": 0 },
        })
    );
    let (table, _, ok) = command(&["usage", "--by", "kind", "--data-dir", path]);
    assert!(ok);
    assert!(
        table.lines().any(|line| line
            .split_whitespace()
            .eq(["image_to_video", "2", "0", "16"])),
        "{table}"
    );
    assert!(
        table
            .lines()
            .last()
            .unwrap()
            .split_whitespace()
            .eq(["total", "8", "3", "16"]),
        "{table}"
    );
    let (_, err, ok) = command(&["usage", "--since", "next week", "--data-dir", path]);
    assert!(!ok && err.contains("--since"), "{err}");
    let (future, _, _) = command(&[
        "usage",
        "--json",
        "--since",
        "2999-01-01",
        "--data-dir",
        path,
    ]);
    assert_eq!(serde_json::from_str::<Value>(&future).unwrap(), json!({}));

    let (lines, err, ok) = command(&["library", "export", "ada", "--data-dir", path]);
    assert!(ok, "{err}");
    let exported: Vec<Value> = lines
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(exported.len(), 2);
    assert_eq!(exported[0]["kind"], "image_to_video", "newest first");
    assert_eq!(exported[1]["tasks"].as_array().unwrap().len(), 3);

    let (_, err, ok) = command(&["keys", "revoke", "ada", "--forget", "--data-dir", path]);
    assert!(
        ok && err.contains("ada is forgotten: 2 requests, 5 tasks"),
        "{err}"
    );
    let (lines, _, ok) = command(&["library", "export", "ada", "--data-dir", path]);
    assert!(ok && lines.is_empty(), "{lines}");
    let (out, _, _) = command(&["usage", "--json", "--data-dir", path]);
    assert!(
        serde_json::from_str::<Value>(&out)
            .unwrap()
            .get("ada")
            .is_none(),
        "{out}"
    );
}

#[tokio::test]
async fn keys_in_a_key_file_move_into_the_library_once() {
    let dir = tempfile::tempdir().unwrap();
    let keys = media_gen_gateway::access::key_file::KeyFile::new(dir.path());
    let ada = keys.add("ada", None, 0).unwrap();
    let service = start_maker().await;
    let base = keyed(&service, |s| s.data_dir = Some(dir.path().to_owned())).await;
    Person::new(&base, &ada).list("").await;
    let path = dir.path().to_str().unwrap();
    let (listed, _, _) = command(&["keys", "list", "--data-dir", path]);
    assert!(listed.contains("ada"), "{listed}");
    // Revoked in the library, it is not brought back from the old file.
    let (_, err, ok) = command(&["keys", "revoke", "ada", "--data-dir", path]);
    assert!(ok, "{err}");
    let (listed, _, _) = command(&["keys", "list", "--data-dir", path]);
    assert!(!listed.contains("ada"), "{listed}");
    assert!(keys.path().exists(), "the old file is left for the owner");
}

/// Every migration applied to a database `at` holding the previous
/// version's schema and a request: the request is still there.
async fn migrates_from_the_previous_schema(db: &dyn Database, at: &LibraryAt) {
    assert_eq!(
        db.migrate(&MIGRATIONS[..1]).await.unwrap(),
        ["0001_library.sql"]
    );
    db.run(vec![media_gen_gateway::library::database::Statement::new(
        "INSERT INTO library_requests (id, person, kind, created, name, words, body) \
         VALUES ('old', 'ada', 'image_generate', 1, NULL, 'a fox', '{\"prompt\":\"a fox\"}')",
    )])
    .await
    .unwrap();
    db.run(vec![media_gen_gateway::library::database::Statement::new(
        "INSERT INTO library_tasks (kind, task_id, request, position, status, task, updated) \
         VALUES ('image_generate', 'ig-old', 'old', 0, 'SUCCEEDED', NULL, 1)",
    )])
    .await
    .unwrap();
    // A video request of before the model was kept beside it.
    db.run(vec![
        media_gen_gateway::library::database::Statement::new(
            "INSERT INTO library_requests (id, person, kind, created, name, words, body) \
             VALUES ('old-kl', 'ada', 'image_to_video', 2, NULL, 'a harbour', \
             '{ \"model\": \"KL\", \"prompt\": \"a harbour\" }')",
        ),
        media_gen_gateway::library::database::Statement::new(
            "INSERT INTO library_tasks (kind, task_id, request, position, status, task, updated) \
             VALUES ('image_to_video', 'i2v-old', 'old-kl', 0, 'SUCCEEDED', NULL, 2)",
        ),
    ])
    .await
    .unwrap();
    let library = Library::open(at).await.unwrap();
    let by_model = library
        .list("ada", &LibraryQuery::from_pairs([("model", "KL")]).unwrap())
        .await
        .unwrap();
    assert_eq!(by_model.items.len(), 1, "read from its body at start");
    assert_eq!(
        by_model.items[0].request,
        RequestId::parse("old-kl").unwrap()
    );
    let page = library
        .list(
            "ada",
            &LibraryQuery {
                limit: 10,
                ..LibraryQuery::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(page.items[1].request, RequestId::parse("old").unwrap());
    assert!(
        library.keys().await.unwrap().is_empty(),
        "the keys' table is there"
    );
    assert!(
        db.migrate(MIGRATIONS).await.unwrap().is_empty(),
        "nothing twice"
    );
}

#[tokio::test]
async fn the_schema_migrates_from_empty_and_from_the_previous_version() {
    let dir = tempfile::tempdir().unwrap();
    let fresh = LibraryAt::Sqlite(dir.path().join("fresh.sqlite3"));
    Library::open(&fresh).await.unwrap();
    Library::open(&fresh).await.unwrap();
    let old = dir.path().join("old.sqlite3");
    let db = media_gen_gateway::library::sqlite::Sqlite::open(&old).unwrap();
    migrates_from_the_previous_schema(&db, &LibraryAt::Sqlite(old.clone())).await;

    let postgres = tokio::task::spawn_blocking(media_gen_launch::postgres::Postgres::start)
        .await
        .unwrap()
        .unwrap();
    let url = postgres.database("previous").unwrap();
    let db = media_gen_gateway::library::postgres::Postgres::open(&url).unwrap();
    migrates_from_the_previous_schema(&db, &LibraryAt::Postgres(url.clone())).await;
    // Gateways starting together apply each migration once.
    let empty = postgres.database("together").unwrap();
    let at = LibraryAt::Postgres(empty.clone());
    let opened = futures_util::future::join_all((0..4).map(|_| Library::open(&at))).await;
    assert!(opened.iter().all(Result::is_ok));
    let applied = postgres
        .psql("together", "SELECT count(*) FROM schema_migrations")
        .unwrap();
    assert_eq!(applied.trim(), MIGRATIONS.len().to_string());
    // A database newer than the gateway is refused, not written.
    postgres
        .psql(
            "together",
            "INSERT INTO schema_migrations VALUES (99, '0099_later.sql', 0)",
        )
        .unwrap();
    let newer = Library::open(&at).await.err().unwrap().to_string();
    assert!(newer.contains("version 99"), "{newer}");
}

#[tokio::test]
async fn a_removal_is_undone_within_a_minute_and_not_after() {
    let dir = tempfile::tempdir().unwrap();
    let library = Library::open(&LibraryAt::Sqlite(dir.path().join("l.sqlite3")))
        .await
        .unwrap();
    let known: media_gen_api::library::KnownTask = serde_json::from_value(json!({
        "kind": "image_generate", "task_id": "t1", "submitted_at": 5.0,
        "request": { "prompt": "p" }, "status": "PENDING",
    }))
    .unwrap();
    library.import("ada", &[known], 10).await.unwrap();
    let all = LibraryQuery {
        limit: 10,
        ..LibraryQuery::default()
    };
    let id = library.list("ada", &all).await.unwrap().items[0]
        .request
        .clone();
    let at = 1_000_000;
    let one = std::slice::from_ref(&id);
    library.remove("ada", one, at).await.unwrap();
    assert_eq!(library.restore("ada", one, at + 59_999).await.unwrap(), one);
    library.remove("ada", one, at).await.unwrap();
    assert!(library
        .restore("ada", one, at + 60_001)
        .await
        .unwrap()
        .is_empty());
    library.purge(at + 60_001).await.unwrap();
    assert!(library.list("ada", &all).await.unwrap().items.is_empty());
    assert!(library.get("ada", &id).await.unwrap().is_none());
}

/// What the library keeps of shared links, in either database: a link
/// kept, read, counted, listed, taken back by its person only, and gone
/// with the person forgotten.
async fn links_are_kept_read_and_taken_back(library: &Library) {
    let request = RequestId::parse("r-1").unwrap();
    let tasks = vec![
        SharedTask {
            task: TaskKey::new(TaskKind::ImageGenerate, "t-1"),
            request: request.clone(),
        },
        SharedTask {
            task: TaskKey::new(TaskKind::ImageGenerate, "t-2"),
            request: request.clone(),
        },
    ];
    let token = "0123456789abcdef0123456789abcdef";
    let link = NewLink {
        token,
        person: "ada",
        ends: Some(5_000),
        asked: true,
        team: false,
        tasks: &tasks,
    };
    library.add_share(&link, 1_000).await.unwrap();
    let shared = library.shared(token).await.unwrap().unwrap();
    assert_eq!(shared.tasks, tasks);
    assert!(shared.asked && !shared.team);
    assert!(shared.live_at(4_999));
    assert!(!shared.live_at(5_000), "ended");
    library.count_view(token).await.unwrap();
    library.count_view(token).await.unwrap();
    let listed = library.shares_of("ada").await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].views, 2);
    assert_eq!(listed[0].tasks, 2);
    assert_eq!(listed[0].requests, vec![request]);
    assert_eq!(listed[0].path, format!("/s/{token}"));
    assert!(library.shares_of("grace").await.unwrap().is_empty());
    // Only its person takes it back, once.
    assert!(!library
        .take_back_share("grace", token, 2_000)
        .await
        .unwrap());
    assert!(library.take_back_share("ada", token, 2_000).await.unwrap());
    assert!(!library.take_back_share("ada", token, 2_001).await.unwrap());
    let gone = library.shared(token).await.unwrap().unwrap();
    assert_eq!(gone.revoked, Some(2_000));
    assert!(!gone.live_at(1_500));
    assert_eq!(library.shares_of("ada").await.unwrap()[0].ends, Some(2_000));
    assert_eq!(
        library
            .shared("ffffffffffffffffffffffffffffffff")
            .await
            .unwrap(),
        None
    );
    // Forgotten, the person's links go with them.
    library.forget("ada", 3).await.unwrap();
    assert_eq!(library.shared(token).await.unwrap(), None);
}

/// What the library keeps to organise a person's requests, in either
/// database: stars, collections (a request in several, renamed, taken
/// out, removed), the listing's filters by them, by model, by day and by
/// kept copies, and settings saved by name; nothing of another person's.
async fn requests_are_starred_collected_and_filtered(library: &Library) {
    use media_gen_api::library::KnownTask;
    use media_gen_api::organise::Preset;
    use media_gen_gateway::library::organise::Changed;

    const DAY: f64 = 86_400_000.0;
    // Four requests of ada's over four days (2026-12-01 to 04), one of grace's.
    let known = |task: &str, day: f64, kind: &str, request: Value, kept: bool| -> KnownTask {
        serde_json::from_value(json!({
            "kind": kind, "task_id": task, "submitted_at": 1_796_083_200_000.0 + day * DAY,
            "request": request, "status": "SUCCEEDED",
            "task": { "task_type": kind, "data": {
                "task_id": task, "status": "SUCCEEDED",
                "kept": if kept { json!({ "video_url": "/kept/x/video.mp4" }) } else { Value::Null } } },
        }))
        .unwrap()
    };
    let video = |model: &str| json!({ "model": model, "prompt": "A harbour", "duration": 8 });
    library
        .import(
            "ada",
            &[
                known("v1", 0.0, "image_to_video", video("V"), true),
                known("v2", 1.0, "image_to_video", video("KL"), false),
                known(
                    "g1",
                    2.0,
                    "image_generate",
                    json!({ "prompt": "A fox" }),
                    false,
                ),
                known("v3", 3.0, "image_to_video", video("KL"), true),
            ],
            1,
        )
        .await
        .unwrap();
    library
        .import(
            "grace",
            &[known(
                "g9",
                0.0,
                "image_generate",
                json!({ "prompt": "Hers" }),
                false,
            )],
            1,
        )
        .await
        .unwrap();
    let listed = |query: &str| {
        let query =
            LibraryQuery::from_pairs(query.split('&').filter_map(|pair| pair.split_once('=')))
                .unwrap();
        async move {
            library
                .list("ada", &query)
                .await
                .unwrap()
                .items
                .into_iter()
                .map(|item| item.tasks[0].task_id.clone())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(listed("limit=10").await, ["v3", "g1", "v2", "v1"]);
    let id = |task: &str| {
        let task = task.to_owned();
        async move {
            library
                .list(
                    "ada",
                    &LibraryQuery {
                        limit: 10,
                        ..LibraryQuery::default()
                    },
                )
                .await
                .unwrap()
                .items
                .into_iter()
                .find(|item| item.tasks[0].task_id == task)
                .unwrap()
                .request
        }
    };
    let (v1, v2, g1, v3) = (
        id("v1").await,
        id("v2").await,
        id("g1").await,
        id("v3").await,
    );
    let hers = library
        .list(
            "grace",
            &LibraryQuery {
                limit: 10,
                ..LibraryQuery::default()
            },
        )
        .await
        .unwrap()
        .items[0]
        .request
        .clone();

    // Stars: only her own are changed.
    let starred = library
        .star("ada", &[v1.clone(), g1.clone(), hers.clone()], true)
        .await
        .unwrap();
    assert_eq!(starred, [v1.clone(), g1.clone()]);
    assert_eq!(listed("starred=true").await, ["g1", "v1"]);
    library
        .star("ada", std::slice::from_ref(&g1), false)
        .await
        .unwrap();
    assert_eq!(listed("starred=true").await, ["v1"]);

    // Filters by model, by day and by kept copies.
    assert_eq!(listed("model=KL").await, ["v3", "v2"]);
    assert_eq!(listed("from=2026-12-02&to=2026-12-03").await, ["g1", "v2"]);
    assert_eq!(listed("kept=true").await, ["v3", "v1"]);
    assert_eq!(listed("model=KL&kept=true").await, ["v3"]);

    // Collections: a request in several; another's request is left out.
    let Changed::Done(products) = library
        .add_collection(
            "ada",
            "Products",
            &[v1.clone(), v2.clone(), hers.clone()],
            10,
        )
        .await
        .unwrap()
    else {
        panic!("made")
    };
    assert_eq!(products.requests, 2);
    let Changed::Done(drafts) = library
        .add_collection("ada", "Drafts", &[], 11)
        .await
        .unwrap()
    else {
        panic!("made")
    };
    let added = library
        .collect("ada", &drafts.id, &[v2.clone(), v3.clone()], true, 12)
        .await
        .unwrap();
    assert_eq!(added, Changed::Done(vec![v2.clone(), v3.clone()]));
    assert_eq!(
        library
            .collect("ada", &drafts.id, std::slice::from_ref(&v2), true, 13)
            .await
            .unwrap(),
        Changed::Done(vec![]),
        "once"
    );
    assert_eq!(
        listed(&format!("collection={}", products.id)).await,
        ["v2", "v1"]
    );
    assert_eq!(
        listed(&format!("collection={}&model=KL", drafts.id)).await,
        ["v3", "v2"]
    );
    let item = library.get("ada", &v2).await.unwrap().unwrap();
    assert_eq!(item.collections, [products.id.clone(), drafts.id.clone()]);
    assert!(!item.starred);
    assert!(library.get("ada", &v1).await.unwrap().unwrap().starred);
    // Grace sees none of it, and cannot change it.
    assert!(library.collections("grace").await.unwrap().is_empty());
    assert_eq!(
        library
            .collect("grace", &drafts.id, std::slice::from_ref(&hers), true, 14)
            .await
            .unwrap(),
        Changed::Unknown
    );
    assert_eq!(
        library
            .rename_collection("grace", &drafts.id, "Mine")
            .await
            .unwrap(),
        Changed::Unknown
    );
    assert!(library
        .list(
            "grace",
            &LibraryQuery::from_pairs([("collection", drafts.id.as_str())]).unwrap()
        )
        .await
        .unwrap()
        .items
        .is_empty());
    // Renamed, taken out, counted, removed: the requests stay.
    let Changed::Done(renamed) = library
        .rename_collection("ada", &drafts.id, "Finals")
        .await
        .unwrap()
    else {
        panic!("the collection is Ada's")
    };
    assert_eq!(renamed.len(), 2, "the requests it holds: {renamed:?}");
    assert!(renamed.contains(&v2));
    library
        .collect("ada", &drafts.id, std::slice::from_ref(&v2), false, 15)
        .await
        .unwrap();
    let all = library.collections("ada").await.unwrap();
    let names: Vec<(&str, u64)> = all.iter().map(|c| (c.name.as_str(), c.requests)).collect();
    assert_eq!(names, [("Finals", 1), ("Products", 2)]);
    let Changed::Done(removed) = library
        .remove_collection("ada", &products.id)
        .await
        .unwrap()
    else {
        panic!("the collection is Ada's")
    };
    assert_eq!(removed.len(), 2, "the requests it held: {removed:?}");
    assert_eq!(listed("limit=10").await.len(), 4);
    assert!(library
        .get("ada", &v1)
        .await
        .unwrap()
        .unwrap()
        .collections
        .is_empty());

    // Settings saved by name, replaced under the same name, removed.
    let preset = Preset::from_request(TaskKind::ImageToVideo, "Harbour", &video("KL"));
    assert_eq!(
        library.save_preset("ada", &preset, 20).await.unwrap(),
        Changed::Done(())
    );
    let again = Preset::from_request(TaskKind::ImageToVideo, "Harbour", &video("S"));
    library.save_preset("ada", &again, 21).await.unwrap();
    let saved = library.presets("ada").await.unwrap();
    assert_eq!(saved.len(), 1);
    assert_eq!(saved[0].body["model"], "S");
    assert_eq!(saved[0].updated, 21);
    assert!(library.presets("grace").await.unwrap().is_empty());
    assert_eq!(
        library
            .remove_preset("grace", TaskKind::ImageToVideo, "Harbour")
            .await
            .unwrap(),
        Changed::Unknown
    );
    assert_eq!(
        library
            .remove_preset("ada", TaskKind::ImageToVideo, "Harbour")
            .await
            .unwrap(),
        Changed::Done(())
    );

    // Forgotten, her collections and settings go with her.
    library.save_preset("ada", &preset, 22).await.unwrap();
    library.forget("ada", 30).await.unwrap();
    assert!(library.collections("ada").await.unwrap().is_empty());
    assert!(library.presets("ada").await.unwrap().is_empty());
}

#[tokio::test]
async fn links_in_sqlite_are_kept_read_and_taken_back() {
    let dir = tempfile::tempdir().unwrap();
    let library = Library::open(&LibraryAt::in_dir(dir.path())).await.unwrap();
    links_are_kept_read_and_taken_back(&library).await;
}

#[tokio::test]
async fn requests_in_sqlite_are_starred_collected_and_filtered() {
    let dir = tempfile::tempdir().unwrap();
    let library = Library::open(&LibraryAt::in_dir(dir.path())).await.unwrap();
    requests_are_starred_collected_and_filtered(&library).await;
}

#[tokio::test]
async fn links_and_organising_in_postgres_hold() {
    let postgres = tokio::task::spawn_blocking(media_gen_launch::postgres::Postgres::start)
        .await
        .unwrap()
        .unwrap();
    let url = postgres.database("shares").unwrap();
    let library = Library::open(&LibraryAt::Postgres(url)).await.unwrap();
    links_are_kept_read_and_taken_back(&library).await;
    // Organising, in the same PostgreSQL (one start for both).
    let url = postgres.database("organise").unwrap();
    let library = Library::open(&LibraryAt::Postgres(url)).await.unwrap();
    requests_are_starred_collected_and_filtered(&library).await;
    drop(postgres);
}
