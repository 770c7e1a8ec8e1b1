//! The keyboard flow (`/`, `?`, Esc) and what a hidden tab shows when tasks
//! end: a count in the title and, for people who opt in, notifications.

use crate::{mount, sandbox};
use mount::{element, exists, js, mount_app_at, wait_for, MountedApp};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

/// Press `key` on the page itself (not in a field); returns whether the
/// browser's own action for it still happens (the press was not cancelled).
fn press_on_page(key: &str) -> bool {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event =
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .body()
        .unwrap()
        .dispatch_event(&event)
        .unwrap()
}

fn active_id() -> String {
    web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .active_element()
        .map(|element| element.id())
        .unwrap_or_default()
}

fn path() -> String {
    web_sys::window().unwrap().location().pathname().unwrap()
}

fn title() -> String {
    web_sys::window().unwrap().document().unwrap().title()
}

async fn wait_until_ended(app: &MountedApp, id: &str) {
    let selector = format!("li.task-row[data-task-id='{id}'][data-status='SUCCEEDED']");
    wait_for("the task to end", || exists(app, &selector)).await;
}

#[wasm_bindgen_test]
async fn the_keys_handled_cancel_the_browsers_action_and_no_others() {
    let _app = mount_app_at("/").await;
    // Listened to without `passive`, so cancelling takes effect.
    assert!(!press_on_page("?"), "? opens the list, not the browser's");
    js("document.querySelector('dialog[open]')?.close();");
    assert!(!press_on_page("/"), "/ focuses the filter, no Quick Find");
    assert!(press_on_page("a"), "a key the app does not use");
    assert!(press_on_page("Escape"), "Esc on the board is the browser's");
}

#[wasm_bindgen_test]
async fn slash_focuses_the_board_filter_from_any_page() {
    sandbox::connect_the_app();
    sandbox::images_on_the_board("a hidden tab", 1)
        .await
        .remove(0);
    let app = mount_app_at("/").await;
    wait_for("the filter", || exists(&app, "#filter-text")).await;
    press_on_page("/");
    assert_eq!(active_id(), "filter-text");

    // A "/" typed into a field stays there.
    mount::type_into(&app, "#filter-text", "");
    mount::press(&app, "#filter-text", "/", false);
    assert_eq!(active_id(), "filter-text");
    drop(app);

    let _settings = mount_app_at("/settings").await;
    wait_for("the settings", || path() == "/settings").await;
    press_on_page("/");
    wait_for("the board's filter to take focus", || {
        path() == "/" && active_id() == "filter-text"
    })
    .await;
}

#[wasm_bindgen_test]
async fn question_mark_lists_the_shortcuts() {
    sandbox::connect_the_app();
    let app = mount_app_at("/").await;
    let dialog: web_sys::HtmlDialogElement = element(&app, "#shortcuts").unchecked_into();
    assert!(!dialog.open());
    press_on_page("?");
    assert!(dialog.open(), "the list opens");
    let listed = dialog.text_content().unwrap();
    for keys in ["Ctrl+Enter or ⌘+Enter", "/", "Esc", "?"] {
        assert!(listed.contains(keys), "{keys} in {listed}");
    }
    dialog.close();
    // The button at the foot of every page opens it too.
    element(&app, "#shortcuts-open").click();
    assert!(dialog.open());
    dialog.close();
}

#[wasm_bindgen_test]
async fn escape_closes_a_task_page_and_the_task_goes_on() {
    sandbox::set_faults(serde_json::json!({})).await;
    sandbox::connect_the_app();
    let id = sandbox::images_on_the_board("a hidden tab", 1)
        .await
        .remove(0);
    let app = mount_app_at(&format!("/tasks/image_generate/{id}")).await;
    wait_for("the task page", || exists(&app, "#task-id")).await;
    press_on_page("Escape");
    wait_for("the board", || path() == "/" && exists(&app, ".board")).await;
    // Still on the board and still followed to its end.
    wait_until_ended(&app, &id).await;
    drop(app);

    // Esc elsewhere does nothing.
    let form = mount_app_at("/new/image-generate").await;
    wait_for("the form", || exists(&form, "#prompt")).await;
    press_on_page("Escape");
    assert_eq!(path(), "/new/image-generate");
}

#[wasm_bindgen_test]
async fn a_hidden_tab_counts_ended_tasks_in_its_title() {
    sandbox::set_faults(serde_json::json!({})).await;
    sandbox::connect_the_app();
    // The app's page has a title (the test page has none).
    web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .set_title("Media Generation");
    let before = title();
    sandbox::set_page_hidden(true);
    let id = sandbox::images_on_the_board("a hidden tab", 1)
        .await
        .remove(0);
    let app = mount_app_at("/").await;
    wait_until_ended(&app, &id).await;
    let counted = format!("(1) {before}");
    for _ in 0..100 {
        if title() == counted {
            break;
        }
        gloo_timers::future::TimeoutFuture::new(10).await;
    }
    assert_eq!(title(), counted);
    sandbox::set_page_hidden(false);
    wait_for("the count to clear", || title() == before).await;
}

#[wasm_bindgen_test]
async fn people_who_opt_in_are_notified_when_a_hidden_tab_sees_a_task_end() {
    sandbox::set_faults(serde_json::json!({})).await;
    sandbox::connect_the_app();
    // The browser's notifications, recorded: permission is given when asked.
    js("window.__notes = [];
        window.Notification = class {
          constructor(title, options) { window.__notes.push([title, options.body, options.tag]); }
          static permission = 'default';
          static requestPermission() { this.permission = 'granted'; return Promise.resolve('granted'); }
        };");
    let settings = mount_app_at("/settings").await;
    wait_for("the opt-in", || exists(&settings, "#notifications")).await;
    element(&settings, "#notifications").click();
    wait_for("notifications on", || {
        element(&settings, "#notifications-state")
            .text_content()
            .unwrap()
            == "Notifications are on."
    })
    .await;
    drop(settings);

    sandbox::set_page_hidden(true);
    let id = sandbox::images_on_the_board("a hidden tab", 1)
        .await
        .remove(0);
    let app = mount_app_at("/").await;
    wait_until_ended(&app, &id).await;
    wait_for("a notification", || {
        js("return window.__notes.length").as_f64() == Some(1.0)
    })
    .await;
    let note = js("return window.__notes[0].join('|')")
        .as_string()
        .unwrap();
    assert_eq!(
        note,
        format!("Image generation succeeded|Task {id}|image_generate:{id}")
    );
    sandbox::set_page_hidden(false);
    drop(app);

    // Turned off, it stays off after a reload of the app.
    let settings = mount_app_at("/settings").await;
    wait_for("the toggle", || exists(&settings, "#notifications")).await;
    assert_eq!(
        element(&settings, "#notifications").text_content().unwrap(),
        "Turn notifications off"
    );
    element(&settings, "#notifications").click();
    drop(settings);
    let settings = mount_app_at("/settings").await;
    wait_for("the toggle", || exists(&settings, "#notifications")).await;
    assert_eq!(
        element(&settings, "#notifications-state")
            .text_content()
            .unwrap(),
        "Notifications are off."
    );
}
