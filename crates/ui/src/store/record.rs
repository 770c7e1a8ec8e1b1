//! What the browser keeps about one task.

use media_gen_api::{AnyTask, Request, TaggedTask, TaskKey, TaskKind, TaskStatus};
use media_gen_client::TaskUpdate;
use serde::de::{Error as _, IgnoredAny};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use wasm_bindgen::JsValue;

/// One submitted task, as stored: enough to show it, follow it after a
/// reload, and submit it again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "StoredRecord")]
pub struct TaskRecord {
    /// The task's kind.
    pub kind: TaskKind,
    /// The service's id for it.
    pub task_id: String,
    /// When the submit returned (`Date.now()` milliseconds).
    pub submitted_at: f64,
    /// The request as submitted, for "re-run" and "edit and re-run"; `None`
    /// for a task followed here but submitted elsewhere. Stored as the
    /// request's JSON body (`null` when unknown).
    #[serde(serialize_with = "request_body")]
    pub request: Option<Request>,
    /// The last status read.
    pub status: TaskStatus,
    /// When it last changed (`Date.now()` milliseconds).
    pub updated_at: f64,
    /// The task as last read, with its result URLs.
    #[serde(default)]
    pub task: Option<AnyTask>,
    /// Why following it stopped, when a read failed for good (an unknown id, say).
    #[serde(default)]
    pub error: Option<String>,
    /// The capability under which the site's gateway relays the task's
    /// callbacks, when it does: the task is then heard of, not read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relay: Option<String>,
    /// The request in the signed-in person's library that made the task,
    /// once the library has named it (on a gateway that keeps one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub library: Option<String>,
    /// Whether its request is starred: the library's word where it keeps
    /// the request, this browser's otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub starred: bool,
    /// The collections its request is in (their ids), as [`Self::starred`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub collections: Vec<String>,
}

/// A record as stored, before its request is read as its kind's. `R` and
/// `T` are how its request and task are read: natively as a JSON value
/// and a tagged task; in the browser not at all (`IgnoredAny`), as
/// [`TaskRecord::from_stored`] reads them apart.
#[derive(Deserialize)]
#[serde(bound(deserialize = "R: Deserialize<'de> + Default, T: Deserialize<'de> + Default"))]
struct StoredRecord<R = serde_json::Value, T = StoredTask> {
    kind: TaskKind,
    task_id: String,
    submitted_at: f64,
    #[serde(default)]
    request: R,
    status: TaskStatus,
    updated_at: f64,
    #[serde(default)]
    task: T,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    relay: Option<String>,
    #[serde(default)]
    library: Option<String>,
    #[serde(default)]
    starred: bool,
    #[serde(default)]
    collections: Vec<String>,
}

/// A stored task: the callback's `{"task_type": …, "data": {…}}`, read as
/// the service's answers are ([`TaggedTask::read`]).
#[derive(Default)]
struct StoredTask(Option<AnyTask>);

impl<'de> Deserialize<'de> for StoredTask {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let Some(tagged) = Option::<TaggedTask>::deserialize(deserializer)? else {
            return Ok(StoredTask(None));
        };
        tagged
            .read()
            .map(|task| StoredTask(Some(task)))
            .map_err(D::Error::custom)
    }
}

impl<R, T> StoredRecord<R, T> {
    /// The record, with its request and task as read.
    fn with(self, request: Option<Request>, task: Option<AnyTask>) -> TaskRecord {
        TaskRecord {
            kind: self.kind,
            task_id: self.task_id,
            submitted_at: self.submitted_at,
            request,
            status: self.status,
            updated_at: self.updated_at,
            task,
            error: self.error,
            relay: self.relay,
            library: self.library,
            starred: self.starred,
            collections: self.collections,
        }
    }
}

impl From<StoredRecord> for TaskRecord {
    fn from(stored: StoredRecord) -> Self {
        // A body that does not read as its kind's request (storage edited by
        // hand) leaves the task shown and followed, without a re-run.
        let request = match &stored.request {
            serde_json::Value::Null => None,
            body => Request::from_json(stored.kind, body.clone()).ok(),
        };
        let task = stored.task.0.clone();
        stored.with(request, task)
    }
}

