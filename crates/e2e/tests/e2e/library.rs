//! A person's library as they meet it, through the gateway in `keys` mode
//! against the sandbox: a task submitted in one browser appears, with its
//! progress and its result, in a second browser profile (its own
//! cookies and storage) signed in with the same key, without a reload; a fresh profile shows the whole board once signed in; what the
//! first browser knew before is offered to the library once; a row's link
//! is named by what was asked; another person sees none of it; the board
//! with the library passes axe-core and fits a 360 px phone.

use media_gen_e2e::{dist_dir, start_site_configured, test_folder, Browser};
use media_gen_gateway::access::key_file::KeyFile;
use media_gen_gateway::access::AccessMode;
use serde_json::Value;

/// Open the site in `browser` and sign in with `key`: the board.
async fn sign_in(browser: &Browser, base_url: &str, key: &str) {
    browser.open(base_url).await;
    browser.wait_for_text("main h1", "Sign in").await;
    browser
        .type_into("#access-key", &format!("{key}\u{E007}"))
        .await;
    browser.wait_for_text("main h1", "Tasks").await;
}

/// A task this browser knew before the library: stored as the app stores
/// one, ended, so nothing reads it.
const KNOWN_BEFORE: &str = r#"localStorage.setItem('media-gen.task:image_generate:known-before-1', JSON.stringify({
    kind: 'image_generate', task_id: 'known-before-1', submitted_at: 1700000000000,
    request: { prompt: 'An old harbour at night' }, status: 'SUCCEEDED', updated_at: 1700000000000, task: null,
}))"#;

/// The row of the task whose link's name holds `asked`, once it shows
/// `status` (a script for `wait_until`).
fn row_shows(asked: &str, status: &str) -> String {
    format!(
        "[...document.querySelectorAll('li[data-status=\"{status}\"] a.task-row__kind')].some((a) => (a.getAttribute('aria-label') || '').includes('{asked}'))"
    )
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
    let site = start_site_configured(dist_dir(), 2_500, |settings| {
        settings.access = AccessMode::Keys;
        settings.data_dir = Some(dir.path().to_owned());
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
    // with its result, without a reload.
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
    // A screen reader tells the rows apart by what was asked.
    let names = second
        .eval("[...document.querySelectorAll('a.task-row__kind')].map((a) => a.getAttribute('aria-label'))")
        .await;
    let names: Vec<&str> = names
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        names.contains(&"Image generation: A lighthouse seen from elsewhere")
            && names.contains(&"Image generation: An old harbour at night"),
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
    let listed = |key: String| {
        let url = format!("{}/library", site.base_url);
        let lighthouse = lighthouse.clone();
        async move {
            let page: Value = reqwest::Client::new()
                .get(url)
                .bearer_auth(key)
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            page["data"]["items"]
                .as_array()
                .unwrap()
                .iter()
                .any(|item| item["tasks"][0]["task_id"] == lighthouse.as_str())
        }
    };
    assert!(listed(key.clone()).await);
    second
        .click(&format!(
            "li.task-row[data-task-id='{lighthouse}'] button.remove"
        ))
        .await;
    let until = |want: bool| {
        let listed = &listed;
        let key = key.clone();
        async move {
            for _ in 0..100 {
                if listed(key.clone()).await == want {
                    return;
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            panic!(
                "the library still {} the removed task",
                if want { "lacks" } else { "lists" }
            );
        }
    };
    until(false).await;
    second.click("#undo-remove").await;
    until(true).await;

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
    let theirs: Value = reqwest::Client::new()
        .get(format!("{}/library", site.base_url))
        .bearer_auth(&other)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(theirs["data"]["items"], serde_json::json!([]));

    for browser in [first, second, third, fourth] {
        browser.assert_still_working("the library").await;
        browser.close().await;
    }
}
