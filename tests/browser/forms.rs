//! The submit forms in headless Chromium, against the sandbox.

use crate::{mount, sandbox};
use leptos::prelude::document;
use mount::{
    choose, element, elements, exists, leave, mount_app, navigate, options, press, submit_button,
    texts, type_into, type_without_leaving, value_of, wait_for, MountedApp,
};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlTextAreaElement;

async fn image_form() -> MountedApp {
    sandbox::connect_the_app();
    let app = mount_app().await;
    navigate(&app.host, "Image generation").await;
    app
}

#[wasm_bindgen_test]
async fn a_pristine_form_shows_no_problem_until_a_field_is_left_or_a_submit_tried() {
    let app = image_form().await;
    // Nothing typed yet: no problem shown, but the button says why it waits.
    assert!(elements(&app.host, ".problems li").is_empty());
    assert_eq!(
        texts(&app.host, "#submit-state"),
        ["Fix 1 problem to submit"]
    );
    assert!(submit_button(&app).disabled(), "nothing to submit yet");

    // Typing in a field: its problem waits until the field is left.
    type_without_leaving(&app, "#count", "9");
    wait_for("two problems counted", || {
        texts(&app.host, "#submit-state") == ["Fix 2 problems to submit"]
    })
    .await;
    assert!(texts(&app.host, "#generate_count-problems li").is_empty());
    leave(&app, "#count");
    wait_for("the count error", || {
        !texts(&app.host, "#generate_count-problems li").is_empty()
    })
    .await;
    assert!(
        texts(&app.host, "#prompt-problems li").is_empty(),
        "the prompt was not visited"
    );

    // Ctrl+Enter is a submit tried: every problem shows, focus on the first.
    press(&app, "#count", "Enter", true);
    wait_for("the prompt error", || {
        texts(&app.host, "#prompt-problems li") == ["A prompt is required"]
    })
    .await;
    let focused = document().active_element().map(|element| element.id());
    assert_eq!(focused.as_deref(), Some("prompt"));
    assert!(
        element(&app, "#show-problems").hidden(),
        "nothing left to show"
    );
}

#[wasm_bindgen_test]
async fn show_problems_reveals_them_all() {
    let app = form_page("Image to video").await;
    assert!(elements(&app.host, ".problems li").is_empty());
    element(&app, "#show-problems").click();
    wait_for("the problems", || {
        texts(&app.host, "#prompt-problems li") == ["A prompt is required"]
    })
    .await;
    // Model V in start-frame mode names the start frame, not reference images.
    assert_eq!(
        texts(&app.host, "#image_url-problems li"),
        ["Model V needs a start frame"]
    );
    element(&app, "#mode-multi-image").click();
    wait_for("the multi-image problem", || {
        texts(&app.host, "#reference_images-problems li")
            == ["Model V needs 1 to 3 reference images"]
    })
    .await;
    assert!(!exists(&app, "#image_url"));
}

#[wasm_bindgen_test]
async fn errors_appear_and_clear_as_the_user_types() {
    let app = image_form().await;
    type_into(&app, "#prompt", "");
    wait_for("the prompt error", || {
        texts(&app.host, "#prompt-problems li") == ["A prompt is required"]
    })
    .await;

    type_into(&app, "#prompt", "A lighthouse at dawn");
    wait_for("the prompt error to clear", || {
        texts(&app.host, "#prompt-problems li").is_empty()
    })
    .await;
    assert!(!submit_button(&app).disabled());
    assert_eq!(
        texts(&app.host, "#prompt-count").concat(),
        "20 / 1000 characters"
    );

    type_into(&app, "#count", "9");
    wait_for("the count error", || {
        !texts(&app.host, "#generate_count-problems li").is_empty()
    })
    .await;
    assert_eq!(
        texts(&app.host, "#generate_count-problems li"),
        ["Make 1 to 8 images at a time (not 9)"]
    );
    assert!(submit_button(&app).disabled());
    // Once shown, a field's problems follow what is typed, before it is left.
    type_without_leaving(&app, "#count", "2");
    wait_for("the count error to clear", || {
        texts(&app.host, "#generate_count-problems li").is_empty()
    })
    .await;
    assert!(!submit_button(&app).disabled());
}

#[wasm_bindgen_test]
async fn a_sixth_reference_image_is_a_warning_that_does_not_block() {
    let app = image_form().await;
    type_into(&app, "#prompt", "p");
    let urls: Vec<String> = (0..6)
        .map(|i| format!("https://example.com/{i}.png"))
        .collect();
    type_into(&app, "#references", &urls.join("\n"));
    wait_for("the truncation warning", || {
        !texts(&app.host, "#reference_images-problems li").is_empty()
    })
    .await;
    let warnings = elements(&app.host, "#reference_images-problems li.problem--warning");
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0]
        .text_content()
        .unwrap()
        .starts_with("Reference image 6: The service uses the first 5"));
    assert!(!submit_button(&app).disabled());
}

