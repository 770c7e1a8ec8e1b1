//! The board's controls and the task page, as a person uses them: filters,
//! copy, re-run, edit and re-run, remove, look-up by id, results and failures.

use crate::{mount, sandbox};
use media_gen_api::*;
use media_gen_ui::store::record::TaskRecord;
use media_gen_ui::store::tasks;
use mount::{
    choose, element, elements, exists, mount_app, mount_app_at, texts, type_into, value_of,
    wait_for, MountedApp,
};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

/// Submit an image task straight to the sandbox (as another tool would).
async fn submit_image(prompt: &str, count: i64) -> (Request, Vec<String>) {
    let request = sandbox::image_request(prompt, count);
    let ids = sandbox::submit(&request).await;
    (request, ids)
}

/// Submit a model S video straight to the sandbox.
async fn submit_video(prompt: &str, duration: i64) -> (Request, Vec<String>) {
    let request = Request::ImageToVideo(ImageToVideoRequest {
        model: Some(Model::S),
        prompt: prompt.into(),
        aspect_resolution: Some(Resolution::P720),
        duration: Some(duration),
        image_url: Some("https://example.com/a.png".into()),
        ..Default::default()
    });
    let ids = sandbox::submit(&request).await;
    (request, ids)
}

fn row_status(app: &MountedApp, id: &str) -> Option<String> {
    elements(&app.host, &format!("li.task-row[data-task-id='{id}']"))
        .first()
        .and_then(|row| row.get_attribute("data-status"))
}

async fn wait_for_status(app: &MountedApp, id: &str, status: &str) {
    wait_for(&format!("{id} to be {status}"), || {
        row_status(app, id).as_deref() == Some(status)
    })
    .await;
}

fn shown_ids(app: &MountedApp) -> Vec<String> {
    elements(&app.host, "li.task-row")
        .iter()
        .filter_map(|row| row.get_attribute("data-task-id"))
        .collect()
}

#[wasm_bindgen_test]
async fn filters_narrow_the_board_by_kind_and_status() {
    sandbox::set_faults(serde_json::json!({})).await;
    sandbox::connect_the_app();
    let (good, good_ids) = submit_image("fine", 1).await;
    let (bad, bad_ids) = submit_image("[fail] on purpose", 1).await;
    let now = sandbox::now();
    sandbox::store_submitted(&good, &good_ids[..1], now);
    sandbox::store_submitted(&bad, &bad_ids[..1], now + 1.0);
    let app = mount_app().await;
    wait_for_status(&app, &good_ids[0], "SUCCEEDED").await;
    wait_for_status(&app, &bad_ids[0], "FAILED").await;
    assert_eq!(
        shown_ids(&app),
        [bad_ids[0].clone(), good_ids[0].clone()],
        "newest first"
    );
    assert_eq!(
        texts(&app.host, "#board-counts"),
        ["2 tasks, 0 in progress"]
    );
    // The last change was announced to screen readers.
    let said = texts(&app.host, "#announcer[aria-live=polite]").concat();
    assert!(
        said.starts_with("Image generation task ")
            && (said.ends_with(" succeeded") || said.ends_with(" failed")),
        "{said}"
    );

    choose(&app, "#filter-status", "failed");
    wait_for("only the failed task", || {
        shown_ids(&app) == [bad_ids[0].clone()]
    })
    .await;
    let note = texts(&app.host, ".task-row__note--failed").concat();
    assert!(
        note.contains("[fail]"),
        "the service's message on the row: {note}"
    );

    choose(&app, "#filter-status", "all");
    choose(&app, "#filter-kind", "video_translate");
    wait_for("nothing matches", || exists(&app, "#no-match")).await;
    assert!(shown_ids(&app).is_empty());
}

