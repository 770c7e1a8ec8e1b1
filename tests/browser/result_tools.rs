//! What a person does with results beyond looking at them: subtitles in
//! the player, copy as cURL and copy link, download all (one .zip),
//! compare two.

use crate::{mount, sandbox};
use media_gen_api::*;
use media_gen_ui::store::record::TaskRecord;
use media_gen_ui::store::tasks;
use mount::{element, elements, exists, js, mount_app_at, texts, wait_for, MountedApp};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

/// Clicks on download links, recorded instead of saving files:
/// `[download name, href]` in `window.__downloads`. Every other link goes
/// on as the browser's own `click` takes it: the tests after this one run
/// in the same page, and their navigation clicks must still navigate.
fn record_downloads() {
    js("window.__downloads = [];
        const click = window.__anchorClick ??= HTMLAnchorElement.prototype.click;
        HTMLAnchorElement.prototype.click = function () {
          if (this.hasAttribute('download')) {
            window.__downloads.push([this.download, this.href]);
          } else {
            click.call(this);
          }
        };");
}

fn downloads() -> Vec<(String, String)> {
    let list: js_sys::Array = js("return window.__downloads").unchecked_into();
    list.iter()
        .map(|pair| {
            let pair: js_sys::Array = pair.unchecked_into();
            (
                pair.get(0).as_string().unwrap(),
                pair.get(1).as_string().unwrap(),
            )
        })
        .collect()
}

/// A clipboard that keeps the last text in `window.__copied`.
fn record_clipboard() {
    js("window.__copied = null;
        Object.defineProperty(navigator, 'clipboard', { configurable: true, value: {
          writeText: async (text) => { window.__copied = text; },
        }});");
}

fn copied() -> Option<String> {
    js("return window.__copied").as_string()
}

/// Click the button whose text is `text`.
fn click_button(app: &MountedApp, text: &str) {
    let buttons = elements(&app.host, "button");
    let button = buttons
        .iter()
        .find(|b| b.text_content().unwrap_or_default().trim() == text)
        .unwrap_or_else(|| panic!("no button {text:?}"));
    button.click();
}

async fn wait_until_succeeded(app: &MountedApp, ids: &[String]) {
    for id in ids {
        let selector = format!("li.task-row[data-task-id='{id}'][data-status='SUCCEEDED']");
        wait_for(&format!("{id} to succeed"), || exists(app, &selector)).await;
    }
}

/// A finished translation whose caption file is at `caption_url`.
fn translation_record(id: &str, caption_url: &str) -> TaskRecord {
    let mut record = TaskRecord::followed(TaskKind::VideoTranslate, id, 0.0);
    let task = AnyTask::VideoTranslate(VideoTranslateTask {
        task_id: id.into(),
        name: "French-talk".into(),
        language: "French".into(),
        status: TaskStatus::Succeeded,
        video_url: format!("{}/sandbox/media/video/landscape.mp4", sandbox::url()),
        caption_url: caption_url.into(),
        error_message: String::new(),
        kept: None,
        not_kept: None,
    });
    record.apply(Some(&task), None, sandbox::now());
    record
}

#[wasm_bindgen_test]
async fn a_translation_plays_with_its_captions_as_a_subtitle_track() {
    sandbox::set_faults(serde_json::json!({})).await;
    sandbox::connect_the_app();
    let id = sandbox::translate_talk().await;
    let app = mount_app_at(&format!("/tasks/video_translate/{id}")).await;
    wait_for("the subtitle track", || {
        exists(&app, ".video-result video track")
    })
    .await;
    let track: web_sys::HtmlTrackElement =
        element(&app, ".video-result video track").unchecked_into();
    assert_eq!(track.label(), "French");
    assert_eq!(track.kind(), "subtitles");
    assert!(track.src().starts_with("blob:"), "{}", track.src());
    // The player reads the converted cues: plain text, tags gone.
    wait_for("the cues to load", || {
        track
            .track()
            .and_then(|t| t.cues())
            .is_some_and(|cues| cues.length() > 0)
    })
    .await;
    let cues = track.track().unwrap().cues().unwrap();
    let first: web_sys::VttCue = cues.get(0).unwrap().unchecked_into();
    assert!(!first.text().contains('{'), "{}", first.text());
    assert!(!exists(&app, ".subtitles-note"));
    // The caption file's link stays.
    assert!(texts(&app.host, ".video-result a.download").contains(&"Subtitles (ASS)".to_owned()));
}

#[wasm_bindgen_test]
async fn captions_that_cannot_be_read_leave_the_link_and_say_why() {
    sandbox::connect_the_app();
    // Nothing listens on port 9: the fetch fails as a host without CORS does.
    let record = translation_record("vt-unreadable", "http://127.0.0.1:9/captions.ass");
    tasks::save(&record).unwrap();
    let app = mount_app_at("/tasks/video_translate/vt-unreadable").await;
    wait_for("the note", || exists(&app, ".subtitles-note")).await;
    assert!(texts(&app.host, ".subtitles-note")[0].starts_with("No inline subtitles:"));
    assert!(!exists(&app, ".video-result video track"));
    assert!(texts(&app.host, ".video-result a.download").contains(&"Subtitles (ASS)".to_owned()));
}

#[wasm_bindgen_test]
async fn requests_copy_as_curl_with_the_token_masked_unless_asked() {
    sandbox::connect_the_app();
    record_clipboard();
    let app = mount_app_at("/new/image-generate").await;
    wait_for("the form", || exists(&app, "#prompt")).await;
    mount::type_into(&app, "#prompt", "it's a fox");
    wait_for("the token's option", || {
        exists(&app, ".request-copy .curl-include-token")
    })
    .await;
    click_button(&app, "Copy as cURL");
    wait_for("the copy", || copied().is_some()).await;
    let command = copied().unwrap();
    assert!(
        command.starts_with(&format!(
            "curl -X POST '{}/v1/image_generate'",
            sandbox::url()
        )),
        "{command}"
    );
    assert!(
        command.contains("-H \"Authorization: Bearer $MEDIA_GEN_TOKEN\""),
        "{command}"
    );
    assert!(
        command.contains(r#"--data-raw '{"generate_count":1,"#)
            && command.ends_with(r#""prompt":"it'\''s a fox"}'"#),
        "{command}"
    );
    assert!(!command.contains("demo-token"), "{command}");

    let include: web_sys::HtmlInputElement =
        element(&app, ".request-copy .curl-include-token").unchecked_into();
    include.click();
    assert!(include.checked(), "the box is ticked");
    js("window.__copied = null");
    gloo_timers::future::TimeoutFuture::new(2_100).await; // the button says "Copied" for 2 s
    click_button(&app, "Copy as cURL");
    wait_for("the second copy", || copied().is_some()).await;
    assert!(copied()
        .unwrap()
        .contains("-H 'Authorization: Bearer demo-token'"));
}

#[wasm_bindgen_test]
async fn a_task_page_copies_its_link_and_its_status_read() {
    sandbox::set_faults(serde_json::json!({})).await;
    sandbox::connect_the_app();
    record_clipboard();
    let ids = sandbox::images_on_the_board("a lighthouse", 1).await;
    let app = mount_app_at(&format!("/tasks/image_generate/{}", ids[0])).await;
    wait_for("the page", || exists(&app, "#task-id")).await;
    click_button(&app, "Copy link");
    wait_for("the link", || copied().is_some()).await;
    let origin = web_sys::window().unwrap().location().origin().unwrap();
    assert_eq!(
        copied().unwrap(),
        format!("{origin}/tasks/image_generate/{}", ids[0])
    );
    js("window.__copied = null");
    let read = elements(&app.host, ".task-detail__id button")
        .into_iter()
        .find(|b| b.text_content().unwrap_or_default() == "Copy as cURL")
        .unwrap();
    read.click();
    wait_for("the command", || copied().is_some()).await;
    assert_eq!(
        copied().unwrap(),
        format!(
            "curl '{}/v1/image_generate/{}' \\\n  -H \"Authorization: Bearer $MEDIA_GEN_TOKEN\"",
            sandbox::url(),
            ids[0]
        )
    );
}

#[wasm_bindgen_test]
async fn download_all_saves_every_image_of_a_submission_under_its_name() {
    sandbox::set_faults(serde_json::json!({})).await;
    sandbox::connect_the_app();
    record_downloads();
    let ids = sandbox::images_on_the_board("a lighthouse", 3).await;
    let app = mount_app_at("/").await;
    wait_until_succeeded(&app, &ids).await;
    let app = mount_app_at(&format!("/tasks/image_generate/{}", ids[1])).await;
    wait_for("the button", || {
        exists(&app, ".task-detail__downloads button")
    })
    .await;
    assert_eq!(
        texts(&app.host, ".task-detail__downloads button"),
        ["Download all (3 tasks)"]
    );
    element(&app, ".task-detail__downloads button").click();
    wait_for("one download", || downloads().len() == 1).await;
    let (name, href) = downloads().remove(0);
    assert_eq!(name, format!("image_generate-{}.zip", ids[1]));
    assert!(href.starts_with("blob:"), "made in the page: {href}");
    // A .zip (read whole by the end-to-end tests): each image under its
    // name, then request.json naming every task.
    let zip = bytes_of(&href).await;
    assert_eq!(&zip[..4], b"PK\x03\x04");
    let text = String::from_utf8_lossy(&zip);
    for id in &ids {
        assert!(text.contains(&format!("image_generate-{id}.png")), "{id}");
        assert!(text.contains(&format!("\"task_id\": \"{id}\"")), "{id}");
    }
    assert!(text.contains("request.json"));
    wait_for("the summary", || {
        texts(&app.host, ".download-all__state").concat()
            == format!(
                "Saved image_generate-{}.zip: 3 files and request.json.",
                ids[1]
            )
    })
    .await;
}

/// The bytes behind `href` (a `blob:` URL of this page).
async fn bytes_of(href: &str) -> Vec<u8> {
    let blob = media_gen_client::media::fetch_blob(href).await.unwrap();
    let buffer = wasm_bindgen_futures::JsFuture::from(blob.array_buffer())
        .await
        .unwrap();
    js_sys::Uint8Array::new(&buffer).to_vec()
}

#[wasm_bindgen_test]
async fn the_board_downloads_what_its_filters_show() {
    sandbox::set_faults(serde_json::json!({})).await;
    sandbox::connect_the_app();
    record_downloads();
    let ids = sandbox::images_on_the_board("a lighthouse", 2).await;
    let app = mount_app_at("/").await;
    wait_until_succeeded(&app, &ids).await;
    assert_eq!(
        texts(&app.host, ".board__bar .download-all button"),
        ["Download results (2 tasks)"]
    );
    mount::type_into(&app, "#filter-text", &ids[0]);
    wait_for("the filter", || {
        texts(&app.host, ".board__bar .download-all button") == ["Download results (1 task)"]
    })
    .await;
    element(&app, ".board__bar .download-all button").click();
    wait_for("one download", || downloads().len() == 1).await;
    let (name, href) = downloads().remove(0);
    assert_eq!(name, "media-gen-results.zip");
    let text = String::from_utf8_lossy(&bytes_of(&href).await).into_owned();
    assert!(text.contains(&format!("image_generate-{}.png", ids[0])));
    assert!(
        !text.contains(&format!("image_generate-{}.png", ids[1])),
        "filtered out"
    );
}

#[wasm_bindgen_test]
async fn two_images_compare_with_a_slider() {
    sandbox::set_faults(serde_json::json!({})).await;
    sandbox::connect_the_app();
    let ids = sandbox::images_on_the_board("a lighthouse", 2).await;
    let app = mount_app_at("/").await;
    wait_until_succeeded(&app, &ids).await;
    let boxes = elements(&app.host, ".compare-pick__box");
    assert_eq!(boxes.len(), 2, "a pick on each finished row");
    boxes[0].click();
    wait_for("the hint", || exists(&app, "#compare-hint")).await;
    boxes[1].click();
    wait_for("the link", || exists(&app, "#compare-link")).await;
    element(&app, "#compare-link").click();
    wait_for("the comparison", || exists(&app, "#compare-over")).await;
    assert_eq!(elements(&app.host, ".compare-side img").len(), 2);
    let over = element(&app, "#compare-over");
    assert_eq!(
        over.style().get_property_value("clip-path").unwrap(),
        "inset(0px 50% 0px 0px)"
    );
    let slider: web_sys::HtmlInputElement = element(&app, "#compare-split").unchecked_into();
    slider.set_value("30");
    slider
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    wait_for("the split to move", || {
        over.style().get_property_value("clip-path").unwrap() == "inset(0px 70% 0px 0px)"
    })
    .await;
}

#[wasm_bindgen_test]
async fn a_comparison_of_unknown_tasks_says_what_to_do() {
    sandbox::connect_the_app();
    let app = mount_app_at("/compare?a=image_generate%3Anope&b=image_generate%3Anope2").await;
    wait_for("the message", || exists(&app, "#compare-missing")).await;
}
