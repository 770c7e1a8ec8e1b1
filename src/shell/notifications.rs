//! Tasks that end while the tab is hidden: a count in the page title —
//! "(2) Media Generation" — until the tab is looked at again, and, for
//! people who opt in on the settings page, a browser notification each.

use leptos::prelude::*;
use media_gen_client::visibility::{on_visibility_change, page_hidden};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Notification, NotificationOptions, NotificationPermission};

use crate::kind_text;
use media_gen_ui::store::record::TaskRecord;
use media_gen_ui::store::settings as stored_settings;

/// The title with `unseen` tasks ended while the tab was hidden.
pub fn title_with_count(base: &str, unseen: u32) -> String {
    if unseen == 0 {
        base.to_owned()
    } else {
        format!("({unseen}) {base}")
    }
}

/// The notification's title and body for an ended task.
pub fn notification_text(record: &TaskRecord) -> (String, String) {
    let kind = kind_text::title(record.kind);
    let title = match (&record.error, record.status.is_terminal()) {
        (Some(_), _) => format!("{kind} could not be followed"),
        (None, true) => format!("{kind} {}", record.status.as_str().to_ascii_lowercase()),
        (None, false) => format!("{kind} changed"),
    };
    (title, format!("Task {}", record.task_id))
}

fn permission_granted() -> bool {
    Notification::permission() == NotificationPermission::Granted
}

/// The notifier, provided as context by [`provide_notifier`].
#[derive(Clone, Copy)]
pub struct Notifier {
    /// Tasks ended since the tab was last visible.
    pub unseen: RwSignal<u32>,
    /// Whether browser notifications are on (opted in and allowed).
    pub enabled: RwSignal<bool>,
    /// The page's title without a count.
    base_title: StoredValue<String>,
}

/// Provide the notifier: keeps the title's count, clears it when the tab
/// is seen again.
pub fn provide_notifier() -> Notifier {
    let opted_in = stored_settings::notifications_wanted();
    // `Notification` is missing in some browsers (and insecure pages).
    let supported =
        js_sys::Reflect::has(&window(), &JsValue::from_str("Notification")).unwrap_or(false);
    let notifier = Notifier {
        unseen: RwSignal::new(0),
        enabled: RwSignal::new(supported && opted_in && permission_granted()),
        base_title: StoredValue::new(document().title()),
    };
    let listener = on_visibility_change(move |hidden| {
        if !hidden {
            notifier.count(0);
        }
    });
    let listener = StoredValue::new_local(Some(listener));
    on_cleanup(move || listener.update_value(|listener| drop(listener.take())));
    provide_context(notifier);
    notifier
}

impl Notifier {
    /// The notifier provided by the app.
    pub fn expect() -> Self {
        expect_context::<Notifier>()
    }

    /// Set the count and the title that shows it.
    fn count(&self, unseen: u32) {
        self.unseen.set(unseen);
        let title = self
            .base_title
            .with_value(|base| title_with_count(base, unseen));
        document().set_title(&title);
    }

    /// `record` just ended: counted in the title and notified while the tab
    /// is hidden; nothing happens while it is in view.
    pub fn ended(&self, record: &TaskRecord) {
        if !page_hidden() {
            return;
        }
        self.count(self.unseen.get_untracked() + 1);
        if self.enabled.get_untracked() && permission_granted() {
            let (title, body) = notification_text(record);
            let options = NotificationOptions::new();
            options.set_body(&body);
            // One notification per task, however often it is reported.
            options.set_tag(&format!("{}:{}", record.kind, record.task_id));
            let _ = Notification::new_with_options(&title, &options);
        }
    }

    /// Ask the browser for permission and turn notifications on; `Err` says
    /// why they stay off.
    pub async fn enable(&self) -> Result<(), String> {
        if !js_sys::Reflect::has(&window(), &JsValue::from_str("Notification")).unwrap_or(false) {
            return Err("This browser has no notifications here (they need https)".to_owned());
        }
        if !permission_granted() {
            let asked = Notification::request_permission()
                .map_err(|_| "The browser would not ask for permission".to_owned())?;
            let _ = JsFuture::from(asked).await;
        }
        if !permission_granted() {
            return Err(
                "The browser blocks notifications for this site: allow them in its site settings"
                    .to_owned(),
            );
        }
        // Storage may refuse: notifications are on for this visit anyway.
        let _ = stored_settings::set_notifications_wanted(true);
        self.enabled.set(true);
        Ok(())
    }

    /// Turn notifications off (the title's count stays).
    pub fn disable(&self) {
        let _ = stored_settings::set_notifications_wanted(false);
        self.enabled.set(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use media_gen_api::{TaskKind, TaskStatus};

    #[test]
    fn the_title_counts_unseen_tasks() {
        assert_eq!(title_with_count("Media Generation", 0), "Media Generation");
        assert_eq!(
            title_with_count("Media Generation", 3),
            "(3) Media Generation"
        );
    }

    #[test]
    fn notifications_say_what_ended() {
        let mut record = TaskRecord::followed(TaskKind::ImageGenerate, "ig-1", 0.0);
        record.status = TaskStatus::Succeeded;
        assert_eq!(
            notification_text(&record),
            (
                "Image generation succeeded".to_owned(),
                "Task ig-1".to_owned()
            )
        );
        record.status = TaskStatus::Failed;
        assert_eq!(notification_text(&record).0, "Image generation failed");
    }
}
