//! Organising a person's library: a star on a request, named collections
//! (a request may be in several; a batch lands in one of its own), and
//! settings saved by name. What the gateway's calls take and answer, and
//! the rules of each field:
//!
//! - `POST /library/star` ([`Star`]): star or unstar requests.
//! - `GET /library/collections`, `POST /library/collections`
//!   ([`NewCollection`]): the person's collections, and a new one.
//! - `PATCH|DELETE /library/collections/{id}`: renamed ([`NewCollection`]),
//!   removed (its requests stay in the library).
//! - `POST /library/collections/{id}/add` and `…/take-out`
//!   ([`crate::library::Many`]).
//! - `GET /library/presets`, `PUT /library/presets` ([`Preset`]),
//!   `DELETE /library/presets/{kind}/{name}`: settings saved by name.
//!
//! A listing filters by them (`starred`, `collection`), and each item says
//! its star and collections.

use serde::{Deserialize, Serialize};

use crate::kind::TaskKind;
use crate::library::{RequestId, MANY_MAX};

/// The longest name of a collection or of saved settings, in characters.
pub const ORGANISE_NAME_MAX_CHARS: usize = 60;
/// The most collections one person keeps.
pub const COLLECTIONS_MAX: usize = 200;
/// The most settings one person saves, all kinds together.
pub const PRESETS_MAX: usize = 200;
/// The largest saved settings' body, in bytes of JSON.
pub const PRESET_BODY_MAX_BYTES: usize = 16 * 1024;

/// The gateway's id for a collection: like a request's, 128 random bits,
/// base64url.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct CollectionId(String);

impl CollectionId {
    /// `text` as an id, when it has an id's shape (as a [`RequestId`]).
    pub fn parse(text: &str) -> Option<CollectionId> {
        RequestId::parse(text).map(|id| CollectionId(id.as_str().to_owned()))
    }

    /// The id as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for CollectionId {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        CollectionId::parse(&text).ok_or_else(|| format!("{text:?} is not a collection id"))
    }
}

impl From<CollectionId> for String {
    fn from(id: CollectionId) -> String {
        id.0
    }
}

impl std::fmt::Display for CollectionId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `POST /library/star`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Star {
    /// The requests, at most [`MANY_MAX`].
    pub requests: Vec<RequestId>,
    /// Starred, or not.
    pub starred: bool,
}

/// A collection's name: `POST /library/collections`, and its rename.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewCollection {
    /// Its name ([`check_organise_name`]).
    pub name: String,
}

/// One of the person's collections.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Collection {
    /// Its id.
    #[cfg_attr(feature = "typescript", ts(type = "string"))]
    pub id: CollectionId,
    /// Its name.
    pub name: String,
    /// When it was made (milliseconds since 1970).
    pub created: u64,
    /// How many requests it holds (those removed from the library not
    /// counted).
    pub requests: u64,
}

/// Settings saved by name: every field of a form but its media.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Preset {
    /// The form's kind.
    pub kind: TaskKind,
    /// Its name ([`check_organise_name`]); saving under a name again
    /// replaces it.
    pub name: String,
    /// The request's fields, as JSON, its media left out.
    #[cfg_attr(feature = "typescript", ts(type = "Record<string, unknown>"))]
    pub body: serde_json::Map<String, serde_json::Value>,
    /// When it was last saved (milliseconds since 1970); the gateway's.
    #[serde(default)]
    pub updated: u64,
}

/// The fields a preset never keeps: the media a request names, which
/// belong to one job (and may be uploads that expire).
pub const MEDIA_FIELDS: &[&str] = &[
    "image_url",
    "end_image_url",
    "reference_images",
    "video_url",
    "callback_url",
];

impl Preset {
    /// Settings named `name` from the form's request `body` (a JSON
    /// object), its media left out.
    pub fn from_request(kind: TaskKind, name: &str, body: &serde_json::Value) -> Preset {
        let mut fields = body.as_object().cloned().unwrap_or_default();
        fields.retain(|field, _| !MEDIA_FIELDS.contains(&field.as_str()));
        Preset {
            kind,
            name: name.trim().to_owned(),
            body: fields,
            updated: 0,
        }
    }

