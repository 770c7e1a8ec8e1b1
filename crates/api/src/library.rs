//! A person's library: every request they submitted through a gateway
//! that keeps one, with its tasks' last known status and result, on every
//! device they sign in from. What the gateway's `/library` calls take and
//! answer, and the rules of each field, live here; the gateway stores it,
//! a page reads it.

use serde::{Deserialize, Serialize};

use crate::kind::TaskKind;
use crate::request::Request;
use crate::status::TaskStatus;

/// The header of a submit's answer naming the request in the person's
/// library (`Media-Gen-Library-Request`).
pub const LIBRARY_HEADER: &str = "media-gen-library-request";

/// Requests a page of the library holds unless `limit` says otherwise.
pub const PAGE_DEFAULT: u32 = 50;
/// The most requests one page may hold.
pub const PAGE_MAX: u32 = 100;
/// The longest search a page may send, in characters.
pub const QUERY_MAX_CHARS: usize = 200;
/// The most words of a search (each must appear).
pub const QUERY_MAX_WORDS: usize = 8;
/// The longest name a person may give a request, in characters.
pub const NAME_MAX_CHARS: usize = 100;
/// How long a removed request can be brought back, in milliseconds.
pub const UNDO_MS: u64 = 60_000;
/// The most requests one "remove many" or "restore" call names.
pub const MANY_MAX: usize = 500;
/// The most tasks one import from a browser may hold.
pub const IMPORT_MAX: usize = 1_000;

/// The gateway's id for one request in a library: 128 random bits,
/// base64url (22 characters). Unguessable, so a guessed one answers 404.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct RequestId(String);

impl RequestId {
    /// `text` as an id, when it has an id's shape (1 to 64 letters, digits,
    /// `-` and `_`): nothing else reaches a database.
    pub fn parse(text: &str) -> Option<RequestId> {
        let shaped = (1..=64).contains(&text.len())
            && text
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_');
        shaped.then(|| RequestId(text.to_owned()))
    }

    /// The id as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for RequestId {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        RequestId::parse(&text).ok_or_else(|| format!("{text:?} is not a request id"))
    }
}

impl From<RequestId> for String {
    fn from(id: RequestId) -> String {
        id.0
    }
}

impl std::fmt::Display for RequestId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One task of a request, as last known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct LibraryTask {
    /// The service's id.
    pub task_id: String,
    /// The last status read.
    pub status: TaskStatus,
    /// When it was last learnt (milliseconds since 1970).
    pub updated: u64,
    /// The task as last read, `{"task_type": …, "data": {…}}` (with its
    /// results and the gateway's kept copies); `null` before a read.
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(type = "unknown"))]
    pub task: Option<serde_json::Value>,
}

/// One request in the library: what was asked and the tasks it made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct LibraryItem {
    /// The gateway's id for it.
    #[cfg_attr(feature = "typescript", ts(type = "string"))]
    pub request: RequestId,
    /// Its kind.
    pub kind: TaskKind,
    /// When it was submitted (milliseconds since 1970).
    pub created: u64,
    /// The name the person gave it, if any.
    #[serde(default)]
    pub name: Option<String>,
    /// The request's body as sent (`null` for a task added from a browser
    /// that did not know it).
    #[cfg_attr(feature = "typescript", ts(type = "unknown"))]
    pub body: serde_json::Value,
    /// The tasks it made, in the service's order.
    pub tasks: Vec<LibraryTask>,
    /// Whether the person starred it.
    #[serde(default)]
    pub starred: bool,
    /// The collections it is in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "typescript", ts(type = "string[]", optional))]
    pub collections: Vec<crate::organise::CollectionId>,
}

/// A page of the library, newest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct LibraryPage {
    /// The requests on this page.
    pub items: Vec<LibraryItem>,
    /// What to send as `cursor` for the next page; `null` on the last.
    pub next: Option<String>,
}

/// Where a page ends: the last request's time and id. Written
/// `created.id` (an id holds no `.`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    /// The last request's `created`.
    pub created: u64,
    /// The last request's id.
    pub request: RequestId,
}

impl Cursor {
    /// The cursor after `item`.
    pub fn after(item: &LibraryItem) -> Cursor {
        Cursor {
            created: item.created,
            request: item.request.clone(),
        }
    }

    /// The cursor as a page sends it back.
    pub fn to_text(&self) -> String {
        format!("{}.{}", self.created, self.request)
    }

    /// A cursor out of its text.
    pub fn parse(text: &str) -> Option<Cursor> {
        let (created, request) = text.split_once('.')?;
        Some(Cursor {
            created: created.parse().ok()?,
            request: RequestId::parse(request)?,
        })
    }
}

