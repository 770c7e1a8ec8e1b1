//! The callback relay over real HTTP: the sandbox calls the gateway back,
//! the gateway confirms with one status read and announces the task on the
//! stream that names the submission's capability.
use std::time::Duration;

use crate::common::{call_back_succeeded, heard_not_read, status_reads, submit_images};

use media_gen_e2e::{
    callback_url_of, dist_dir, npm_scratch_dir, start_gateway, start_relay_gateway,
    start_relay_site, start_sandbox, Browser, Redis, Site,
};
use serde_json::{json, Value};

/// One event of a stream: its id, its name (the task's kind) and the task
/// it carries.
#[derive(Debug, Clone)]
struct TaskEvent {
    /// `major-minor`: an announcement's number (or Redis stream id).
    id: String,
    kind: String,
    task: Value,
}

/// An open `GET /events` stream, read as its text arrives.
struct Stream {
    response: reqwest::Response,
    text: String,
}

impl Stream {
    async fn open(base: &str, relays: &str, last_event_id: Option<&str>) -> Stream {
        let mut request = reqwest::Client::new().get(format!("{base}/events?relays={relays}"));
        if let Some(id) = last_event_id {
            request = request.header("Last-Event-ID", id);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(
            response.headers()["content-type"],
            "text/event-stream",
            "an event stream"
        );
        Stream {
            response,
            text: String::new(),
        }
    }

    /// Read until `done` holds for the text so far, or `within` passes.
    async fn read_until(&mut self, within: Duration, done: impl Fn(&str) -> bool) {
        let deadline = tokio::time::Instant::now() + within;
        while !done(&self.text) {
            let chunk = tokio::time::timeout_at(deadline, self.response.chunk())
                .await
                .unwrap_or_else(|_| {
                    panic!("nothing more within {within:?}; so far:\n{}", self.text)
                })
                .unwrap()
                .expect("the stream stays open");
            self.text.push_str(&String::from_utf8_lossy(&chunk));
        }
    }

    /// The `task` events read so far.
    fn tasks(&self) -> Vec<TaskEvent> {
        task_events(&self.text)
    }
}

/// The events that carry a task in an event stream's text (comments,
/// the heartbeats, left out).
fn task_events(text: &str) -> Vec<TaskEvent> {
    text.split("\n\n")
        .filter(|block| block.lines().any(|line| line.starts_with("event: ")))
        .map(|block| {
            let field = |name: &str| {
                block
                    .lines()
                    .find_map(|line| line.strip_prefix(name))
                    .unwrap_or_default()
                    .to_owned()
            };
            TaskEvent {
                id: field("id: "),
                kind: field("event: "),
                task: serde_json::from_str(&field("data: ")).unwrap(),
            }
        })
        .collect()
}

/// Submit two images through the gateway; the answer's ids and relay capability.
async fn submit_two_images(
    base: &str,
    callback_url: Option<&str>,
) -> (Vec<String>, Option<String>) {
    submit_images(base, 2, callback_url).await
}

/// Where the service calls task `id` (an image) back, from the sandbox: a
/// relaying gateway's address with the submission's callback secret, which
/// no page sees, on `base` (another gateway of the same deployment).
async fn callback_address(sandbox_url: &str, base: &str, id: &str) -> String {
    let url = callback_url_of(sandbox_url, "image_generate", id)
        .await
        .expect("a relayed task has the gateway's callback address");
    let secret = url.rsplit('/').next().unwrap();
    assert!(secret.len() == 32, "{url}");
    format!("{base}/callbacks/{secret}")
}

#[tokio::test]
#[ignore = "part of the end-to-end suite: run through `cargo xtask test`"]
async fn completions_reach_the_stream_once_each_confirmed_by_one_read() {
    let site = start_relay_site(None, 300, Duration::from_secs(15)).await;
    let capabilities: Value = reqwest::get(format!("{}/capabilities", site.base_url))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(capabilities["data"]["relay"]["events"], "/events");

    let (ids, relay) = submit_two_images(&site.base_url, None).await;
    let relay = relay.expect("a relayed submit names its capability");
    assert!(
        relay.len() == 32 && relay.bytes().all(|b| b.is_ascii_hexdigit()),
        "{relay}"
    );
    let mut stream = Stream::open(&site.base_url, &relay, None).await;
    stream
        .read_until(Duration::from_secs(10), |text| task_events(text).len() == 2)
        .await;
    let mut announced: Vec<String> = stream
        .tasks()
        .iter()
        .map(|event| {
            assert_eq!(event.kind, "image_generate");
            assert_eq!(event.task["status"], "SUCCEEDED");
            event.task["task_id"].as_str().unwrap().to_owned()
        })
        .collect();
    announced.sort();
    let mut expected = ids.clone();
    expected.sort();
    assert_eq!(announced, expected);
    assert_eq!(
        status_reads(&site.sandbox_url).await,
        2,
        "one confirming read per task, no polling"
    );

    // The secret is used up: a repeated callback finds nothing. The
    // listening capability never was a callback address.
    let address = callback_address(&site.sandbox_url, &site.base_url, &ids[0]).await;
    assert_ne!(address, format!("{}/callbacks/{relay}", site.base_url));
    assert_eq!(call_back_succeeded(&address, &ids[0]).await, 404);

    // A stream that comes back with Last-Event-ID 0 gets both again; with
    // the first's id, only the second.
    let first = stream.tasks()[0].id.clone();
    let mut replay = Stream::open(&site.base_url, &relay, Some("0")).await;
    replay
        .read_until(Duration::from_secs(5), |text| task_events(text).len() == 2)
        .await;
    let mut rest = Stream::open(&site.base_url, &relay, Some(&first)).await;
    rest.read_until(Duration::from_secs(5), |text| task_events(text).len() == 1)
        .await;
    assert_ne!(rest.tasks()[0].id, first);
}

#[tokio::test]
#[ignore = "part of the end-to-end suite: run through `cargo xtask test`"]
async fn callbacks_that_do_not_fit_are_refused_and_a_given_callback_url_is_kept() {
    let site = start_relay_site(None, 2_000, Duration::from_millis(200)).await;
    let client = reqwest::Client::new();
    let unknown = client
        .post(format!("{}/callbacks/{}", site.base_url, "0".repeat(32)))
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), 404);

    let (ids, relay) = submit_two_images(&site.base_url, None).await;
    let relay = relay.unwrap();
    // Called as the service calls: at the address with the secret.
    let address = callback_address(&site.sandbox_url, &site.base_url, &ids[0]).await;
    let callback = |body: Value| client.post(&address).json(&body).send();
    let not_a_callback = callback(json!({ "hello": "world" })).await.unwrap();
    assert_eq!(not_a_callback.status(), 400);
    let envelope: Value = not_a_callback.json().await.unwrap();
    assert!(
        envelope["msg"]
            .as_str()
            .unwrap()
            .starts_with("callback body:"),
        "{envelope}"
    );
    let other_kind = callback(
        json!({ "code": 0, "msg": "ok", "task_type": "video_translate",
        "data": { "task_id": ids[0], "status": "SUCCEEDED" } }),
    )
    .await
    .unwrap();
    assert_eq!(other_kind.status(), 400);
    let too_large = client
        .post(&address)
        .body(vec![b' '; 65 * 1024])
        .send()
        .await
        .unwrap();
    assert_eq!(too_large.status(), 413);
    // A forged "succeeded" before the task has ended: the confirming read
    // says otherwise, nothing is announced, and the service is asked to try
    // again later.
    let forged = callback(json!({ "code": 0, "msg": "ok", "task_type": "image_generate",
        "data": { "task_id": ids[0], "status": "SUCCEEDED", "image_url": "https://evil.example/x.png" } }))
    .await
    .unwrap();
    assert_eq!(forged.status(), 503);
    assert!(forged.headers().contains_key("retry-after"));
    let mut stream = Stream::open(&site.base_url, &relay, Some("0")).await;
    // Idle, the stream still gets heartbeats; the real completions follow.
    stream
        .read_until(Duration::from_secs(2), |text| text.contains(":\n"))
        .await;
    // The forged one's task is read again only after the confirming
    // interval: the service's callback, told to wait, comes back then.
    stream
        .read_until(Duration::from_secs(20), |text| task_events(text).len() == 2)
        .await;
    for event in stream.tasks() {
        assert_ne!(
            event.task["data"]["image_url"],
            "https://evil.example/x.png"
        );
    }

    // The user's own callback_url goes to the service unchanged: no relay.
    let (_, relay) = submit_two_images(&site.base_url, Some("http://127.0.0.1:9/mine")).await;
    assert_eq!(relay, None);
    let bad = client
        .get(format!("{}/events?relays=nope", site.base_url))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn the_app_hears_of_relayed_tasks_and_reads_none() {
    // Tasks of about four seconds leave time to reload in the middle.
    let site = start_relay_site(Some(dist_dir()), 4_000, Duration::from_secs(15)).await;
    let browser = Browser::start().await;
    browser
        .open_app_page(&site.base_url, "/new/image-generate", "Image generation")
        .await;
    browser.type_into("#prompt", "A lighthouse at dawn").await;
    browser.type_into("#count", "2").await;
    browser.submit_form().await;
    let live_rows = "document.querySelectorAll('li.task-row .task-row__live').length === 2";
    browser.wait_until("both rows live", live_rows).await;
    // The request's row says it too, and the board says what Live means.
    browser.find("li.task-group .task-row__live").await;
    browser
        .wait_for_text(
            "#live-legend",
            "Live This site tells the page when such a task ends, so it is not polled.",
        )
        .await;
    browser.screenshot("board-live").await;
    // The mark is read out and fits a phone.
    browser
        .check_accessibility("the board with live tasks")
        .await;
    browser
        .client
        .set_window_size(360, 780)
        .await
        .expect("resize to a phone");
    browser
        .wait_until(
            "a phone's width",
            "document.documentElement.clientWidth <= 360",
        )
        .await;
    assert_eq!(
        browser.sideways_overflow().await,
        0,
        "the live board fits a phone"
    );
    browser.screenshot("board-live-phone").await;
    assert_eq!(
        status_reads(&site.sandbox_url).await,
        0,
        "no read while they run"
    );
    // A reload in the middle: the page listens again, and reads nothing.
    browser.reload().await;
    browser.wait_for_text("main h1", "Tasks").await;
    browser.wait_until("both rows live again", live_rows).await;
    assert_eq!(
        status_reads(&site.sandbox_url).await,
        0,
        "no read as the page leaves or comes back"
    );
    browser
        .wait_until(
            "both tasks ended",
            "document.querySelectorAll(\"li.task-row[data-status='SUCCEEDED']\").length === 2",
        )
        .await;
    assert_eq!(
        browser
            .eval("document.querySelectorAll('.task-row__live').length")
            .await,
        0,
        "ended tasks are no longer live"
    );
    heard_not_read(&browser, &site.sandbox_url, 2).await;
    browser.close().await;
}

