//! Settings kept in web storage: the connection, and whether browser
//! notifications are wanted on this device.
//!
//! The base URL and the token live in `sessionStorage` (gone when the tab
//! closes), unless the user asks to be remembered on this device: then the
//! token moves to `localStorage`, and back when they stop. The token is never
//! put in a URL or logged. Storage can be missing or refuse writes (private
//! windows, disabled storage): reads then yield nothing, writes report
//! failure, and the app keeps working in memory.

use web_sys::Storage;

const BASE_URL_KEY: &str = "media-gen.base-url";
const TOKEN_KEY: &str = "media-gen.token";

/// Settings as stored; `None` where nothing was saved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoredSettings {
    /// The service's base URL, when the user chose one.
    pub base_url: Option<String>,
    /// The bearer token, when the user entered one.
    pub token: Option<String>,
    /// Whether the token is remembered on this device (`localStorage`).
    pub remembered: bool,
}

/// Where a value is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// This tab only.
    Session,
    /// This device, until removed.
    Device,
}

fn storage(place: Place) -> Option<Storage> {
    let window = web_sys::window()?;
    match place {
        Place::Session => window.session_storage().ok().flatten(),
        Place::Device => window.local_storage().ok().flatten(),
    }
}

fn read(place: Place, key: &str) -> Option<String> {
    storage(place)?
        .get_item(key)
        .ok()
        .flatten()
        .filter(|value| !value.is_empty())
}

/// Store `value` under `key`, or remove the key for `None`/empty.
/// Returns `false` when storage is unavailable or refused the write.
fn write(place: Place, key: &str, value: Option<&str>) -> bool {
    let Some(storage) = storage(place) else {
        return false;
    };
    match value.filter(|value| !value.is_empty()) {
        Some(value) => storage.set_item(key, value).is_ok(),
        None => storage.remove_item(key).is_ok(),
    }
}

/// Read the stored settings; a token in this tab wins over a remembered one.
pub fn load() -> StoredSettings {
    let session_token = read(Place::Session, TOKEN_KEY);
    let device_token = read(Place::Device, TOKEN_KEY);
    StoredSettings {
        base_url: read(Place::Session, BASE_URL_KEY).or_else(|| read(Place::Device, BASE_URL_KEY)),
        remembered: session_token.is_none() && device_token.is_some(),
        token: session_token.or(device_token),
    }
}

/// Save (or, with `None`, forget) the base URL; remembered on the device with
/// the token. `false` if storage refused.
pub fn save_base_url(base_url: Option<&str>, remember: bool) -> bool {
    let (keep, clear) = places(remember);
    write(keep, BASE_URL_KEY, base_url) & write(clear, BASE_URL_KEY, None)
}

/// Save (or, with `None`, forget) the token, for this tab or, with
/// `remember`, for this device; the other place is cleared, so the token is
/// never kept in two places. `false` if storage refused.
pub fn save_token(token: Option<&str>, remember: bool) -> bool {
    let (keep, clear) = places(remember);
    write(keep, TOKEN_KEY, token) & write(clear, TOKEN_KEY, None)
}

fn places(remember: bool) -> (Place, Place) {
    if remember {
        (Place::Device, Place::Session)
    } else {
        (Place::Session, Place::Device)
    }
}

/// Where the notification opt-in is kept (this device).
const NOTIFY_KEY: &str = "media-gen.notify";

/// Whether the person turned browser notifications on on this device.
pub fn notifications_wanted() -> bool {
    read(Place::Device, NOTIFY_KEY).is_some_and(|value| value == "on")
}

/// Remember (or forget) that notifications are wanted on this device;
/// `false` when storage refused.
pub fn set_notifications_wanted(wanted: bool) -> bool {
    write(Place::Device, NOTIFY_KEY, wanted.then_some("on"))
}

/// Where "offered once" is kept for each person's library (this device).
const LIBRARY_OFFERED_KEY: &str = "media-gen.library-offered:";

/// Whether this device already offered its tasks to `person`'s library.
pub fn library_offered(person: &str) -> bool {
    read(Place::Device, &format!("{LIBRARY_OFFERED_KEY}{person}")).is_some()
}

/// Remember that this device offered its tasks to `person`'s library;
/// `false` when storage refused.
pub fn set_library_offered(person: &str) -> bool {
    write(
        Place::Device,
        &format!("{LIBRARY_OFFERED_KEY}{person}"),
        Some("yes"),
    )
}

/// Where this browser keeps its collections (when no library does).
const COLLECTIONS_KEY: &str = "media-gen.collections";

/// This browser's collections, as the JSON text last kept.
pub fn local_collections() -> Option<String> {
    read(Place::Device, COLLECTIONS_KEY)
}

/// Keep this browser's collections as `text` (JSON); `false` when storage
/// refused.
pub fn set_local_collections(text: &str) -> bool {
    write(Place::Device, COLLECTIONS_KEY, Some(text))
}

/// Where this browser keeps its saved settings (when no library does).
const PRESETS_KEY: &str = "media-gen.presets";

/// This browser's saved settings, as the JSON text last kept.
pub fn local_presets() -> Option<String> {
    read(Place::Device, PRESETS_KEY)
}

/// Keep this browser's saved settings as `text` (JSON); `false` when
/// storage refused.
pub fn set_local_presets(text: &str) -> bool {
    write(Place::Device, PRESETS_KEY, Some(text))
}