/// What a listing asks for: `?kind=&status=&q=&cursor=&limit=`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LibraryQuery {
    /// Only requests of this kind.
    pub kind: Option<TaskKind>,
    /// Only requests with a task in this status.
    pub status: Option<TaskStatus>,
    /// Only requests whose prompt or name holds every one of these words
    /// (lowercase).
    pub words: Vec<String>,
    /// Only requests after this one.
    pub cursor: Option<Cursor>,
    /// The most requests on the page.
    pub limit: u32,
    /// Only starred requests.
    pub starred: bool,
    /// Only requests in this collection.
    pub collection: Option<crate::organise::CollectionId>,
    /// Only image-to-video requests of this model.
    pub model: Option<crate::values::Model>,
    /// Only requests made on or after this day (`from=YYYY-MM-DD`, UTC).
    pub from: Option<Day>,
    /// Only requests made on or before this day (`to=YYYY-MM-DD`, UTC).
    pub to: Option<Day>,
    /// Only requests with a kept copy of a result.
    pub kept: bool,
}

impl LibraryQuery {
    /// The query of the `(name, value)` pairs of a query string, or what
    /// is wrong with one, naming the field and the rule. Unknown names
    /// are refused: a misspelt filter must not list everything.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<LibraryQuery, String> {
        let mut query = LibraryQuery {
            limit: PAGE_DEFAULT,
            ..LibraryQuery::default()
        };
        for (name, value) in pairs {
            if value.is_empty() {
                continue;
            }
            match name {
                "kind" => {
                    query.kind = Some(value.parse().map_err(
                        |error: crate::wire_enum::UnknownValue| {
                            format!("kind: `{value}` is not one of {}", error.allowed.join(", "))
                        },
                    )?)
                }
                "status" => query.status = Some(status_filter(value)?),
                "q" => query.words = query_words(value)?,
                "cursor" => {
                    query.cursor = Some(Cursor::parse(value).ok_or_else(|| {
                        "cursor: not one this gateway gave (send `next` as it came)".to_owned()
                    })?)
                }
                "limit" => {
                    query.limit = value
                        .parse()
                        .ok()
                        .filter(|limit| (1..=PAGE_MAX).contains(limit))
                        .ok_or_else(|| format!("limit: a whole number from 1 to {PAGE_MAX}"))?
                }
                "starred" => query.starred = flag("starred", value)?,
                "kept" => query.kept = flag("kept", value)?,
                "collection" => {
                    query.collection =
                        Some(crate::organise::CollectionId::parse(value).ok_or_else(|| {
                            "collection: not the id of one of your collections".to_owned()
                        })?)
                }
                "model" => {
                    query.model = Some(value.parse().map_err(
                        |error: crate::wire_enum::UnknownValue| {
                            format!(
                                "model: `{value}` is not one of {}",
                                error.allowed.join(", ")
                            )
                        },
                    )?)
                }
                "from" => query.from = Some(Day::parse("from", value)?),
                "to" => query.to = Some(Day::parse("to", value)?),
                other => {
                    return Err(format!(
                        "{other}: not a filter of the library (kind, status, q, starred, \
                         collection, model, from, to, kept, cursor, limit)"
                    ))
                }
            }
        }
        if query
            .from
            .as_ref()
            .zip(query.to.as_ref())
            .is_some_and(|(from, to)| from.start() > to.start())
        {
            return Err("to: a day on or after `from`".to_owned());
        }
        Ok(query)
    }
}

/// A day in milliseconds.
const DAY_MS: u64 = 86_400_000;

/// A day of a listing's filters: as written (`YYYY-MM-DD`, UTC), and when
/// it begins. Kept as written, so a page that only asks again never
/// reckons dates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Day {
    text: String,
    start: u64,
}

impl Day {
    /// The day `text` of filter `name`, or what is wrong with it.
    pub fn parse(name: &str, text: &str) -> Result<Day, String> {
        Ok(Day {
            start: day_start(name, text)?,
            text: text.to_owned(),
        })
    }

    /// When it begins, in milliseconds since 1970.
    pub fn start(&self) -> u64 {
        self.start
    }

    /// When the next day begins, in milliseconds since 1970.
    pub fn end(&self) -> u64 {
        self.start + DAY_MS
    }

