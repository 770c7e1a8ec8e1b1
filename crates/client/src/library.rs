//! The signed-in person's library on a gateway that keeps one
//! (`/capabilities` says `access.library`): a page of it, as a listing
//! asks, and removing, restoring and adding to it. The answers are the
//! contract's (`media_gen_api::library`).

use media_gen_api::library::{Imported, KnownTask, LibraryPage, LibraryQuery, Removed, RequestId};
use media_gen_api::retry::RequestKind;

use crate::{Client, ClientError};

impl Client {
    /// A page of the person's library, newest first, as `query` asks.
    pub async fn library(&self, query: &LibraryQuery) -> Result<LibraryPage, ClientError> {
        let path = format!("/library?{}", query.to_query());
        self.call(RequestKind::Read, &path, None, None)
            .await
            .map(|(page, _)| page)
    }

    /// Remove `requests` from the library; restorable for a minute.
    pub async fn library_remove(&self, requests: &[RequestId]) -> Result<Removed, ClientError> {
        let body = serde_json::json!({ "requests": requests }).to_string();
        self.call(RequestKind::Submit, "/library/remove", Some(body), None)
            .await
            .map(|(removed, _)| removed)
    }

    /// Bring back `requests` removed within the last minute.
    pub async fn library_restore(&self, requests: &[RequestId]) -> Result<Removed, ClientError> {
        let body = serde_json::json!({ "requests": requests }).to_string();
        self.call(RequestKind::Submit, "/library/restore", Some(body), None)
            .await
            .map(|(restored, _)| restored)
    }

    /// Add `tasks` a browser knows to the library (each once).
    pub async fn library_import(&self, tasks: &[KnownTask]) -> Result<Imported, ClientError> {
        let body = serde_json::json!({ "tasks": tasks }).to_string();
        self.call(RequestKind::Submit, "/library/import", Some(body), None)
            .await
            .map(|(imported, _)| imported)
    }
}
