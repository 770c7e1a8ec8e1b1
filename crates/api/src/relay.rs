//! The gateway's callback relay as its clients see it: where to ask
//! whether a gateway relays, the header a relayed submit's answer names
//! its capability in, and the stream the completions arrive on (see
//! `docs/deploy.md`, "The relay"). Not part of the service's interface:
//! the gateway adds it in front of the service.

use serde::{Deserialize, Serialize};

/// `GET` this path on a gateway: its [`Capabilities`], in the usual
/// success envelope. A service answers it 404: no relay.
pub const CAPABILITIES_PATH: &str = "/capabilities";

/// Whether a `/capabilities` answer with HTTP `status` means the server
/// offers nothing beyond the documented calls (the service itself, an
/// older gateway: it has no such path), rather than a failure.
pub fn offers_nothing(status: u16) -> bool {
    status == 404
}

/// `POST` an access key here (`{ "key": "mgk_…" }`) for a session cookie
/// and the [`PersonInfo`] it names; `DELETE` ends the session. Only on a
/// gateway started with `--access keys`.
pub const SESSION_PATH: &str = "/session";

/// The header a relayed submit's answer carries the submission's
/// capability in.
pub const RELAY_HEADER: &str = "media-gen-relay";

/// The most capabilities one event stream names (`?relays=`); a stream
/// asking for more is refused.
pub const MAX_RELAYS: usize = 200;

/// Whether `text` has a capability's shape: 32 lowercase hexadecimal
/// digits (128 random bits), as a relayed submit's answer names it.
pub fn is_capability(text: &str) -> bool {
    text.len() == 32
        && text
            .bytes()
            .all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'))
}

/// Whether `text` has a page token's shape: [`PAGE_TOKEN_PREFIX`] and
/// 43 base64url characters (256 random bits), nothing that needs escaping
/// in an address.
pub fn is_page_token(text: &str) -> bool {
    text.strip_prefix(PAGE_TOKEN_PREFIX).is_some_and(|rest| {
        rest.len() == 43
            && rest
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
    })
}

/// Where a gateway that relays serves its event stream (what
/// [`Capabilities`] names), relative to the base URL the submits went to.
pub const EVENTS_PATH: &str = "/events";

/// Where a gateway that takes uploads takes them (tus 1.0) and serves
/// each finished one, under `{path}{id}` (what [`UploadsInfo`] names).
pub const UPLOADS_PATH: &str = "/uploads/";

/// What a page token starts with: the short-lived token a host site's
/// server gets for its page from a gateway that asks for keys.
pub const PAGE_TOKEN_PREFIX: &str = "mgt_";

/// The event stream's query parameter for a page token: an `EventSource`
/// cannot send `Authorization`, so another site's page names its token
/// here. Only a page token: it lasts minutes, where a key in an address
/// would outlive every log and history it reached.
pub const STREAM_TOKEN_PARAM: &str = "token";

// Each event of the stream carries one ended task: its name is the task's
// kind (`image_generate`, ...), its data the task object as a status read
// answers it, its id the announcement's number.

/// What a gateway (or the sandbox) offers beyond the documented calls.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
pub struct Capabilities {
    /// The callback relay, when the gateway has one.
    #[serde(default)]
    pub relay: Option<RelayInfo>,
    /// Present when the server is a sandbox: the inboxes it keeps the
    /// callbacks it receives in (a form offers one as its callback URL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<SandboxInfo>,
    /// Who may use the gateway, and who is asking (absent: anyone, as a
    /// service or an older gateway). Read only with the `access` feature
    /// (always written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(feature = "access"), serde(skip_deserializing))]
    pub access: Option<AccessInfo>,
    /// Where files are uploaded, when the gateway takes them. Read only
    /// with the `uploads` feature (always written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(feature = "uploads"), serde(skip_deserializing))]
    pub uploads: Option<UploadsInfo>,
    /// Shared links, when the gateway offers them (it keeps each person's
    /// library and their results). Read only with the `sharing` feature
    /// (always written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(feature = "sharing"), serde(skip_deserializing))]
    pub sharing: Option<SharingInfo>,
}

/// Where a gateway's shared links are made and opened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct SharingInfo {
    /// Where links are made, listed and taken back (`/shares`), relative
    /// to the base URL.
    pub path: String,
    /// Where a link's page is opened (`/s/{token}`), relative to the base
    /// URL.
    pub shared_path: String,
    /// Whether links open only to people signed in may be made.
    pub team: bool,
}