async fn wait_for_success_on_the_board(app: &MountedApp) {
    wait_for("the board", || texts(&app.host, "main h1") == ["Tasks"]).await;
    wait_for("the new task to succeed", || {
        elements(&app.host, "li.task-row")
            .first()
            .and_then(|row| row.get_attribute("data-status"))
            .as_deref()
            == Some("SUCCEEDED")
    })
    .await;
}

#[wasm_bindgen_test]
async fn submitting_puts_the_task_on_the_board_until_it_succeeds() {
    sandbox::set_faults(serde_json::json!({})).await;
    let app = image_form().await;
    type_into(&app, "#prompt", "A lighthouse at dawn");
    wait_for("a valid form", || !submit_button(&app).disabled()).await;
    submit_button(&app).click();
    wait_for_success_on_the_board(&app).await;
    assert_eq!(elements(&app.host, "li.task-row").len(), 1);
}

#[wasm_bindgen_test]
async fn ctrl_enter_submits() {
    sandbox::set_faults(serde_json::json!({})).await;
    let app = image_form().await;
    type_into(&app, "#prompt", "Keyboard only");
    wait_for("a valid form", || !submit_button(&app).disabled()).await;
    press(&app, "#prompt", "Enter", true);
    wait_for_success_on_the_board(&app).await;
}

#[wasm_bindgen_test]
async fn a_refused_submit_shows_the_reason_and_keeps_the_form() {
    sandbox::set_faults(serde_json::json!({"http_503": 1.0, "limit": 1})).await;
    let app = image_form().await;
    type_into(&app, "#prompt", "Busy service");
    wait_for("a valid form", || !submit_button(&app).disabled()).await;
    submit_button(&app).click();
    wait_for("the error", || {
        !elements(&app.host, "form [role=alert]").is_empty()
    })
    .await;
    let message = texts(&app.host, "form [role=alert]").concat();
    assert!(message.starts_with("HTTP 503"), "{message}");
    let prompt: HtmlTextAreaElement = app
        .host
        .query_selector("#prompt")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(
        prompt.value(),
        "Busy service",
        "nothing the user entered is lost"
    );
}

async fn form_page(title: &str) -> MountedApp {
    sandbox::connect_the_app();
    let app = mount_app().await;
    navigate(&app.host, title).await;
    app
}

/// A sandbox image of `ratio` (`16x9`), which previews can measure.
fn sandbox_image(ratio: &str) -> String {
    format!("{}/sandbox/media/image/1K/{ratio}.png", sandbox::url())
}

#[wasm_bindgen_test]
async fn switching_model_shows_hides_and_limits_fields() {
    let app = form_page("Image to video").await;
    // Model V, start frame: start and end frame, audio; three resolutions.
    assert!(exists(&app, "#image_url") && exists(&app, "#end_image_url"));
    assert!(!exists(&app, "#references"));
    assert!(exists(&app, "#generate_audio"));
    assert_eq!(options(&app, "#aspect_resolution"), ["720p", "1080p", "4k"]);
    assert_eq!(options(&app, "#duration"), ["4", "6", "8"]);
    choose(&app, "#aspect_resolution", "4k");
    choose(&app, "#duration", "6");

    // S: 720p only, 4/8/12 seconds, start frame only, no audio.
    element(&app, "#model-S").click();
    wait_for("model S's limits", || {
        options(&app, "#aspect_resolution") == ["720p"]
    })
    .await;
    assert_eq!(value_of(&app, "#aspect_resolution"), "720p");
    assert_eq!(options(&app, "#duration"), ["4", "8", "12"]);
    assert_eq!(
        value_of(&app, "#duration"),
        "4",
        "6 moved to the nearest allowed"
    );
    assert!(exists(&app, "#image_url"));
    assert!(!exists(&app, "#end_image_url") && !exists(&app, "#generate_audio"));
    assert!(!exists(&app, "#v-mode"), "only V has modes");

    // KL: reference images instead of a start frame, 5 or 10 seconds.
    element(&app, "#model-KL").click();
    wait_for("model KL's fields", || exists(&app, "#references")).await;
    assert!(!exists(&app, "#image_url"));
    assert_eq!(options(&app, "#aspect_resolution"), ["720p", "1080p"]);
    assert_eq!(options(&app, "#duration"), ["5", "10"]);
    assert_eq!(
        texts(&app.host, "label[for=references]"),
        ["Reference image URLs, one per line (1 to 7)"]
    );

    // V in multi-image mode: duration fixed at 8.
    element(&app, "#model-V").click();
    wait_for("model V's modes", || exists(&app, "#mode-multi-image")).await;
    element(&app, "#mode-multi-image").click();
    wait_for("multi-image mode", || options(&app, "#duration") == ["8"]).await;
    assert!(texts(&app.host, "#duration-hint")
        .concat()
        .starts_with("Fixed at 8 seconds"));
    assert_eq!(
        texts(&app.host, "label[for=references]"),
        ["Reference image URLs, one per line (1 to 3)"]
    );
}

