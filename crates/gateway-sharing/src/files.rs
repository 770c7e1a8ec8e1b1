//! A shared link's files, under its own address:
//! `/s/{token}/{task}/{name}`, where `task` is the task's place in the
//! link and `name` says which of its results (`video.mp4`, `image.png`,
//! `thumbnail.jpg`, `captions.ass`), or the subtitles converted by the
//! contract (`captions.vtt`, `captions.srt`). Served as the store serves
//! any kept copy (`Range`, its id as `ETag`), read again from the link on
//! every call: a link taken back answers 410 for its files too.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use media_gen_api::kept::MediaField;
use media_gen_api::subtitles::{ass_to_vtt, vtt_to_srt};
use media_gen_gateway_access::admission::Admission;
use media_gen_gateway_base::offered::On;
use media_gen_gateway_base::refusal::Refusal;

use crate::shown::{self, File};
use crate::SharingState;

/// The largest subtitles file converted.
const MAX_CAPTION_BYTES: usize = 2 * 1024 * 1024;

/// The file a name asks for: which result, and the subtitles' format when
/// they are to be converted.
fn asked(name: &str) -> Option<(MediaField, Option<&'static str>)> {
    let (stem, extension) = name.rsplit_once('.')?;
    let field = match stem {
        "video" => MediaField::VideoUrl,
        "image" => MediaField::ImageUrl,
        "thumbnail" => MediaField::ThumbnailUrl,
        "captions" => MediaField::CaptionUrl,
        _ => return None,
    };
    let converted = match (field, extension) {
        (MediaField::CaptionUrl, "vtt") => Some("vtt"),
        (MediaField::CaptionUrl, "srt") => Some("srt"),
        _ => None,
    };
    Some((field, converted))
}

/// The name a page links `file` by: its result's word and its type's
/// extension.
pub fn name_of(file: &File) -> String {
    let stem = match file.field {
        MediaField::VideoUrl => "video",
        MediaField::ImageUrl => "image",
        MediaField::ThumbnailUrl => "thumbnail",
        MediaField::CaptionUrl => "captions",
    };
    let extension = file
        .record
        .name
        .rsplit_once('.')
        .map_or("bin", |(_, extension)| extension);
    format!("{stem}.{extension}")
}

/// `GET /s/{token}/{task}/{name}`.
pub async fn file(
    On(sharing): On<SharingState>,
    State(admission): State<Arc<Admission>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path((token, task, name)): Path<(String, String, String)>,
    request: Request,
) -> Result<Response, Refusal> {
    let link = shown::link(&sharing, &token).await?;
    shown::let_in(&admission, &link, request.headers(), peer.ip()).await?;
    let (field, converted) = asked(&name).ok_or(Refusal::NotFound)?;
    let index: usize = task.parse().map_err(|_| Refusal::NotFound)?;
    let file = shown::file(&sharing, &link, index, field).await?;
    let uploads = &sharing.kept.uploads;
    let mime: mime::Mime = file
        .record
        .kept
        .as_ref()
        .and_then(|kept| kept.mime.parse().ok())
        .unwrap_or(mime::APPLICATION_OCTET_STREAM);
    let Some(format) = converted else {
        return Ok(media_gen_gateway_uploads::serve::stored_file(
            uploads,
            &file.id,
            &file.record,
            &mime,
            request,
        )
        .await);
    };
    // The subtitles read whole (a small text), then converted.
    let whole = Request::builder()
        .method(Method::GET)
        .body(Body::empty())
        .map_err(|_| Refusal::Unavailable)?;
    let read = uploads
        .store
        .bytes
        .serve(&file.id, &file.record, &mime, whole)
        .await
        .map_err(|_| Refusal::Unavailable)?;
    let bytes = http_body_util::Limited::new(read.into_body(), MAX_CAPTION_BYTES)
        .collect()
        .await
        .map_err(|_| Refusal::Unavailable)?
        .to_bytes();
    let vtt = ass_to_vtt(&String::from_utf8_lossy(&bytes)).text;
    let (text, content_type) = match format {
        "srt" => (vtt_to_srt(&vtt), "application/x-subrip; charset=utf-8"),
        _ => (vtt, "text/vtt; charset=utf-8"),
    };
    let mut response = (StatusCode::OK, text).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        header::HeaderName::from_static("cross-origin-resource-policy"),
        HeaderValue::from_static("cross-origin"),
    );
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_files_name_says_which_result_and_the_subtitles_format() {
        assert_eq!(asked("video.mp4"), Some((MediaField::VideoUrl, None)));
        assert_eq!(asked("image.png"), Some((MediaField::ImageUrl, None)));
        assert_eq!(
            asked("captions.vtt"),
            Some((MediaField::CaptionUrl, Some("vtt")))
        );
        assert_eq!(
            asked("captions.srt"),
            Some((MediaField::CaptionUrl, Some("srt")))
        );
        assert_eq!(asked("captions.ass"), Some((MediaField::CaptionUrl, None)));
        assert_eq!(asked("video.srt"), Some((MediaField::VideoUrl, None)));
        assert_eq!(asked("secret"), None);
        assert_eq!(asked("../kept.png"), None);
    }
}
