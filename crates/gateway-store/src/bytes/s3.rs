//! Bytes in S3-compatible object storage (`--upload-store
//! s3://bucket/prefix`; endpoint and credentials from `AWS_ENDPOINT_URL`,
//! `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION` as S3 tools
//! take them). Each upload is one multipart upload to `{prefix}/{id}`:
//! bytes are gathered into parts of [`PART_BYTES`] (S3's smallest but the
//! last) and sent as each fills; the bytes after the last part when a
//! request ends are kept as `{prefix}/{id}.pending` until more come. The
//! record ([`Parts`]) says where things stand, so any gateway resumes it.
//! A request holds at most one part in memory.

use crate::FileId;
use std::io;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use object_store::aws::{AmazonS3, AmazonS3Builder, AmazonS3ConfigKey};
use object_store::multipart::{MultipartStore, PartId};
use object_store::path::Path;
use object_store::{GetOptions, GetRange, ObjectStore, PutPayload};

use super::super::record::{Parts, Upload};

/// The size of each part but the last.
pub const PART_BYTES: usize = 5 << 20;

/// The uploads' bytes in one bucket, under one prefix.
pub struct S3Bytes {
    store: AmazonS3,
    prefix: String,
}

/// One request's writing: the bytes not yet in a part.
pub struct S3Writer {
    store: AmazonS3,
    path: Path,
    pending_path: Path,
    buffer: Vec<u8>,
}

fn storage_error(error: object_store::Error) -> io::Error {
    io::Error::other(error)
}

impl S3Bytes {
    /// The storage `url` (`s3://bucket` or `s3://bucket/prefix`) names,
    /// reached as the `AWS_*` settings say, then `options`; or why not.
    pub fn open(url: &str, options: &[(String, String)]) -> Result<S3Bytes, String> {
        let parsed = url::Url::parse(url).map_err(|error| format!("{url}: {error}"))?;
        if parsed.scheme() != "s3" {
            return Err(format!("{url}: an S3 address starts s3://bucket"));
        }
        let bucket = parsed
            .host_str()
            .filter(|bucket| !bucket.is_empty())
            .ok_or_else(|| format!("{url}: the bucket is missing (s3://bucket/prefix)"))?;
        let mut builder = AmazonS3Builder::from_env().with_bucket_name(bucket);
        for (key, value) in options {
            let key = key
                .parse::<AmazonS3ConfigKey>()
                .map_err(|error| format!("{key}: {error}"))?;
            builder = builder.with_config(key, value);
        }
        // A local S3 (MinIO, s3s) is reached over plain HTTP.
        if builder
            .get_config_value(&AmazonS3ConfigKey::Endpoint)
            .is_some_and(|endpoint| endpoint.starts_with("http://"))
        {
            builder = builder.with_allow_http(true);
        }
        let store = builder.build().map_err(|error| error.to_string())?;
        Ok(S3Bytes {
            store,
            prefix: parsed.path().trim_matches('/').to_owned(),
        })
    }

    fn path(&self, id: &FileId) -> Path {
        match self.prefix.as_str() {
            "" => Path::from(id.as_str()),
            prefix => Path::from(format!("{prefix}/{id}")),
        }
    }

    fn pending_path(&self, id: &FileId) -> Path {
        match self.prefix.as_str() {
            "" => Path::from(format!("{id}.pending")),
            prefix => Path::from(format!("{prefix}/{id}.pending")),
        }
    }

    /// Whether the bucket answers (listing at most one object).
    pub async fn check(&self) -> io::Result<()> {
        let prefix = Path::from(self.prefix.as_str());
        let mut listing = self.store.list(Some(&prefix));
        match listing.next().await {
            Some(Err(error)) => Err(storage_error(error)),
            _ => Ok(()),
        }
    }

    /// Write a small object under the prefix, read it back and delete it:
    /// what `media-gen-gateway check` asks of the storage before serving.
    pub async fn round_trip(&self) -> io::Result<()> {
        let id = FileId::new().ok_or_else(|| io::Error::other("no random bits for a name"))?;
        let name = format!(".check-{id}");
        let path = match self.prefix.as_str() {
            "" => Path::from(name),
            prefix => Path::from(format!("{prefix}/{name}")),
        };
        let written = b"media-gen-gateway check".to_vec();
        self.store
            .put(&path, PutPayload::from(written.clone()))
            .await
            .map_err(storage_error)?;
        let read = self.store.get(&path).await.map_err(storage_error);
        let read = match read {
            Ok(answer) => answer.bytes().await.map_err(storage_error),
            Err(error) => Err(error),
        };
        let deleted = self.store.delete(&path).await.map_err(storage_error);
        if read?.as_ref() != written.as_slice() {
            return Err(io::Error::other(
                "the object read back is not the one written",
            ));
        }
        deleted
    }

