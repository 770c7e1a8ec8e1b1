//! Actions that say what they did, in the release build in real headless
//! Chromium: a re-run names the task it made and links to it, a double
//! click makes one task, a removal offers Undo and leaves the list where
//! the pointer is.

use media_gen_e2e::{start_site, Browser, STORED_TASKS};

/// Submit an image for each of `prompts`, one submit each (one row each),
/// and wait until the board shows them ended.
async fn images_on_the_board(browser: &Browser, base_url: &str, prompts: &[&str]) {
    for prompt in prompts {
        browser
            .open_app_page(base_url, "/new/image-generate", "Image generation")
            .await;
        browser.type_into("#prompt", prompt).await;
        browser.type_into("#count", "1").await;
        browser.submit_form().await;
    }
    browser
        .wait_until(
            "every task ended",
            &format!(
                "document.querySelectorAll(\"li.task-row[data-status='SUCCEEDED']\").length === {}",
                prompts.len()
            ),
        )
        .await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_rerun_links_to_the_task_it_made_and_a_double_click_makes_one() {
    let site = start_site().await;
    let browser = Browser::start().await;
    images_on_the_board(&browser, &site.base_url, &["A red kite"]).await;
    browser.watch_for_errors().await;
    // One task, said as one; ended, so no progress bar.
    browser
        .wait_for_text("#board-counts", "1 task, 0 in progress")
        .await;
    assert_eq!(
        browser
            .eval("document.querySelectorAll('li.task-row progress').length")
            .await,
        serde_json::json!(0)
    );
    browser.click("li.task-row a.open").await;
    let rerun = browser.find("button.rerun").await;
    let before = browser
        .eval(STORED_TASKS)
        .await
        .as_i64()
        .unwrap_or_default();
    // Two clicks as fast as WebDriver sends them: a double click.
    rerun.click().await.expect("click");
    let _ = rerun.click().await;
    let link = browser.find(".rerun-made a.notice-link").await;
    assert_eq!(link.text().await.expect("its text"), "open the new task");
    let said = browser
        .eval("document.querySelector('.rerun-made').textContent")
        .await;
    assert!(
        said.as_str()
            .unwrap_or_default()
            .starts_with("Submitted Image generation again as 1 new task"),
        "{said}"
    );
    // Said to screen readers too.
    browser
        .wait_until(
            "the announcement",
            "document.getElementById('announcer').textContent.startsWith('Submitted Image generation again')",
        )
        .await;
    let after = browser
        .eval(STORED_TASKS)
        .await
        .as_i64()
        .unwrap_or_default();
    assert_eq!(after, before + 1, "one click, one task");

    // The link opens the new task's page, at its address.
    let href = link
        .attr("href")
        .await
        .expect("read href")
        .expect("an href");
    link.click().await.expect("follow the link");
    browser.wait_for_address(&href).await;
    let new_id = href.rsplit('/').next().unwrap_or_default().to_owned();
    browser.wait_for_text("#task-id", &new_id).await;

    // On the board the notice links to it too, until the task is removed.
    browser.click("nav[aria-label=Main] a[href='/']").await;
    browser.find("#board-notice a.notice-link").await;
    browser
        .click(&format!("li.task-row[data-task-id='{new_id}'] .remove"))
        .await;
    browser
        .wait_until(
            "the notice to go with its task",
            "document.getElementById('board-notice') === null",
        )
        .await;
    browser.assert_still_working("a re-run and a removal").await;
    browser.close().await;
}

/// The id and the top edge (CSS px) of each row of the board.
async fn rows(browser: &Browser) -> Vec<(String, f64)> {
    let rows = browser
        .eval("[...document.querySelectorAll('li.task-row')].map((row) => [row.dataset.taskId, row.getBoundingClientRect().top])")
        .await;
    serde_json::from_value(rows).expect("ids and positions")
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_removal_offers_undo_and_the_list_stays_under_the_pointer() {
    let site = start_site().await;
    let browser = Browser::start().await;
    images_on_the_board(
        &browser,
        &site.base_url,
        &["A red kite", "A blue kite", "A green kite"],
    )
    .await;
    browser.watch_for_errors().await;
    let before = rows(&browser).await;
    let removed = before[1].0.clone();
    browser.click("li.task-row:nth-child(2) .remove").await;
    browser.find("#undo-toast").await;
    assert_eq!(
        browser.eval(STORED_TASKS).await,
        serde_json::json!(2),
        "out of storage at once"
    );
    // The pointer is still over the list: the removed row's place stays,
    // so the row below is where it was.
    let during = rows(&browser).await;
    assert_eq!(during.len(), 3, "{during:?}");
    assert_eq!(during[1].0, removed);
    assert_eq!(during[2].0, before[2].0);
    assert!(
        (during[2].1 - before[2].1).abs() < 0.5,
        "the next row did not move: {during:?}, was {before:?}"
    );
    browser.find("li.task-row--gone .undo-row").await;

    // Undo, in the toast: the task is back, stored and in its place.
    browser.click("#undo-remove").await;
    browser
        .wait_until(
            "the toast to go",
            "document.getElementById('undo-toast') === null",
        )
        .await;
    assert_eq!(browser.eval(STORED_TASKS).await, serde_json::json!(3));
    browser
        .wait_until(
            "the row back",
            &format!("document.querySelector(\"li.task-row:nth-child(2):not(.task-row--gone)\")?.dataset.taskId === '{removed}'"),
        )
        .await;

    // Removed for good: once the pointer has left the list, the row goes,
    // and after the toast's few seconds, Undo with it.
    browser.click("li.task-row:nth-child(2) .remove").await;
    browser.click("header .brand").await;
    browser
        .wait_until(
            "the row to go",
            &format!("![...document.querySelectorAll('li.task-row')].some((row) => row.dataset.taskId === '{removed}')"),
        )
        .await;
    browser
        .wait_until(
            "the toast to go by itself",
            "document.getElementById('undo-toast') === null",
        )
        .await;
    assert_eq!(browser.eval(STORED_TASKS).await, serde_json::json!(2));
    browser.assert_still_working("removals and an undo").await;
    browser.close().await;
}
