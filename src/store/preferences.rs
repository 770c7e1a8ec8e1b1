//! This device's preferences kept in `localStorage`: whether browser
//! notifications are wanted. Missing or refusing storage reads as "off" and
//! a write that fails is reported, as for the connection settings.

const NOTIFY_KEY: &str = "media-gen.notify";

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Whether the person turned notifications on on this device.
pub fn notifications_wanted() -> bool {
    local_storage()
        .and_then(|storage| storage.get_item(NOTIFY_KEY).ok().flatten())
        .is_some_and(|value| value == "on")
}

/// Remember (or forget) that notifications are wanted; `false` when
/// storage refused.
pub fn set_notifications_wanted(wanted: bool) -> bool {
    let Some(storage) = local_storage() else {
        return false;
    };
    if wanted {
        storage.set_item(NOTIFY_KEY, "on").is_ok()
    } else {
        storage.remove_item(NOTIFY_KEY).is_ok()
    }
}
