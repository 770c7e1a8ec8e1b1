//! A person's library as they meet it, through the gateway in `keys` mode
//! against the sandbox: a task submitted in one browser appears, with its
//! progress and its result, in a second browser profile (its own
//! cookies and storage) signed in with the same key, without a reload,
//! told on the library's stream; a fresh profile shows the whole board
//! once signed in; what the
//! first browser knew before is offered to the library once; a row's link
//! is named by what was asked; another person sees none of it; the board
//! with the library passes axe-core and fits a 360 px phone.

use media_gen_e2e::{
    dist_dir, start_sandbox, start_site_configured, test_folder, Browser, RelayGateway,
    RelayOptions,
};
use media_gen_gateway::access::key_file::KeyFile;
use media_gen_gateway::access::AccessMode;
use media_gen_gateway::kept::KeepSettings;
use media_gen_gateway::uploads::UploadSettings;
use serde_json::Value;

use crate::common::{eventually, sign_in};

/// A task this browser knew before the library: stored as the app stores
/// one, ended, so nothing reads it.
const KNOWN_BEFORE: &str = r#"localStorage.setItem('media-gen.task:image_generate:known-before-1', JSON.stringify({
    kind: 'image_generate', task_id: 'known-before-1', submitted_at: 1700000000000,
    request: { prompt: 'An old harbour at night' }, status: 'SUCCEEDED', updated_at: 1700000000000, task: null,
}))"#;

/// Records the address of every event stream the page opens, in
/// `window.streamsOpened`.
const RECORD_STREAMS: &str = "window.streamsOpened = []; const Opened = window.EventSource; \
window.EventSource = class extends Opened { constructor(url, init) { super(url, init); window.streamsOpened.push(String(url)); } };";

/// The row of the task whose link's name holds `asked`, once it shows
/// `status` (a script for `wait_until`).
fn row_shows(asked: &str, status: &str) -> String {
    format!(
        "[...document.querySelectorAll('li[data-status=\"{status}\"] a.task-row__kind')].some((a) => (a.getAttribute('aria-label') || '').includes('{asked}'))"
    )
}

