//! What is known of one upload: the record every gateway reads, whichever
//! keeps it ([`super::records`]).

use media_gen_api::media_type::MediaType;
use serde::{Deserialize, Serialize};

/// What is known of one upload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Upload {
    /// Its declared length (`Upload-Length`).
    pub length: u64,
    /// When it was made (seconds since 1970).
    pub created: u64,
    /// When it expires and is deleted (seconds since 1970).
    pub expires: u64,
    /// Its type, once its first bytes are in.
    pub media: Option<MediaType>,
    /// The name it is served under (safe; the type's extension).
    pub name: String,
    /// Whose it is: a person, or an address in `open` mode.
    pub owner: String,
    /// Whether every byte is in.
    pub complete: bool,
    /// When bytes last arrived (or it was made), seconds since 1970.
    #[serde(default)]
    pub touched: u64,
    /// Whether it expired and its bytes are deleted (what is known of it
    /// stays a while longer, so its address answers 410, not 404).
    #[serde(default)]
    pub gone: bool,
    /// Tasks made from it that have not ended (`kind/task_id`): while any
    /// has not, it is kept whatever its expiry, so the service never finds
    /// it gone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held_by: Vec<String>,
    /// Where its bytes stand in object storage (`--upload-store`); none
    /// in a folder, where the file's length says it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parts: Option<Parts>,
}

/// An upload's bytes in object storage: a multipart upload's finished
/// parts, and the bytes after them kept as one object of their own until
/// they make a part (a part is at least 5 MiB but the last).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parts {
    /// The storage's id of the multipart upload.
    pub multipart: String,
    /// Each finished part's tag, in order.
    pub tags: Vec<String>,
    /// The bytes in the finished parts.
    pub in_parts: u64,
    /// The bytes after them, kept as the pending object.
    pub pending: u64,
}

impl Parts {
    /// How many bytes are in.
    pub fn offset(&self) -> u64 {
        self.in_parts + self.pending
    }
}

/// How long an incomplete upload no byte reached still counts as under
/// way for its owner's budget: a closed tab frees its place (the upload
/// stays resumable until it expires).
pub const IDLE_SECONDS: u64 = 10 * 60;

impl Upload {
    /// A new upload of `length` bytes served as `name`, `owner`'s, made at
    /// `now` and kept until `expires`: no byte in yet.
    pub fn new(length: u64, name: String, owner: String, now: u64, expires: u64) -> Upload {
        Upload {
            length,
            created: now,
            expires,
            media: None,
            name,
            owner,
            complete: false,
            touched: now,
            gone: false,
            held_by: Vec::new(),
            parts: None,
        }
    }

    /// Whether it is being uploaded: incomplete, kept, and reached by
    /// bytes within [`IDLE_SECONDS`] of `now`.
    pub fn under_way_at(&self, now: u64) -> bool {
        !self.complete && !self.gone && self.touched.saturating_add(IDLE_SECONDS) > now
    }

    /// Whether it is past its time at `now` (and no task holds it).
    pub fn expired_at(&self, now: u64) -> bool {
        self.gone || (self.expires <= now && self.held_by.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An upload made at `touched`, `complete` or not.
    fn upload(touched: u64, complete: bool) -> Upload {
        Upload {
            complete,
            ..Upload::new(
                1_000,
                "a.png".to_owned(),
                "ada".to_owned(),
                touched,
                touched + 86_400,
            )
        }
    }

    #[test]
    fn an_upload_no_byte_reached_for_ten_minutes_is_no_longer_under_way() {
        let now = 1_000_000;
        assert!(upload(now - 60, false).under_way_at(now));
        assert!(
            !upload(now - IDLE_SECONDS, false).under_way_at(now),
            "a closed tab frees its place"
        );
        assert!(!upload(now, true).under_way_at(now), "complete");
        let gone = Upload {
            gone: true,
            ..upload(now, false)
        };
        assert!(!gone.under_way_at(now));
    }

    #[test]
    fn a_record_from_before_touched_reads_as_made_long_ago() {
        let text = r#"{"length":5,"created":7,"expires":9,"media":null,"name":"a","owner":"o","complete":false}"#;
        let read: Upload = serde_json::from_str(text).unwrap();
        assert_eq!(read.touched, 0);
        assert!(!read.under_way_at(10_000));
    }
}
