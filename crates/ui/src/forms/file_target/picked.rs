//! A file a person picked, dropped or pasted, judged before a byte is
//! sent: its first bytes and size by the contract's rules
//! (`media_gen_api::media_type`), and whether it is what the field takes.

use media_gen_api::media_inputs::InputKind;
use media_gen_api::media_type::{check_media, MediaRefusal, MediaType};
use media_gen_client::upload::first_bytes;
use web_sys::File;

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
    let media =
        check_media(&first_bytes(file).await, size, max_video_bytes).map_err(|refusal| {
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