/// `GET {base}/library` with `key`: the answer's status and body.
async fn library_of(base: &str, key: &str) -> (u16, Value) {
    let answer = reqwest::Client::new()
        .get(format!("{base}/library"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap();
    let status = answer.status().as_u16();
    (status, answer.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
#[ignore = "needs the release build and ChromeDriver: run through `cargo xtask test`"]
async fn a_persons_tasks_follow_them_to_another_browser() {
    let dir = test_folder("library");
    let keys = KeyFile::new(dir.path());
    let (key, other) = (
        keys.add("ada", None, 0).unwrap(),
        keys.add("grace", None, 0).unwrap(),
    );
    // Relayed: the second browser hears of the first's task on the
    // library's stream (it reads the library itself only once a minute).
    let site = RelayGateway::start(RelayOptions {
        static_dir: Some(dist_dir()),
        access: AccessMode::Keys,
        data_dir: Some(dir.path().to_owned()),
        ..RelayOptions::new(&start_sandbox(2_500).await)
    })
    .await;

    // The first browser knew a task before; signed in, it offers it once.
    let first = Browser::start().await;
    first.open(&site.base_url).await;
    first.wait_for_text("main h1", "Sign in").await;
    first.eval(KNOWN_BEFORE).await;
    sign_in(&first, &site.base_url, &key).await;
    first.watch_for_errors().await;
    first
        .wait_until(
            "the offer of the task this browser knew",
            "(document.querySelector('#library-offer') || {}).textContent?.includes('Add the 1 task this browser knows')",
        )
        .await;
    first
        .check_accessibility("the offer to add this browser's tasks")
        .await;
    first.click("#library-add").await;
    first
        .wait_until(
            "what the addition did",
            "(document.querySelector('#library-said') || {}).textContent?.includes('Added 1 task this browser knew')",
        )
        .await;

    // A second browser profile (a browser context of its own: its own
    // cookies and storage), signed in with the same key.
    let second = Browser::start().await;
    second.before_every_page(RECORD_STREAMS).await;
    sign_in(&second, &site.base_url, &key).await;
    second.watch_for_errors().await;
    second
        .wait_until(
            "the task the first browser knew",
            &row_shows("An old harbour", "SUCCEEDED"),
        )
        .await;
    assert_eq!(
        second
            .eval("document.querySelector('#library-offer') === null")
            .await,
        true,
        "a browser that knew nothing is offered nothing"
    );

    // Submitted in the first: in the second within seconds, running, then
    // with its result, without a reload, told on the library's stream.
    first
        .open_app_page(&site.base_url, "/new/image-generate", "Image generation")
        .await;
    first.watch_for_errors().await;
    first
        .type_into("#prompt", "A lighthouse seen from elsewhere")
        .await;
    first.submit_form().await;
    let loaded_at = second.eval("performance.timeOrigin").await;
    for status in ["PENDING", "GENERATING"] {
        let seen = format!(
            "{} || {}",
            row_shows("A lighthouse seen from elsewhere", status),
            row_shows("A lighthouse seen from elsewhere", "SUCCEEDED")
        );
        second
            .wait_until("the task from the other browser", &seen)
            .await;
    }
    second
        .wait_until(
            "its result",
            "[...document.querySelectorAll('li[data-status=\"SUCCEEDED\"]')].some((li) => \
             (li.querySelector('a.task-row__kind').getAttribute('aria-label') || '').includes('A lighthouse seen') \
             && li.querySelector('img.task-row__thumb') !== null)",
        )
        .await;
    assert_eq!(
        second.eval("performance.timeOrigin").await,
        loaded_at,
        "no reload"
    );
    let streams = second.eval("window.streamsOpened").await;
    assert_eq!(
        streams
            .as_array()
            .unwrap()
            .iter()
            .filter(|url| url.as_str().unwrap_or("").ends_with("/events?library=1"))
            .count(),
        1,
        "one stream of the library's news, held open: {streams}"
    );
    // A screen reader tells the rows apart by what was asked.
    let names = second
        .eval_strings("[...document.querySelectorAll('a.task-row__kind')].map((a) => a.getAttribute('aria-label'))")
        .await;
    let named = |name: &str| names.iter().any(|shown| shown == name);
    assert!(
        named("Image generation: A lighthouse seen from elsewhere")
            && named("Image generation: An old harbour at night"),
        "{names:?}"
    );
    second
        .check_accessibility("the board with the library")
        .await;
    second.resize(360, 780).await;
    assert_eq!(second.sideways_overflow().await, 0, "the board at 360 px");
    second.screenshot("phone-library-board").await;
    second.resize(1280, 800).await;

    // A fresh profile shows the whole board once signed in.
    let third = Browser::start().await;
    sign_in(&third, &site.base_url, &key).await;
    third.watch_for_errors().await;
    third
        .wait_until(
            "the whole board",
            &format!(
                "{} && {}",
                row_shows("A lighthouse seen from elsewhere", "SUCCEEDED"),
                row_shows("An old harbour", "SUCCEEDED")
            ),
        )
        .await;

    // Removed in the second browser: out of the library; Undo brings it
    // back.
    let lighthouse = second
        .eval(
            "[...document.querySelectorAll('li.task-row')].find((li) => \
             (li.querySelector('a.task-row__kind').getAttribute('aria-label') || '').includes('A lighthouse seen')).dataset.taskId",
        )
        .await;
    let lighthouse = lighthouse.as_str().unwrap().to_owned();
    let listed = || async {
        library_of(&site.base_url, &key).await.1["data"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|item| item["tasks"][0]["task_id"] == lighthouse.as_str())
    };
    assert!(listed().await);
    second
        .click(&format!(
            "li.task-row[data-task-id='{lighthouse}'] button.remove"
        ))
        .await;
    eventually("the removed task out of the library", 10, || async {
        !listed().await
    })
    .await;
    second.click("#undo-remove").await;
    eventually("the task back in the library", 10, listed).await;

    // Another person sees none of it.
    let fourth = Browser::start().await;
    sign_in(&fourth, &site.base_url, &other).await;
    fourth.watch_for_errors().await;
    fourth
        .wait_until(
            "an empty board",
            "document.querySelector('.board__empty') !== null",
        )
        .await;
    let (_, theirs) = library_of(&site.base_url, &other).await;
    assert_eq!(theirs["data"]["items"], serde_json::json!([]));

    for browser in [first, second, third, fourth] {
        browser.assert_still_working("the library").await;
        browser.close().await;
    }
}

/// `count` image requests submitted through `base` with `key` as a
/// program would, the first asking for `first`, the others for numbered
/// foxes; their library ids, oldest first.
async fn submitted(base: &str, key: &str, first: &str, count: usize) -> Vec<String> {
    let client = reqwest::Client::new();
    let mut ids = Vec::with_capacity(count);
    for n in 0..count {
        let prompt = if n == 0 {
            first.to_owned()
        } else {
            format!("A fox, number {n}")
        };
        let answer = client
            .post(format!("{base}/v1/image_generate"))
            .bearer_auth(key)
            .json(&serde_json::json!({ "prompt": prompt }))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200);
        ids.push(
            answer.headers()["media-gen-library-request"]
                .to_str()
                .unwrap()
                .to_owned(),
        );
    }
    ids
}

#[tokio::test]
#[ignore = "needs the release build and ChromeDriver: run through `cargo xtask test`"]
async fn the_board_pages_through_a_library_of_300_and_searches_all_of_it() {
    let dir = test_folder("library-300");
    let key = KeyFile::new(dir.path()).add("ada", None, 0).unwrap();
    let site = start_site_configured(dist_dir(), 200, |settings| {
        settings.access = AccessMode::Keys;
        settings.data_dir = Some(dir.path().to_owned());
    })
    .await;
    submitted(&site.base_url, &key, "A heron at first light", 300).await;

    let browser = Browser::start().await;
    sign_in(&browser, &site.base_url, &key).await;
    browser.watch_for_errors().await;
    let rows = "document.querySelectorAll('li.task-row').length";
    browser
        .wait_until("the library's first page", &format!("{rows} === 50"))
        .await;
    // Scrolled towards the foot, the next page loads by itself, once.
    browser
        .eval("document.querySelector('#library-more').scrollIntoView({ block: 'end' }) || true")
        .await;
    browser
        .wait_until("its second page", &format!("{rows} === 100"))
        .await;
    // The button loads the next for a keyboard.
    browser
        .find("#library-more")
        .await
        .send_keys("\u{E007}")
        .await
        .expect("press Enter on the button");
    // The board draws a hundred rows at first: the third page waits
    // behind "Show 50 more".
    browser
        .wait_until(
            "its third page",
            "(document.querySelector('#show-more') || {}).textContent?.includes('(50 not shown)')",
        )
        .await;
    assert_eq!(
        browser.eval(&row_shows("A heron", "SUCCEEDED")).await,
        false,
        "the oldest request is not loaded yet"
    );
    // The filter searches the whole library, not only what is loaded.
    browser.type_into("#filter-text", "heron").await;
    browser
        .wait_until(
            "the oldest request, found by a word of its prompt",
            "[...document.querySelectorAll('a.task-row__kind')].some((a) => (a.getAttribute('aria-label') || '').includes('A heron at first light'))",
        )
        .await;
    assert_eq!(browser.eval(rows).await, 1, "only what the filter matches");
    browser
        .assert_still_working("paging and searching the library")
        .await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build, ChromeDriver, nginx, Redis and PostgreSQL: run through `cargo xtask test`"]
async fn two_gateways_behind_nginx_share_one_library_in_postgres() {
    use media_gen_e2e::Redis;
    use media_gen_gateway::keys_cli::{run, KeysAction, KeysAt};
    use media_gen_gateway::library::LibraryAt;

    let redis = Redis::start().await;
    let postgres = tokio::task::spawn_blocking(media_gen_launch::postgres::Postgres::start)
        .await
        .unwrap()
        .unwrap();
    let library = postgres.database("library").unwrap();
    let sandbox = start_sandbox(300).await;
    // Their uploads and kept copies in one folder, as a deployment's
    // shared volume.
    let files = test_folder("library-postgres");
    let (nginx, site, mut one, two) = super::behind_nginx::two_gateways(|site| RelayOptions {
        static_dir: Some(dist_dir()),
        redis: Some(redis.url.clone()),
        public_url: Some(site.to_owned()),
        access: AccessMode::Keys,
        library: Some(library.clone()),
        uploads: Some(UploadSettings::new(
            files.path().to_owned(),
            site.to_owned(),
        )),
        keep: Some(KeepSettings::new(b"e2e")),
        ..RelayOptions::new(&sandbox)
    })
    .await;
    let at = KeysAt {
        library: Some(LibraryAt::Postgres(library.clone())),
        data_dir: None,
        redis: Some(redis.url.clone()),
        uploads: None,
    };
    let add = KeysAction::Add {
        name: "ada".to_owned(),
        tasks_per_day: None,
    };
    let key = run(&add, &at, 50).await.unwrap().trim().to_owned();
    // Each gateway reads the keys every second.
    for base in [&one.base_url, &two.base_url] {
        eventually("the new key taken", 10, || async {
            library_of(base, &key).await.0 == 200
        })
        .await;
    }

    // Submitted through one gateway, listed by the other.
    let made = submitted(&one.base_url, &key, "Shared by two gateways", 1).await;
    eventually("the request listed by the other gateway", 10, || async {
        library_of(&two.base_url, &key).await.1["data"]["items"][0]["request"] == made[0].as_str()
    })
    .await;
    let (_, listed) = library_of(&two.base_url, &key).await;
    assert_eq!(
        listed["data"]["items"][0]["request"],
        made[0].as_str(),
        "{listed}"
    );

    // Shared through one gateway and taken back through the other: on
    // both, the link's page and its file are gone within a second.
    use super::sharing::{attributes, share, submit, take_back, until_kept, visit};
    let (request, tasks) = submit(
        &one.base_url,
        &key,
        "image_generate",
        serde_json::json!({ "prompt": "Shared across gateways" }),
    )
    .await;
    until_kept(&two.base_url, &key, "image_generate", &tasks[0]).await;
    let (status, made) = share(
        &one.base_url,
        &key,
        serde_json::json!({ "requests": [request], "life": "day" }),
    )
    .await;
    assert_eq!(status, reqwest::StatusCode::CREATED, "{made}");
    let token = made["data"]["token"].as_str().unwrap().to_owned();
    let page = format!("{}/s/{token}", two.base_url);
    let (status, _, html) = visit(&page, None).await;
    assert_eq!(status, reqwest::StatusCode::OK, "{html}");
    let image = attributes(&html, "src")
        .into_iter()
        .find(|src| src.ends_with("image.png"))
        .map(|src| format!("{}/s/{src}", two.base_url))
        .expect("the image on the page");
    assert_eq!(visit(&image, None).await.0, reqwest::StatusCode::OK);
    assert_eq!(
        take_back(&one.base_url, &key, &token).await,
        reqwest::StatusCode::OK
    );
    eventually("the link gone on the other gateway", 1, || async {
        visit(&page, None).await.0 == reqwest::StatusCode::GONE
            && visit(&image, None).await.0 == reqwest::StatusCode::GONE
    })
    .await;

    // Through nginx, with the first gateway stopped: the board shows it.
    one.stop().await;
    let browser = Browser::start().await;
    sign_in(&browser, &site, &key).await;
    browser.watch_for_errors().await;
    browser
        .wait_until(
            "the task made through the other gateway",
            "[...document.querySelectorAll('a.task-row__kind')].some((a) => (a.getAttribute('aria-label') || '').includes('Shared by two gateways'))",
        )
        .await;
    browser
        .assert_still_working("a library shared by two gateways")
        .await;
    browser.close().await;
    drop((two, nginx, redis, postgres));
}
