//! Other tabs' changes to the stored tasks, from `storage` events (sent to
//! every other document of this origin when one writes localStorage).

use gloo_events::EventListener;
use media_gen_api::TaskKey;
use wasm_bindgen::JsCast;
use web_sys::StorageEvent;

use super::record::{TaskRecord, KEY_PREFIX};

/// What another tab did to a stored task.
#[derive(Debug, Clone, PartialEq)]
pub enum TaskChange {
    /// Stored or updated it.
    Saved(Box<TaskRecord>),
    /// Removed it.
    Removed(TaskKey),
}

/// The task a task record's storage key names.
pub fn parse_key(key: &str) -> Option<TaskKey> {
    key.strip_prefix(KEY_PREFIX)?.parse().ok()
}

/// The change one storage event describes, if it is about a task.
fn change(key: &str, new_value: Option<String>) -> Option<TaskChange> {
    let task = parse_key(key)?;
    match new_value {
        None => Some(TaskChange::Removed(task)),
        Some(json) => TaskRecord::from_stored(&media_gen_client::value_reader::parse(&json))
            .ok()
            .map(|record| TaskChange::Saved(Box::new(record))),
    }
}

/// Call `on_change` for each change another tab makes to a stored task, for
/// as long as the returned listener lives.
pub fn listen(on_change: impl Fn(TaskChange) + 'static) -> Option<EventListener> {
    let window = web_sys::window()?;
    Some(EventListener::new(&window, "storage", move |event| {
        let Some(event) = event.dyn_ref::<StorageEvent>() else {
            return;
        };
        // `key` is null when another tab cleared all storage: nothing to follow.
        if let Some(change) = event.key().and_then(|key| change(&key, event.new_value())) {
            on_change(change);
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use media_gen_api::TaskKind;

    #[test]
    fn keys_name_kind_and_id() {
        assert_eq!(
            parse_key("media-gen.task:image_to_video:i2v-1:x"),
            Some(TaskKey::new(TaskKind::ImageToVideo, "i2v-1:x"))
        );
        assert_eq!(parse_key("media-gen.task:nope:1"), None);
        assert_eq!(parse_key("media-gen.token"), None);
    }

    #[test]
    fn a_removal_is_named_by_its_key() {
        assert_eq!(
            change("media-gen.task:image_generate:i2is-1", None),
            Some(TaskChange::Removed(TaskKey::new(
                TaskKind::ImageGenerate,
                "i2is-1"
            )))
        );
        // A saved record is read by the browser's `JSON.parse`
        // (`TaskRecord::from_stored`): the app's browser tests read them
        // (`tests/browser/stored_records.rs`).
        assert_eq!(change("media-gen.token", Some("{}".into())), None);
    }
}