    /// As written.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

/// `true` or `false` of filter `name`.
fn flag(name: &str, value: &str) -> Result<bool, String> {
    match value {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(format!("{name}: true or false, not `{value}`")),
    }
}

/// The milliseconds since 1970 at which the day `YYYY-MM-DD` (UTC) of
/// filter `name` begins.
fn day_start(name: &str, value: &str) -> Result<u64, String> {
    let wrong = || format!("{name}: a day written YYYY-MM-DD, not `{value}`");
    let mut parts = value.splitn(3, '-');
    let mut part = |len: usize| {
        parts
            .next()
            .filter(|part| part.len() == len && part.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|part| part.parse::<i64>().ok())
    };
    let (year, month, day) = (part(4), part(2), part(2));
    let (Some(year), Some(month), Some(day)) = (year, month, day) else {
        return Err(wrong());
    };
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => return Err(wrong()),
    };
    if !(1970..=9999).contains(&year) || !(1..=days_in_month).contains(&day) {
        return Err(wrong());
    }
    // Days since 1970 of a civil date (H. Hinnant's `days_from_civil`).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let day_of_year = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    let days = era * 146_097 + day_of_era - 719_468;
    u64::try_from(days)
        .map(|days| days * DAY_MS)
        .map_err(|_| wrong())
}

impl LibraryQuery {
    /// Whether it lists every request (only where it starts and how many
    /// it takes set): a page of it says which requests the library holds.
    pub fn narrows_nothing(&self) -> bool {
        let LibraryQuery {
            kind,
            status,
            words,
            cursor: _,
            limit: _,
            starred,
            collection,
            model,
            from,
            to,
            kept,
        } = self;
        kind.is_none()
            && status.is_none()
            && words.is_empty()
            && !starred
            && collection.is_none()
            && model.is_none()
            && from.is_none()
            && to.is_none()
            && !kept
    }

    /// The query string that asks for this listing (what
    /// [`LibraryQuery::from_pairs`] reads back), without the `?`.
    pub fn to_query(&self) -> String {
        let mut pairs = vec![format!("limit={}", self.limit)];
        if let Some(kind) = self.kind {
            pairs.push(format!("kind={kind}"));
        }
        if let Some(status) = &self.status {
            pairs.push(format!("status={}", status.as_str()));
        }
        if !self.words.is_empty() {
            pairs.push(format!("q={}", crate::path::segment(&self.words.join(" "))));
        }
        // One loop, not a `format!` each: the app's first page carries it.
        let organising = [
            ("starred", self.starred.then_some("true")),
            ("collection", self.collection.as_ref().map(|c| c.as_str())),
            ("model", self.model.map(crate::values::Model::as_str)),
            ("from", self.from.as_ref().map(Day::as_str)),
            ("to", self.to.as_ref().map(Day::as_str)),
            ("kept", self.kept.then_some("true")),
        ];
        for (name, value) in organising {
            if let Some(value) = value {
                pairs.push(format!("{name}={value}"));
            }
        }
        if let Some(cursor) = &self.cursor {
            pairs.push(format!(
                "cursor={}",
                crate::path::segment(&cursor.to_text())
            ));
        }
        pairs.join("&")
    }
}

/// The day (`YYYY-MM-DD`, UTC) of milliseconds since 1970.
pub fn day_text(ms: u64) -> String {
    let (year, month, day) = crate::archive::civil_from_days(ms / DAY_MS);
    format!("{year:04}-{month:02}-{day:02}")
}

/// A status the listing filters by: one of the service's four.
fn status_filter(value: &str) -> Result<TaskStatus, String> {
    match TaskStatus::from(value) {
        TaskStatus::Other(_) => Err(format!(
            "status: `{value}` is not one of PENDING, GENERATING, SUCCEEDED, FAILED"
        )),
        known => Ok(known),
    }
}

/// The words of a search, lowercase, each to be found.
pub fn query_words(text: &str) -> Result<Vec<String>, String> {
    if text.chars().count() > QUERY_MAX_CHARS {
        return Err(format!("q: at most {QUERY_MAX_CHARS} characters"));
    }
    let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
    if words.len() > QUERY_MAX_WORDS {
        return Err(format!("q: at most {QUERY_MAX_WORDS} words"));
    }
    Ok(words)
}

/// The text a search looks in: the request's prompt and the name the
/// person (or the request) gave it, lowercase.
pub fn searched_text(request: Option<&Request>, name: Option<&str>) -> String {
    let asked = match request {
        Some(Request::ImageToVideo(request)) => request.prompt.as_str(),
        Some(Request::ImageGenerate(request)) => request.prompt.as_str(),
        Some(Request::VideoTranslate(request)) => request.name.as_deref().unwrap_or(""),
        None => "",
    };
    let mut text = asked.to_lowercase();
    if let Some(name) = name.filter(|name| !name.is_empty()) {
        text.push('\n');
        text.push_str(&name.to_lowercase());
    }
    text
}

