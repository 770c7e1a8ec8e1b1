//! Other tabs' changes to the stored tasks, from `storage` events (sent to
//! every other document of this origin when one writes localStorage).

use gloo_events::EventListener;
use media_gen_api::TaskKind;
use wasm_bindgen::JsCast;
use web_sys::StorageEvent;

use super::record::{TaskRecord, KEY_PREFIX};

/// What another tab did to a stored task.
#[derive(Debug, Clone, PartialEq)]
pub enum TaskChange {
    /// Stored or updated it.
    Saved(Box<TaskRecord>),
    /// Removed it.
    Removed(TaskKind, String),
}

/// The kind and id a task record's storage key names.
pub fn parse_key(key: &str) -> Option<(TaskKind, String)> {
    let rest = key.strip_prefix(KEY_PREFIX)?;
    let (kind, id) = rest.split_once(':')?;
    Some((kind.parse().ok()?, id.to_owned()))
}

/// The change one storage event describes, if it is about a task.
fn change(key: &str, new_value: Option<String>) -> Option<TaskChange> {
    let (kind, id) = parse_key(key)?;
    match new_value {
        None => Some(TaskChange::Removed(kind, id)),
        Some(json) => serde_json::from_slice(json.as_bytes())
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

    #[test]
    fn keys_name_kind_and_id() {
        assert_eq!(
            parse_key("media-gen.task:image_to_video:i2v-1:x"),
            Some((TaskKind::ImageToVideo, "i2v-1:x".to_owned()))
        );
        assert_eq!(parse_key("media-gen.task:nope:1"), None);
        assert_eq!(parse_key("media-gen.token"), None);
    }

    #[test]
    fn removal_and_unreadable_values() {
        assert_eq!(
            change("media-gen.task:image_generate:i2is-1", None),
            Some(TaskChange::Removed(
                TaskKind::ImageGenerate,
                "i2is-1".to_owned()
            ))
        );
        assert_eq!(
            change("media-gen.task:image_generate:i2is-1", Some("{".into())),
            None
        );
        let record = TaskRecord::submitted(
            TaskKind::ImageGenerate,
            "i2is-1",
            serde_json::Value::Null,
            1.0,
        );
        let json = serde_json::to_string(&record).unwrap();
        assert_eq!(
            change(&record.key(), Some(json)),
            Some(TaskChange::Saved(Box::new(record)))
        );
    }
}