/// Only where a gateway takes uploads, out of its [`Capabilities`]: what an
/// uploader needs of them, read without the rest.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct UploadsOffer {
    /// Where files are uploaded, when the gateway takes them.
    #[serde(default)]
    pub uploads: Option<UploadsInfo>,
}

/// Where a gateway takes uploads (tus 1.0) and within what bounds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct UploadsInfo {
    /// The tus creation path (`/uploads/`), relative to the base URL.
    pub path: String,
    /// The largest image taken (the contract's 20 MB).
    pub max_image_bytes: u64,
    /// The largest video taken.
    pub max_video_bytes: u64,
    /// How long an upload is kept after it is made or finished (seconds).
    pub ttl_seconds: u64,
    /// Whether the gateway keeps a copy of every result (`kept` in the
    /// tasks it forwards); absent from a gateway from before, which keeps
    /// none.
    #[serde(default)]
    pub keeps_results: bool,
}

/// Who may use a gateway.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase", try_from = "String")]
pub enum AccessMode {
    /// Anyone; budgets per address (for loopback, demos, or behind
    /// another gate).
    #[default]
    Open,
    /// Holders of an access key.
    Keys,
    /// The people an auth proxy in front names.
    Proxy,
}

impl AccessMode {
    /// Every mode, as `--access` lists them.
    pub const ALL: [AccessMode; 3] = [AccessMode::Open, AccessMode::Keys, AccessMode::Proxy];

    /// Whether it names each person (`keys`, `proxy`), who then has a
    /// library of their own where the gateway keeps one.
    pub fn names_people(self) -> bool {
        self != AccessMode::Open
    }

    /// How `--access` and `/capabilities` name it.
    pub fn as_str(self) -> &'static str {
        match self {
            AccessMode::Open => "open",
            AccessMode::Keys => "keys",
            AccessMode::Proxy => "proxy",
        }
    }
}

impl std::str::FromStr for AccessMode {
    type Err = String;
    fn from_str(text: &str) -> Result<AccessMode, String> {
        AccessMode::ALL
            .into_iter()
            .find(|mode| mode.as_str() == text)
            .ok_or_else(|| format!("{text:?}: one of open, keys, proxy"))
    }
}

/// Read through [`FromStr`](std::str::FromStr): one comparison of names
/// for `--access` and `/capabilities`, and less code in a page than a
/// derived reader.
impl TryFrom<String> for AccessMode {
    type Error = String;
    fn try_from(text: String) -> Result<AccessMode, String> {
        text.parse()
    }
}

/// A gateway's access rule as a page sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct AccessInfo {
    /// `open` (anyone), `keys` (a person's access key) or `proxy` (the
    /// person an auth proxy in front names).
    pub mode: AccessMode,
    /// The person the asking call names, when it names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub person: Option<PersonInfo>,
    /// Whether the gateway keeps each person's library (`/library`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub library: bool,
}

/// The person a call names, and what is left of their day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct PersonInfo {
    /// The name their key was given to.
    pub name: String,
    /// The tasks they may create per day (UTC).
    pub tasks_per_day: u32,
    /// What is left of it today.
    pub tasks_left_today: u32,
}

/// What a sandbox offers a page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct SandboxInfo {
    /// The path under which the sandbox keeps callbacks, an inbox per name:
    /// `/sandbox/inbox`, to which `/{name}` is added.
    pub inbox: String,
}

/// The path of the sandbox's inboxes.
pub const SANDBOX_INBOX_PATH: &str = "/sandbox/inbox";

/// Where a gateway's relay is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct RelayInfo {
    /// The path of the event stream: `/events`, to which
    /// `?relays=c1,c2` (the capabilities followed) is added.
    pub events: String,
}

impl Default for RelayInfo {
    /// The relay at [`EVENTS_PATH`]: where a gateway that just named a
    /// capability in a submit's answer listens, with nothing to ask.
    fn default() -> Self {
        RelayInfo {
            events: EVENTS_PATH.to_owned(),
        }
    }
}