    pub(super) async fn create(&self, id: &FileId, upload: &mut Upload) -> io::Result<()> {
        let multipart = self
            .store
            .create_multipart(&self.path(id))
            .await
            .map_err(storage_error)?;
        upload.parts = Some(Parts {
            multipart,
            ..Parts::default()
        });
        Ok(())
    }

    pub(super) async fn head(
        &self,
        id: &FileId,
        upload: &Upload,
        count: usize,
    ) -> io::Result<Vec<u8>> {
        // The first bytes are in the pending object until a part is made,
        // and the type is known long before that (a part is megabytes).
        let pending = upload.parts.as_ref().map_or(0, |parts| parts.pending);
        let end = pending.min(count as u64);
        if end == 0 {
            return Ok(Vec::new());
        }
        let options = GetOptions {
            range: Some(GetRange::Bounded(0..end)),
            ..GetOptions::default()
        };
        let path = self.pending_path(id);
        let got = self.store.get_opts(&path, options).await;
        Ok(got
            .map_err(storage_error)?
            .bytes()
            .await
            .map_err(storage_error)?
            .to_vec())
    }

    pub(super) async fn is_whole(&self, id: &FileId, upload: &Upload) -> bool {
        self.store
            .head(&self.path(id))
            .await
            .is_ok_and(|meta| meta.size == upload.length)
    }

    pub(super) async fn writer(&self, id: &FileId, upload: &Upload) -> io::Result<S3Writer> {
        let pending = upload.parts.as_ref().map_or(0, |parts| parts.pending);
        let mut buffer = Vec::with_capacity(PART_BYTES);
        if pending > 0 {
            let kept = self
                .store
                .get(&self.pending_path(id))
                .await
                .map_err(storage_error)?
                .bytes()
                .await
                .map_err(storage_error)?;
            // Longer when a request wrote them but could not save the
            // record: they start with the bytes the record counts.
            let Some(counted) = kept.get(..pending as usize) else {
                return Err(io::Error::other(format!(
                    "the pending bytes of an upload are {} long, its record says {pending}",
                    kept.len()
                )));
            };
            buffer.extend_from_slice(counted);
        }
        Ok(S3Writer {
            store: self.store.clone(),
            path: self.path(id),
            pending_path: self.pending_path(id),
            buffer,
        })
    }

    pub(super) async fn delete(&self, id: &FileId, upload: &Upload) -> io::Result<()> {
        let ignore_missing = |done: object_store::Result<()>| match done {
            Err(object_store::Error::NotFound { .. }) | Ok(()) => Ok(()),
            Err(error) => Err(storage_error(error)),
        };
        // Each step whatever the one before did: the first failure is
        // reported (and the sweep tries all again), the rest still go.
        let aborted = match upload.parts.as_ref().filter(|_| !upload.complete) {
            Some(parts) => ignore_missing(
                self.store
                    .abort_multipart(&self.path(id), &parts.multipart)
                    .await,
            ),
            None => Ok(()),
        };
        let pending = ignore_missing(self.store.delete(&self.pending_path(id)).await);
        let whole = ignore_missing(self.store.delete(&self.path(id)).await);
        aborted.and(pending).and(whole)
    }

