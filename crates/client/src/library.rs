//! The signed-in person's library on a gateway that keeps one
//! (`/capabilities` says `access.library`): a page of it, as a listing
//! asks, and removing, restoring and adding to it. The answers are the
//! contract's (`media_gen_api::library`); a page comes as the browser
//! parsed it, for the page to read request by request as it reads its
//! stored tasks.

use media_gen_api::library::{Imported, LibraryQuery, Removed, RequestId};
use media_gen_api::retry::RequestKind;
use wasm_bindgen::JsValue;

use crate::{Client, ClientError};

/// `{"requests":["…",…]}`: ids hold only letters, digits, `-` and `_`.
fn requests_body(requests: &[RequestId]) -> String {
    let ids: Vec<String> = requests.iter().map(|id| format!("\"{id}\"")).collect();
    format!("{{\"requests\":[{}]}}", ids.join(","))
}

impl Client {
    /// A page of the person's library, newest first, as `query` asks:
    /// `{ items, next }` as parsed.
    pub async fn library(&self, query: &LibraryQuery) -> Result<JsValue, ClientError> {
        let path = format!("/library?{}", query.to_query());
        self.call_for_value(RequestKind::Read, &path, None).await
    }

    /// Remove `requests` from the library; restorable for a minute.
    pub async fn library_remove(&self, requests: &[RequestId]) -> Result<Removed, ClientError> {
        let body = requests_body(requests);
        self.call(RequestKind::Submit, "/library/remove", Some(body), None)
            .await
            .map(|(removed, _)| removed)
    }

    /// Bring back `requests` removed within the last minute.
    pub async fn library_restore(&self, requests: &[RequestId]) -> Result<Removed, ClientError> {
        let body = requests_body(requests);
        self.call(RequestKind::Submit, "/library/restore", Some(body), None)
            .await
            .map(|(restored, _)| restored)
    }

    /// A new collection named `name` (checked by the gateway) holding
    /// `requests`: its id.
    pub async fn add_collection(
        &self,
        name: &str,
        requests: &[RequestId],
    ) -> Result<String, ClientError> {
        let body = format!(
            "{{\"name\":{},{}",
            serde_json::Value::from(name),
            &requests_body(requests)[1..]
        );
        let made = self
            .call_for_value(RequestKind::Submit, "/library/collections", Some(body))
            .await?;
        js_sys::Reflect::get(&made, &JsValue::from_str("id"))
            .ok()
            .and_then(|id| id.as_string())
            .ok_or_else(|| ClientError::Shape {
                detail: "a new collection without its id".to_owned(),
            })
    }

    /// Put `requests` in the collection `collection`.
    pub async fn collect(
        &self,
        collection: &str,
        requests: &[RequestId],
    ) -> Result<(), ClientError> {
        let path = format!("/library/collections/{collection}/add");
        self.call_for_value(RequestKind::Submit, &path, Some(requests_body(requests)))
            .await
            .map(drop)
    }

    /// Add tasks a browser knows to the library (each once): `tasks` is
    /// the JSON text of the import's list (`KnownTask`s).
    pub async fn library_import(&self, tasks: &str) -> Result<Imported, ClientError> {
        let body = format!("{{\"tasks\":{tasks}}}");
        self.call(RequestKind::Submit, "/library/import", Some(body), None)
            .await
            .map(|(imported, _)| imported)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_of_requests_is_json() {
        let ids = [
            RequestId::parse("a-1").unwrap(),
            RequestId::parse("B_2").unwrap(),
        ];
        let body: serde_json::Value = serde_json::from_str(&requests_body(&ids)).unwrap();
        assert_eq!(body, serde_json::json!({ "requests": ["a-1", "B_2"] }));
    }
}
