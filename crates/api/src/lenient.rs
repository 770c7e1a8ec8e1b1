//! Decoding helpers that tolerate what a service may send for an absent value.

use serde::{Deserialize, Deserializer};

/// A string field that may be missing or `null`: both read as `""`, the
/// document's "empty string when there is none".
pub fn string<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    Ok(Option::<String>::deserialize(deserializer)?.unwrap_or_default())
}