impl RelayInfo {
    /// The stream's path and query for `capabilities`, with `token` when
    /// it is a page token (anything else stays out of the address). A
    /// stream opened on it replays everything the gateway kept for them;
    /// on reconnecting, the browser's `Last-Event-ID` resumes where it was.
    pub fn stream_path<'a>(
        &self,
        capabilities: impl IntoIterator<Item = &'a str>,
        token: Option<&str>,
    ) -> String {
        let relays: Vec<&str> = capabilities.into_iter().collect();
        with_page_token(
            format!("{}?relays={}", self.events, relays.join(",")),
            token,
        )
    }

    /// The stream's path for the signed-in person's library alone: each
    /// new task of theirs and each change to one, from any of their
    /// devices (on a gateway that keeps their library); with `token` as in
    /// [`RelayInfo::stream_path`].
    pub fn library_path(&self, token: Option<&str>) -> String {
        with_page_token(format!("{}?{LIBRARY_PARAM}=1", self.events), token)
    }
}

/// The query parameter that asks a stream for the person's library.
pub const LIBRARY_PARAM: &str = "library";

/// `path` (with a query already) with `token` when it is a page token;
/// anything else stays out of the address.
fn with_page_token(mut path: String, token: Option<&str>) -> String {
    if let Some(token) = token.filter(|token| is_page_token(token)) {
        for part in ["&", STREAM_TOKEN_PARAM, "=", token] {
            path.push_str(part);
        }
    }
    path
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_access_mode_reads_back_as_written() {
        for mode in super::AccessMode::ALL {
            assert_eq!(mode.as_str().parse(), Ok(mode));
            assert_eq!(
                serde_json::to_string(&mode).unwrap_or_default(),
                format!("\"{}\"", mode.as_str())
            );
            let json = format!("\"{}\"", mode.as_str());
            assert_eq!(serde_json::from_str(&json).ok(), Some(mode));
        }
        let wrong = "everyone".parse::<super::AccessMode>().unwrap_err();
        assert!(wrong.contains("one of open, keys, proxy"), "{wrong}");
        let read = serde_json::from_str::<super::AccessMode>("\"everyone\"");
        let wrong = read.map_err(|error| error.to_string()).unwrap_err();
        assert!(wrong.contains("one of open, keys, proxy"), "{wrong}");
    }

    #[test]
    fn only_a_missing_path_means_nothing_offered() {
        assert!(super::offers_nothing(404));
        for failure in [401, 429, 500, 502, 503] {
            assert!(!super::offers_nothing(failure), "{failure} is a failure");
        }
    }

    #[cfg(feature = "access")]
    #[test]
    fn the_access_rule_is_read_with_its_person() {
        let json = r#"{"access":{"mode":"keys","person":{"name":"ada","tasks_per_day":5,"tasks_left_today":2}}}"#;
        let read: super::Capabilities = serde_json::from_str(json).unwrap();
        let person = read.access.and_then(|access| access.person).unwrap();
        assert_eq!((person.name.as_str(), person.tasks_left_today), ("ada", 2));
    }

    use super::*;

    #[test]
    fn the_stream_names_every_capability_and_where_to_resume() {
        let relay = RelayInfo {
            events: "/events".into(),
        };
        assert_eq!(
            relay.stream_path(["a1", "b2"], None),
            "/events?relays=a1,b2"
        );
        let token = format!("mgt_{}", "A-_z".repeat(10) + "abc");
        assert_eq!(
            relay.stream_path(["a1"], Some(&token)),
            format!("/events?relays=a1&token={token}")
        );
        // A key, or anything else, never goes into the address.
        let key = token.replace("mgt_", "mgk_");
        assert_eq!(relay.stream_path(["a1"], Some(&key)), "/events?relays=a1");
        assert_eq!(relay.library_path(Some(&key)), "/events?library=1");
        assert_eq!(
            relay.library_path(Some(&token)),
            format!("/events?library=1&token={token}")
        );
        assert_eq!(
            relay.stream_path(["a1"], Some("mgt_x&y=z")),
            "/events?relays=a1"
        );
        let none: Capabilities = serde_json::from_str("{}").unwrap();
        assert_eq!(none.relay, None);
    }

    #[test]
    fn a_capability_is_32_lowercase_hex_digits() {
        assert!(is_capability("0123456789abcdef0123456789abcdef"));
        assert!(!is_capability("0123456789ABCDEF0123456789ABCDEF"));
        assert!(!is_capability("0123456789abcdef0123456789abcde"));
        assert!(!is_capability("image_generate"));
        assert!(!is_capability(""));
    }
}
