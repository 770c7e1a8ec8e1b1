//! Writing text to the clipboard.

use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

/// Why a text was not copied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyRefused {
    /// The page has no clipboard: it exists only on secure pages (https,
    /// localhost).
    NoClipboard,
    /// The browser refused the write (no permission, page not focused).
    Refused,
}

/// Copy `text` to the clipboard.
pub async fn write_text(text: &str) -> Result<(), CopyRefused> {
    let navigator = web_sys::window()
        .ok_or(CopyRefused::NoClipboard)?
        .navigator();
    let has_clipboard =
        js_sys::Reflect::has(&navigator, &JsValue::from_str("clipboard")).unwrap_or(false);
    if !has_clipboard {
        return Err(CopyRefused::NoClipboard);
    }
    JsFuture::from(navigator.clipboard().write_text(text))
        .await
        .map(|_| ())
        .map_err(|_| CopyRefused::Refused)
}
