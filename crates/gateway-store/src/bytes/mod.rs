//! Where uploads' bytes go: a folder (`--upload-dir`, [`folder`]) or any
//! S3-compatible object storage (`--upload-store s3://bucket/prefix`,
//! [`s3`]), written as they arrive and never held whole in memory, and
//! served from there with `Range`.

pub mod folder;
pub mod s3;

use crate::FileId;
use std::io;

use axum::extract::Request;
use axum::response::Response;

use super::record::Upload;

/// The uploads' bytes.
pub enum Bytes {
    /// Files in a folder.
    Folder(folder::FolderBytes),
    /// Objects in S3-compatible storage.
    S3(s3::S3Bytes),
}

/// One request's writing of an upload's bytes, from its offset on.
pub enum Writer {
    /// Appending to its file.
    Folder(tokio::fs::File),
    /// Gathering parts.
    S3(s3::S3Writer),
}

impl Bytes {
    /// Make room for a new upload `id` (no bytes yet), noting in `upload`
    /// where its bytes will go.
    pub async fn create(&self, id: &FileId, upload: &mut Upload) -> io::Result<()> {
        match self {
            Bytes::Folder(folder) => folder.create(id).await,
            Bytes::S3(s3) => s3.create(id, upload).await,
        }
    }

    /// How many bytes of `id` are in.
    pub async fn offset(&self, id: &FileId, upload: &Upload) -> io::Result<u64> {
        match self {
            Bytes::Folder(folder) => folder.offset(id).await,
            Bytes::S3(_) if upload.complete => Ok(upload.length),
            Bytes::S3(_) => Ok(upload.parts.as_ref().map_or(0, |parts| parts.offset())),
        }
    }

    /// The first `count` bytes of `id` that are in (fewer if fewer are),
    /// while its type is not known yet (what a resumed upload's type is
    /// decided from).
    pub async fn head(&self, id: &FileId, upload: &Upload, count: usize) -> io::Result<Vec<u8>> {
        match self {
            Bytes::Folder(folder) => folder.head(id, count).await,
            Bytes::S3(s3) => s3.head(id, upload, count).await,
        }
    }

    /// Whether the storage holds the whole file of `id` already (a request
    /// completed it but its record was not saved). A folder's file is
    /// whole only once its record says so.
    pub async fn is_whole(&self, id: &FileId, upload: &Upload) -> bool {
        match self {
            Bytes::Folder(_) => false,
            Bytes::S3(s3) => s3.is_whole(id, upload).await,
        }
    }

    /// Start writing `id` at its offset.
    pub async fn writer(&self, id: &FileId, upload: &Upload) -> io::Result<Writer> {
        match self {
            Bytes::Folder(folder) => folder.writer(id).await.map(Writer::Folder),
            Bytes::S3(s3) => s3.writer(id, upload).await.map(Writer::S3),
        }
    }

    /// Delete the bytes of `id` (those already gone are no error).
    pub async fn delete(&self, id: &FileId, upload: &Upload) -> io::Result<()> {
        match self {
            Bytes::Folder(folder) => folder.delete(id).await,
            Bytes::S3(s3) => s3.delete(id, upload).await,
        }
    }

    /// Answer `request` (`GET` or `HEAD`, perhaps with `Range`) with the
    /// complete upload `id` as `mime`; the storage's failure to read it,
    /// said in the log, for the caller to answer.
    pub async fn serve(
        &self,
        id: &FileId,
        upload: &Upload,
        mime: &mime::Mime,
        request: Request,
    ) -> io::Result<Response> {
        match self {
            Bytes::Folder(folder) => Ok(folder.serve(id, mime, request).await),
            Bytes::S3(s3) => s3.serve(id, upload, mime, request).await,
        }
    }
}

impl Writer {
    /// Write `bytes` after what is in; whether `upload` changed and should
    /// be saved (a part finished) before the request ends.
    pub async fn write(&mut self, bytes: &[u8], upload: &mut Upload) -> io::Result<bool> {
        use tokio::io::AsyncWriteExt;
        match self {
            Writer::Folder(file) => file.write_all(bytes).await.map(|()| false),
            Writer::S3(s3) => s3.write(bytes, upload).await,
        }
    }

    /// Make every byte written durable; with `complete`, the upload's
    /// last. `upload` then says where its bytes stand.
    pub async fn finish(self, upload: &mut Upload, complete: bool) -> io::Result<()> {
        use tokio::io::AsyncWriteExt;
        match self {
            Writer::Folder(mut file) => {
                file.flush().await?;
                file.sync_data().await
            }
            Writer::S3(s3) => s3.finish(upload, complete).await,
        }
    }
}