#[wasm_bindgen_test]
async fn rerun_edit_and_remove_from_the_board() {
    sandbox::set_faults(serde_json::json!({})).await;
    sandbox::connect_the_app();
    let (request, ids) = submit_image("a red kite", 1).await;
    sandbox::store_submitted(&request, &ids[..1], sandbox::now());
    let app = mount_app().await;
    wait_for_status(&app, &ids[0], "SUCCEEDED").await;

    // Re-run: the same parameters make a new task, stored and followed.
    element(&app, "li.task-row .rerun").click();
    wait_for("a second task", || shown_ids(&app).len() == 2).await;
    let new_id = shown_ids(&app)[0].clone();
    assert_ne!(new_id, ids[0]);
    let stored = tasks::load().unwrap().0;
    let rerun = stored.iter().find(|r| r.task_id == new_id).unwrap();
    assert_eq!(rerun.request, Some(request));
    wait_for_status(&app, &new_id, "SUCCEEDED").await;

    // Remove: off the board and out of storage.
    element(
        &app,
        &format!("li.task-row[data-task-id='{new_id}'] .remove"),
    )
    .click();
    wait_for("the row to go", || shown_ids(&app) == [ids[0].clone()]).await;
    assert!(tasks::load().unwrap().0.iter().all(|r| r.task_id != new_id));

    // Edit and re-run: the form, filled in.
    element(&app, "li.task-row .edit").click();
    wait_for("the filled-in form", || exists(&app, "#filled-from")).await;
    assert_eq!(value_of(&app, "#prompt"), "a red kite");
    assert_eq!(value_of(&app, "#quality"), "1K");
}

#[wasm_bindgen_test]
async fn a_task_submitted_elsewhere_is_looked_up_by_id_and_followed() {
    sandbox::set_faults(serde_json::json!({})).await;
    sandbox::connect_the_app();
    let (_, ids) = submit_image("made elsewhere", 2).await;
    let app = mount_app().await;
    choose(&app, "#lookup-kind", "image_generate");
    type_into(&app, "#lookup-id", &ids[0]);
    wait_for("the look-up button", || {
        !exists(&app, "#lookup button:disabled")
    })
    .await;
    element(&app, "#lookup button[type=submit]").click();
    wait_for("the task page", || {
        texts(&app.host, "#task-id") == [ids[0].clone()]
    })
    .await;
    assert_eq!(texts(&app.host, "main h1"), ["Image generation"]);
    wait_for("the image", || exists(&app, ".gallery img")).await;
    assert_eq!(
        texts(&app.host, ".task-detail__status .status"),
        ["SUCCEEDED"]
    );
    // Now on the board: stored, without parameters (so no re-run).
    let record = tasks::load()
        .unwrap()
        .0
        .into_iter()
        .find(|r| r.task_id == ids[0])
        .unwrap();
    assert_eq!(record.request, None);
    assert!(!exists(&app, ".rerun"));

    // The full view opens as a dialog and closes again.
    element(&app, ".gallery__thumb").click();
    wait_for("the full view", || exists(&app, "dialog[open] img")).await;
    element(&app, "dialog[open] button").click();
    wait_for("the full view to close", || !exists(&app, "dialog[open]")).await;
}

#[wasm_bindgen_test]
async fn a_task_link_opens_directly_and_shows_a_failure_prominently() {
    sandbox::set_faults(serde_json::json!({})).await;
    sandbox::connect_the_app();
    let (_, ids) = submit_video("[fail] a storm", 4).await;
    let app = mount_app_at(&format!("/tasks/image_to_video/{}", ids[0])).await;
    wait_for("the failure", || exists(&app, ".failure")).await;
    let message = texts(&app.host, ".failure__message").concat();
    assert!(message.contains("[fail]"), "{message}");
    assert_eq!(
        element(&app, ".failure").get_attribute("role").as_deref(),
        Some("alert")
    );
}