#[wasm_bindgen_test]
async fn image_to_video_errors_follow_the_model_and_the_images() {
    let app = form_page("Image to video").await;
    type_into(&app, "#prompt", "A drone shot over a harbour");
    wait_for("one problem left", || {
        texts(&app.host, "#submit-state") == ["Fix 1 problem to submit"]
    })
    .await;
    assert!(submit_button(&app).disabled());

    type_into(&app, "#image_url", "frame.png");
    wait_for("the URL rule", || {
        elements(&app.host, "#image_url-problems li")
            .first()
            .and_then(|li| li.get_attribute("data-rule"))
            .as_deref()
            == Some("invalid_url")
    })
    .await;

    type_into(&app, "#image_url", &sandbox_image("16x9"));
    wait_for("the start frame to be accepted", || {
        texts(&app.host, "#image_url-problems li").is_empty()
    })
    .await;
    assert!(!submit_button(&app).disabled());
    let caption = || {
        texts(
            &app.host,
            ".field:has(#image_url) .image-previews figcaption",
        )
    };
    wait_for("the preview to load", || {
        caption().iter().any(|text| text != "Loading…")
    })
    .await;
    assert_eq!(caption(), ["1024 × 576 px"]);

    // An end frame of another shape: a warning beside it, submit still allowed.
    type_into(&app, "#end_image_url", &sandbox_image("9x16"));
    wait_for("the aspect warning", || {
        elements(&app.host, "#end_image_url-problems li.problem--warning")
            .first()
            .and_then(|li| li.get_attribute("data-rule"))
            .as_deref()
            == Some("aspect_mismatch")
    })
    .await;
    assert!(!submit_button(&app).disabled());

    // The request as it will be sent, on demand.
    let preview = texts(&app.host, "#request-json").concat();
    assert!(preview.starts_with("POST /v1/image_to_video"), "{preview}");
    assert!(preview.contains("\"model\": \"V\""), "{preview}");
    assert!(preview.contains("\"end_image_url\""), "{preview}");

    // Model S takes no end frame: it leaves the request, nothing is lost.
    element(&app, "#model-S").click();
    wait_for("the request without the end frame", || {
        !texts(&app.host, "#request-json")
            .concat()
            .contains("end_image_url")
    })
    .await;
    element(&app, "#model-V").click();
    wait_for("the end frame back", || exists(&app, "#end_image_url")).await;
    assert_eq!(value_of(&app, "#end_image_url"), sandbox_image("9x16"));
}

#[wasm_bindgen_test]
async fn an_image_to_video_task_goes_on_the_board() {
    sandbox::set_faults(serde_json::json!({})).await;
    let app = form_page("Image to video").await;
    element(&app, "#model-S").click();
    type_into(&app, "#prompt", "Waves");
    type_into(&app, "#image_url", &sandbox_image("16x9"));
    type_into(&app, "#count", "2");
    wait_for("a valid form", || !submit_button(&app).disabled()).await;
    submit_button(&app).click();
    wait_for("the board", || texts(&app.host, "main h1") == ["Tasks"]).await;
    wait_for("both videos to succeed", || {
        let rows = elements(&app.host, "li.task-row[data-kind=image_to_video]");
        rows.len() == 2
            && rows
                .iter()
                .all(|row| row.get_attribute("data-status").as_deref() == Some("SUCCEEDED"))
    })
    .await;
}

