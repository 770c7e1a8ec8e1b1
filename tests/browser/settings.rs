//! The settings page: where the token is kept, and the connection test
//! against the sandbox, in headless Chromium.

use crate::{mount, sandbox};
use mount::{clear_storage, mount_app, navigate, wait_for, MountedApp};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlInputElement, Storage};

const TOKEN_KEY: &str = "media-gen.token";

fn session() -> Storage {
    web_sys::window()
        .unwrap()
        .session_storage()
        .unwrap()
        .unwrap()
}

fn device() -> Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

fn input(app: &MountedApp, selector: &str) -> HtmlInputElement {
    app.host
        .query_selector(selector)
        .unwrap()
        .unwrap()
        .unchecked_into()
}

/// Type `value` into the field and commit it, as a person leaving the field would.
fn enter(app: &MountedApp, selector: &str, value: &str) {
    let field = input(app, selector);
    field.set_value(value);
    field
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
}

async fn settings_page() -> MountedApp {
    clear_storage();
    let app = mount_app().await;
    navigate(&app.host, "Settings").await;
    app
}

async fn test_connection(app: &MountedApp) -> String {
    let result: HtmlElement = app
        .host
        .query_selector("#check-result")
        .unwrap()
        .unwrap()
        .unchecked_into();
    let button: HtmlElement = app
        .host
        .query_selector("#test-connection")
        .unwrap()
        .unwrap()
        .unchecked_into();
    button.click();
    wait_for("the connection test", || {
        let text = result.text_content().unwrap_or_default();
        !text.is_empty() && text != "Testing…"
    })
    .await;
    result.text_content().unwrap_or_default()
}

#[wasm_bindgen_test]
async fn the_token_stays_in_the_tab_unless_remembered() {
    let app = settings_page().await;
    enter(&app, "#token", "my-token");
    assert_eq!(
        session().get_item(TOKEN_KEY).unwrap().as_deref(),
        Some("my-token")
    );
    assert_eq!(device().get_item(TOKEN_KEY).unwrap(), None);

    input(&app, "#remember").click();
    assert_eq!(
        device().get_item(TOKEN_KEY).unwrap().as_deref(),
        Some("my-token")
    );
    assert_eq!(
        session().get_item(TOKEN_KEY).unwrap(),
        None,
        "never in two places"
    );

    input(&app, "#remember").click();
    assert_eq!(
        session().get_item(TOKEN_KEY).unwrap().as_deref(),
        Some("my-token")
    );
    assert_eq!(device().get_item(TOKEN_KEY).unwrap(), None);
    let url = web_sys::window().unwrap().location().href().unwrap();
    assert!(!url.contains("my-token"), "never in the URL");
    clear_storage();
}

#[wasm_bindgen_test]
async fn a_remembered_token_is_there_after_a_reload() {
    let app = settings_page().await;
    enter(&app, "#token", "kept-token");
    input(&app, "#remember").click();
    drop(app);
    // A new app instance reads what the last one stored, as after a reload.
    let app = mount_app().await;
    navigate(&app.host, "Settings").await;
    assert_eq!(input(&app, "#token").value(), "kept-token");
    assert!(input(&app, "#remember").checked());
    clear_storage();
}

#[wasm_bindgen_test]
async fn test_connection_reports_success() {
    sandbox::set_faults(serde_json::json!({})).await;
    let app = settings_page().await;
    enter(&app, "#base-url", sandbox::url());
    enter(&app, "#token", sandbox::TOKEN);
    let message = test_connection(&app).await;
    assert_eq!(
        message,
        "Connected: the service offers 18 languages for translation."
    );
    clear_storage();
}

#[wasm_bindgen_test]
async fn test_connection_says_when_the_token_is_wrong() {
    let app = settings_page().await;
    enter(&app, "#base-url", sandbox::url());
    enter(&app, "#token", "wrong-token");
    let message = test_connection(&app).await;
    assert!(message.starts_with("HTTP 401"), "{message}");
    assert!(message.contains("Check the access token"), "{message}");
    clear_storage();
}

#[wasm_bindgen_test]
async fn test_connection_says_when_the_service_is_unreachable() {
    let app = settings_page().await;
    enter(&app, "#base-url", "http://127.0.0.1:9");
    enter(&app, "#token", "any");
    let message = test_connection(&app).await;
    assert!(
        message.starts_with("Could not reach the service at http://127.0.0.1:9/"),
        "{message}"
    );
    assert!(
        message.contains("CORS") && message.contains("Content-Security-Policy"),
        "{message}"
    );
    clear_storage();
}
