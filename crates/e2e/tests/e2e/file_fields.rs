//! A file from the person's computer in the app's media fields, as they
//! give one: picked with "Choose file", dropped on the field, pasted into
//! it. Each shows from the local copy at once, uploads with a visible bar
//! (on a slow line) while Submit waits, and leaves the upload's address in
//! the field; the task made from it succeeds, and the sandbox, fetching
//! inputs as the service does, received exactly the picked bytes. A page
//! named `.png` and an image over 20 MB are refused before a byte is sent,
//! naming the field and the rule.

use std::path::Path;

use fantoccini::Locator;
use media_gen_e2e::{
    dist_dir, start_fetching_sandbox, start_gateway_at, test_folder, Browser, RelayGateway,
    RelayOptions,
};
use media_gen_gateway::uploads::UploadSettings;
use serde_json::Value;

use crate::common::{fetched_hash, sha256, slow_line, MAKE_FILE, RECORD_PATCHES};

/// A noisy 640×360 PNG (noise does not compress: about 700 KB), written
/// to `path`; its bytes.
pub(crate) fn write_png(path: &Path, seed: u32) -> Vec<u8> {
    write_noise_png(path, seed, 640, 360)
}

/// A noisy `width`×`height` PNG written to `path` (about 3 bytes a pixel);
/// its bytes.
fn write_noise_png(path: &Path, seed: u32, width: u32, height: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, width, height);
        encoder.set_color(png::ColorType::Rgb);
        let mut writer = encoder.write_header().unwrap();
        let mut state = seed.wrapping_mul(2_654_435_761).max(1);
        let pixels: Vec<u8> = (0..width * height * 3)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (state >> 24) as u8
            })
            .collect();
        writer.write_image_data(&pixels).unwrap();
    }
    std::fs::write(path, &bytes).unwrap();
    bytes
}

/// The app through a gateway that takes uploads, before a sandbox that
/// fetches inputs: the site's and the sandbox's base URLs.
async fn site(uploads: &Path) -> (String, String) {
    site_keeping(uploads, std::time::Duration::from_secs(24 * 3_600)).await
}

/// [`site`] keeping uploads `ttl`.
async fn site_keeping(uploads: &Path, ttl: std::time::Duration) -> (String, String) {
    let sandbox = start_fetching_sandbox(400).await;
    let uploads = uploads.to_owned();
    let site = start_gateway_at(&sandbox, Some(dist_dir()), move |settings, base| {
        let mut kept = UploadSettings::new(uploads, base.to_owned());
        kept.ttl = ttl;
        settings.uploads = Some(kept);
    })
    .await;
    (site, sandbox)
}

/// Wait until the field `id` holds an upload's address on `site`; that address.
async fn holds_an_upload(browser: &Browser, id: &str, site: &str) -> String {
    browser
        .wait_until(
            &format!("#{id} to hold the upload's address"),
            &format!("document.querySelector('#{id}').value.startsWith('{site}/uploads/')"),
        )
        .await;
    browser
        .eval(&format!("document.querySelector('#{id}').value"))
        .await
        .as_str()
        .unwrap()
        .to_owned()
}

/// Pick `paths` (several: one a line) in the file input `input`, as
/// "Choose file" lets a person do.
pub(crate) async fn choose(browser: &Browser, input: &str, paths: &str) {
    browser
        .client
        .find(Locator::Css(input))
        .await
        .unwrap()
        .send_keys(paths)
        .await
        .unwrap();
}