/// The name a request is listed under until the person renames it: a
/// translation's own `name`.
pub fn given_name(request: &Request) -> Option<String> {
    match request {
        Request::VideoTranslate(request) => request.name.clone().filter(|name| !name.is_empty()),
        _ => None,
    }
}

/// A name the person gives a request, trimmed, or what is wrong with it.
pub fn check_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > NAME_MAX_CHARS {
        return Err(format!("name: 1 to {NAME_MAX_CHARS} characters"));
    }
    if name.chars().any(char::is_control) {
        return Err("name: no line breaks or control characters".to_owned());
    }
    Ok(name.to_owned())
}

/// What one task of a request makes, for the owner's `usage`: images,
/// and seconds of video (a translation's length is not known when it is
/// submitted, so it counts none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Output {
    /// Images made.
    pub images: u64,
    /// Seconds of video made.
    pub video_seconds: u64,
}

/// What each task of `request` makes.
pub fn output_per_task(request: &Request) -> Output {
    match request {
        Request::ImageGenerate(_) => Output {
            images: 1,
            video_seconds: 0,
        },
        Request::ImageToVideo(request) => Output {
            images: 0,
            video_seconds: request
                .duration
                .and_then(|seconds| u64::try_from(seconds).ok())
                .unwrap_or(0),
        },
        Request::VideoTranslate(_) => Output::default(),
    }
}

/// A rename: `PATCH /library/{request}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rename {
    /// The new name ([`check_name`]).
    pub name: String,
}

/// Several requests: `POST /library/remove` and `POST /library/restore`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Many {
    /// The requests, at most [`MANY_MAX`].
    pub requests: Vec<RequestId>,
}

/// What a removal answers: the requests removed, and until when
/// `POST /library/restore` brings them back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Removed {
    /// The requests removed (ids the person does not own are left out).
    #[cfg_attr(feature = "typescript", ts(type = "string[]"))]
    pub requests: Vec<RequestId>,
    /// Milliseconds since 1970 until which they can be restored.
    pub undo_until: u64,
}

/// A task a browser already knows, offered to the library once
/// (`POST /library/import`): its stored record's fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KnownTask {
    /// Its kind.
    pub kind: TaskKind,
    /// The service's id.
    pub task_id: String,
    /// When it was submitted (milliseconds since 1970).
    pub submitted_at: f64,
    /// The request's body as submitted, or `null`.
    #[serde(default)]
    pub request: serde_json::Value,
    /// The last status read.
    pub status: TaskStatus,
    /// The task as last read (tagged), or `null`.
    #[serde(default)]
    pub task: Option<serde_json::Value>,
}

/// `POST /library/import`'s body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Import {
    /// The tasks, at most [`IMPORT_MAX`].
    pub tasks: Vec<KnownTask>,
}

