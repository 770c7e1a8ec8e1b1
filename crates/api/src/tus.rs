//! What a browser uploading a file to a gateway's tus 1.0 uploads decides:
//! how big each `PATCH` is, what each answer means, how long to wait after
//! a failure and when to give up. No I/O: the app's uploader
//! (`media-gen-client`) and the npm client's JavaScript both carry these
//! decisions out, so a file goes up the same way from either.

use std::time::Duration;

/// Bytes per `PATCH`: what a cut connection may cost at most.
pub const CHUNK_BYTES: u64 = 4 * 1024 * 1024;

/// The longest wait before trying again after the network failed.
pub const MAX_WAIT: Duration = Duration::from_secs(30);

/// Network failures in a row before the upload gives up (about five
/// minutes of waiting in all).
pub const NETWORK_TRIES: u32 = 14;

/// The status a creating `POST` answers with when the upload was made.
pub const CREATED: u16 = 201;

/// What a `PATCH`'s answer means for the upload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterPatch {
    /// The bytes are kept (204): go on from the gateway's `Upload-Offset`.
    Kept,
    /// Another offset, or the upload is gone from under it (expired,
    /// swept): ask the gateway where it stands, at once.
    AskNow,
    /// Busy, rate limited, a passing failure (or no answer at all): wait,
    /// then ask where it stands.
    WaitThenAsk,
    /// Refused for good: the gateway's message names the rule.
    Refused,
}

/// What a `HEAD` (where does the upload stand?) answer means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterHead {
    /// At its `Upload-Offset` (0 when none is given).
    Stands,
    /// Gone (expired, or never there): make a new one.
    Gone,
    /// A passing failure: as if the network were down.
    Passing,
    /// Refused for good.
    Refused,
}

/// Whether an answer is worth trying again: busy, rate limited, a server's
/// passing failure.
pub fn passing(status: u16) -> bool {
    status == 423 || status == 429 || status >= 500
}

/// What the `PATCH` answered with `status` means.
pub fn after_patch(status: u16) -> AfterPatch {
    match status {
        204 => AfterPatch::Kept,
        404 | 409 | 410 => AfterPatch::AskNow,
        status if passing(status) => AfterPatch::WaitThenAsk,
        _ => AfterPatch::Refused,
    }
}

/// What the `HEAD` answered with `status` means.
pub fn after_head(status: u16) -> AfterHead {
    match status {
        200 => AfterHead::Stands,
        404 | 410 => AfterHead::Gone,
        status if passing(status) => AfterHead::Passing,
        _ => AfterHead::Refused,
    }
}

/// The wait before try `failures` (1, 2, 4 … s, at most [`MAX_WAIT`]);
/// `None` once there were more than [`NETWORK_TRIES`]: give up.
pub fn wait_before(failures: u32) -> Option<Duration> {
    (failures <= NETWORK_TRIES)
        .then(|| Duration::from_secs(1u64 << failures.clamp(1, 6).saturating_sub(1)).min(MAX_WAIT))
}

/// `name` as an upload's metadata carries it, before base64: anything but
/// ASCII letters, digits and `-_.` written as `-` (the gateway keeps no
/// more of a name than that).
pub fn metadata_name(name: &str) -> String {
    crate::path::file_safe(name, '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_grow_to_half_a_minute_then_give_up() {
        let waits: Vec<u64> = (1..=8).map(|n| wait_before(n).unwrap().as_secs()).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 30, 30, 30]);
        assert_eq!(wait_before(NETWORK_TRIES), Some(MAX_WAIT));
        assert_eq!(wait_before(NETWORK_TRIES + 1), None);
    }

    #[test]
    fn answers_mean_what_tus_says() {
        assert_eq!(after_patch(204), AfterPatch::Kept);
        for status in [404, 409, 410] {
            assert_eq!(after_patch(status), AfterPatch::AskNow, "{status}");
        }
        for status in [423, 429, 500, 503] {
            assert_eq!(after_patch(status), AfterPatch::WaitThenAsk, "{status}");
            assert_eq!(after_head(status), AfterHead::Passing, "{status}");
        }
        for status in [400, 403, 413, 415] {
            assert_eq!(after_patch(status), AfterPatch::Refused, "{status}");
            assert_eq!(after_head(status), AfterHead::Refused, "{status}");
        }
        assert_eq!(after_head(200), AfterHead::Stands);
        assert_eq!(after_head(404), AfterHead::Gone);
        assert_eq!(after_head(410), AfterHead::Gone);
    }

    #[test]
    fn a_name_keeps_only_safe_ascii() {
        assert_eq!(
            metadata_name("holiday photo (1).png"),
            "holiday-photo--1-.png"
        );
        assert_eq!(metadata_name("café.jpg"), "caf-.jpg");
    }
}
