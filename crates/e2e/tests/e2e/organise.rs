//! Organising the board, as a person does it: through a relaying gateway
//! in `keys` mode that keeps each person's library and results, four
//! requests on the board. With the keyboard only, a row is starred and a
//! range chosen with Shift; the range goes into a new collection, is
//! saved as one zip (its entries read back), shared as one link, removed
//! and brought back with Undo. A second browser signed in with the same
//! key shows the star and the collection within the library's live
//! news, without a reload; the collection has its own address, which a
//! reload keeps. axe-core and a 360 px phone on the open tools. Where no
//! library is kept, the same stars and collections live in the browser.

use fantoccini::key::Key;
use media_gen_e2e::{
    dist_dir, start_sandbox, start_site, test_folder, Browser, RelayGateway, RelayOptions,
};
use media_gen_gateway::access::key_file::KeyFile;
use media_gen_gateway::access::AccessMode;
use media_gen_gateway::kept::KeepSettings;
use media_gen_gateway::uploads::UploadSettings;
use serde_json::{json, Value};

use crate::common::sign_in;
use crate::sharing::{submit, until_kept};

/// The row (its `li`) whose link's name holds `prompt`, as a script.
fn row(prompt: &str) -> String {
    format!(
        "[...document.querySelectorAll('.task-list > li')].find((li) => \
         (li.querySelector('a.task-row__kind')?.getAttribute('aria-label') || '').includes('{prompt}'))"
    )
}

/// The first task id of the row of `prompt`.
async fn row_id(browser: &Browser, prompt: &str) -> String {
    let id = browser
        .eval(&format!("{}.dataset.taskId", row(prompt)))
        .await;
    id.as_str().unwrap_or_default().to_owned()
}

/// Press `keys` on the element matching `css`, as the keyboard does.
async fn press(browser: &Browser, css: &str, keys: &str) {
    browser
        .find(css)
        .await
        .send_keys(keys)
        .await
        .unwrap_or_else(|error| panic!("keys on `{css}`: {error}"));
}