impl TaskRecord {
    /// A record out of what the browser's `JSON.parse` made of its stored
    /// text: read as the derived `Deserialize` reads the text natively (a
    /// request that does not read as its kind's is left out; a task that
    /// does not read as its kind's fails the record), with no JSON text
    /// reader in the wasm.
    pub fn from_stored(value: &JsValue) -> Result<TaskRecord, String> {
        use media_gen_client::value_reader::{read, Parsed};
        let stored: StoredRecord<IgnoredAny, IgnoredAny> =
            read(value).map_err(|error| error.to_string())?;
        let part = |name: &str| {
            js_sys::Reflect::get(value, &JsValue::from_str(name))
                .ok()
                .filter(|part| !part.is_null() && !part.is_undefined())
        };
        let request =
            part("request").and_then(|body| Request::from_body(stored.kind, &Parsed(&body)).ok());
        let task = match part("task") {
            None => None,
            Some(tagged) => {
                let kind_of = js_sys::Reflect::get(&tagged, &JsValue::from_str("task_type"))
                    .unwrap_or_default();
                let kind: TaskKind = read(&kind_of).map_err(|error| error.to_string())?;
                let data =
                    js_sys::Reflect::get(&tagged, &JsValue::from_str("data")).unwrap_or_default();
                Some(AnyTask::from_body(kind, &Parsed(&data))?)
            }
        };
        Ok(stored.with(request, task))
    }
}

/// A request of the person's library as the page reads it: the answer's
/// parts read apart, as [`TaskRecord::from_stored`] reads a stored record
/// (no JSON value reader in the wasm).
#[derive(Debug, Clone, PartialEq)]
pub struct LibraryRequest {
    /// The gateway's id for it.
    pub id: String,
    /// Its kind.
    pub kind: TaskKind,
    /// When it was submitted (milliseconds since 1970).
    pub created: f64,
    /// What was asked, when the library knows and it reads as its kind's.
    pub request: Option<Request>,
    /// Its tasks, in the service's order.
    pub tasks: Vec<LibraryTaskRead>,
    /// Whether the person starred it.
    pub starred: bool,
    /// The collections it is in (their ids).
    pub collections: Vec<String>,
}

/// One task of a [`LibraryRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct LibraryTaskRead {
    /// The service's id.
    pub task_id: String,
    /// The last status the library learnt.
    pub status: TaskStatus,
    /// When (milliseconds since 1970).
    pub updated: f64,
    /// The task as last read, when the library holds one.
    pub task: Option<AnyTask>,
}

#[derive(Deserialize)]
struct ItemHead {
    request: String,
    kind: TaskKind,
    created: f64,
    tasks: Vec<TaskHead>,
}

#[derive(Deserialize)]
struct TaskHead {
    task_id: String,
    status: TaskStatus,
    updated: f64,
}

/// `value`'s part `name`, when it is there and not `null`.
fn part(value: &JsValue, name: &str) -> Option<JsValue> {
    js_sys::Reflect::get(value, &JsValue::from_str(name))
        .ok()
        .filter(|part| !part.is_null() && !part.is_undefined())
}

