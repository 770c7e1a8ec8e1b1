//! Many jobs at once, as a person makes them: a CSV of twelve rows with
//! three bad cells, each shown in its cell and mended there, sent as one
//! batch that lands in a collection of its own; a list larger than what is
//! left of the day refused before anything is sent; a batch stopped
//! half-way that sends nothing more.

use media_gen_e2e::{
    dist_dir, inject_faults, start_gateway_at, start_sandbox, test_folder, Browser,
};
use media_gen_gateway::access::key_file::KeyFile;
use media_gen_gateway::access::AccessMode;
use serde_json::json;

use crate::common::eventually;
use crate::sharing::read_as;

/// The sandbox's count of tasks made.
async fn tasks_made(sandbox: &str) -> u64 {
    crate::common::sandbox_stats(sandbox).await["tasks_created"]
        .as_u64()
        .unwrap()
}

/// A row's cell: the input of `column` (1 is the first field) on table
/// row `row` (1 is the first).
fn cell(row: usize, column: usize) -> String {
    format!("#batch-table tbody tr:nth-child({row}) td:nth-of-type({column}) input")
}

#[tokio::test]
#[ignore = "needs the release build and ChromeDriver: run through `cargo xtask test`"]
async fn a_csv_is_mended_in_its_table_sent_as_one_batch_and_what_the_day_cannot_cover_is_refused() {
    let sandbox = start_sandbox(300).await;
    let dir = test_folder("batch");
    let data = dir.path().join("data");
    let ada = KeyFile::new(&data).add("ada", Some(20), 0).unwrap();
    let uploads = dir.path().join("uploads");
    let base = start_gateway_at(&sandbox, Some(dist_dir()), |settings, base| {
        settings.access = AccessMode::Keys;
        settings.data_dir = Some(data.clone());
        settings.uploads = Some(media_gen_gateway::uploads::UploadSettings::new(
            uploads.clone(),
            base.to_owned(),
        ));
    })
    .await;

    let browser = Browser::start().await;
    crate::common::sign_in(&browser, &base, &ada).await;
    browser
        .open(&format!("{base}/batch?kind=image-generate"))
        .await;
    browser.wait_for_text("h1", "Many jobs at once").await;
    browser.watch_for_errors().await;

    // Twelve rows, three bad cells: a count in words, a ratio the service
    // does not make, a count over the most.
    let mut csv = String::from("prompt,generate_count,image_ratio\n");
    for n in 1..=12 {
        let (count, ratio) = match n {
            4 => ("two", "1:1"),
            7 => ("1", "2:7"),
            10 => ("9", "1:1"),
            _ => ("1", "1:1"),
        };
        csv.push_str(&format!("\"A fox, number {n}\",{count},{ratio}\n"));
    }
    let file = dir.path().join("foxes.csv");
    std::fs::write(&file, csv).unwrap();
    browser
        .find("#batch-file")
        .await
        .send_keys(file.to_str().unwrap())
        .await
        .unwrap();
    browser
        .wait_until(
            "twelve rows read",
            "document.querySelectorAll('#batch-table tbody tr').length === 12",
        )
        .await;
    let invalid = browser
        .eval("[...document.querySelectorAll('#batch-table input[aria-invalid=\"true\"]')].map((i) => i.getAttribute('aria-label'))")
        .await;
    assert_eq!(
        invalid,
        json!([
            "generate_count, line 5",
            "image_ratio, line 8",
            "generate_count, line 11"
        ]),
        "the bad cells, each named by its field and its line"
    );
    browser
        .wait_for_text("#batch-submit", "Mend 3 rows to submit")
        .await;
    let said = browser
        .eval(
            "document.querySelector('#batch-table tbody tr:nth-child(4) td:last-child').innerText",
        )
        .await;
    assert!(
        said.as_str()
            .unwrap()
            .contains("generate_count: a whole number, not `two`"),
        "{said}"
    );
    browser
        .check_accessibility("a batch with three bad cells")
        .await;
    browser.screenshot("batch").await;

    // Mended where they are; Tab moves on as in any table of inputs.
    for (row, column, value) in [(4, 2, "2"), (7, 3, "16:9"), (10, 2, "4")] {
        let input = cell(row, column);
        browser.find(&input).await.clear().await.unwrap();
        browser.type_into(&input, &format!("{value}\u{E004}")).await;
    }
    let focused = browser
        .eval("document.activeElement.getAttribute('aria-label')")
        .await;
    assert_eq!(
        focused, "image_ratio, line 11",
        "Tab went on to the next cell"
    );
    browser
        .wait_for_text("#batch-submit", "Submit 12 jobs")
        .await;
    browser
        .wait_for_text("#batch-cost", "Creates 16 tasks · 4 of your 20 left today")
        .await;

    let before = tasks_made(&sandbox).await;
    browser.click("#batch-submit").await;
    browser
        .wait_until(
            "the batch sent",
            "document.querySelector('#batch-progress').textContent.startsWith('Sent 12 of 12. Done')",
        )
        .await;
    let progress = browser
        .eval("document.querySelector('#batch-progress').textContent")
        .await;
    assert!(
        progress
            .as_str()
            .unwrap()
            .contains("In the collection “Batch of 12,"),
        "{progress}"
    );
    assert_eq!(tasks_made(&sandbox).await - before, 16);
    // One collection of its own, holding the twelve requests.
    let collections = read_as(&format!("{base}/library/collections"), &ada).await;
    assert_eq!(
        collections["data"].as_array().unwrap().len(),
        1,
        "{collections}"
    );
    assert_eq!(collections["data"][0]["requests"], 12, "{collections}");

    // What is left of the day cannot cover five more: refused before any
    // request, the sandbox's count unchanged.
    browser
        .assert_still_working("a batch mended and sent")
        .await;
    browser.open(&format!("{base}/batch")).await;
    browser.wait_for_text("h1", "Many jobs at once").await;
    browser.watch_for_errors().await;
    browser
        .wait_until(
            "the day's allowance read",
            "document.querySelector('#batch-text') !== null",
        )
        .await;
    browser
        .type_into("#batch-text", "An owl\nA heron\nA crane\nA swan\nA gull")
        .await;
    browser
        .wait_until(
            "the day's budget says no",
            "(document.querySelector('#batch-refused')?.textContent ?? '').startsWith('This creates 5 tasks, and 4 of your 20 tasks are left today')",
        )
        .await;
    let disabled = browser
        .eval("document.querySelector('#batch-submit').disabled")
        .await;
    assert_eq!(disabled, true);
    let made = tasks_made(&sandbox).await;
    browser.click("#batch-submit").await;
    assert_eq!(tasks_made(&sandbox).await, made, "nothing sent");

    // Three fit; sent slowly and stopped after the first: nothing more.
    inject_faults(&sandbox, &json!({ "latency_ms": 1500 })).await;
    browser
        .eval("(() => { const text = document.querySelector('#batch-text'); text.value = 'An owl\\nA heron\\nA crane'; text.dispatchEvent(new Event('input')); })()")
        .await;
    browser
        .wait_for_text("#batch-submit", "Submit 3 jobs")
        .await;
    browser.click("#batch-submit").await;
    browser.click("#batch-stop").await;
    browser
        .wait_until(
            "the batch stopped",
            "document.querySelector('#batch-progress').textContent.startsWith('Sent 1 of 3. Stopped: 2 of 3 rows not sent.')",
        )
        .await;
    let sent_then = tasks_made(&sandbox).await;
    let said = browser
        .eval("document.querySelector('#batch-progress').textContent")
        .await;
    assert_eq!(sent_then - made, 1, "the row in flight ended: {said}");
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    eventually("nothing more sent", 1, || async {
        tasks_made(&sandbox).await == sent_then
    })
    .await;
    inject_faults(&sandbox, &json!({})).await;

    // A CSV naming a file by its name, chosen with it: the file is
    // uploaded once and its address put in the row, which is then ready.
    let png = reqwest::get(format!("{sandbox}/sandbox/media/image/1K/16x9.png"))
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let (csv, fox) = (dir.path().join("refs.csv"), dir.path().join("fox.png"));
    std::fs::write(&fox, &png).unwrap();
    std::fs::write(
        &csv,
        "prompt,reference_images\n\"The fox, drawn again\",fox.png\n",
    )
    .unwrap();
    browser
        .open(&format!("{base}/batch?kind=image-generate"))
        .await;
    browser.wait_for_text("h1", "Many jobs at once").await;
    browser.watch_for_errors().await;
    browser
        .find("#batch-file")
        .await
        .send_keys(&format!("{}\n{}", csv.display(), fox.display()))
        .await
        .unwrap();
    browser
        .wait_for_text(
            "#batch-files",
            "1 file uploaded and put in the rows that name it.",
        )
        .await;
    browser.wait_for_text("#batch-submit", "Submit 1 job").await;
    // The text edited after the upload: the batch is read again, and the
    // row keeps the file's address.
    browser
        .run_async("const text = document.querySelector('#batch-text'); text.value = text.value.replace('drawn again', 'drawn once more'); text.dispatchEvent(new Event('input'));")
        .await;
    browser
        .wait_until(
            "the edited row read",
            "document.querySelector('#batch-text').value.includes('drawn once more')",
        )
        .await;
    browser.wait_for_text("#batch-submit", "Submit 1 job").await;
    browser.click("#batch-submit").await;
    browser
        .wait_until(
            "the row sent",
            "document.querySelector('#batch-progress').textContent.startsWith('Sent 1 of 1')",
        )
        .await;
    // Sent with the file's address on the site, which serves it whole.
    let listed = read_as(&format!("{base}/library?limit=1"), &ada).await;
    let item = &listed["data"]["items"][0];
    assert_eq!(item["body"]["prompt"], "The fox, drawn once more", "{item}");
    let address = item["body"]["reference_images"][0]
        .as_str()
        .unwrap_or_default();
    assert!(
        address.starts_with(&format!("{base}/uploads/")),
        "the file's address on the site: {item}"
    );
    let kept = reqwest::get(address).await.unwrap().bytes().await.unwrap();
    assert_eq!(kept, png, "the file as chosen");
    browser.assert_still_working("making a batch").await;
}