#[wasm_bindgen_test]
async fn a_finished_video_has_a_player_with_poster_facts_and_download() {
    sandbox::set_faults(serde_json::json!({})).await;
    sandbox::connect_the_app();
    let (request, ids) = submit_video("calm sea", 8).await;
    sandbox::store_submitted(&request, &ids[..1], sandbox::now());
    let app = mount_app_at(&format!("/tasks/image_to_video/{}", ids[0])).await;
    wait_for("the player", || exists(&app, ".video-result video")).await;
    let video = element(&app, ".video-result video");
    assert!(video.get_attribute("src").unwrap().contains(".mp4"));
    assert!(!video.get_attribute("poster").unwrap_or_default().is_empty());
    let facts = texts(&app.host, ".video-facts").concat();
    assert!(facts.ends_with("· 8 s"), "{facts}");
    assert!(exists(&app, ".video-result a.download[download]"));
    assert!(exists(&app, "details.request-preview"), "parameters shown");
}

#[wasm_bindgen_test]
async fn a_translation_shows_its_name_language_and_captions() {
    sandbox::set_faults(serde_json::json!({})).await;
    sandbox::connect_the_app();
    let id = sandbox::translate_talk().await;
    let app = mount_app_at(&format!("/tasks/video_translate/{id}")).await;
    wait_for("the translated video", || {
        exists(&app, ".video-result video")
    })
    .await;
    assert_eq!(texts(&app.host, ".translation-name"), ["French-talk"]);
    assert_eq!(texts(&app.host, ".translation-language"), ["French"]);
    let links = texts(&app.host, ".video-result a.download");
    assert_eq!(links, ["Download video", "Subtitles (ASS)"]);
}

/// Wait until the task page says its lookup found no such task.
async fn wait_for_not_found(app: &MountedApp) {
    wait_for("the lookup failure", || {
        texts(&app.host, "#lookup-state[role=alert]")
            .concat()
            .contains("HTTP 404")
    })
    .await;
}

#[wasm_bindgen_test]
async fn an_unknown_id_says_it_could_not_be_read() {
    sandbox::connect_the_app();
    let app = mount_app_at("/tasks/image_generate/i2is-nope").await;
    wait_for_not_found(&app).await;
    assert!(
        tasks::load().unwrap().0.is_empty(),
        "nothing added to the board"
    );
}

/// A finished task as a hostile server could describe it.
fn hostile_record(kind: TaskKind, id: &str, task: serde_json::Value) -> TaskRecord {
    let mut record = TaskRecord::followed(kind, id, sandbox::now());
    let task = serde_json::json!({ "task_type": kind.as_str(), "data": task });
    let task: AnyTask = serde_json::from_value(task).unwrap();
    record.apply(Some(&task), None, sandbox::now());
    record
}

/// No element's `src`, `href` or `poster` uses another scheme than http(s).
fn unsafe_links(app: &MountedApp) -> Vec<String> {
    elements(&app.host, "[src], [href], [poster]")
        .iter()
        .flat_map(|element| {
            ["src", "href", "poster"]
                .into_iter()
                .filter_map(|name| element.get_attribute(name))
                .collect::<Vec<_>>()
        })
        .filter(|url| {
            let url = url.trim().to_lowercase();
            !(url.starts_with("http://")
                || url.starts_with("https://")
                || url.starts_with('/')
                || url.starts_with('#'))
        })
        .collect()
}

