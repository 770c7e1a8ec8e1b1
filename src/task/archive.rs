//! "Download all" as one `.zip`: each result file fetched as a `Blob`, read
//! piece by piece for its CRC-32, and saved after the header the contract
//! lays out ([`media_gen_api::archive`]), with `request.json` last; the
//! browser joins the pieces into one `Blob` without copying a file into
//! this page's memory whole. A file this page may not read (its host sends
//! no CORS headers) stays out of the archive; `request.json` still names
//! where it is.

use media_gen_api::archive::{Archive, ArchiveFull, Crc32};
use media_gen_api::export::MANIFEST_NAME;
use media_gen_client::media;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

use super::result_files::{click_download, ResultFile};

/// Bytes read at a time for a file's CRC-32.
const PIECE: f64 = 4.0 * 1024.0 * 1024.0;

/// What saving an archive did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Archived {
    /// The files in it (besides `request.json`).
    pub saved: usize,
    /// The files this page could not read, left out.
    pub unread: usize,
}

/// Why no archive was saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotArchived {
    /// More than a `.zip` holds.
    Full(ArchiveFull),
    /// The browser failed to read or join the pieces.
    Browser,
}

impl From<ArchiveFull> for NotArchived {
    fn from(full: ArchiveFull) -> Self {
        NotArchived::Full(full)
    }
}

impl From<JsValue> for NotArchived {
    fn from(_: JsValue) -> Self {
        NotArchived::Browser
    }
}

/// The CRC-32 of `blob`, read [`PIECE`] bytes at a time.
async fn crc_of(blob: &web_sys::Blob) -> Result<u32, JsValue> {
    let mut crc = Crc32::default();
    let size = blob.size();
    let mut at = 0.0;
    while at < size {
        let end = (at + PIECE).min(size);
        let piece = blob.slice_with_f64_and_f64(at, end)?;
        let buffer = JsFuture::from(piece.array_buffer()).await?;
        crc.update(&js_sys::Uint8Array::new(&buffer).to_vec());
        at = end;
    }
    Ok(crc.finish())
}

/// Save `files` and the manifest `manifest` makes (given the archive's
/// name of each file saved, by its address) as `name`.
pub async fn save_archive(
    name: &str,
    files: &[ResultFile],
    manifest: impl FnOnce(&dyn Fn(&str) -> Option<String>) -> Vec<u8>,
) -> Result<Archived, NotArchived> {
    let now = (js_sys::Date::now() / 1_000.0) as u64;
    let mut archive = Archive::new(now);
    let parts = js_sys::Array::new();
    // Few files: a list, not a map (less code in the page).
    let mut names: Vec<(String, String)> = Vec::new();
    let mut unread = 0;
    for file in files {
        let Ok(blob) = media::fetch_blob(&file.url).await else {
            unread += 1;
            continue;
        };
        let crc = crc_of(&blob).await?;
        let header = archive.file_header(&file.name, blob.size() as u64, crc)?;
        parts.push(&js_sys::Uint8Array::from(&header[..]));
        parts.push(&blob);
        names.push((file.url.clone(), file.name.clone()));
    }
    let saved = names.len();
    let manifest = manifest(&|url: &str| {
        names
            .iter()
            .find(|(saved, _)| saved == url)
            .map(|(_, name)| name.clone())
    });
    let mut crc = Crc32::default();
    crc.update(&manifest);
    let header = archive.file_header(MANIFEST_NAME, manifest.len() as u64, crc.finish())?;
    parts.push(&js_sys::Uint8Array::from(&header[..]));
    parts.push(&js_sys::Uint8Array::from(&manifest[..]));
    parts.push(&js_sys::Uint8Array::from(&archive.finish()?[..]));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/zip");
    let zip = web_sys::Blob::new_with_blob_sequence_and_options(&parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&zip)?;
    click_download(&url, name, false)?;
    // The download has its bytes once started; free them a little later.
    gloo_timers::callback::Timeout::new(60_000, move || media::revoke_blob_url(&url)).forget();
    Ok(Archived { saved, unread })
}