#[wasm_bindgen_test]
async fn languages_come_from_the_service_with_search_and_predicted_names() {
    let offered = sandbox::client().target_languages(None).await.unwrap();
    let app = form_page("Video translation").await;
    wait_for("the service's languages", || {
        elements(&app.host, "#language-options li").len() == offered.len()
    })
    .await;

    type_into(&app, "#language-search", "SPAN");
    wait_for("the search", || {
        texts(&app.host, "#language-options li") == ["Spanish"]
    })
    .await;
    press(&app, "#language-search", "Enter", false);
    wait_for("Spanish chosen", || {
        texts(&app.host, "#chosen-languages li") == ["Spanish×"]
    })
    .await;
    element(&app, &format!("#language-{}", offered[0])).click();

    type_into(&app, "#name", "my clip");
    wait_for("predicted names", || {
        texts(&app.host, "#predicted-names li")
            == [
                "Spanish-my clip".to_owned(),
                format!("{}-my clip", offered[0]),
            ]
    })
    .await;
    assert_eq!(texts(&app.host, "#name-count"), ["7 / 99 characters"]);

    type_into(&app, "#name", "");
    wait_for("the unnamed pattern", || {
        texts(&app.host, "#predicted-names li")
            .first()
            .is_some_and(|name| name.starts_with("Spanish-videoTranslate-"))
    })
    .await;

    type_into(&app, "#name", &"n".repeat(100));
    wait_for("the name limit", || {
        texts(&app.host, "#name-problems li")
            == ["A name has fewer than 100 characters; this one has 100"]
    })
    .await;
    type_into(&app, "#speaker_num", "-1");
    wait_for("the speaker rule", || {
        !texts(&app.host, "#speaker_num-problems li").is_empty()
    })
    .await;
    assert!(submit_button(&app).disabled());

    // Taking a language out again.
    element(
        &app,
        "#chosen-languages button[aria-label='Remove Spanish']",
    )
    .click();
    wait_for("Spanish removed", || {
        texts(&app.host, "#chosen-languages li").len() == 1
    })
    .await;
}

#[wasm_bindgen_test]
async fn a_translation_makes_one_task_per_language() {
    sandbox::set_faults(serde_json::json!({})).await;
    let app = form_page("Video translation").await;
    wait_for("the languages", || exists(&app, "#language-Spanish")).await;
    type_into(
        &app,
        "#video_url",
        &format!("{}/sandbox/media/video/landscape.mp4", sandbox::url()),
    );
    element(&app, "#language-Spanish").click();
    element(&app, "#language-French").click();
    element(&app, "#enable_caption").click();
    wait_for("a valid form", || !submit_button(&app).disabled()).await;
    assert!(texts(&app.host, "#request-json")
        .concat()
        .contains("\"enable_caption\": true"));
    submit_button(&app).click();
    wait_for("two translations on the board", || {
        elements(&app.host, "li.task-row[data-kind=video_translate]").len() == 2
    })
    .await;
}

#[wasm_bindgen_test]
async fn the_inbox_button_fills_in_the_callback_url() {
    let app = form_page("Image generation").await;
    // Folded under "Advanced"; the inbox is offered once the sandbox said
    // it is one, when the section opened.
    assert!(!exists(&app, "#use-inbox"));
    element(&app, "details.advanced summary").click();
    wait_for("the inbox button", || exists(&app, "#use-inbox")).await;
    element(&app, "#use-inbox").click();
    wait_for("the inbox URL", || {
        value_of(&app, "#callback_url") == format!("{}/sandbox/inbox/app", sandbox::url())
    })
    .await;
    type_into(&app, "#callback_url", "ftp://x");
    wait_for("the callback rule", || {
        !texts(&app.host, "#callback_url-problems li").is_empty()
    })
    .await;
}

#[wasm_bindgen_test]
async fn with_storage_full_the_app_warns_and_keeps_working_in_memory() {
    sandbox::set_faults(serde_json::json!({})).await;
    let app = image_form().await;
    // Fill this origin's localStorage to the browser's quota.
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    let chunk = "x".repeat(512 * 1024);
    let mut filled = 0;
    while storage
        .set_item(&format!("filler-{filled}"), &chunk)
        .is_ok()
    {
        filled += 1;
        assert!(filled < 200, "localStorage has no quota?");
    }
    let small = "y".repeat(1024);
    let mut extra = 0;
    while storage
        .set_item(&format!("filler-small-{extra}"), &small)
        .is_ok()
    {
        extra += 1;
    }

    type_into(&app, "#prompt", "No room to store this");
    wait_for("a valid form", || !submit_button(&app).disabled()).await;
    submit_button(&app).click();
    wait_for("the board", || texts(&app.host, "main h1") == ["Tasks"]).await;
    wait_for("the storage warning", || {
        texts(&app.host, ".board [role=alert]")
            .concat()
            .contains("kept only until the page closes")
    })
    .await;
    // The task is followed in memory all the same.
    wait_for_success_on_the_board(&app).await;
    storage.clear().unwrap();
}
