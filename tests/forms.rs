//! The submit forms in headless Chromium, against the sandbox.
#![cfg(target_arch = "wasm32")]
// Test-only crate: a failed unwrap is a failed test, with its location.
#![allow(clippy::unwrap_used)]

mod mount;
mod sandbox;

use mount::{elements, mount_app, navigate, texts, wait_for, MountedApp};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlButtonElement, HtmlInputElement, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Type into a field as a person does: set the value, fire `input`.
fn type_into(app: &MountedApp, selector: &str, value: &str) {
    let element = app.host.query_selector(selector).unwrap().unwrap();
    if let Some(area) = element.dyn_ref::<HtmlTextAreaElement>() {
        area.set_value(value);
    } else {
        element.unchecked_ref::<HtmlInputElement>().set_value(value);
    }
    element
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
}

fn submit_button(app: &MountedApp) -> HtmlButtonElement {
    app.host
        .query_selector("#submit")
        .unwrap()
        .unwrap()
        .unchecked_into()
}

async fn image_form() -> MountedApp {
    sandbox::connect_the_app();
    let app = mount_app().await;
    navigate(&app.host, "Image generation").await;
    app
}

#[wasm_bindgen_test]
async fn errors_appear_and_clear_as_the_user_types() {
    let app = image_form().await;
    assert_eq!(
        texts(&app.host, "#prompt-problems li"),
        ["A prompt is required"]
    );
    assert!(submit_button(&app).disabled(), "nothing to submit yet");

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
    type_into(&app, "#count", "2");
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
        .starts_with("reference_images[5]: The service uses the first 5"));
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
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("Enter");
    init.set_ctrl_key(true);
    init.set_bubbles(true);
    let event =
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    app.host
        .query_selector("#prompt")
        .unwrap()
        .unwrap()
        .dispatch_event(&event)
        .unwrap();
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