/// Wait until the start frame's upload is a third of the way.
async fn a_third_sent(browser: &Browser) {
    browser
        .wait_until(
            "a third sent",
            "Number(document.querySelector('#image_url-uploads progress')?.value ?? 0) > 33",
        )
        .await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_file_picked_dropped_or_pasted_uploads_with_a_bar_and_becomes_the_inputs_address() {
    let uploads = test_folder("app-uploads");
    let (site, sandbox) = site(uploads.path()).await;
    let browser = Browser::start().await;
    browser
        .open_app_page(&site, "/new/image-to-video", "Image to video")
        .await;
    browser.watch_for_errors().await;
    browser.click("#model-S").await;

    // Picked with "Choose file", on a slow line: the local preview at
    // once, a bar that moves, Submit waiting for it.
    let picked = test_folder("picked");
    let file = picked.path().join("lighthouse.png");
    let picked = write_png(&file, 7);
    slow_line(&browser, true).await;
    browser
        .type_into("#prompt", "A lighthouse, from my own photo")
        .await;
    browser.find("#image_url-choose").await;
    choose(&browser, "#image_url-file", &file.to_string_lossy()).await;
    browser.find("#image_url-uploads .upload__preview").await;
    browser
        .wait_until(
            "the bar part way",
            "(() => { const bar = document.querySelector('#image_url-uploads progress'); \
               return bar && Number(bar.value) > 0 && Number(bar.value) < 100; })()",
        )
        .await;
    let line = browser
        .eval("document.querySelector('#image_url-uploads .upload__progress').textContent")
        .await;
    let size = format!(" of {} KB", (picked.len() + 500) / 1_000);
    assert!(
        line.as_str().unwrap().contains('%') && line.as_str().unwrap().contains(&size),
        "{line}"
    );
    let button = browser
        .eval("document.querySelector('#submit').textContent")
        .await;
    assert_eq!(button, "Generate video (waiting for 1 upload)");
    assert_eq!(
        browser
            .eval("document.querySelector('#submit').disabled")
            .await,
        true
    );
    assert_eq!(
        browser
            .eval("document.querySelector('#submit-state').textContent")
            .await,
        "Ready once the file is in",
        "a field waiting for its file is no problem to fix"
    );
    browser
        .check_accessibility("a form with an upload under way")
        .await;
    browser
        .eval("document.querySelector('#image_url').scrollIntoView({ block: 'start' })")
        .await;
    browser.screenshot("upload-under-way").await;
    browser.resize(360, 780).await;
    assert_eq!(
        browser.sideways_overflow().await,
        0,
        "the upload fits a phone"
    );
    browser
        .eval("document.querySelector('#image_url-uploads').scrollIntoView({ block: 'center' })")
        .await;
    browser.screenshot("phone-upload-under-way").await;
    browser.resize(1280, 800).await;
    slow_line(&browser, false).await;
    let url = holds_an_upload(&browser, "image_url", &site).await;
    browser.submit_and_wait("SUCCEEDED").await;
    assert_eq!(
        fetched_hash(&sandbox, &url).await,
        Some(sha256(&picked)),
        "the service got the picked bytes"
    );

    // Dropped on the start frame's field; pasted into the reference images.
    browser
        .open_app_page(&site, "/new/image-to-video", "Image to video")
        .await;
    browser.watch_for_errors().await;
    browser.click("#model-S").await;
    let hash = browser
        .run_async(&MAKE_FILE.replace("NAME", "dropped.png"))
        .await;
    browser
        .run_async(
            "const data = new DataTransfer(); data.items.add(window.__file);
             document.querySelector('#image_url').closest('.file-target')
               .dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));",
        )
        .await;
    let url = holds_an_upload(&browser, "image_url", &site).await;
    let served = reqwest::get(&url).await.unwrap().bytes().await.unwrap();
    assert_eq!(Value::from(sha256(&served)), hash, "dropped");

    browser
        .open_app_page(&site, "/new/image-generate", "Image generation")
        .await;
    browser.watch_for_errors().await;
    browser
        .type_into("#references", "https://example.com/first.png")
        .await;
    let hash = browser
        .run_async(&MAKE_FILE.replace("NAME", "pasted.png"))
        .await;
    browser
        .run_async(
            "const data = new DataTransfer(); data.items.add(window.__file);
             const field = document.querySelector('#references'); field.focus();
             field.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));",
        )
        .await;
    browser
        .wait_until(
            "the pasted file's address on a line of its own",
            &format!(
                "document.querySelector('#references').value.split('\\n')[1]?.startsWith('{site}/uploads/')"
            ),
        )
        .await;
    let lines = browser
        .eval("document.querySelector('#references').value")
        .await;
    let lines: Vec<&str> = lines.as_str().unwrap().lines().collect();
    assert_eq!(
        lines[0], "https://example.com/first.png",
        "what was typed is kept"
    );
    let served = reqwest::get(lines[1]).await.unwrap().bytes().await.unwrap();
    assert_eq!(Value::from(sha256(&served)), hash, "pasted");
    browser
        .assert_still_working("files picked, dropped and pasted")
        .await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_page_named_png_and_an_image_over_20_mb_are_refused_before_a_byte_is_sent() {
    let uploads = test_folder("app-refusals");
    let (site, _) = site(uploads.path()).await;
    let browser = Browser::start().await;
    browser
        .open_app_page(&site, "/new/image-generate", "Image generation")
        .await;
    browser.watch_for_errors().await;
    let files = test_folder("refused");
    let page = files.path().join("cat.png");
    std::fs::write(&page, "<!DOCTYPE html><script>alert(1)</script>").unwrap();
    let huge = files.path().join("huge.png");
    std::fs::write(&huge, crate::common::png(21_000_000)).unwrap();
    choose(
        &browser,
        "#reference_images-file",
        &format!("{}\n{}", page.display(), huge.display()),
    )
    .await;
    browser
        .wait_until(
            "both refusals named",
            "document.querySelectorAll('#reference_images-file-problems .problem').length === 2",
        )
        .await;
    let said = browser
        .eval("document.querySelector('#reference_images-file-problems').textContent")
        .await;
    let said = said.as_str().unwrap();
    assert!(
        said.contains("reference_images: cat.png: not an image (JPEG, PNG, BMP, WebP, GIF)"),
        "{said}"
    );
    assert!(
        said.contains("reference_images: huge.png: image files may have at most 20971520 bytes"),
        "{said}"
    );
    let uploads_made = browser
        .eval(
            "performance.getEntriesByType('resource')
               .filter((e) => new URL(e.name).pathname.startsWith('/uploads')).length",
        )
        .await;
    assert_eq!(uploads_made, 0, "nothing was sent");
    browser.assert_still_working("refused files").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn an_upload_cut_by_a_reload_goes_on_from_where_the_gateway_stands() {
    let uploads = test_folder("app-reload");
    let (site, _) = site(uploads.path()).await;
    let browser = Browser::start().await;
    browser.before_every_page(RECORD_PATCHES).await;
    browser
        .open_app_page(&site, "/new/image-to-video", "Image to video")
        .await;
    browser.click("#model-S").await;
    let reloaded = test_folder("reloaded");
    let file = reloaded.path().join("harbour.png");
    let picked = write_png(&file, 11);
    slow_line(&browser, true).await;
    choose(&browser, "#image_url-file", &file.to_string_lossy()).await;
    a_third_sent(&browser).await;
    let first: Vec<Value> = serde_json::from_value(browser.eval("window.__patches").await).unwrap();
    let upload = first[0]["url"].as_str().unwrap().to_owned();

    // Reloaded mid-upload: the file was kept in the browser, and the
    // upload goes on from where the gateway stands, not from the start.
    browser.reload().await;
    browser.wait_for_text("main h1", "Image to video").await;
    browser.watch_for_errors().await;
    browser.find("#image_url-uploads .upload").await;
    slow_line(&browser, false).await;
    let url = holds_an_upload(&browser, "image_url", &site).await;
    assert_eq!(url, upload, "the same upload, resumed");
    let after: Vec<Value> = serde_json::from_value(browser.eval("window.__patches").await).unwrap();
    let resent: u64 = after
        .iter()
        .map(|patch| patch["bytes"].as_u64().unwrap())
        .sum();
    let from = after[0]["offset"].as_u64().unwrap();
    println!(
        "reloaded at {from} of {} bytes: {resent} sent after the reload",
        picked.len()
    );
    assert!(from > 0, "resumed where the gateway stood: {after:?}");
    assert!(
        resent < picked.len() as u64,
        "less than the whole file sent again: {resent}"
    );
    let served = reqwest::get(&url).await.unwrap().bytes().await.unwrap();
    assert_eq!(sha256(&served), sha256(&picked), "the whole file, once");
    browser.assert_still_working("a reload mid-upload").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn an_upload_goes_on_when_its_gateway_restarts_mid_way() {
    let sandbox = start_fetching_sandbox(400).await;
    let uploads = test_folder("app-restart");
    let mut gateway = RelayGateway::start(RelayOptions {
        static_dir: Some(dist_dir()),
        uploads: Some(UploadSettings::new(
            uploads.path().to_owned(),
            String::new(),
        )),
        ..RelayOptions::new(&sandbox)
    })
    .await;
    gateway.ready().await;
    let site = gateway.base_url.clone();
    let browser = Browser::start().await;
    browser.before_every_page(RECORD_PATCHES).await;
    browser
        .open_app_page(&site, "/new/image-to-video", "Image to video")
        .await;
    browser.watch_for_errors().await;
    browser.click("#model-S").await;
    let restarted = test_folder("restarted");
    let file = restarted.path().join("bridge.png");
    let picked = write_png(&file, 23);
    slow_line(&browser, true).await;
    choose(&browser, "#image_url-file", &file.to_string_lossy()).await;
    a_third_sent(&browser).await;

    // The gateway goes away mid-upload: the page says it waits, and goes
    // on from where the gateway stands once it is back.
    gateway.stop().await;
    browser
        .wait_until(
            "the page waiting for the network",
            "document.querySelector('#image_url-uploads .upload__progress')?.textContent.includes('waiting for the network')",
        )
        .await;
    gateway.restart().await;
    slow_line(&browser, false).await;
    let url = holds_an_upload(&browser, "image_url", &site).await;
    let patches: Vec<Value> =
        serde_json::from_value(browser.eval("window.__patches").await).unwrap();
    let sent: u64 = patches
        .iter()
        .map(|patch| patch["bytes"].as_u64().unwrap())
        .sum();
    let resumed_at = patches.last().unwrap()["offset"].as_u64().unwrap();
    println!(
        "gateway restarted: {} PATCHes with bodies of {sent} bytes in all for {} (the second from {resumed_at})",
        patches.len(),
        picked.len()
    );
    assert!(patches.len() >= 2 && resumed_at > 0, "{patches:?}");
    assert!(
        sent - picked.len() as u64 <= media_gen_client_chunk(),
        "at most the piece in flight offered twice: {sent}"
    );
    let served = reqwest::get(&url).await.unwrap().bytes().await.unwrap();
    assert_eq!(sha256(&served), sha256(&picked));
    browser
        .assert_still_working("a gateway restarted mid-upload")
        .await;
    browser.close().await;
}

/// The uploader's piece size (4 MiB): what a cut may cost at most.
fn media_gen_client_chunk() -> u64 {
    4 * 1024 * 1024
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn an_image_over_20_mb_is_shrunk_to_fit_and_sent_instead() {
    let uploads = test_folder("app-shrink");
    let (site, _) = site(uploads.path()).await;
    let browser = Browser::start().await;
    browser
        .open_app_page(&site, "/new/image-to-video", "Image to video")
        .await;
    browser.watch_for_errors().await;
    browser.click("#model-S").await;
    let shrink = test_folder("shrink");
    let file = shrink.path().join("panorama.png");
    let big = write_noise_png(&file, 5, 2_900, 2_500);
    assert!(big.len() > 21_000_000, "{}", big.len());
    choose(&browser, "#image_url-file", &file.to_string_lossy()).await;
    browser
        .wait_until(
            "the refusal with Shrink to fit",
            "document.querySelector('#image_url-file-problems').textContent.includes('image files may have at most 20971520 bytes')",
        )
        .await;
    browser.click("#image_url-shrink").await;
    let url = holds_an_upload(&browser, "image_url", &site).await;
    let served = reqwest::get(&url).await.unwrap();
    assert_eq!(served.headers()["content-type"], "image/jpeg");
    assert!(served.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .contains("panorama-fitted.jpg"));
    let fitted = served.bytes().await.unwrap().len();
    println!("shrunk to fit: {} bytes → {fitted}", big.len());
    assert!(fitted as u64 <= 20 * 1024 * 1024, "{fitted}");
    assert_eq!(
        browser
            .eval("document.querySelector('#image_url-file-problems').textContent")
            .await,
        "",
        "the refusal is gone with the fitted copy sent"
    );
    browser.assert_still_working("shrink to fit").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn several_images_dropped_on_the_start_frame_make_one_task_each() {
    let uploads = test_folder("app-many");
    let (site, sandbox) = site(uploads.path()).await;
    let browser = Browser::start().await;
    browser
        .open_app_page(&site, "/new/image-to-video", "Image to video")
        .await;
    browser.watch_for_errors().await;
    browser.click("#model-S").await;
    browser
        .type_into("#prompt", "Each of my photos, moving")
        .await;
    // Three pictures dropped at once on the start frame.
    browser
        .run_async(
            "const data = new DataTransfer();
             for (const [index, hue] of [0, 120, 240].entries()) {
               const canvas = document.createElement('canvas');
               canvas.width = 320; canvas.height = 180;
               const context = canvas.getContext('2d');
               context.fillStyle = `hsl(${hue} 70% 50%)`;
               context.fillRect(0, 0, 320, 180);
               context.fillStyle = '#fff';
               context.fillText(`photo ${index + 1}`, 20, 40);
               const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
               data.items.add(new File([blob], `photo-${index + 1}.png`, { type: 'image/png' }));
             }
             document.querySelector('#image_url').closest('.file-target')
               .dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));",
        )
        .await;
    browser
        .wait_for_text(
            "#image_url-offer .hint",
            "3 images: one video from each, with the same prompt and settings?",
        )
        .await;
    browser
        .check_accessibility("the offer of one task per image")
        .await;
    browser.click("#image_url-one-task-each").await;
    holds_an_upload(&browser, "image_url", &site).await;
    browser
        .wait_until(
            "two more start frames",
            "document.querySelectorAll('#more-starts li').length === 2",
        )
        .await;
    browser
        .wait_until(
            "the button counting the tasks",
            "document.querySelector('#submit').textContent === 'Generate video (3 tasks)'",
        )
        .await;
    browser.click("#submit").await;
    browser
        .wait_until(
            "three tasks done",
            "document.querySelectorAll(\"li.task-row[data-status='SUCCEEDED']\").length === 3",
        )
        .await;
    // Three stored tasks, each from another picture, each fetched by the service.
    let starts = browser
        .eval(
            "Object.keys(localStorage).filter((key) => key.startsWith('media-gen.task:'))
               .map((key) => JSON.parse(localStorage.getItem(key)).request.image_url).sort()",
        )
        .await;
    let starts: Vec<String> = serde_json::from_value(starts).unwrap();
    assert_eq!(starts.len(), 3, "{starts:?}");
    assert!(
        starts.windows(2).all(|pair| pair[0] != pair[1]),
        "{starts:?}"
    );
    for url in &starts {
        assert!(url.starts_with(&format!("{site}/uploads/")), "{url}");
        assert!(fetched_hash(&sandbox, url).await.is_some(), "{url} fetched");
    }
    browser.assert_still_working("one task per image").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_rerun_reuses_an_upload_while_kept_and_says_what_to_do_once_it_is_gone() {
    let uploads = test_folder("app-rerun");
    let (site, _) = site_keeping(uploads.path(), std::time::Duration::from_secs(2)).await;
    let browser = Browser::start().await;
    browser
        .open_app_page(&site, "/new/image-to-video", "Image to video")
        .await;
    browser.click("#model-S").await;
    browser.type_into("#prompt", "Again and again").await;
    let rerun = test_folder("rerun");
    let file = rerun.path().join("kite.png");
    write_png(&file, 31);
    choose(&browser, "#image_url-file", &file.to_string_lossy()).await;
    let url = holds_an_upload(&browser, "image_url", &site).await;
    browser.submit_and_wait("SUCCEEDED").await;
    browser.click("li.task-row a.open").await;
    browser.watch_for_errors().await;

    // While the site keeps the file, Re-run sends the same address.
    browser.click("button.rerun").await;
    browser
        .wait_until(
            "the re-run made",
            "document.querySelector('.rerun-made')?.textContent.startsWith('Submitted Image to video again as 1 new task')",
        )
        .await;
    // Its task ends (read through the site), and the upload goes a TTL later.
    browser
        .wait_until(
            "both tasks ended",
            "(() => { const tasks = Object.keys(localStorage).filter((key) => key.startsWith('media-gen.task:'))
               .map((key) => localStorage.getItem(key));
               return tasks.length === 2 && tasks.every((task) => task.includes('\"SUCCEEDED\"')); })()",
        )
        .await;
    // Gone once its TTL (rounded up to whole seconds) has passed.
    for _ in 0..100 {
        if reqwest::get(&url).await.unwrap().status() == 410 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    browser.click("button.rerun").await;
    browser
        .wait_until(
            "the re-run refused with what to do",
            "document.querySelector('.rerun-made')?.textContent.startsWith('Re-run failed: image_url was a file uploaded here')",
        )
        .await;
    let said = browser
        .eval("document.querySelector('.rerun-made').textContent")
        .await;
    assert!(
        said.as_str()
            .unwrap()
            .contains("Edit and re-run to choose the file again"),
        "{said}"
    );
    assert_eq!(
        browser.eval(media_gen_e2e::STORED_TASKS).await,
        2,
        "no task made from a file that is gone"
    );
    browser
        .assert_still_working("a re-run of an expired upload")
        .await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn leaving_the_form_mid_upload_keeps_the_page_working_and_coming_back_goes_on() {
    let uploads = test_folder("app-leave");
    let (site, _) = site(uploads.path()).await;
    let browser = Browser::start().await;
    browser.open_app_page(&site, "/", "Tasks").await;
    browser.watch_for_errors().await;
    browser
        .click("#main-nav a[href='/new/image-to-video']")
        .await;
    browser.wait_for_text("main h1", "Image to video").await;
    browser.click("#model-S").await;
    let leave = test_folder("leave");
    let file = leave.path().join("ferry.png");
    let picked = write_png(&file, 41);
    slow_line(&browser, true).await;
    choose(&browser, "#image_url-file", &file.to_string_lossy()).await;
    a_third_sent(&browser).await;

    // Back to the board mid-upload: the page keeps working.
    browser.client.back().await.unwrap();
    browser.wait_for_text("main h1", "Tasks").await;
    browser
        .assert_still_working("Back while a file uploads")
        .await;
    // Forward to the form: the upload goes on where it stood and lands.
    slow_line(&browser, false).await;
    browser.client.forward().await.unwrap();
    browser.wait_for_text("main h1", "Image to video").await;
    let url = holds_an_upload(&browser, "image_url", &site).await;
    let served = reqwest::get(&url).await.unwrap().bytes().await.unwrap();
    assert_eq!(sha256(&served), sha256(&picked), "the whole file, once");
    browser
        .assert_still_working("coming back to the form")
        .await;
    browser.close().await;
}
