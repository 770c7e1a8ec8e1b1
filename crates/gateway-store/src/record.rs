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
    /// Tasks made from it that have not ended (each's key, `kind:id`, or
    /// `kind/id` as records written before said; see
    /// [`held_task`]): while any
    /// has not, it is kept past its expiry, so the service never finds it
    /// gone, but not past `held_until`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held_by: Vec<String>,
    /// The latest a hold keeps it (seconds since 1970; `--upload-hold-max`
    /// after the last submit that named it): a task never seen to end does
    /// not keep it for ever.
    #[serde(default)]
    pub held_until: u64,
    /// Bytes known to be in, as last saved (the quota counts these, and a
    /// bounded reservation for what comes next while it is under way).
    #[serde(default)]
    pub received: u64,
    /// Where its bytes stand in object storage (`--upload-store`); none
    /// in a folder, where the file's length says it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parts: Option<Parts>,
    /// Set when this is no upload but a kept copy of a task's result
    /// (the kept results crate): which one, and how it is served. Uploads' routes,
    /// quota and budgets leave such records alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept: Option<KeptFile>,
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
/// way by default (`--upload-idle`): for its owner's budget, and for the
/// reservation it holds in the quota. A closed tab frees both (the upload
/// stays resumable until it expires).
pub const IDLE_SECONDS: u64 = 10 * 60;

/// The longest a task keeps an upload by default (`--upload-hold-max`).
pub const DEFAULT_HOLD_SECONDS: u64 = 48 * 3_600;

/// The most of the quota an upload under way reserves beyond the bytes in:
/// one piece of the size the clients send (a client sending more at once
/// is counted again as each such piece arrives).
pub const RESERVATION: u64 = media_gen_api::tus::CHUNK_BYTES;

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
            held_until: 0,
            received: 0,
            parts: None,
            kept: None,
        }
    }

    /// Whether it is being uploaded: incomplete, kept, and reached by
    /// bytes within `idle` seconds of `now`.
    pub fn under_way_at(&self, now: u64, idle: u64) -> bool {
        !self.complete && !self.gone && self.touched.saturating_add(idle) > now
    }

    /// The bytes of the quota it takes at `now`: all of a complete one;
    /// of one under way, what is in and at most [`RESERVATION`] more for
    /// what comes next; of one idle for `idle` seconds, what is in. Never
    /// its declared length alone: a declared 2 GiB with no byte sent
    /// takes one piece, and after `idle` nothing.
    pub fn counted_at(&self, now: u64, idle: u64) -> u64 {
        if self.gone {
            return 0;
        }
        if self.complete {
            return self.length;
        }
        let received = self.received.min(self.length);
        let reserved = if self.under_way_at(now, idle) {
            (self.length - received).min(RESERVATION)
        } else {
            0
        };
        received + reserved
    }

    /// Whether it is past its time at `now`: its expiry passed and no task
    /// holds it, or held past its hold's ceiling too.
    pub fn expired_at(&self, now: u64) -> bool {
        self.gone || (self.expires <= now && !self.held_at(now))
    }

    /// Whether a task holding it still keeps it at `now` (held, and the
    /// hold's ceiling not passed).
    pub fn held_at(&self, now: u64) -> bool {
        !self.gone && !self.held_by.is_empty() && self.hold_ceiling() > now
    }

    /// The latest its holds keep it: `held_until`, or for a record kept
    /// before holds had a ceiling, [`DEFAULT_HOLD_SECONDS`] after it was made.
    fn hold_ceiling(&self) -> u64 {
        match self.held_until {
            0 => self.created.saturating_add(DEFAULT_HOLD_SECONDS),
            until => until,
        }
    }
}

/// What a kept copy's record says beyond an upload's ([`Upload::kept`]):
/// a result the gateway keeps (the kept results crate) in the uploads' store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptFile {
    /// The task it is of (`kind:id`).
    pub task: String,
    /// The field of the task it is of (`video_url`).
    pub field: String,
    /// The type it is served as.
    pub mime: String,
    /// An image's width and height, when its first bytes say them: what
    /// a shared page's preview tags give, read once as it is kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pixels: Option<[u32; 2]>,
    /// Why it was not kept, when it was not (the record then only says so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_kept: Option<String>,
    /// Whether that is for now (a budget, the room): tried again when its
    /// task is read again, rather than settled for good.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub retry: bool,
}

