//! What a person does with the release build, in real headless Chromium
//! through the gateway, the sandbox behind it: submit each kind and see its media, see a failure,
//! reload while a task runs. (Being stopped by invalid input is checked in
//! `guidance.rs`, with the rest of what the image form says.)

use media_gen_e2e::{start_site, start_site_with_task_ms, Browser, Site};

/// The app through the gateway, the sandbox (tasks of about `task_ms`)
/// behind it, and a browser on its page at `path`, connected.
async fn session(task_ms: Option<u64>, path: &str, title: &str) -> (Site, Browser) {
    let site = match task_ms {
        Some(task_ms) => start_site_with_task_ms(task_ms).await,
        None => start_site().await,
    };
    let browser = Browser::start().await;
    browser.open_app_page(&site.base_url, path, title).await;
    (site, browser)
}

/// Whether the `img` matching `css` loaded with real pixels.
fn image_loaded(css: &str) -> String {
    format!("(() => {{ const i = document.querySelector(\"{css}\"); return i && i.complete && i.naturalWidth > 0; }})()")
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn image_generation_ends_with_images_in_a_gallery() {
    let (_, browser) = session(None, "/new/image-generate", "Image generation").await;
    browser.type_into("#prompt", "A lighthouse at dawn").await;
    browser.type_into("#count", "2").await;
    browser.click("#ratio").await;
    browser.screenshot("form-image-generate").await;
    browser.submit_and_wait("SUCCEEDED").await;
    browser
        .wait_until(
            "both images done",
            "document.querySelectorAll(\"li.task-row[data-status='SUCCEEDED']\").length === 2",
        )
        .await;
    browser
        .wait_until(
            "the thumbnails",
            &image_loaded("li.task-group img.task-row__thumb"),
        )
        .await;
    browser.screenshot("board").await;
    // The same board on a phone.
    browser
        .client
        .set_window_size(390, 844)
        .await
        .expect("resize the window");
    browser.screenshot("board-phone").await;
    browser
        .client
        .set_window_size(1280, 800)
        .await
        .expect("resize the window");

    // The request's two images are one row: its thumbnails, and its tasks
    // a click away.
    let rows = browser
        .eval("[document.querySelectorAll('li.task-group').length, document.querySelectorAll('li.task-group .task-group__thumbs img').length]")
        .await;
    assert_eq!(rows, serde_json::json!([1, 2]));
    browser.click("li.task-group a.open").await;
    browser.find(".gallery img").await;
    browser
        .wait_until("the gallery's images", &image_loaded(".gallery img"))
        .await;
    browser
        .wait_until(
            "both images of the request",
            "document.querySelectorAll('.gallery li').length === 2",
        )
        .await;
    browser.click(".gallery__thumb").await;
    browser
        .wait_until("the full view", &image_loaded("dialog[open] img"))
        .await;
    browser.screenshot("task-images").await;

    // Back on the board (Esc), the two images side by side with a slider.
    browser
        .run_async("document.querySelector('dialog[open]')?.close();")
        .await;
    browser
        .run_async("document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));")
        .await;
    browser.wait_for_text("main h1", "Tasks").await;
    browser.click("li.task-group summary").await;
    browser
        .click("li.task-row:nth-child(1) .compare-pick__box")
        .await;
    browser
        .click("li.task-row:nth-child(2) .compare-pick__box")
        .await;
    browser.click("#compare-link").await;
    browser.wait_for_text("main h1", "Compare").await;
    browser
        .wait_until("both images", &image_loaded(".compare-slider__over"))
        .await;
    browser
        .run_async("const s = document.querySelector('#compare-split'); s.value = '35'; s.dispatchEvent(new Event('input'));")
        .await;
    browser.screenshot("compare").await;
    // The shortcut list.
    browser
        .run_async("document.body.dispatchEvent(new KeyboardEvent('keydown', { key: '?', bubbles: true }));")
        .await;
    browser.find("dialog#shortcuts[open]").await;
    browser.screenshot("shortcuts").await;
    browser.close().await;
}

/// Image to video ends with a player (its poster, a download, the reported
/// size and duration), and the video's page says what was asked: its start
/// frame pictured, its model in words, no accessibility violation.
#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn image_to_video_ends_with_a_player_and_pictures_its_start_frame() {
    let (site, browser) = session(None, "/new/image-to-video", "Image to video").await;
    browser.click("#model-S").await;
    browser.type_into("#prompt", "Waves on a quiet beach").await;
    let frame = site.media("image/1K/16x9.png");
    browser.type_into("#image_url", &frame).await;
    browser
        .wait_for_text(".image-preview figcaption", "1024 × 576 px")
        .await;
    browser.screenshot("form-image-to-video").await;
    browser.submit_and_wait("SUCCEEDED").await;
    browser.click("li.task-row a.open").await;
    let video = browser.find(".video-result video").await;
    let poster = video.attr("poster").await.expect("read poster");
    assert!(poster.is_some_and(|url| url.contains(".webp")));
    browser.find(".video-result a.download[download]").await;
    browser
        .wait_until(
            "the reported size and duration",
            "/px · \\d+ s$/.test(document.querySelector('.video-facts').textContent)",
        )
        .await;
    browser.screenshot("task-video").await;

    // The same page pictures the start frame with what was asked.
    browser
        .wait_for_text(".asked__medium figcaption", "Start frame")
        .await;
    browser
        .wait_until(
            "the start frame",
            &crate::results::loaded(".asked__medium img"),
        )
        .await;
    let model = browser
        .eval("document.querySelector('.asked__settings dd').textContent")
        .await;
    assert_eq!(model, serde_json::json!("Model S"));
    browser.check_accessibility("a video's page").await;
    browser.screenshot("task-video-asked").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn video_translation_ends_with_a_named_video_and_captions() {
    let (site, browser) = session(None, "/new/video-translate", "Video translation").await;
    let video = site.media("video/landscape.mp4");
    browser.type_into("#video_url", &video).await;
    browser.type_into("#language-search", "fren").await;
    browser.click("#language-French").await;
    browser.type_into("#name", "keynote").await;
    browser.click("#enable_caption").await;
    browser
        .wait_for_text("#predicted-names li", "French-keynote")
        .await;
    browser.screenshot("form-video-translate").await;
    browser.submit_and_wait("SUCCEEDED").await;
    browser.click("li.task-row a.open").await;
    browser
        .wait_for_text(".translation-name", "French-keynote")
        .await;
    browser
        .wait_until(
            "the caption link",
            "[...document.querySelectorAll('.video-result a.download')].some(a => new URL(a.href).pathname.endsWith('.ass'))",
        )
        .await;
    // The captions as a subtitle track, shown while the video plays.
    browser
        .wait_until(
            "the subtitle track's cues",
            "(() => { const t = document.querySelector('.video-result video track'); \
             return t && t.track.cues && t.track.cues.length > 0; })()",
        )
        .await;
    browser
        .run_async(
            "const v = document.querySelector('.video-result video'); v.muted = true; \
             v.currentTime = v.querySelector('track').track.cues[0].startTime + 0.2; \
             await Promise.race([new Promise((r) => v.addEventListener('seeked', r, { once: true })), \
                                 new Promise((r) => setTimeout(r, 3000))]);",
        )
        .await;
    browser.screenshot("task-translation").await;
    // The same captions saved as WebVTT and as SRT, converted in the page.
    let (name, vtt) = crate::common::saved_file(&browser, "#subtitles-vtt").await;
    let vtt = String::from_utf8(vtt).unwrap();
    assert!(
        name.starts_with("French-") && name.ends_with(".vtt"),
        "{name}"
    );
    assert!(vtt.starts_with("WEBVTT\n\n"), "{vtt}");
    let first_cue = vtt
        .lines()
        .find(|line| line.contains(" --> "))
        .unwrap()
        .to_owned();
    let (name, srt) = crate::common::saved_file(&browser, "#subtitles-srt").await;
    let srt = String::from_utf8(srt).unwrap();
    assert!(name.ends_with(".srt"), "{name}");
    // SRT: numbered cues, times with a comma, the same first cue.
    let mut lines = srt.lines();
    assert_eq!(lines.next(), Some("1"), "{srt}");
    assert_eq!(
        lines.next().map(str::to_owned),
        Some(first_cue.replace('.', ",")),
        "{srt}"
    );
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_failed_task_shows_the_services_message() {
    let (_, browser) = session(None, "/new/image-generate", "Image generation").await;
    browser.type_into("#prompt", "[fail] a storm").await;
    browser.submit_and_wait("FAILED").await;
    browser.click("li.task-row a.open").await;
    let message = browser.find(".failure[role=alert] .failure__message").await;
    let text = message.text().await.expect("read the message");
    assert!(text.contains("[fail]"), "{text}");
    browser.screenshot("task-failed").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_reload_during_generation_resumes_polling() {
    // Tasks of about four seconds leave time to reload in the middle.
    let (_, browser) = session(Some(4_000), "/new/image-generate", "Image generation").await;
    browser.type_into("#prompt", "Slow sunrise").await;
    browser.submit_form().await;
    browser
        .wait_until(
            "the task running",
            "['PENDING', 'GENERATING'].includes(document.querySelector('li.task-row')?.dataset.status)",
        )
        .await;
    browser.screenshot("board-generating").await;

    browser.reload().await;
    browser.wait_for_text("main h1", "Tasks").await;
    browser.find("li.task-row").await;
    browser.find("li.task-row[data-status='SUCCEEDED']").await;
    browser.screenshot("board-after-reload").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn two_tabs_show_the_same_tasks_and_one_follows_them() {
    let (site, browser) = session(Some(1_500), "/", "Tasks").await;
    let first = browser.client.window().await.expect("the first tab");
    let second = browser.new_tab().await;

    // The second tab submits; the first one follows the tasks.
    browser
        .client
        .switch_to_window(second.clone())
        .await
        .expect("switch");
    browser
        .open_app_page(&site.base_url, "/new/image-generate", "Image generation")
        .await;
    browser.type_into("#prompt", "Seen in both tabs").await;
    browser.submit_form().await;
    browser.find("#follower-note").await;
    let id = browser
        .eval("document.querySelector('li.task-row').dataset.taskId")
        .await;

    browser
        .client
        .switch_to_window(first.clone())
        .await
        .expect("switch back");
    let row = format!("li.task-row[data-task-id={id}][data-status=SUCCEEDED]");
    browser
        .wait_until(
            "the task ended in the first tab",
            &format!("document.querySelector('{row}')"),
        )
        .await;
    assert_eq!(
        browser
            .eval("document.querySelector('#follower-note') === null")
            .await,
        true
    );
    // One tab read it: a 1.5 s task takes two or three reads from one
    // poller (1 s, then 1.5 s later); two tabs polling would double that.
    let stats = browser
        .run_async(&format!(
            "return (await fetch('{}/sandbox/stats')).json();",
            site.sandbox_url
        ))
        .await;
    let reads = stats["data"]["status_reads"].as_u64().expect("a count");
    assert!(
        (1..=3).contains(&reads),
        "{reads} status reads for one task"
    );

    // The second tab shows the end too, from storage events alone.
    browser
        .client
        .switch_to_window(second.clone())
        .await
        .expect("switch");
    browser
        .wait_until(
            "the task ended in the second tab",
            &format!("document.querySelector('{row}')"),
        )
        .await;
    browser.screenshot("two-tabs").await;
    // Removing it here removes it there.
    browser
        .client
        .execute(
            "document.querySelector('li.task-row .remove').click()",
            vec![],
        )
        .await
        .expect("remove");
    browser
        .client
        .switch_to_window(first)
        .await
        .expect("switch");
    browser
        .wait_until(
            "the task gone in the first tab",
            "!document.querySelector('li.task-row')",
        )
        .await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn the_app_keeps_no_token_in_the_page() {
    let (_, browser) = session(None, "/new/image-generate", "Image generation").await;
    browser.type_into("#prompt", "Through the gateway").await;
    browser.submit_and_wait("SUCCEEDED").await;
    let stored = browser
        .eval("[sessionStorage, localStorage].some((s) => Object.values(s).some((v) => v.includes('e2e-gateway-only-token')))")
        .await;
    assert_eq!(stored, false, "no token anywhere in the page's storage");
    let in_page = browser
        .eval("document.documentElement.outerHTML.includes('e2e-gateway-only-token')")
        .await;
    assert_eq!(in_page, false, "no token in the page");
    browser.screenshot("board-through-gateway").await;
    browser.close().await;
}
