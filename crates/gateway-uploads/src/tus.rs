//! tus 1.0 under `/uploads/`: core (`HEAD`, `PATCH`), creation (`POST`
//! with `Upload-Length`), creation-with-upload (the first bytes in that
//! `POST`), expiration (`Upload-Expires`) and termination (`DELETE`), so
//! any tus client uploads here and resumes after a dropped connection or a
//! reload at the offset `HEAD` gives. The file's type is decided from its
//! first bytes as they arrive ([`media_gen_api::media_type`]): a file that
//! is not one the service takes is refused and deleted at once.

use crate::FileId;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{FromRequestParts, Path, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use media_gen_api::media_type::{check_media, SNIFF_BYTES};
use media_gen_api::validate::MAX_IMAGE_BYTES;

use super::metadata::{safe_name, value};
use super::record::{Upload, RESERVATION};
use super::records::Writing;
use super::refusal::UploadRefusal;
use super::{Uploads, TUS_RESUMABLE};
use crate::access::{now_seconds, Who};
use crate::TakenUploads;
use media_gen_gateway_access::admission::Admitted;
use media_gen_gateway_base::offered::On;
use media_gen_gateway_base::refusal::Refusal;

/// The extensions this server speaks.
const EXTENSIONS: &str = "creation,creation-with-upload,expiration,termination";
/// The body type of bytes sent to an upload.
const OFFSET_STREAM: &str = "application/offset+octet-stream";
/// Bytes uploaded (a counter for the metrics).
pub const UPLOADED_BYTES: &str = "gateway_upload_bytes_total";

/// The uploads, or the refusal that they are off.
fn on(state: &TakenUploads) -> Result<&Arc<Uploads>, UploadRefusal> {
    state.0.as_ref().ok_or(UploadRefusal::Off)
}

/// A call that speaks tus 1.0.0; 412 otherwise (before the call is let
/// in).
pub struct Tus;

impl<S: Send + Sync> FromRequestParts<S> for Tus {
    type Rejection = UploadRefusal;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Tus, UploadRefusal> {
        match parts
            .headers
            .get(TUS_RESUMABLE)
            .and_then(|v| v.to_str().ok())
        {
            Some("1.0.0") => Ok(Tus),
            _ => Err(UploadRefusal::Version),
        }
    }
}

/// A header holding a count of bytes, named in the refusal when it does not read.
fn bytes_header(headers: &HeaderMap, name: &str, rule: &str) -> Result<u64, UploadRefusal> {
    headers
        .get(name)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<u64>().ok())
        .ok_or_else(|| UploadRefusal::Header(format!("{name}: {rule}")))
}

/// Whether the body is bytes for an upload.
fn is_offset_stream(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.trim().eq_ignore_ascii_case(OFFSET_STREAM))
}

/// Why a tus call was refused: by the uploads' rules, or by the gateway
/// letting the call in (a key, a budget).
#[derive(Debug)]
pub enum TusRefused {
    /// The uploads' own refusal, with tus's headers.
    Upload(UploadRefusal),
    /// The gateway's, as every call gets it.
    Gateway(Refusal),
}

impl From<UploadRefusal> for TusRefused {
    fn from(refusal: UploadRefusal) -> TusRefused {
        TusRefused::Upload(refusal)
    }
}

impl From<Refusal> for TusRefused {
    fn from(refusal: Refusal) -> TusRefused {
        TusRefused::Gateway(refusal)
    }
}

impl IntoResponse for TusRefused {
    fn into_response(self) -> Response {
        match self {
            TusRefused::Upload(refusal) => refusal.into_response(),
            TusRefused::Gateway(refusal) => refusal.into_response(),
        }
    }
}

/// Upload `id`'s lock (one writer at a time, on any gateway), and what is
/// known of it read again under the lock: another gateway may have
/// written meanwhile.
async fn locked(uploads: &Uploads, id: &FileId) -> Result<(Writing, Upload), UploadRefusal> {
    let writing = uploads
        .store
        .start_writing(id)
        .await
        .map_err(UploadRefusal::storage)?
        .ok_or(UploadRefusal::Locked)?;
    let upload = uploads.live(id).await?;
    Ok((writing, upload))
}

/// Whether `who` may change `upload`: its person, or anyone holding its
/// address in `open` mode (an address changes on a phone).
fn may_change(who: &Who, upload: &Upload) -> Result<(), UploadRefusal> {
    match who {
        Who::Person(_) if who.to_string() != upload.owner => Err(UploadRefusal::NotYours),
        _ => Ok(()),
    }
}