/// The widgets page of a relaying site (tasks of 1.5 s), its submit widget
/// sent once as a person would; then `follow` runs, with the submitted
/// event's `{ kind, taskIds, relay }` in scope, and its value is returned.
async fn submit_with_the_widget_then(follow: &str) -> (Site, Browser, Value) {
    let site = start_relay_site(Some(npm_scratch_dir()), 1_500, Duration::from_secs(15)).await;
    let browser = Browser::start().await;
    browser.open(&format!("{}/index.html", site.base_url)).await;
    browser
        .wait_until("the widgets page", "window.ready === true")
        .await;
    let result = browser
        .run_async(&format!(
            "const form = widgets.mountSubmitWidget('#submit-a', {{ kind: 'image_generate',
               baseUrl: location.origin, initial: {{ prompt: 'relayed', image_quality: '1K' }} }});
             await form.ready;
             const submitted = new Promise((resolve) => document.addEventListener(
               widgets.EVENT_SUBMITTED, (event) => resolve(event.detail), {{ once: true }}));
             form.submit();
             const {{ kind, taskIds, relay }} = await submitted;
             {follow}"
        ))
        .await;
    (site, browser, result)
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn the_status_widget_hears_of_relayed_tasks_and_reads_none() {
    let (site, browser, result) = submit_with_the_widget_then(
        "const completed = new Promise((resolve) => document.addEventListener(
           widgets.EVENT_COMPLETE, (event) => resolve(event.detail), { once: true }));
         widgets.mountStatusWidget('#status', { kind, taskIds, relay, baseUrl: location.origin });
         const complete = await completed;
         return { relay, status: complete.status };",
    )
    .await;
    let relay = result["relay"].as_str().unwrap_or_default();
    assert!(
        relay.len() == 32,
        "the submitted event names the capability: {result}"
    );
    assert_eq!(result["status"], "SUCCEEDED", "{result}");
    heard_not_read(&browser, &site.sandbox_url, 1).await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn the_task_element_given_a_relay_attribute_reads_none() {
    // As the package's README shows it: the submitted event's details set
    // on a new <media-gen-task> as properties.
    let (site, browser, result) = submit_with_the_widget_then(
        "const completed = new Promise((resolve) => document.addEventListener(
           widgets.EVENT_COMPLETE, (event) => resolve(event.detail), { once: true }));
         const task = document.createElement('media-gen-task');
         Object.assign(task, { kind, taskIds, relay, baseUrl: location.origin });
         document.querySelector('#status').replaceChildren(task);
         const complete = await completed;
         return { attribute: task.getAttribute('relay'), relay, status: complete.status };",
    )
    .await;
    let relay = result["relay"].as_str().unwrap_or_default();
    assert_eq!(relay.len(), 32, "a relayed submit: {result}");
    assert_eq!(result["attribute"], relay, "the property is reflected");
    assert_eq!(result["status"], "SUCCEEDED", "{result}");
    heard_not_read(&browser, &site.sandbox_url, 1).await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn the_client_entry_hears_of_the_tasks_it_submitted_and_reads_none() {
    let site = start_relay_site(Some(npm_scratch_dir()), 1_500, Duration::from_secs(15)).await;
    let browser = Browser::start().await;
    browser
        .open(&format!("{}/client.html", site.base_url))
        .await;
    browser
        .wait_until("the client entry", "window.ready === true")
        .await;
    // No relay named: the client remembers the one its submit got.
    let result = browser
        .run_async(
            "const media = client.createClient({ baseUrl: location.origin });
             const { taskIds } = await media.submitImageGenerate(
               { prompt: 'relayed', image_quality: '1K', generate_count: 2 });
             const ends = await Promise.all(taskIds.map((id) => new Promise((resolve) =>
               media.watch('image_generate', id, (update) => { if (update.done) resolve(update); }))));
             return ends.map((update) => update.task?.status ?? update.error?.message);",
        )
        .await;
    assert_eq!(result, json!(["SUCCEEDED", "SUCCEEDED"]));
    heard_not_read(&browser, &site.sandbox_url, 2).await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the packed npm package and ChromeDriver: run through `cargo xtask test`"]
async fn the_client_watches_a_widgets_submit_through_its_relay() {
    // Submitted by the widget, watched by a client that did not submit it:
    // the event's relay, given to `watch`.
    let (site, browser, result) = submit_with_the_widget_then(
        "const media = widgets.createClient({ baseUrl: location.origin });
         const end = await new Promise((resolve) => media.watch(kind, taskIds[0],
           (update) => { if (update.done) resolve(update); }, { relay }));
         let refused = null;
         try { media.watch(kind, taskIds[0], () => {}, { relay: 7 }); }
         catch (error) { refused = { kind: error.kind, field: error.field }; }
         let misshapen = null;
         try { media.watch(kind, taskIds[0], () => {}, { relay: 'not-a-relay' }); }
         catch (error) { misshapen = error.field; }
         return { status: end.task?.status ?? end.error?.message, refused, misshapen };",
    )
    .await;
    assert_eq!(result["status"], "SUCCEEDED", "{result}");
    assert_eq!(
        result["refused"],
        json!({ "kind": "options", "field": "relay" }),
        "a relay that is not a string is refused, naming it"
    );
    assert_eq!(
        result["misshapen"], "relay",
        "a string that is no relay is refused too"
    );
    heard_not_read(&browser, &site.sandbox_url, 1).await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs redis-server: run through `cargo xtask test`"]
async fn gateways_sharing_redis_announce_each_task_once_to_streams_on_any_of_them() {
    let redis = Redis::start().await;
    let sandbox = start_sandbox(300).await;
    let heartbeat = Duration::from_secs(15);
    let a = start_relay_gateway(&sandbox, None, Some(&redis.url), heartbeat).await;
    let b = start_relay_gateway(&sandbox, None, Some(&redis.url), heartbeat).await;

    // Submitted through A, called back at A, heard on B.
    let (ids, relay) = submit_two_images(&a, None).await;
    let relay = relay.expect("a relayed submit");
    let mut on_b = Stream::open(&b, &relay, None).await;
    on_b.read_until(Duration::from_secs(10), |text| task_events(text).len() == 2)
        .await;
    let mut heard: Vec<String> = on_b
        .tasks()
        .iter()
        .map(|event| event.task["task_id"].as_str().unwrap().to_owned())
        .collect();
    heard.sort();
    let mut expected = ids.clone();
    expected.sort();
    assert_eq!(heard, expected, "each task once, on the other gateway");
    assert_eq!(
        status_reads(&sandbox).await,
        2,
        "one confirming read per task"
    );

    // The secret is used up on both gateways.
    for gateway in [&a, &b] {
        let address = callback_address(&sandbox, gateway, &ids[0]).await;
        assert_eq!(call_back_succeeded(&address, &ids[0]).await, 404);
    }

    // A stream that moves to A resumes after the last event B gave it.
    let first = on_b.tasks()[0].id.clone();
    let mut on_a = Stream::open(&a, &relay, Some(&first)).await;
    on_a.read_until(Duration::from_secs(5), |text| task_events(text).len() == 1)
        .await;
    assert_eq!(
        on_a.tasks()[0].id,
        on_b.tasks()[1].id,
        "the same event ids everywhere"
    );
}

#[tokio::test]
#[ignore = "needs redis-server: run through `cargo xtask test`"]
async fn gateways_sharing_redis_give_a_visitor_one_budget_between_them() {
    let redis = Redis::start().await;
    let sandbox = start_sandbox(300).await;
    let budget = |settings: &mut media_gen_gateway::Settings| {
        settings.requests_per_minute = std::num::NonZeroU32::new(4).unwrap();
        settings.tasks_per_hour = std::num::NonZeroU32::new(3).unwrap();
        settings.redis = Some(redis.url.clone());
    };
    let a = start_gateway(&sandbox, None, budget).await;
    let b = start_gateway(&sandbox, None, budget).await;
    let client = reqwest::Client::new();
    let languages = |gateway: &str| {
        client
            .get(format!("{gateway}/v1/video_translate/target_languages"))
            .send()
    };
    let submit = |gateway: &str, count: u32| {
        client
            .post(format!("{gateway}/v1/image_generate"))
            .json(&json!({ "prompt": "budget", "image_quality": "1K", "generate_count": count }))
            .send()
    };
    // Tasks: two made at B leave one for the same visitor at A.
    assert_eq!(submit(&b, 2).await.unwrap().status(), 200);
    assert_eq!(submit(&a, 2).await.unwrap().status(), 429, "2 + 2 > 3");
    assert_eq!(submit(&a, 1).await.unwrap().status(), 200);
    // Requests: those were three of the four, at both gateways; one more
    // passes, then either gateway refuses.
    assert_eq!(languages(&b).await.unwrap().status(), 200);
    let refused = languages(&a).await.unwrap();
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    assert_eq!(languages(&b).await.unwrap().status(), 429);
}

#[tokio::test]
#[ignore = "part of the end-to-end suite: run through `cargo xtask test`"]
async fn a_relayed_event_names_the_results_the_gateway_kept() {
    let sandbox_url = media_gen_e2e::start_sandbox(300).await;
    let folder = media_gen_e2e::test_folder("relay-kept");
    let uploads =
        media_gen_gateway::uploads::UploadSettings::new(folder.path().to_owned(), String::new());
    let gateway = media_gen_e2e::RelayGateway::start(media_gen_e2e::RelayOptions {
        uploads: Some(uploads),
        keep: Some(media_gen_gateway::kept::KeepSettings::new(b"relay")),
        ..media_gen_e2e::RelayOptions::new(&sandbox_url)
    })
    .await;
    let base = gateway.base_url.clone();
    let (ids, relay) = submit_two_images(&base, None).await;
    let mut stream = Stream::open(&base, &relay.unwrap(), None).await;
    stream
        .read_until(Duration::from_secs(20), |text| task_events(text).len() == 2)
        .await;
    for event in stream.tasks() {
        let id = event.task["task_id"].as_str().unwrap();
        assert!(ids.iter().any(|known| known == id), "{id}");
        // The confirming read kept its image before announcing it.
        let copy = event.task["kept"]["image_url"].as_str().unwrap_or_default();
        assert!(copy.starts_with(&format!("{base}/kept/")), "{}", event.task);
        let answer = reqwest::get(copy).await.unwrap();
        assert_eq!(answer.status(), 200);
        assert_eq!(answer.headers()["content-type"], "image/png");
    }
    assert_eq!(
        status_reads(&sandbox_url).await,
        2,
        "the confirming reads only: keeping costs no read of the service"
    );
}
