//! The signed-in person's library on a gateway that keeps one
//! (`/capabilities` says `access.library`): a page of it, as a listing
//! asks, and removing, restoring and adding to it. The answers are the
//! contract's (`media_gen_api::library`); a page comes as the browser
//! parsed it, for the page to read request by request as it reads its
//! stored tasks.

use media_gen_api::library::{Imported, LibraryQuery, Removed, RequestId};
use media_gen_api::organise::Preset;
use media_gen_api::retry::RequestKind;
use media_gen_api::TaskKind;
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

    /// One request of the library, as parsed (an item of a page).
    pub async fn library_request(&self, id: &RequestId) -> Result<JsValue, ClientError> {
        let path = format!("/library/{id}");
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

    /// Star `requests`, or take their star off.
    pub async fn star(&self, requests: &[RequestId], starred: bool) -> Result<(), ClientError> {
        let body = format!("{{\"starred\":{starred},{}", &requests_body(requests)[1..]);
        self.call_for_value(RequestKind::Submit, "/library/star", Some(body))
            .await
            .map(drop)
    }

    /// The person's collections, `[{ id, name, created, requests }]` as
    /// parsed (`media_gen_api::organise::Collection`).
    pub async fn collections(&self) -> Result<JsValue, ClientError> {
        self.call_for_value(RequestKind::Read, "/library/collections", None)
            .await
    }

    /// Name the collection `collection` anew.
    pub async fn rename_collection(&self, collection: &str, name: &str) -> Result<(), ClientError> {
        let path = format!("/library/collections/{collection}");
        let body = format!("{{\"name\":{}}}", serde_json::Value::from(name));
        self.call_for_value(RequestKind::Change, &path, Some(body))
            .await
            .map(drop)
    }

    /// Remove the collection `collection` (its requests stay).
    pub async fn remove_collection(&self, collection: &str) -> Result<(), ClientError> {
        let path = format!("/library/collections/{collection}");
        self.call_for_value(RequestKind::Remove, &path, None)
            .await
            .map(drop)
    }

    /// Take `requests` out of the collection `collection`.
    pub async fn take_out(
        &self,
        collection: &str,
        requests: &[RequestId],
    ) -> Result<(), ClientError> {
        self.collected(collection, "take-out", requests).await
    }

    /// `requests` put in (`add`) or taken out of (`take-out`) the
    /// collection `collection`.
    async fn collected(
        &self,
        collection: &str,
        change: &str,
        requests: &[RequestId],
    ) -> Result<(), ClientError> {
        let path = format!("/library/collections/{collection}/{change}");
        self.call_for_value(RequestKind::Submit, &path, Some(requests_body(requests)))
            .await
            .map(drop)
    }

    /// The person's saved settings, every kind's.
    pub async fn presets(&self) -> Result<Vec<Preset>, ClientError> {
        self.call(RequestKind::Read, "/library/presets", None, None)
            .await
            .map(|(presets, _)| presets)
    }

    /// Save `preset`, replacing the person's of the same kind and name.
    pub async fn save_preset(&self, preset: &Preset) -> Result<(), ClientError> {
        let body = serde_json::to_string(preset).map_err(|error| ClientError::Shape {
            detail: error.to_string(),
        })?;
        self.call_for_value(RequestKind::Replace, "/library/presets", Some(body))
            .await
            .map(drop)
    }

    /// Remove the saved settings `name` of `kind`.
    pub async fn remove_preset(&self, kind: TaskKind, name: &str) -> Result<(), ClientError> {
        let path = format!(
            "/library/presets/{kind}/{}",
            media_gen_api::path::segment(name)
        );
        self.call_for_value(RequestKind::Remove, &path, None)
            .await
            .map(drop)
    }

    /// Put `requests` in the collection `collection`.
    pub async fn collect(
        &self,
        collection: &str,
        requests: &[RequestId],
    ) -> Result<(), ClientError> {
        self.collected(collection, "add", requests).await
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