/// The headers of every tus answer: the version, and where the upload
/// stands (`offset`, expiry) when there is one.
fn tus_answer(status: StatusCode, upload: Option<(&Upload, u64)>) -> Response {
    let mut response = status.into_response();
    let headers = response.headers_mut();
    headers.insert(TUS_RESUMABLE, HeaderValue::from_static("1.0.0"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Some((upload, offset)) = upload {
        headers.insert("upload-offset", HeaderValue::from(offset));
        headers.insert("upload-length", HeaderValue::from(upload.length));
        let expires = std::time::UNIX_EPOCH + std::time::Duration::from_secs(upload.expires);
        if let Ok(date) = HeaderValue::from_str(&httpdate::fmt_http_date(expires)) {
            headers.insert("upload-expires", date);
        }
    }
    response
}

/// `OPTIONS /uploads/`: what this server speaks.
pub async fn options(On(uploads): On<TakenUploads>) -> Result<Response, UploadRefusal> {
    let mut response = tus_answer(StatusCode::NO_CONTENT, None);
    let headers = response.headers_mut();
    headers.insert("tus-version", HeaderValue::from_static("1.0.0"));
    headers.insert("tus-extension", HeaderValue::from_static(EXTENSIONS));
    headers.insert("tus-max-size", HeaderValue::from(uploads.largest()));
    Ok(response)
}

/// `POST /uploads/`: a new upload of `Upload-Length` bytes (and its first
/// bytes, when the body carries them).
pub async fn create(
    On(uploads): On<TakenUploads>,
    _: Tus,
    Admitted { who, .. }: Admitted,
    request: Request,
) -> Result<Response, TusRefused> {
    to_the_end(async move {
        let uploads = &uploads;
        let (parts, body) = request.into_parts();
        let (id, upload) = start(uploads, &who, &parts.headers).await?;
        let (upload, offset) = if is_offset_stream(&parts.headers) {
            // Held as a PATCH holds it: the sweeper leaves it alone meanwhile.
            let writing = uploads.store.start_writing(&id).await.ok().flatten();
            receive(uploads, &id, upload, 0, body, writing.as_ref()).await?
        } else {
            (upload, 0)
        };
        let mut response = tus_answer(StatusCode::CREATED, Some((&upload, offset)));
        if let Ok(location) = HeaderValue::from_str(&uploads.address(&id)) {
            response.headers_mut().insert(header::LOCATION, location);
        }
        tracing::info!(
            who = %who,
            upload = %crate::observe::logged_id(id.as_str()),
            length = upload.length,
            "upload started"
        );
        Ok(response)
    })
    .await
}

/// Run an upload call in a task of its own: a connection that drops ends
/// the request's future, not this work, which keeps every byte that
/// arrived and releases the upload's lock when done, wherever the drop
/// found the call.
async fn to_the_end(
    work: impl std::future::Future<Output = Result<Response, TusRefused>> + Send + 'static,
) -> Result<Response, TusRefused> {
    tokio::spawn(work)
        .await
        .unwrap_or(Err(TusRefused::Upload(UploadRefusal::Storage)))
}

/// Check a new upload against the bounds, the quota and `who`'s budgets,
/// and keep it: its id and what is known of it.
async fn start(
    uploads: &Uploads,
    who: &Who,
    headers: &HeaderMap,
) -> Result<(FileId, Upload), UploadRefusal> {
    let length = bytes_header(
        headers,
        "upload-length",
        "the file's size in bytes (Upload-Defer-Length is not taken)",
    )?;
    if length > uploads.largest() {
        return Err(UploadRefusal::TooLong {
            length,
            max: uploads.largest(),
            images: MAX_IMAGE_BYTES,
        });
    }
    if length == 0 {
        return Err(media_gen_api::media_type::MediaRefusal::NotMedia.into());
    }
    // One admission at a time, on this gateway and on every gateway
    // sharing its records: the quota and the uploads under way are read
    // and the new one kept in one step.
    let _one_at_a_time = uploads.admit().await.map_err(UploadRefusal::storage)?;
    let now = now_seconds();
    let idle = uploads.idle_seconds();
    room_for(uploads, now, length.min(RESERVATION), length).await?;
    let owner = who.to_string();
    let under_way = uploads
        .store
        .in_flight_for(&owner, uploads.settings.in_flight, now, idle)
        .await
        .map_err(UploadRefusal::storage)?;
    uploads.budgets.take(&owner, length, under_way, now).await?;
    let given = headers
        .get("upload-metadata")
        .and_then(|value| value.to_str().ok())
        .and_then(|metadata| value(metadata, "filename"));
    let id = FileId::new().ok_or(UploadRefusal::Storage)?;
    let upload = Upload::new(
        length,
        safe_name(given.as_deref(), "bin"),
        owner,
        now,
        uploads.settings.ends_from_now(),
    );
    let upload = uploads
        .store
        .create(&id, upload)
        .await
        .map_err(UploadRefusal::storage)?;
    Ok((id, upload))
}

/// Whether the uploads have room at `now` for `adding` more bytes counted
/// ([`super::record::Upload::counted_at`]) by a file that needs
/// `remaining` more bytes in all: the 507 saying what is in use otherwise.
async fn room_for(
    uploads: &Uploads,
    now: u64,
    adding: u64,
    remaining: u64,
) -> Result<(), UploadRefusal> {
    let quota = uploads.settings.quota;
    let used = uploads
        .store
        .counted_for(adding, quota, now, uploads.idle_seconds())
        .await
        .map_err(UploadRefusal::storage)?;
    if remaining <= quota && used.saturating_add(adding) <= quota {
        return Ok(());
    }
    tracing::warn!(used, quota, "the upload quota is full");
    Err(UploadRefusal::Full {
        length: remaining,
        used,
        quota,
    })
}

/// `HEAD /uploads/{id}`: with `Tus-Resumable`, where the upload stands;
/// without, the finished file's headers.
pub async fn head(
    State(state): State<TakenUploads>,
    Path(id): Path<String>,
    request: Request,
) -> Result<Response, UploadRefusal> {
    if !request.headers().contains_key(TUS_RESUMABLE) {
        return super::serve::file(State(state), Path(id), request).await;
    }
    let uploads = on(&state)?;
    let id = Uploads::known(&id)?;
    let upload = uploads.live(&id).await?;
    let offset = uploads
        .store
        .offset(&id, &upload)
        .await
        .map_err(UploadRefusal::storage)?;
    Ok(tus_answer(StatusCode::OK, Some((&upload, offset))))
}

/// `PATCH /uploads/{id}`: bytes from `Upload-Offset` on.
pub async fn patch(
    State(state): State<TakenUploads>,
    _: Tus,
    Admitted { who, .. }: Admitted,
    Path(id): Path<String>,
    request: Request,
) -> Result<Response, TusRefused> {
    to_the_end(async move {
        let (parts, body) = request.into_parts();
        let written = async {
            let uploads = on(&state)?;
            let id = Uploads::known(&id)?;
            may_change(&who, &uploads.live(&id).await?)?;
            if !is_offset_stream(&parts.headers) {
                return Err(UploadRefusal::ContentType);
            }
            let from = bytes_header(
                &parts.headers,
                "upload-offset",
                "the offset the bytes start at (HEAD says where the upload stands)",
            )?;
            // Held until the bytes are written: one writer per upload.
            let (writing, upload) = locked(uploads, &id).await?;
            // Complete already: nothing to write, nothing changed.
            if upload.complete {
                if from != upload.length {
                    return Err(UploadRefusal::WrongOffset(upload.length));
                }
                let length = upload.length;
                return Ok((upload, length));
            }
            let at = uploads
                .store
                .offset(&id, &upload)
                .await
                .map_err(UploadRefusal::storage)?;
            if from != at {
                return Err(UploadRefusal::WrongOffset(at));
            }
            receive(uploads, &id, upload, at, body, Some(&writing)).await
        };
        let (upload, offset) = written.await?;
        Ok(tus_answer(StatusCode::NO_CONTENT, Some((&upload, offset))))
    })
    .await
}

/// Write `body` to the upload `id` from `offset`: what is known of it and
/// its new offset. Its type is decided once its first bytes are in; a file
/// refused is deleted. A body cut short keeps what arrived (the client
/// resumes from there).
async fn receive(
    uploads: &Uploads,
    id: &FileId,
    mut upload: Upload,
    mut offset: u64,
    body: Body,
    writing: Option<&Writing>,
) -> Result<(Upload, u64), UploadRefusal> {
    // Written only while the right to write is ours: once lost, another
    // request may be writing, and nothing more of this one is kept.
    let lost = || writing.is_some_and(|writing| !writing.held());
    let mut writer = match uploads.store.bytes.writer(id, &upload).await {
        Ok(writer) => writer,
        Err(error) => return whole_or(uploads, id, upload, error).await,
    };
    // The first bytes, for the type: those already in, then these.
    let mut first = if upload.media.is_none() && offset > 0 {
        uploads
            .store
            .bytes
            .head(id, &upload, SNIFF_BYTES)
            .await
            .map_err(UploadRefusal::storage)?
    } else {
        Vec::new()
    };
    // The quota is asked before the first byte is taken, whatever the
    // client's piece size, and again each time a reservation's worth has
    // arrived since it was last asked.
    if offset < upload.length {
        let (now, remaining) = (now_seconds(), upload.length - offset);
        // An upload idle past `--upload-idle` holds no reservation: it
        // takes one again now.
        let adding = if upload.under_way_at(now, uploads.idle_seconds()) {
            0
        } else {
            remaining.min(RESERVATION)
        };
        room_for(uploads, now, adding, remaining).await?;
    }
    let mut asked_at = offset;
    let mut stream = body.into_data_stream();
    let mut outcome = Ok(());
    while let Some(frame) = stream.next().await {
        let bytes = match frame {
            Ok(bytes) => bytes,
            Err(error) => {
                // The connection dropped, went idle or was too slow: keep
                // what came; a sender still there is told why it ended.
                if crate::body_deadline::is_past_deadline(&error) {
                    outcome = Err(UploadRefusal::TooSlow);
                }
                break;
            }
        };
        if lost() {
            return Err(UploadRefusal::Locked);
        }
        if offset + bytes.len() as u64 > upload.length {
            outcome = Err(UploadRefusal::PastLength(upload.length));
            break;
        }
        if upload.media.is_none() {
            let wanted = SNIFF_BYTES.saturating_sub(first.len()).min(bytes.len());
            first.extend_from_slice(&bytes[..wanted]);
        }
        let changed = match writer.write(&bytes, &mut upload).await {
            Ok(changed) => changed,
            Err(error) => return whole_or(uploads, id, upload, error).await,
        };
        offset += bytes.len() as u64;
        metrics::counter!(UPLOADED_BYTES).increment(bytes.len() as u64);
        if upload.media.is_none() && (first.len() >= SNIFF_BYTES || offset == upload.length) {
            match check_media(&first, upload.length, uploads.settings.max_video_bytes) {
                Ok(media) => {
                    upload.name = safe_name(Some(&upload.name), media.extension());
                    upload.media = Some(media);
                }
                Err(refused) => {
                    drop(writer);
                    uploads.store.remove(id, &upload).await;
                    return Err(refused.into());
                }
            }
        }
        // Another reservation's worth in since the quota was last asked:
        // counted, and the quota asked again (a client may send a whole
        // file in one request, or in pieces smaller than a reservation).
        let counted_again = offset >= asked_at.saturating_add(RESERVATION);
        if changed || counted_again {
            // A part is in: a resume (here or on another gateway) starts after it.
            upload.touched = now_seconds();
            upload.received = offset;
            uploads
                .store
                .save(id, &upload)
                .await
                .map_err(UploadRefusal::storage)?;
        }
        if counted_again && offset < upload.length {
            asked_at = offset;
            if let Err(full) = room_for(uploads, now_seconds(), 0, upload.length - offset).await {
                outcome = Err(full);
                break;
            }
        }
    }
    if lost() {
        return Err(UploadRefusal::Locked);
    }
    let complete = offset == upload.length;
    upload.touched = now_seconds();
    upload.received = offset;
    if let Err(error) = writer.finish(&mut upload, complete).await {
        return whole_or(uploads, id, upload, error).await;
    }
    if complete {
        upload.complete = true;
        upload.expires = uploads.settings.ends_from_now();
    }
    uploads
        .store
        .save(id, &upload)
        .await
        .map_err(UploadRefusal::storage)?;
    outcome.map(|()| (upload, offset))
}

/// A storage failure while writing `id`: when the storage holds the whole
/// file already (a request completed it but could not save the record),
/// the upload is complete and said so; else the failure.
async fn whole_or(
    uploads: &Uploads,
    id: &FileId,
    mut upload: Upload,
    error: std::io::Error,
) -> Result<(Upload, u64), UploadRefusal> {
    if !uploads.store.bytes.is_whole(id, &upload).await {
        return Err(UploadRefusal::storage(error));
    }
    upload.complete = true;
    upload.touched = now_seconds();
    upload.received = upload.length;
    upload.expires = uploads.settings.ends_from_now();
    uploads
        .store
        .save(id, &upload)
        .await
        .map_err(UploadRefusal::storage)?;
    let length = upload.length;
    Ok((upload, length))
}

/// `DELETE /uploads/{id}`: the upload ended and its bytes deleted.
pub async fn delete(
    State(state): State<TakenUploads>,
    _: Tus,
    Admitted { who, .. }: Admitted,
    Path(id): Path<String>,
) -> Result<Response, TusRefused> {
    let ended = async {
        let uploads = on(&state)?;
        let id = Uploads::known(&id)?;
        may_change(&who, &uploads.live(&id).await?)?;
        let (_writing, upload) = locked(uploads, &id).await?;
        uploads.store.remove(&id, &upload).await;
        Ok::<_, UploadRefusal>(tus_answer(StatusCode::NO_CONTENT, None))
    };
    Ok(ended.await?)
}