impl LibraryRequest {
    /// One item of a library page (`{ request, kind, created, body, tasks }`)
    /// as the browser parsed it.
    pub fn from_value(item: &JsValue) -> Result<LibraryRequest, String> {
        use media_gen_client::value_reader::{read, Parsed};
        let head: ItemHead = read(item).map_err(|error| error.to_string())?;
        let request =
            part(item, "body").and_then(|body| Request::from_body(head.kind, &Parsed(&body)).ok());
        let tasks_value = part(item, "tasks").unwrap_or_default();
        let tasks = head
            .tasks
            .into_iter()
            .enumerate()
            .map(|(index, task)| {
                let tagged = js_sys::Reflect::get_u32(&tasks_value, index as u32)
                    .ok()
                    .and_then(|value| part(&value, "task"));
                let read = tagged
                    .and_then(|tagged| part(&tagged, "data"))
                    .and_then(|data| AnyTask::from_body(head.kind, &Parsed(&data)).ok());
                LibraryTaskRead {
                    task_id: task.task_id,
                    status: task.status,
                    updated: task.updated,
                    task: read,
                }
            })
            .collect();
        Ok(LibraryRequest {
            id: head.request,
            kind: head.kind,
            created: head.created,
            request,
            tasks,
            // Read apart: serde's reader of a list of strings would bring
            // its own copy of that code into the page's first module.
            starred: part(item, "starred").is_some_and(|on| on.is_truthy()),
            collections: part(item, "collections")
                .map(|list| {
                    js_sys::Array::from(&list)
                        .iter()
                        .filter_map(|id| id.as_string())
                        .collect()
                })
                .unwrap_or_default(),
        })
    }
}

/// Store a request as the JSON body it was sent as, so a record reads back
/// by its kind (and records stored before keep reading).
fn request_body<S: Serializer>(
    request: &Option<Request>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    request.as_ref().map(Request::to_json).serialize(serializer)
}

/// The storage key of every task record starts with this.
pub const KEY_PREFIX: &str = "media-gen.task:";

impl TaskRecord {
    /// Which task this is.
    pub fn task_key(&self) -> TaskKey {
        TaskKey::new(self.kind, self.task_id.clone())
    }

    /// Whether this is the task `task_id` of `kind`.
    pub fn is(&self, kind: TaskKind, task_id: &str) -> bool {
        self.kind == kind && self.task_id == task_id
    }

    /// A task followed here but not submitted here (looked up by id, or
    /// given to the status widget): its request is not known.
    pub fn followed(kind: TaskKind, task_id: &str, now: f64) -> Self {
        TaskRecord::new(kind, task_id, None, now)
    }

    /// A task just submitted with `request`: `PENDING` until read.
    pub fn submitted(request: &Request, task_id: &str, now: f64) -> Self {
        TaskRecord::new(request.kind(), task_id, Some(request.clone()), now)
    }

    fn new(kind: TaskKind, task_id: &str, request: Option<Request>, now: f64) -> Self {
        TaskRecord {
            kind,
            task_id: task_id.to_owned(),
            submitted_at: now,
            request,
            status: TaskStatus::Pending,
            updated_at: now,
            task: None,
            error: None,
            relay: None,
            library: None,
            starred: false,
            collections: Vec::new(),
        }
    }

    /// Task `task` of `item`, a request in the person's library, as this
    /// browser keeps it.
    pub fn from_library(item: &LibraryRequest, task: &LibraryTaskRead) -> Self {
        let mut record =
            TaskRecord::new(item.kind, &task.task_id, item.request.clone(), item.created);
        record.status = task.status.clone();
        record.updated_at = task.updated;
        record.task = task.task.clone();
        record.library = Some(item.id.clone());
        record.starred = item.starred;
        record.collections = item.collections.clone();
        record
    }

    /// Take in what the library says of this task: its request's id, and
    /// its status and result when the library learnt them after this
    /// browser did. Returns whether anything shown changed.
    pub fn take_in_library(&mut self, item: &LibraryRequest, task: &LibraryTaskRead) -> bool {
        let mut changed = false;
        if self.library.as_deref() != Some(item.id.as_str()) {
            self.library = Some(item.id.clone());
            changed = true;
        }
        if self.starred != item.starred || self.collections != item.collections {
            self.starred = item.starred;
            self.collections = item.collections.clone();
            changed = true;
        }
        // An ended task stays ended; otherwise the later news wins (the
        // library hears of tasks this browser does not follow).
        let ends = !self.status.is_terminal() && task.status.is_terminal();
        let later = !self.status.is_terminal() && task.updated > self.updated_at;
        if task.status != self.status && (ends || later) {
            match &task.task {
                Some(read) => changed |= self.apply(Some(read), None, task.updated),
                None => {
                    self.status = task.status.clone();
                    self.updated_at = task.updated;
                    changed = true;
                }
            }
        }
        changed
    }

