//! Connection settings kept in web storage.
//!
//! The token lives in `sessionStorage` (gone when the tab closes). Storage can
//! be missing or refuse writes (private windows, disabled storage): reads then
//! yield nothing and writes report failure, and the app keeps working in memory.

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
}

fn session_storage() -> Option<Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

fn read(key: &str) -> Option<String> {
    session_storage()?
        .get_item(key)
        .ok()
        .flatten()
        .filter(|value| !value.is_empty())
}

/// Store `value` under `key`, or remove the key for `None`/empty.
/// Returns `false` when storage is unavailable or refused the write.
fn write(key: &str, value: Option<&str>) -> bool {
    let Some(storage) = session_storage() else {
        return false;
    };
    match value.filter(|value| !value.is_empty()) {
        Some(value) => storage.set_item(key, value).is_ok(),
        None => storage.remove_item(key).is_ok(),
    }
}

/// Read the stored settings.
pub fn load() -> StoredSettings {
    StoredSettings {
        base_url: read(BASE_URL_KEY),
        token: read(TOKEN_KEY),
    }
}

/// Save (or, with `None`, forget) the base URL. `false` if storage refused.
pub fn save_base_url(base_url: Option<&str>) -> bool {
    write(BASE_URL_KEY, base_url)
}

/// Save (or, with `None`, forget) the token for this tab. `false` if storage refused.
pub fn save_token(token: Option<&str>) -> bool {
    write(TOKEN_KEY, token)
}