/// The prompts of the rows shown, top to bottom.
async fn shown(browser: &Browser) -> Vec<String> {
    let names = browser
        .eval("[...document.querySelectorAll('.task-list > li a.task-row__kind')].map((a) => a.getAttribute('aria-label'))")
        .await;
    names
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

const PROMPTS: [&str; 4] = [
    "Harbour at dawn",
    "Fox in the snow",
    "Lighthouse in a storm",
    "Orchard in bloom",
];

#[tokio::test]
#[ignore = "needs the release build and ChromeDriver: run through `cargo xtask test`"]
async fn stars_and_collections_follow_a_person_and_a_chosen_range_is_zipped_and_shared() {
    let dir = test_folder("organise");
    let data = dir.path().join("data");
    let key = KeyFile::new(&data).add("ada", None, 0).unwrap();
    let sandbox = start_sandbox(300).await;
    let site = RelayGateway::start(RelayOptions {
        static_dir: Some(dist_dir()),
        access: AccessMode::Keys,
        data_dir: Some(data.clone()),
        uploads: Some(UploadSettings::new(
            dir.path().join("uploads"),
            "http://127.0.0.1/".to_owned(),
        )),
        keep: Some(KeepSettings::new(b"e2e")),
        ..RelayOptions::new(&sandbox)
    })
    .await;
    let base = site.base_url.clone();
    // Oldest first: the board shows the last on top.
    for prompt in PROMPTS {
        let (_, tasks) = submit(
            &base,
            &key,
            "image_generate",
            json!({ "prompt": prompt, "generate_count": 1 }),
        )
        .await;
        until_kept(&base, &key, "image_generate", &tasks[0]).await;
    }

    let first = Browser::start().await;
    sign_in(&first, &base, &key).await;
    first.watch_for_errors().await;
    first
        .wait_until(
            "the four requests",
            &format!("{} && {}", row(PROMPTS[0]), row(PROMPTS[3])),
        )
        .await;
    assert_eq!(shown(&first).await.len(), 4);
    let second = Browser::start().await;
    sign_in(&second, &base, &key).await;
    second.watch_for_errors().await;
    second
        .wait_until("the four requests", &row(PROMPTS[0]))
        .await;
    let loaded_at = second.eval("performance.timeOrigin").await;

    // Keyboard only: Space on a row's star stars it, named for the row.
    let orchard = row_id(&first, "Orchard").await;
    let star = format!("li[data-task-id='{orchard}'] button.star");
    assert_eq!(
        first
            .eval(&format!(
                "document.querySelector(\"{star}\").getAttribute('aria-label')"
            ))
            .await,
        "Star Image generation: Orchard in bloom"
    );
    press(&first, &star, " ").await;
    first
        .wait_until(
            "the star pressed",
            &format!("document.querySelector(\"{star}\").getAttribute('aria-pressed') === 'true'"),
        )
        .await;
    assert_eq!(
        first
            .eval("document.activeElement.classList.contains('star')")
            .await,
        true,
        "the star keeps the keyboard's focus"
    );

    // Another device: the star within the library's news, no reload.
    second
        .wait_until(
            "the star from the other browser",
            &format!(
                "{}.querySelector('button.star').getAttribute('aria-pressed') === 'true'",
                row("Orchard")
            ),
        )
        .await;

    // A range, by the keyboard: Space on the top row's box, then Shift+Space
    // on the third: three chosen, the tools fetched with the first.
    let top = shown(&first).await;
    let fox = row_id(&first, "Fox").await;
    press(
        &first,
        &format!("li[data-task-id='{orchard}'] input.row-pick"),
        " ",
    )
    .await;
    first
        .wait_until(
            "the chosen requests' tools",
            "document.querySelector('#chosen-actions') !== null",
        )
        .await;
    press(
        &first,
        &format!("li[data-task-id='{fox}'] input.row-pick"),
        &format!("{} ", &*Key::Shift),
    )
    .await;
    first
        .wait_until(
            "three chosen",
            "document.querySelector('#chosen-count').textContent === '3 requests chosen'",
        )
        .await;
    let chosen = first
        .eval("[...document.querySelectorAll('input.row-pick')].map((box) => box.checked)")
        .await;
    assert_eq!(
        chosen,
        json!([true, true, true, false]),
        "the top three of {top:?}"
    );
    assert!(top[2].contains("Fox"), "{top:?}");

    // Into a new collection, named and made with Enter.
    press(&first, "#chosen-new-collection", "Client review\u{E007}").await;
    first
        .wait_until(
            "the collection offered",
            "[...document.querySelectorAll('#chosen-collection option')].some((o) => o.textContent === 'Client review')",
        )
        .await;
    // Made with its requests in one call: nothing is added to it after
    // (the other device below shows it holds the three).
    let calls = first
        .eval_strings(
            "performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)\
             .filter((path) => path.startsWith('/library/collections'))",
        )
        .await;
    assert!(
        calls.iter().any(|path| path == "/library/collections"),
        "the page's calls are seen: {calls:?}"
    );
    assert!(
        !calls.iter().any(|path| path.ends_with("/add")),
        "no second call fills the new collection: {calls:?}"
    );

    // Saved as one zip: an image of each and what was asked.
    let (name, zip) =
        crate::common::saved_file(&first, "#chosen-actions .download-all__button").await;
    assert_eq!(name, "media-gen-chosen.zip");
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap();
    let names: Vec<String> = archive.file_names().map(str::to_owned).collect();
    assert_eq!(names.len(), 4, "three images and request.json: {names:?}");
    let manifest: Value = {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut archive.by_name("request.json").unwrap(), &mut text)
            .unwrap();
        serde_json::from_str(&text).unwrap()
    };
    let mut asked: Vec<&str> = manifest["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|task| task["request"]["prompt"].as_str())
        .collect();
    asked.sort_unstable();
    assert_eq!(
        asked,
        [
            "Fox in the snow",
            "Lighthouse in a storm",
            "Orchard in bloom"
        ]
    );

    // Shared as one link: its page shows the three, and no other.
    first.click("#share-create").await;
    first
        .wait_until(
            "the link",
            "document.querySelector('#share-links .share-link__address') !== null",
        )
        .await;
    let link = first
        .eval("document.querySelector('#share-links .share-link__address').value")
        .await;
    let page = reqwest::get(link.as_str().unwrap())
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(
        page.matches("<figure>").count(),
        3,
        "the three chosen, no other: {page}"
    );

    // The tools open, as a phone shows them, pass axe-core.
    first.click("#organise-open").await;
    first.find("#filter-collection").await;
    first
        .check_accessibility("the board's organising tools")
        .await;
    first.resize(360, 780).await;
    assert_eq!(first.sideways_overflow().await, 0, "the tools at 360 px");
    first.screenshot("board-organised").await;
    first.resize(1280, 800).await;

    // Removed together, back together with Undo.
    first.click("#chosen-remove").await;
    first
        .wait_until(
            "one Undo for the three",
            "(document.querySelector('#undo-toast') || {}).textContent?.includes('Removed 3 tasks.')",
        )
        .await;
    assert_eq!(shown(&first).await.len(), 1);
    first.click("#undo-remove").await;
    first
        .wait_until(
            "the three back",
            "document.querySelectorAll('.task-list > li').length === 4",
        )
        .await;

    // The other device: the collection, by its own address, kept by a
    // reload, named in its heading.
    second.click("#organise-open").await;
    second
        .wait_until(
            "the collection offered",
            "[...document.querySelectorAll('#filter-collection option')].some((o) => o.textContent === 'Client review')",
        )
        .await;
    let collection = second
        .eval("[...document.querySelectorAll('#filter-collection option')].find((o) => o.textContent === 'Client review').value")
        .await;
    let collection = collection.as_str().unwrap().to_owned();
    second.choose("#filter-collection", &collection).await;
    second
        .wait_until(
            "the collection's address",
            &format!("location.search.includes('collection={collection}')"),
        )
        .await;
    second
        .wait_for_text("#collection-title", "Collection: Client review")
        .await;
    second
        .wait_until(
            "its three requests",
            "document.querySelectorAll('.task-list > li').length === 3",
        )
        .await;
    assert_eq!(
        second.eval("performance.timeOrigin").await,
        loaded_at,
        "no reload before"
    );
    second.reload().await;
    second.watch_for_errors().await;
    second
        .wait_for_text("#collection-title", "Collection: Client review")
        .await;
    second
        .wait_until(
            "still its three",
            "document.querySelectorAll('.task-list > li').length === 3",
        )
        .await;
    // The counts line counts the collection's tasks, out of the board's.
    let counts = second
        .eval("document.getElementById('board-counts').textContent")
        .await;
    let counts = counts.as_str().unwrap_or_default();
    let (matched, rest) = counts
        .split_once(" of ")
        .unwrap_or_else(|| panic!("the collection's tasks out of all: {counts}"));
    let total = rest.split(' ').next().unwrap_or_default();
    assert!(
        matched.parse::<usize>().unwrap() < total.parse::<usize>().unwrap(),
        "fewer in the collection than on the board: {counts}"
    );
    let mut names = shown(&second).await;
    names.sort();
    assert!(
        names.iter().all(|name| !name.contains("Harbour")),
        "{names:?}"
    );
    // One row chosen, then every row shown.
    second.click("input.row-pick").await;
    second.click("#choose-all").await;
    second
        .wait_for_text("#chosen-count", "3 requests chosen")
        .await;
    second.resize(1280, 1200).await;
    second.screenshot("board-collection").await;
    second.resize(1280, 800).await;

    // Renamed on the first device: the second, showing it, says its new
    // name with no reload.
    let reloaded_at = second.eval("performance.timeOrigin").await;
    first.choose("#filter-collection", &collection).await;
    first
        .wait_for_text("#collection-title", "Collection: Client review")
        .await;
    first.click("#collection-rename").await;
    first
        .type_into("#collection-name", "Client final\u{E007}")
        .await;
    first
        .wait_for_text("#collection-title", "Collection: Client final")
        .await;
    second
        .wait_for_text("#collection-title", "Collection: Client final")
        .await;
    assert_eq!(
        second.eval("performance.timeOrigin").await,
        reloaded_at,
        "the new name came with no reload"
    );
    // Removed on the first device: the second says so, with the way back
    // to every task.
    first.click("#collection-remove").await;
    second
        .wait_for_text("#collection-title", "This collection was removed")
        .await;
    second.click("#collection-leave").await;
    second
        .wait_until(
            "the collection out of the address",
            "!location.search.includes('collection=')",
        )
        .await;

    // Starred only: the one.
    second.click("#filter-starred").await;
    second
        .wait_until(
            "the starred one",
            "document.querySelectorAll('.task-list > li').length === 1",
        )
        .await;
    assert!(second.address().await.contains("starred=1"));

    // Settings saved by name on one device, used on the other: every
    // field but the media.
    first
        .open_app_page(&base, "/new/image-generate", "Image generation")
        .await;
    first.watch_for_errors().await;
    first
        .type_into("#prompt", "Studio portrait, soft light")
        .await;
    first.type_into("#count", "3").await;
    first.choose("#ratio", "1:1").await;
    first
        .type_into("#preset-name", "Square studio\u{E007}")
        .await;
    first
        .wait_for_text("#preset-said", "Saved as “Square studio”.")
        .await;
    second
        .open_app_page(&base, "/new/image-generate", "Image generation")
        .await;
    second.watch_for_errors().await;
    second.find("#preset-choice").await;
    second.choose("#preset-choice", "Square studio").await;
    second.click("#preset-use").await;
    second
        .wait_until(
            "the form filled in with them",
            "document.querySelector('#prompt').value === 'Studio portrait, soft light' \
             && document.querySelector('#count').value === '3' \
             && document.querySelector('#ratio').value === '1:1'",
        )
        .await;
    second
        .check_accessibility("a form with saved settings")
        .await;

    // "Use these settings" on a task's page: a new form with them.
    first
        .open_app_page(
            &base,
            &format!("/tasks/image_generate/{orchard}"),
            "Image generation",
        )
        .await;
    first.watch_for_errors().await;
    first.click("#use-settings").await;
    first
        .wait_until(
            "the form with the task's settings",
            "location.pathname.endsWith('/new/image-generate') && location.search.startsWith('?settings=') \
             && document.querySelector('#prompt')?.value === 'Orchard in bloom'",
        )
        .await;
    first
        .wait_until(
            "said where they come from",
            &format!("(document.querySelector('#filled-from') || {{}}).textContent === 'The settings of task {orchard}: choose the media and submit.'"),
        )
        .await;

    for browser in [first, second] {
        browser.assert_still_working("organising the board").await;
        browser.close().await;
    }
}

#[tokio::test]
#[ignore = "needs the release build and ChromeDriver: run through `cargo xtask test`"]
async fn where_no_library_is_kept_stars_and_collections_live_in_the_browser() {
    let site = start_site().await;
    let browser = Browser::start().await;
    for prompt in ["A red kite", "A blue heron"] {
        browser
            .open_app_page(&site.base_url, "/new/image-generate", "Image generation")
            .await;
        browser.type_into("#prompt", prompt).await;
        browser.type_into("#count", "1").await;
        if prompt == "A blue heron" {
            // Saved settings, in this browser.
            browser.type_into("#preset-name", "Herons\u{E007}").await;
            browser
                .wait_for_text("#preset-said", "Saved as “Herons”.")
                .await;
            browser
                .wait_until(
                    "where they are kept, said",
                    "document.querySelector('.saved-settings form').textContent.includes('Kept in this browser only.')",
                )
                .await;
        }
        browser.submit_form().await;
    }
    browser.watch_for_errors().await;
    browser
        .wait_until(
            "both rows",
            &format!("{} && {}", row("red kite"), row("blue heron")),
        )
        .await;
    let kite = row_id(&browser, "red kite").await;
    browser
        .click(&format!("li[data-task-id='{kite}'] button.star"))
        .await;
    browser
        .click(&format!("li[data-task-id='{kite}'] input.row-pick"))
        .await;
    browser
        .type_into("#chosen-new-collection", "Birds\u{E007}")
        .await;
    browser
        .wait_until(
            "the collection offered",
            "[...document.querySelectorAll('#chosen-collection option')].some((o) => o.textContent === 'Birds')",
        )
        .await;
    browser.click("#organise-open").await;
    browser
        .wait_until(
            "where they are kept, said",
            "(document.querySelector('#organise-where') || {}).textContent?.includes('kept in this browser only')",
        )
        .await;
    browser.reload().await;
    browser.wait_for_text("main h1", "Tasks").await;
    browser.watch_for_errors().await;
    browser
        .wait_until(
            "the star kept",
            &format!("document.querySelector(\"li[data-task-id='{kite}'] button.star\")?.getAttribute('aria-pressed') === 'true'"),
        )
        .await;
    browser.click("#organise-open").await;
    browser
        .wait_until(
            "the collection kept",
            "[...document.querySelectorAll('#filter-collection option')].some((o) => o.textContent === 'Birds')",
        )
        .await;
    let birds = browser
        .eval("[...document.querySelectorAll('#filter-collection option')].find((o) => o.textContent === 'Birds')?.value")
        .await;
    browser
        .choose("#filter-collection", birds.as_str().unwrap())
        .await;
    browser
        .wait_for_text("#collection-title", "Collection: Birds")
        .await;
    browser
        .wait_until(
            "only the kite",
            "document.querySelectorAll('.task-list > li').length === 1",
        )
        .await;
    assert_eq!(row_id(&browser, "red kite").await, kite);
    // The saved settings too, after the reload.
    browser.click("header a[href$='/new/image-generate']").await;
    browser.wait_for_text("main h1", "Image generation").await;
    browser
        .wait_until(
            "the settings kept",
            "[...document.querySelectorAll('#preset-choice option')].some((o) => o.value === 'Herons')",
        )
        .await;
    browser
        .assert_still_working("stars and collections in the browser")
        .await;
    browser.close().await;
}