    pub(super) async fn serve(
        &self,
        id: &FileId,
        upload: &Upload,
        mime: &mime::Mime,
        request: Request,
    ) -> io::Result<Response> {
        let length = upload.length;
        let tag = format!("\"{id}\"");
        let mut response = StatusCode::OK.into_response();
        let headers = response.headers_mut();
        headers.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
        if let Ok(value) = HeaderValue::from_str(mime.as_ref()) {
            headers.insert(header::CONTENT_TYPE, value);
        }
        if let Ok(value) = HeaderValue::from_str(&tag) {
            headers.insert(header::ETAG, value);
        }
        // An upload's bytes never change once complete: its id is its tag.
        let seen = request
            .headers()
            .get(header::IF_NONE_MATCH)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.split(',').any(|each| each.trim() == tag));
        if seen {
            *response.status_mut() = StatusCode::NOT_MODIFIED;
            return Ok(response);
        }
        let asked = request
            .headers()
            .get(header::RANGE)
            .and_then(|value| value.to_str().ok())
            .map(|value| {
                http_range_header::parse_range_header(value)
                    .and_then(|ranges| ranges.validate(length))
            });
        let range = match asked {
            None => 0..length,
            Some(Ok(ranges)) if ranges.len() == 1 => {
                let (start, end) = ranges[0].clone().into_inner();
                *response.status_mut() = StatusCode::PARTIAL_CONTENT;
                if let Ok(value) = HeaderValue::from_str(&format!("bytes {start}-{end}/{length}")) {
                    response.headers_mut().insert(header::CONTENT_RANGE, value);
                }
                start..end + 1
            }
            // Several ranges: the whole file, as the standard allows.
            Some(Ok(_)) => 0..length,
            Some(Err(_)) => {
                let mut refused = StatusCode::RANGE_NOT_SATISFIABLE.into_response();
                if let Ok(value) = HeaderValue::from_str(&format!("bytes */{length}")) {
                    refused.headers_mut().insert(header::CONTENT_RANGE, value);
                }
                return Ok(refused);
            }
        };
        response.headers_mut().insert(
            header::CONTENT_LENGTH,
            HeaderValue::from(range.end - range.start),
        );
        if request.method() == Method::HEAD || range.is_empty() {
            return Ok(response);
        }
        let options = GetOptions {
            range: Some(GetRange::Bounded(range)),
            ..GetOptions::default()
        };
        match self.store.get_opts(&self.path(id), options).await {
            Ok(got) => {
                *response.body_mut() = Body::from_stream(got.into_stream());
                Ok(response)
            }
            Err(error) => {
                tracing::warn!(error = %crate::observe::Scrubbed(&error), "an upload could not be read from the storage");
                Err(io::Error::other(error))
            }
        }
    }
}

impl S3Writer {
    pub(super) async fn write(&mut self, bytes: &[u8], upload: &mut Upload) -> io::Result<bool> {
        // Filled to a part exactly and sent: the buffer never grows past
        // one part (its capacity stays 5 MiB).
        let mut changed = false;
        let mut rest = bytes;
        while !rest.is_empty() {
            let room = PART_BYTES - self.buffer.len();
            let (now, later) = rest.split_at(room.min(rest.len()));
            self.buffer.extend_from_slice(now);
            rest = later;
            if self.buffer.len() == PART_BYTES {
                // Sent from the buffer itself and taken back once the
                // storage let go of it: one part's memory for the whole upload.
                let part = bytes::Bytes::from(std::mem::take(&mut self.buffer));
                self.put_part(part.clone(), upload).await?;
                self.buffer = match part.try_into_mut() {
                    Ok(mine) => Vec::from(mine),
                    Err(_) => Vec::with_capacity(PART_BYTES),
                };
                self.buffer.clear();
                changed = true;
            }
        }
        Ok(changed)
    }

    async fn put_part(&self, part: bytes::Bytes, upload: &mut Upload) -> io::Result<()> {
        let parts = upload
            .parts
            .as_mut()
            .ok_or_else(|| io::Error::other("an upload in storage without its multipart"))?;
        let length = part.len() as u64;
        let PartId { content_id } = self
            .store
            .put_part(
                &self.path,
                &parts.multipart,
                parts.tags.len(),
                PutPayload::from(part),
            )
            .await
            .map_err(storage_error)?;
        parts.tags.push(content_id);
        parts.in_parts += length;
        // What was pending is in this part now.
        parts.pending = 0;
        Ok(())
    }

    pub(super) async fn finish(mut self, upload: &mut Upload, complete: bool) -> io::Result<()> {
        let buffer = std::mem::take(&mut self.buffer);
        if complete {
            if !buffer.is_empty() {
                self.put_part(buffer.into(), upload).await?;
            }
            let parts = upload
                .parts
                .as_ref()
                .ok_or_else(|| io::Error::other("an upload in storage without its multipart"))?;
            let tags = parts
                .tags
                .iter()
                .map(|tag| PartId {
                    content_id: tag.clone(),
                })
                .collect();
            self.store
                .complete_multipart(&self.path, &parts.multipart, tags)
                .await
                .map_err(storage_error)?;
            match self.store.delete(&self.pending_path).await {
                Err(object_store::Error::NotFound { .. }) | Ok(()) => {}
                Err(error) => {
                    tracing::warn!(error = %crate::observe::Scrubbed(&error), "an upload's pending bytes stay in the storage")
                }
            }
            return Ok(());
        }
        let pending = buffer.len() as u64;
        if pending > 0 {
            self.store
                .put(&self.pending_path, PutPayload::from(buffer))
                .await
                .map_err(storage_error)?;
        }
        if let Some(parts) = upload.parts.as_mut() {
            parts.pending = pending;
        }
        Ok(())
    }
}