/// What an import answers: how many tasks were added (those already in
/// the library are not added twice).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Imported {
    /// Tasks added.
    pub added: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(text: &str) -> Result<LibraryQuery, String> {
        LibraryQuery::from_pairs(text.split('&').filter_map(|pair| pair.split_once('=')))
    }

    #[test]
    fn a_query_reads_its_organising_filters_and_writes_them_back() {
        let read =
            query("starred=true&collection=c-1&model=KL&from=2026-12-01&to=2026-12-07&kept=1")
                .unwrap();
        assert!(read.starred && read.kept);
        assert_eq!(read.collection.as_ref().map(|c| c.as_str()), Some("c-1"));
        assert_eq!(read.model, Some(crate::values::Model::Kl));
        assert_eq!(
            read.from.as_ref().map(Day::start),
            Some(1_796_083_200_000),
            "2026-12-01 00:00 UTC"
        );
        assert_eq!(
            read.to.as_ref().map(Day::end),
            Some(1_796_688_000_000),
            "2026-12-08 00:00 UTC"
        );
        let again = query(&read.to_query()).unwrap();
        assert_eq!(again, read);
        assert!(query("from=2026-02-30")
            .unwrap_err()
            .starts_with("from: a day"));
        assert!(query("to=7.12.2026").unwrap_err().starts_with("to: a day"));
        assert!(query("from=2026-12-08&to=2026-12-07")
            .unwrap_err()
            .starts_with("to: a day on or after"));
        assert!(query("starred=maybe").unwrap_err().starts_with("starred:"));
        assert!(query("model=Z").unwrap_err().starts_with("model: `Z`"));
        assert!(query("collection=a b")
            .unwrap_err()
            .starts_with("collection:"));
    }

    proptest::proptest! {
        #[test]
        fn a_day_is_read_back_as_written(days in 0u64..2_900_000) {
            let text = day_text(days * DAY_MS);
            proptest::prop_assert_eq!(day_start("from", &text), Ok(days * DAY_MS));
        }
    }

    #[test]
    fn a_query_reads_its_filters_and_names_a_wrong_one() {
        let read = query("kind=image_generate&status=FAILED&q=Red  Fox&limit=20").unwrap();
        assert_eq!(read.kind, Some(TaskKind::ImageGenerate));
        assert_eq!(read.status, Some(TaskStatus::Failed));
        assert_eq!(read.words, ["red", "fox"]);
        assert_eq!(read.limit, 20);
        assert_eq!(query("").unwrap().limit, PAGE_DEFAULT);
        assert_eq!(query("kind=&q=").unwrap(), query("").unwrap());
        assert!(query("kind=video")
            .unwrap_err()
            .starts_with("kind: `video`"));
        assert!(query("status=DONE")
            .unwrap_err()
            .starts_with("status: `DONE`"));
        assert!(query("limit=0").unwrap_err().starts_with("limit:"));
        assert!(query("limit=101").unwrap_err().starts_with("limit:"));
        assert!(query("cursor=12").unwrap_err().starts_with("cursor:"));
        assert!(query("kinds=x")
            .unwrap_err()
            .starts_with("kinds: not a filter"));
        let long = format!("q={}", "a ".repeat(9));
        assert!(query(&long).unwrap_err().contains("at most 8 words"));
        let longer = format!("q={}", "a".repeat(201));
        assert!(query(&longer)
            .unwrap_err()
            .contains("at most 200 characters"));
    }

    #[test]
    fn a_query_string_reads_back_as_the_query() {
        let asked =
            query("kind=video_translate&status=GENERATING&q=a%20b&limit=7&cursor=12.x-y").unwrap();
        let text = asked.to_query();
        let pairs: Vec<(String, String)> = text
            .split('&')
            .filter_map(|pair| pair.split_once('='))
            .map(|(name, value)| (name.to_owned(), crate::path::decode_segment(value)))
            .collect();
        let again =
            LibraryQuery::from_pairs(pairs.iter().map(|(n, v)| (n.as_str(), v.as_str()))).unwrap();
        assert_eq!(again, asked);
    }

    #[test]
    fn a_cursor_reads_back_as_written() {
        let cursor = Cursor {
            created: 1_764_000_000_123,
            request: RequestId::parse("aB-_9").unwrap(),
        };
        assert_eq!(Cursor::parse(&cursor.to_text()), Some(cursor));
        assert_eq!(Cursor::parse("x.aB"), None);
        assert_eq!(Cursor::parse("12.a b"), None);
        assert_eq!(Cursor::parse("12."), None);
    }

    #[test]
    fn ids_have_one_shape() {
        assert!(RequestId::parse("Zx_9-a").is_some());
        for wrong in ["", "a/b", "a.b", "é", &"a".repeat(65), "' or 1=1"] {
            assert!(RequestId::parse(wrong).is_none(), "{wrong}");
        }
        let read: Result<RequestId, _> = serde_json::from_str("\"a b\"");
        assert!(read.is_err());
    }

    #[test]
    fn names_are_trimmed_single_lines() {
        assert_eq!(check_name("  Fox at dusk ").unwrap(), "Fox at dusk");
        assert!(check_name(" ").unwrap_err().starts_with("name: 1 to 100"));
        assert!(check_name(&"a".repeat(101)).is_err());
        assert!(check_name("a\nb").unwrap_err().contains("line breaks"));
    }

    #[test]
    fn searches_look_in_the_prompt_and_the_name_and_output_is_counted_per_task() {
        let image = Request::from_json(
            TaskKind::ImageGenerate,
            serde_json::json!({"prompt": "A Red Fox", "generate_count": 3}),
        )
        .unwrap();
        assert_eq!(searched_text(Some(&image), Some("Dusk")), "a red fox\ndusk");
        assert_eq!(output_per_task(&image).images, 1);
        let video = Request::from_json(
            TaskKind::ImageToVideo,
            serde_json::json!({"prompt": "waves", "duration": 8, "model": "V"}),
        )
        .unwrap();
        assert_eq!(output_per_task(&video).video_seconds, 8);
        let translation = Request::from_json(
            TaskKind::VideoTranslate,
            serde_json::json!({"video_url": "https://x/v.mp4", "target_languages": ["fr"], "name": "Talk"}),
        )
        .unwrap();
        assert_eq!(given_name(&translation).as_deref(), Some("Talk"));
        assert_eq!(searched_text(Some(&translation), None), "talk");
        assert_eq!(output_per_task(&translation), Output::default());
    }
}