#[wasm_bindgen_test]
async fn hostile_strings_are_text_and_hostile_urls_are_dropped() {
    sandbox::connect_the_app();
    let script = "<img src=x onerror=\"window.pwned=1\"><script>window.pwned=1</script>";
    tasks::save(&hostile_record(
        TaskKind::VideoTranslate,
        "vt-hostile",
        serde_json::json!({
            "task_id": "vt-hostile", "status": "SUCCEEDED", "name": script, "language": script,
            "video_url": "javascript:window.pwned=1", "caption_url": "data:text/plain,x",
        }),
    ))
    .unwrap();
    tasks::save(&hostile_record(
        TaskKind::ImageGenerate,
        "i2is-hostile",
        serde_json::json!({
            "task_id": "i2is-hostile", "status": "SUCCEEDED",
            "image_url": "https://x.test/a.png", "thumbnail_url": "javascript:window.pwned=1",
        }),
    ))
    .unwrap();
    tasks::save(&hostile_record(
        TaskKind::ImageToVideo,
        "i2v-hostile",
        serde_json::json!({
            "task_id": "i2v-hostile", "status": "FAILED", "error_message": script,
        }),
    ))
    .unwrap();

    let app = mount_app().await;
    wait_for("the three tasks", || shown_ids(&app).len() == 3).await;
    assert_eq!(unsafe_links(&app), Vec::<String>::new());
    let note = texts(&app.host, "li[data-task-id=i2v-hostile] .task-row__note").concat();
    assert_eq!(note, script, "shown as text");

    let app = mount_app_at("/tasks/video_translate/vt-hostile").await;
    wait_for("the translation page", || {
        exists(&app, ".task-detail__result")
    })
    .await;
    assert!(
        !exists(&app, "video"),
        "no player for a javascript: URL: {}",
        app.host.inner_html()
    );
    assert!(exists(&app, ".task-detail__result [role=alert]"));
    assert_eq!(unsafe_links(&app), Vec::<String>::new());

    let app = mount_app_at("/tasks/image_to_video/i2v-hostile").await;
    wait_for("the failure", || exists(&app, ".failure__message")).await;
    assert_eq!(texts(&app.host, ".failure__message"), [script]);
    assert!(!exists(&app, "main script") && !exists(&app, "main img[src=x]"));

    let app = mount_app_at("/tasks/image_generate/i2is-hostile").await;
    wait_for("the gallery", || exists(&app, ".gallery img")).await;
    assert_eq!(unsafe_links(&app), Vec::<String>::new());
    let pwned = js_sys::Reflect::get(&web_sys::window().unwrap(), &"pwned".into()).unwrap();
    assert!(pwned.is_undefined(), "no script ran");
}

#[wasm_bindgen_test]
async fn a_long_board_opens_a_page_at_a_time_and_filters_reach_every_task() {
    sandbox::connect_the_app();
    // 130 finished tasks, oldest first: "old-0" … "old-129".
    for index in 0..130 {
        let request = sandbox::image_request(&format!("picture {index}"), 1);
        let at = 1_000.0 + f64::from(index);
        let mut record = TaskRecord::submitted(&request, &format!("old-{index}"), at);
        record.status = TaskStatus::Succeeded;
        tasks::save(&record).unwrap();
    }
    let app = mount_app().await;
    wait_for("the first page", || shown_ids(&app).len() == 100).await;
    assert_eq!(shown_ids(&app)[0], "old-129", "newest first");
    assert_eq!(
        texts(&app.host, "#show-more"),
        ["Show 30 more (30 not shown)"]
    );
    assert_eq!(
        texts(&app.host, "#board-counts"),
        ["130 tasks, 0 in progress"]
    );

    // A filter looks at every task, drawn or not.
    type_into(&app, "#filter-text", "picture 3");
    wait_for("the matches", || {
        shown_ids(&app)
            == [
                "old-39", "old-38", "old-37", "old-36", "old-35", "old-34", "old-33", "old-32",
                "old-31", "old-30", "old-3",
            ]
    })
    .await;
    assert!(!exists(&app, "#show-more"));
    assert_eq!(
        texts(&app.host, "#board-counts"),
        ["11 of 130 tasks, 0 in progress"],
        "the count says how many the filter lets through"
    );

    type_into(&app, "#filter-text", "");
    wait_for("the first page again", || shown_ids(&app).len() == 100).await;
    element(&app, "#show-more").click();
    wait_for("every task", || shown_ids(&app).len() == 130).await;
    assert!(!exists(&app, "#show-more"));
}