    /// What the library's import takes of this task (a `KnownTask`), as
    /// JSON text written straight from the record. The submit time is
    /// written in whole milliseconds: printing an `f64` would bring Rust's
    /// float formatting (about 11 KB) into the app for this one number.
    pub fn known_json(&self) -> String {
        let text = |value: &str| serde_json::to_string(value).unwrap_or_else(|_| "\"\"".to_owned());
        let request = self
            .request
            .as_ref()
            .map_or_else(|| "null".to_owned(), Request::to_json_text);
        let task = self
            .task
            .as_ref()
            .and_then(|task| {
                let data = task.to_json().ok()?;
                Some(format!(
                    "{{\"task_type\":\"{}\",\"data\":{data}}}",
                    self.kind
                ))
            })
            .unwrap_or_else(|| "null".to_owned());
        format!(
            "{{\"kind\":\"{}\",\"task_id\":{},\"submitted_at\":{},\"request\":{request},\"status\":{},\"task\":{task}}}",
            self.kind,
            text(&self.task_id),
            self.submitted_at.max(0.0) as u64,
            text(self.status.as_str()),
        )
    }

    /// The key this record is stored under.
    pub fn storage_key(&self) -> String {
        key(self.kind, &self.task_id)
    }

    /// Whether it was submitted from this browser, so its parameters and
    /// submit time are known; a task looked up by id has neither, and its
    /// `submitted_at` is when it was first seen here.
    pub fn submitted_here(&self) -> bool {
        self.request.is_some()
    }

    /// Whether the task may still change (and so is followed).
    pub fn is_active(&self) -> bool {
        !self.status.is_terminal() && self.error.is_none()
    }

    /// Whether it ended badly: the service says it failed, or it could no
    /// longer be followed.
    pub fn has_failed(&self) -> bool {
        self.status == TaskStatus::Failed || self.error.is_some()
    }

    /// A translation's language, as the service reports it, once read.
    pub fn language(&self) -> Option<&str> {
        match &self.task {
            Some(AnyTask::VideoTranslate(task)) if !task.language.is_empty() => {
                Some(task.language.as_str())
            }
            _ => None,
        }
    }

    /// Take in a read: the task as read, or the error that ended the watch.
    /// Returns whether anything shown changed.
    pub fn apply(&mut self, task: Option<&AnyTask>, final_error: Option<String>, now: f64) -> bool {
        let before = (self.status.clone(), self.error.clone(), self.task.clone());
        if let Some(task) = task {
            self.status = task.status().clone();
            self.task = Some(task.clone());
        }
        if final_error.is_some() {
            self.error = final_error;
        }
        let changed = before != (self.status.clone(), self.error.clone(), self.task.clone());
        if changed {
            self.updated_at = now;
        }
        changed
    }

    /// Take in one of the poller's reads of this task: the task as read, or
    /// the error that ended the watch (an error the poller retries past is
    /// not kept). The one place a read becomes what the board and the status
    /// widget show. Returns whether anything shown changed.
    pub fn take_in(&mut self, update: &TaskUpdate, now: f64) -> bool {
        let final_error = update
            .error
            .as_ref()
            .filter(|_| update.done)
            .map(ToString::to_string);
        self.apply(update.task.as_ref(), final_error, now)
    }
}