    /// `request`'s body (a JSON object) with these settings laid over it:
    /// its media stay as they were.
    pub fn apply_to(&self, request: &serde_json::Value) -> serde_json::Value {
        let mut fields = request.as_object().cloned().unwrap_or_default();
        fields.retain(|field, _| MEDIA_FIELDS.contains(&field.as_str()));
        for (field, value) in &self.body {
            if !MEDIA_FIELDS.contains(&field.as_str()) {
                fields.insert(field.clone(), value.clone());
            }
        }
        serde_json::Value::Object(fields)
    }

    /// The refusal naming the field and the rule, when it breaks one.
    pub fn check(&self) -> Result<(), String> {
        check_organise_name(&self.name)?;
        let bytes = serde_json::to_string(&self.body).map_or(usize::MAX, |text| text.len());
        if bytes > PRESET_BODY_MAX_BYTES {
            return Err(format!(
                "body: at most {PRESET_BODY_MAX_BYTES} bytes of settings"
            ));
        }
        if let Some(field) = self
            .body
            .keys()
            .find(|field| MEDIA_FIELDS.contains(&field.as_str()))
        {
            return Err(format!("body: `{field}` is a job's media, not a setting"));
        }
        Ok(())
    }
}

/// A name of a collection or of saved settings, trimmed, or what is
/// wrong with it.
pub fn check_organise_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > ORGANISE_NAME_MAX_CHARS {
        return Err(format!("name: 1 to {ORGANISE_NAME_MAX_CHARS} characters"));
    }
    if name.chars().any(char::is_control) {
        return Err("name: no line breaks or control characters".to_owned());
    }
    Ok(name.to_owned())
}

/// The requests a star or a collection's change names, or what is wrong.
pub fn check_many(requests: &[RequestId]) -> Result<(), String> {
    if requests.is_empty() || requests.len() > MANY_MAX {
        return Err(format!("requests: 1 to {MANY_MAX} request ids"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn settings_keep_every_field_but_the_media_and_lay_over_another_jobs() {
        let body = json!({
            "model": "V", "prompt": "A harbour", "duration": 8,
            "image_url": "https://example.com/a.png", "reference_images": [],
            "callback_url": "https://example.com/hook"
        });
        let preset = Preset::from_request(TaskKind::ImageToVideo, "  Harbour, 8 s ", &body);
        assert_eq!(preset.name, "Harbour, 8 s");
        assert_eq!(
            serde_json::Value::Object(preset.body.clone()),
            json!({ "model": "V", "prompt": "A harbour", "duration": 8 })
        );
        assert!(preset.check().is_ok());
        let other =
            json!({ "model": "S", "prompt": "Other", "image_url": "https://example.com/b.png" });
        assert_eq!(
            preset.apply_to(&other),
            json!({ "model": "V", "prompt": "A harbour", "duration": 8, "image_url": "https://example.com/b.png" })
        );
    }

    #[test]
    fn names_and_lists_are_checked_naming_the_field() {
        assert_eq!(check_organise_name(" Products "), Ok("Products".to_owned()));
        assert!(check_organise_name("").unwrap_err().starts_with("name:"));
        assert!(check_organise_name(&"x".repeat(61))
            .unwrap_err()
            .starts_with("name: 1 to 60"));
        assert!(check_organise_name("a\nb")
            .unwrap_err()
            .starts_with("name:"));
        assert!(check_many(&[]).unwrap_err().starts_with("requests:"));
        let mut preset = Preset::from_request(TaskKind::ImageGenerate, "x", &json!({}));
        preset
            .body
            .insert("video_url".to_owned(), json!("https://example.com/v.mp4"));
        assert_eq!(
            preset.check().unwrap_err(),
            "body: `video_url` is a job's media, not a setting"
        );
    }
}
