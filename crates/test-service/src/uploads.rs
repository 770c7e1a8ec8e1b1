//! Uploads, as a site that takes them does (tus 1.0 under `/uploads/`:
//! create, `PATCH` the bytes in pieces, `HEAD` where it stands, the file
//! served once whole), kept in memory: the widgets' file fields and
//! `client.upload` work against the test service as against a gateway. A
//! file is judged by its first bytes with the contract's rules, as the
//! gateway judges it, and refused with the same words.

use std::collections::HashMap;

use media_gen_api::media_type::{check_media, MediaType, SNIFF_BYTES};
use media_gen_api::relay::{UploadsInfo, UPLOADS_PATH};
use media_gen_api::validate::MAX_IMAGE_BYTES;

use super::Answer;

/// The largest video the test service takes: it is kept in the page's memory.
pub const MAX_VIDEO_BYTES: u64 = 200 << 20;
/// How long an upload is said to be kept (it lasts as long as the page).
const TTL_SECONDS: u64 = 24 * 3_600;

/// Where a site takes uploads, as `/capabilities` says.
pub fn offered() -> UploadsInfo {
    UploadsInfo {
        path: UPLOADS_PATH.to_owned(),
        max_image_bytes: MAX_IMAGE_BYTES,
        max_video_bytes: MAX_VIDEO_BYTES,
        ttl_seconds: TTL_SECONDS,
        keeps_results: false,
    }
}

/// One upload.
#[derive(Debug, Clone)]
struct Upload {
    length: u64,
    bytes: Vec<u8>,
    media: Option<MediaType>,
}

/// Every upload, by id.
#[derive(Debug, Default)]
pub struct Uploads {
    files: HashMap<String, Upload>,
    made: u64,
}

/// A request's headers, lower-cased names.
pub type Headers = HashMap<String, String>;

/// A tus answer: the version, and where the upload stands.
fn tus(status: u16, upload: Option<(&Upload, u64)>) -> Answer {
    let mut answer = Answer::empty(status);
    answer
        .headers
        .push(("Tus-Resumable".to_owned(), "1.0.0".to_owned()));
    if let Some((upload, offset)) = upload {
        answer
            .headers
            .push(("Upload-Offset".to_owned(), offset.to_string()));
        answer
            .headers
            .push(("Upload-Length".to_owned(), upload.length.to_string()));
    }
    answer
}

/// A refusal of an upload call, in the error envelope.
fn refused(status: u16, message: &str) -> Answer {
    let envelope = media_gen_api::ErrorEnvelope::new(
        media_gen_api::error_codes::INVALID_PARAMETER,
        message.to_owned(),
    );
    Answer::json(status, &serde_json::to_value(envelope).unwrap_or_default())
}

impl Uploads {
    /// Answer `method` on `rest` (the path after `/uploads/`) with
    /// `headers` and `body`; the upload's address starts with `base`.
    pub fn answer(
        &mut self,
        method: &str,
        rest: &str,
        headers: &Headers,
        body: &[u8],
        base: &str,
    ) -> Answer {
        let id = rest.split('/').next().unwrap_or_default();
        match (method, id) {
            ("POST", "") => self.create(headers, base),
            ("OPTIONS", "") => {
                let mut answer = tus(204, None);
                answer
                    .headers
                    .push(("Tus-Version".to_owned(), "1.0.0".to_owned()));
                answer
            }
            ("PATCH", id) => self.patch(id, headers, body),
            ("HEAD", id) if headers.contains_key("tus-resumable") => match self.files.get(id) {
                Some(upload) => tus(200, Some((upload, upload.bytes.len() as u64))),
                None => tus(404, None),
            },
            ("GET" | "HEAD", id) => self.file(id),
            _ => refused(405, "Method not allowed on an upload"),
        }
    }

    fn create(&mut self, headers: &Headers, base: &str) -> Answer {
        let Some(length) = headers
            .get("upload-length")
            .and_then(|value| value.trim().parse::<u64>().ok())
        else {
            return refused(400, "Upload-Length: the file's size in bytes");
        };
        if length == 0 || length > MAX_VIDEO_BYTES.max(MAX_IMAGE_BYTES) {
            return refused(
                413,
                &format!(
                    "file: at most {} bytes here",
                    MAX_VIDEO_BYTES.max(MAX_IMAGE_BYTES)
                ),
            );
        }
        self.made += 1;
        let id = format!("{:032x}", self.made);
        let upload = Upload {
            length,
            bytes: Vec::new(),
            media: None,
        };
        let mut answer = tus(201, Some((&upload, 0)));
        answer
            .headers
            .push(("Location".to_owned(), format!("{base}{UPLOADS_PATH}{id}")));
        self.files.insert(id, upload);
        answer
    }

    fn patch(&mut self, id: &str, headers: &Headers, body: &[u8]) -> Answer {
        let Some(upload) = self.files.get_mut(id) else {
            return tus(404, None);
        };
        let from = headers
            .get("upload-offset")
            .and_then(|value| value.trim().parse::<u64>().ok());
        if from != Some(upload.bytes.len() as u64) {
            let mut answer = refused(
                409,
                "Upload-Offset: not where the upload stands (HEAD says)",
            );
            answer
                .headers
                .push(("Upload-Offset".to_owned(), upload.bytes.len().to_string()));
            return answer;
        }
        if upload.bytes.len() as u64 + body.len() as u64 > upload.length {
            return refused(400, "the bytes go past the upload's length");
        }
        upload.bytes.extend_from_slice(body);
        let whole = upload.bytes.len() as u64 == upload.length;
        if upload.media.is_none() && (upload.bytes.len() >= SNIFF_BYTES || whole) {
            match check_media(
                &upload.bytes[..upload.bytes.len().min(SNIFF_BYTES)],
                upload.length,
                MAX_VIDEO_BYTES,
            ) {
                Ok(media) => upload.media = Some(media),
                Err(refusal) => {
                    self.files.remove(id);
                    return refused(415, &refusal.to_string());
                }
            }
        }
        let offset = upload.bytes.len() as u64;
        tus(204, Some((upload, offset)))
    }

    fn file(&self, id: &str) -> Answer {
        match self.files.get(id) {
            Some(upload) if upload.bytes.len() as u64 == upload.length => {
                let mime = upload
                    .media
                    .map_or("application/octet-stream", MediaType::mime);
                Answer {
                    mime: mime.to_owned(),
                    body: upload.bytes.clone(),
                    ..Answer::empty(200)
                }
            }
            _ => refused(404, "No such upload, or not whole yet"),
        }
    }
}