/// The storage key of task `task_id` of `kind`: the prefix and `kind:id`,
/// as [`TaskKey`] writes it.
pub fn key(kind: TaskKind, task_id: &str) -> String {
    format!("{KEY_PREFIX}{}", TaskKey::new(kind, task_id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use media_gen_api::{ImageGenerateRequest, ImageGenerateTask};

    fn prompt(text: &str) -> Request {
        Request::ImageGenerate(ImageGenerateRequest {
            prompt: text.into(),
            ..Default::default()
        })
    }

    fn image(status: &str) -> AnyTask {
        AnyTask::ImageGenerate(ImageGenerateTask {
            task_id: "i2is-1".into(),
            status: TaskStatus::from(status),
            image_url: String::new(),
            thumbnail_url: String::new(),
            error_message: String::new(),
            kept: None,
            not_kept: None,
        })
    }

    #[test]
    fn a_submitted_task_is_pending_and_active() {
        let record = TaskRecord::submitted(&prompt("p"), "i2is-1", 5.0);
        assert_eq!(record.status, TaskStatus::Pending);
        assert!(record.is_active());
        assert_eq!(record.storage_key(), "media-gen.task:image_generate:i2is-1");
    }

    #[test]
    fn reads_update_status_and_time_only_when_something_changed() {
        let mut record = TaskRecord::followed(TaskKind::ImageGenerate, "i2is-1", 0.0);
        assert!(record.apply(Some(&image("GENERATING")), None, 10.0));
        assert!(!record.apply(Some(&image("GENERATING")), None, 20.0));
        assert_eq!(record.updated_at, 10.0);
        assert!(record.apply(Some(&image("SUCCEEDED")), None, 30.0));
        assert!(!record.is_active());
    }

    #[test]
    fn a_final_error_ends_the_watch() {
        let mut record = TaskRecord::followed(TaskKind::ImageToVideo, "i2v-x", 0.0);
        assert!(record.apply(None, Some("HTTP 404".into()), 1.0));
        assert!(!record.is_active());
    }

    #[test]
    fn records_round_trip_through_json() {
        let mut record = TaskRecord::submitted(&prompt("p"), "i2is-1", 1.5);
        record.apply(Some(&image("SUCCEEDED")), None, 2.5);
        let json = serde_json::to_string(&record).unwrap();
        assert!(json.contains(r#""request":{"prompt":"p"}"#), "{json}");
        assert_eq!(
            serde_json::from_slice::<TaskRecord>(json.as_bytes()).unwrap(),
            record
        );
        let followed = TaskRecord::followed(TaskKind::ImageGenerate, "i2is-2", 1.0);
        let json = serde_json::to_string(&followed).unwrap();
        assert!(json.contains(r#""request":null"#), "{json}");
        let read = serde_json::from_slice::<TaskRecord>(json.as_bytes()).unwrap();
        assert_eq!(read.request, None);
        assert!(!read.submitted_here());
    }

    #[test]
    fn a_stored_request_reads_as_its_kinds_or_the_task_stays_without_it() {
        let stored = |request: &str| {
            format!(
                r#"{{"kind":"image_generate","task_id":"i","submitted_at":1,"request":{request},
                "status":"GENERATING","updated_at":2}}"#
            )
        };
        let record: TaskRecord =
            serde_json::from_slice(stored(r#"{"prompt":"cat","generate_count":2}"#).as_bytes())
                .unwrap();
        let Some(Request::ImageGenerate(request)) = &record.request else {
            panic!("an image request: {record:?}");
        };
        assert_eq!(
            (request.prompt.as_str(), request.generate_count),
            ("cat", Some(2))
        );
        // Not a request of the kind: the task is still there, followed.
        let record: TaskRecord =
            serde_json::from_slice(stored(r#"{"prompt":42}"#).as_bytes()).unwrap();
        assert_eq!(record.request, None);
        assert!(record.is_active());
    }

    #[test]
    fn stored_tasks_keep_the_callback_shape_in_either_key_order() {
        let data =
            r#"{"task_id":"i2is-1","status":"SUCCEEDED","image_url":"https://x.test/i.png"}"#;
        for task in [
            format!(r#"{{"task_type":"image_generate","data":{data}}}"#),
            format!(r#"{{"data":{data},"task_type":"image_generate"}}"#),
        ] {
            let json = format!(
                r#"{{"kind":"image_generate","task_id":"i2is-1","submitted_at":1,"request":null,
                "status":"SUCCEEDED","updated_at":2,"task":{task}}}"#
            );
            let record: TaskRecord = serde_json::from_slice(json.as_bytes()).unwrap();
            let Some(AnyTask::ImageGenerate(task)) = record.task else {
                panic!("an image task: {json}");
            };
            assert_eq!(task.image_url, "https://x.test/i.png");
        }
    }

    #[test]
    fn a_stored_task_of_the_wrong_shape_names_the_problem() {
        let json = r#"{"kind":"image_generate","task_id":"i","submitted_at":1,"request":null,
            "status":"SUCCEEDED","updated_at":2,
            "task":{"task_type":"image_generate","data":{"status":"SUCCEEDED"}}}"#;
        let error = serde_json::from_slice::<TaskRecord>(json.as_bytes()).unwrap_err();
        assert!(error.to_string().contains("task_id"), "{error}");
        let json = json.replace(r#""task_type":"image_generate""#, r#""task_type":"audio""#);
        let error = serde_json::from_slice::<TaskRecord>(json.as_bytes()).unwrap_err();
        assert!(error.to_string().contains("audio"), "{error}");
    }

    #[test]
    fn a_record_offers_the_library_what_its_import_reads() {
        let mut record = TaskRecord::submitted(&prompt("A \"quoted\" fox"), "ig-1", 1_700.5);
        record.apply(Some(&image("SUCCEEDED")), None, 1_800.0);
        let known: media_gen_api::library::KnownTask =
            serde_json::from_str(&record.known_json()).unwrap();
        assert_eq!(known.task_id, "ig-1");
        assert_eq!(known.kind, TaskKind::ImageGenerate);
        assert_eq!(known.submitted_at, 1_700.0, "in whole milliseconds");
        assert_eq!(known.request["prompt"], "A \"quoted\" fox");
        assert_eq!(known.status, TaskStatus::Succeeded);
        let tagged: TaggedTask = serde_json::from_value(known.task.unwrap()).unwrap();
        assert_eq!(tagged.read().unwrap(), record.task.clone().unwrap());
        let followed = TaskRecord::followed(TaskKind::ImageGenerate, "ig-2", 1.0);
        let known: media_gen_api::library::KnownTask =
            serde_json::from_str(&followed.known_json()).unwrap();
        assert_eq!((known.request, known.task), (serde_json::Value::Null, None));
    }

    #[test]
    fn the_library_names_a_task_and_brings_later_news_never_an_older_status() {
        let item = LibraryRequest {
            id: "req-1".into(),
            kind: TaskKind::ImageGenerate,
            created: 10.0,
            request: Some(prompt("p")),
            tasks: Vec::new(),
            starred: false,
            collections: Vec::new(),
        };
        let news = |status: &str, updated: f64| LibraryTaskRead {
            task_id: "ig-1".into(),
            status: TaskStatus::from(status),
            updated,
            task: Some(image(status)),
        };
        let mut record = TaskRecord::submitted(&prompt("p"), "ig-1", 10.0);
        assert!(
            record.take_in_library(&item, &news("PENDING", 5.0)),
            "named"
        );
        assert_eq!(record.library.as_deref(), Some("req-1"));
        assert!(record.take_in_library(&item, &news("SUCCEEDED", 20.0)));
        assert_eq!(record.status, TaskStatus::Succeeded);
        assert!(
            !record.take_in_library(&item, &news("GENERATING", 30.0)),
            "ended stays ended"
        );
        assert_eq!(record.status, TaskStatus::Succeeded);
        let added = TaskRecord::from_library(&item, &news("FAILED", 40.0));
        assert_eq!(
            (added.status, added.library.as_deref(), added.submitted_at),
            (TaskStatus::Failed, Some("req-1"), 10.0)
        );
        // A star or a collection given on another device is news too.
        let organised = LibraryRequest {
            starred: true,
            collections: vec!["c-1".into()],
            ..item
        };
        assert!(record.take_in_library(&organised, &news("SUCCEEDED", 50.0)));
        assert!((record.starred, record.collections.as_slice()) == (true, &["c-1".to_owned()][..]));
        assert!(!record.take_in_library(&organised, &news("SUCCEEDED", 50.0)));
        let stored: TaskRecord =
            serde_json::from_str(&serde_json::to_string(&record).unwrap()).unwrap();
        assert_eq!(stored, record, "kept through storage");
    }
}