/// The task an upload's `held_by` names: its key as the contract writes
/// it (`kind:id`), or as records written before it did (`kind/id`).
pub fn held_task(name: &str) -> Option<media_gen_api::TaskKey> {
    name.parse().ok().or_else(|| {
        let (kind, id) = name.split_once('/')?;
        let kind = kind.parse().ok()?;
        (!id.is_empty()).then(|| media_gen_api::TaskKey::new(kind, id))
    })
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
        assert!(upload(now - 60, false).under_way_at(now, IDLE_SECONDS));
        assert!(
            !upload(now - IDLE_SECONDS, false).under_way_at(now, IDLE_SECONDS),
            "a closed tab frees its place"
        );
        assert!(
            !upload(now, true).under_way_at(now, IDLE_SECONDS),
            "complete"
        );
        let gone = Upload {
            gone: true,
            ..upload(now, false)
        };
        assert!(!gone.under_way_at(now, IDLE_SECONDS));
    }

    #[test]
    fn the_quota_counts_bytes_in_and_one_piece_reserved_not_the_declared_length() {
        let now = 1_000_000;
        let idle = 600;
        let declared = Upload::new(2 << 30, "v.mp4".into(), "ada".into(), now, now + 86_400);
        assert_eq!(
            declared.counted_at(now, idle),
            RESERVATION,
            "one piece, no byte in"
        );
        assert_eq!(
            declared.counted_at(now + idle, idle),
            0,
            "idle: its reservation is let go"
        );
        let halfway = Upload {
            received: 1 << 30,
            ..declared.clone()
        };
        assert_eq!(halfway.counted_at(now, idle), (1 << 30) + RESERVATION);
        assert_eq!(
            halfway.counted_at(now + idle, idle),
            1 << 30,
            "its bytes stay counted"
        );
        let nearly = Upload {
            received: (2 << 30) - 10,
            ..declared.clone()
        };
        assert_eq!(
            nearly.counted_at(now, idle),
            2 << 30,
            "never past its length"
        );
        let small = Upload::new(1_000, "a.png".into(), "ada".into(), now, now + 86_400);
        assert_eq!(small.counted_at(now, idle), 1_000);
        let complete = Upload {
            complete: true,
            received: 1_000,
            ..small.clone()
        };
        assert_eq!(complete.counted_at(now + 10 * idle, idle), 1_000);
        let gone = Upload {
            gone: true,
            ..complete
        };
        assert_eq!(gone.counted_at(now, idle), 0);
    }

    #[test]
    fn a_hold_keeps_an_upload_past_its_expiry_until_its_ceiling() {
        let now = 1_000_000;
        let held = Upload {
            held_by: vec!["image_generate/t1".to_owned()],
            held_until: now + 100,
            ..upload(now - 86_400, true)
        };
        assert!(held.expires <= now);
        assert!(!held.expired_at(now), "held");
        assert!(held.held_at(now));
        assert!(held.expired_at(now + 100), "past the hold's ceiling");
        assert!(!held.held_at(now + 100));
        let let_go = Upload {
            held_by: Vec::new(),
            ..held.clone()
        };
        assert!(let_go.expired_at(now));
        let own_expiry_later = Upload {
            expires: now + 1_000,
            ..held
        };
        assert!(
            !own_expiry_later.expired_at(now + 500),
            "the ceiling never shortens its own time"
        );
    }

    #[test]
    fn a_record_from_before_touched_reads_as_made_long_ago() {
        let text = r#"{"length":5,"created":7,"expires":9,"media":null,"name":"a","owner":"o","complete":false}"#;
        let read: Upload = serde_json::from_str(text).unwrap();
        assert_eq!(read.touched, 0);
        assert!(!read.under_way_at(10_000, IDLE_SECONDS));
        assert_eq!((read.received, read.held_until), (0, 0));
        // Held before holds had a ceiling: kept the default ceiling from
        // when it was made, not let go at once nor kept for ever.
        let held = Upload {
            held_by: vec!["image_generate/t1".to_owned()],
            ..read
        };
        assert!(!held.expired_at(7 + DEFAULT_HOLD_SECONDS - 1));
        assert!(held.expired_at(7 + DEFAULT_HOLD_SECONDS));
    }
}
