//! Bytes in the upload folder: `{id}.part`, appended as they arrive, whose
//! length is how far the upload got (a crash loses nothing written). The
//! folder, when made here, and each file are the gateway user's alone
//! ([`crate::private_files`]).

use crate::FileId;
use std::io;
use std::path::{Path, PathBuf};

use axum::extract::Request;
use axum::response::Response;
use tower::ServiceExt;
use tower_http::services::ServeFile;

/// The bytes of the uploads in one folder.
pub struct FolderBytes {
    dir: PathBuf,
}

impl FolderBytes {
    /// The bytes under `dir` (made if missing).
    pub fn open(dir: &Path) -> io::Result<FolderBytes> {
        crate::private_files::create_dir_all(dir)?;
        Ok(FolderBytes {
            dir: dir.to_owned(),
        })
    }

    fn path(&self, id: &FileId) -> PathBuf {
        self.dir.join(format!("{id}.part"))
    }

    pub(super) async fn create(&self, id: &FileId) -> io::Result<()> {
        let mut options = crate::private_files::open_options();
        options.write(true).create(true).truncate(true);
        tokio::fs::OpenOptions::from(options)
            .open(self.path(id))
            .await
            .map(drop)
    }

    pub(super) async fn offset(&self, id: &FileId) -> io::Result<u64> {
        Ok(tokio::fs::metadata(self.path(id)).await?.len())
    }

    pub(super) async fn head(&self, id: &FileId, count: usize) -> io::Result<Vec<u8>> {
        use tokio::io::AsyncReadExt;
        let file = tokio::fs::File::open(self.path(id)).await?;
        let mut head = Vec::with_capacity(count);
        file.take(count as u64).read_to_end(&mut head).await?;
        Ok(head)
    }

    pub(super) async fn writer(&self, id: &FileId) -> io::Result<tokio::fs::File> {
        tokio::fs::OpenOptions::new()
            .append(true)
            .open(self.path(id))
            .await
    }

    pub(super) async fn delete(&self, id: &FileId) -> io::Result<()> {
        match tokio::fs::remove_file(self.path(id)).await {
            Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
            _ => Ok(()),
        }
    }

    pub(super) async fn serve(&self, id: &FileId, mime: &mime::Mime, request: Request) -> Response {
        let served = ServeFile::new_with_mime(self.path(id), mime)
            .oneshot(request)
            .await;
        match served {
            Ok(response) => response.map(axum::body::Body::new),
            Err(error) => match error {},
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_folder_made_and_the_bytes_are_private() {
        use tokio::io::AsyncWriteExt;
        let mode = crate::private_files::mode_of;
        let dir = tempfile::tempdir().unwrap();
        let uploads = dir.path().join("uploads");
        let bytes = FolderBytes::open(&uploads).unwrap();
        let id = &FileId::parse("0123456789abcdef0123456789abcdef").unwrap();
        bytes.create(id).await.unwrap();
        let mut writer = bytes.writer(id).await.unwrap();
        writer.write_all(b"\x89PNG").await.unwrap();
        writer.flush().await.unwrap();
        assert_eq!(bytes.offset(id).await.unwrap(), 4);
        assert_eq!(mode(&uploads), 0o700);
        assert_eq!(mode(&bytes.path(id)), 0o600);
    }
}
