//! A file a person picked, dropped or pasted, judged before a byte is
//! sent: its first bytes and size by the contract's rules
//! (`media_gen_api::media_type`), and whether it is what the field takes.

use media_gen_api::media_inputs::InputKind;
use media_gen_api::media_type::{check_media, MediaRefusal, MediaType, SNIFF_BYTES};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::File;

/// The first bytes of `file`.
async fn head(file: &File) -> Vec<u8> {
    let Ok(start) = file.slice_with_i32_and_i32(0, SNIFF_BYTES as i32) else {
        return Vec::new();
    };
    match JsFuture::from(start.array_buffer()).await {
        Ok(buffer) => buffer
            .dyn_into::<js_sys::ArrayBuffer>()
            .map(|buffer| js_sys::Uint8Array::new(&buffer).to_vec())
            .unwrap_or_default(),
        Err(_) => Vec::new(),
    }
}

/// Why a file is not sent: the message that names the field and the rule,
/// and whether it is an image only too large (which can be shrunk).
pub struct Refused {
    /// The message.
    pub message: String,
    /// An image over 20 MB, that "Shrink to fit" can make fit.
    pub shrinkable: bool,
}

/// The type of `file` when `field` (which takes `kind`) may take it, or
/// why not.
pub async fn judge(
    file: &File,
    field: &str,
    kind: InputKind,
    max_video_bytes: u64,
) -> Result<MediaType, Refused> {
    let name = file.name();
    let size = file.size() as u64;
    let media = check_media(&head(file).await, size, max_video_bytes).map_err(|refusal| {
        let shrinkable = kind == InputKind::Image
            && matches!(refusal, MediaRefusal::TooLarge { kind: "image", .. });
        let rule = refusal.to_string();
        Refused {
            message: format!("{field}: {name}: {}", rule.trim_start_matches("file: ")),
            shrinkable,
        }
    })?;
    let wrong = |message: String| Refused {
        message,
        shrinkable: false,
    };
    match (kind, media.is_image()) {
        (InputKind::Image, true) | (InputKind::Video, false) => Ok(media),
        (InputKind::Image, false) => Err(wrong(format!(
            "{field}: {name} is a video; this field takes an image"
        ))),
        (InputKind::Video, true) => Err(wrong(format!(
            "{field}: {name} is an image; this field takes a video"
        ))),
    }
}