/// A link from one task's page to another of the same kind: the same route
/// with new parameters shows the new task (and a different kind, its kind).
#[wasm_bindgen_test]
async fn following_a_link_from_one_task_page_to_another_shows_the_other() {
    sandbox::set_faults(serde_json::json!({})).await;
    sandbox::connect_the_app();
    let (request, ids) = submit_image("two frames", 2).await;
    sandbox::store_submitted(&request, &ids, sandbox::now());
    let (video, videos) = submit_video("a third", 4).await;
    sandbox::store_submitted(&video, &videos[..1], sandbox::now());
    let app = mount_app_at(&format!("/tasks/image_generate/{}", ids[0])).await;
    let shown = || texts(&app.host, "#task-id").concat();
    wait_for("the first task", || shown() == ids[0]).await;
    let follow = |path: String| {
        let link: web_sys::HtmlElement = web_sys::window()
            .unwrap()
            .document()
            .unwrap()
            .create_element("a")
            .unwrap()
            .dyn_into()
            .unwrap();
        link.set_attribute("href", &path).unwrap();
        app.host.append_child(&link).unwrap();
        link.click();
        link.remove();
    };
    follow(format!("/tasks/image_generate/{}", ids[1]));
    wait_for("the second task", || shown() == ids[1]).await;
    follow(format!("/tasks/image_to_video/{}", videos[0]));
    wait_for("the video task", || shown() == videos[0]).await;
    assert_eq!(texts(&app.host, "#task-title"), ["Image to video"]);
}

/// Addresses typed or pasted by hand: an id with reserved characters is read
/// back from its percent-encoded segment (and looked up by what it is), a
/// trailing slash is the same page, and a kind that does not exist is named.
#[wasm_bindgen_test]
async fn hand_typed_task_addresses_show_what_they_name() {
    sandbox::connect_the_app();
    let id = "i2is-a b/c?";
    let app = mount_app_at(&format!(
        "/tasks/image_generate/{}/",
        media_gen_api::path::segment(id)
    ))
    .await;
    wait_for("the decoded id", || {
        texts(&app.host, "#task-id").concat() == id
    })
    .await;
    assert_eq!(texts(&app.host, "#task-title"), ["Image generation"]);
    wait_for_not_found(&app).await;
    drop(app);

    let app = mount_app_at("/tasks/movie/1").await;
    wait_for("the unknown kind named", || {
        texts(&app.host, ".task-detail .notice[role=alert]")
            .concat()
            .contains("There is no task kind called \"movie\"")
    })
    .await;
    assert_eq!(texts(&app.host, "#task-title"), ["Task"]);
}

#[wasm_bindgen_test]
async fn a_task_shows_its_kept_copy_first_and_says_which_file_was_not_kept() {
    sandbox::connect_the_app();
    tasks::save(&hostile_record(
        TaskKind::ImageToVideo,
        "i2v-kept",
        serde_json::json!({
            "task_id": "i2v-kept", "status": "SUCCEEDED",
            "video_url": "https://cdn.test/v.mp4", "thumbnail_url": "https://cdn.test/v.png",
            "kept": { "video_url": "https://gw.test/kept/0123/i2v-kept.mp4" },
            "not_kept": { "thumbnail_url": "the service's file was an HTML page, not an image" },
        }),
    ))
    .unwrap();
    let app = mount_app_at("/tasks/image_to_video/i2v-kept").await;
    wait_for("the player", || exists(&app, ".video-result video")).await;
    let video = element(&app, ".video-result video");
    assert_eq!(
        video.get_attribute("src").as_deref(),
        Some("https://gw.test/kept/0123/i2v-kept.mp4"),
        "the kept copy, not the service's URL"
    );
    assert_eq!(
        video.get_attribute("poster").as_deref(),
        Some("https://cdn.test/v.png"),
        "not kept: the service's URL"
    );
    assert_eq!(
        texts(&app.host, ".not-kept li"),
        ["Thumbnail kept: no — the service's file was an HTML page, not an image"]
    );
}
