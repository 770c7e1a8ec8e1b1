//! The task board's state: every stored task, the active ones followed by a
//! poller, and any storage problem to tell the user about.

use leptos::prelude::*;
use media_gen_api::library::RequestId;
use media_gen_api::{AnyTask, Request, TaskKey, TaskKind, TaskStatus};

use crate::kind_text;
use crate::settings::Settings;
use crate::shell::access::Access;
use crate::shell::announcer::Announcer;
use crate::shell::notifications::Notifier;
use media_gen_client::{
    now_ms, web_lock, ClientError, FollowOptions, Poller, Submitted, TaskUpdate,
};
use media_gen_ui::store::record::{LibraryRequest, TaskRecord};
use media_gen_ui::store::sync::{self, TaskChange};
use media_gen_ui::store::tasks;

/// The Web Lock whose holder follows the tasks: one tab polls, the others
/// show what it stores (storage events); when it closes, another takes over.
const POLLER_LOCK: &str = "media-gen.task-poller";

/// The board, provided as context by [`provide_board`].
#[derive(Clone, Copy)]
pub struct Board {
    /// Every known task, oldest first.
    pub records: RwSignal<Vec<TaskRecord>>,
    /// A storage problem, in words for the user (tasks then live in memory only).
    pub storage_problem: RwSignal<Option<String>>,
    /// The outcome of the last action taken from the board (a re-run).
    pub notice: RwSignal<Option<Notice>>,
    /// The task removed last, with where it stood, while it can be put back
    /// ("Undo").
    pub removed: RwSignal<Option<Removed>>,
    /// Whether this tab follows the tasks; otherwise another tab of the app
    /// does, and this one shows what it stores.
    pub leading: RwSignal<bool>,
    /// Whether the gateway's relay stream is open now: rows it follows say
    /// "Live" only then (while it is away they are read).
    pub stream_open: RwSignal<bool>,
    /// Counts the library's news of requests changed on another device (a
    /// star, a collection, a collection's name): what shows collections
    /// reads them again.
    pub organised_elsewhere: RwSignal<u32>,
    poller: StoredValue<Poller, LocalStorage>,
    settings: Settings,
    notifier: Notifier,
}

/// What the board says after an action: the words, and the task the action
/// made, which the notice links to for as long as that task is on the board.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    /// What happened: "Submitted again".
    pub text: String,
    /// The new task, to open.
    pub task: Option<TaskKey>,
}

/// The tasks removed last (one, or a selection's), kept for "Undo".
#[derive(Debug, Clone, PartialEq)]
pub struct Removed {
    /// Each task as it was, with its place among the records (oldest
    /// first) once those removed before it had left, in the order removed:
    /// put back in the other order, each lands where it was.
    pub records: Vec<(TaskRecord, usize)>,
    /// Their requests removed from the person's library with them (the
    /// last of a request's tasks on the board), to restore with them.
    pub from_library: Vec<String>,
}

impl Removed {
    /// The task removed, when it is one of these.
    pub fn find(&self, kind: TaskKind, task_id: &str) -> Option<&TaskRecord> {
        self.records
            .iter()
            .map(|(record, _)| record)
            .find(|record| record.is(kind, task_id))
    }
}

/// Follow `record` with `poller`: through the gateway's relay when its
/// submit was relayed, by reads otherwise.
fn follow(poller: &Poller, record: &TaskRecord) {
    match &record.relay {
        Some(relay) => {
            poller.watch_relayed(record.kind, &record.task_id, record.submitted_at, relay)
        }
        None => poller.watch(record.kind, &record.task_id, record.submitted_at),
    }
}

/// Store `record`; a failure becomes the notice the board shows.
pub(super) fn store(record: &TaskRecord, storage_problem: RwSignal<Option<String>>) {
    if let Err(error) = tasks::save(record) {
        storage_problem.set(Some(error.to_string()));
    }
}

/// Take in one read: update the record, and store it when it changed.
fn apply(
    update: &TaskUpdate,
    records: RwSignal<Vec<TaskRecord>>,
    storage_problem: RwSignal<Option<String>>,
    announcer: Announcer,
    notifier: Notifier,
    access: Option<Access>,
) {
    // Refused for want of a person (a revoked key, an ended session): the
    // task is as it was; signing in again follows it on.
    if update.error.as_ref().and_then(|error| error.status()) == Some(401) {
        if let Some(access) = access {
            access.refused();
        }
        return;
    }
    let mut changed = None;
    records.update(|records| {
        let found = records
            .iter_mut()
            .find(|r| r.is(update.kind, &update.task_id));
        if let Some(record) = found {
            if record.take_in(update, now_ms()) {
                changed = Some(record.clone());
            }
        }
    });
    if let Some(record) = changed {
        store(&record, storage_problem);
        announcer.say(announcement(&record));
        if !record.is_active() {
            notifier.ended(&record);
        }
    }
}

/// What a screen reader hears when a task changes.
fn announcement(record: &TaskRecord) -> String {
    let what = format!("{} task {}", kind_text::title(record.kind), record.task_id);
    match (&record.error, &record.status) {
        (Some(error), _) => format!("{what} could not be followed: {error}"),
        (None, TaskStatus::Succeeded) => format!("{what} succeeded"),
        (None, TaskStatus::Failed) => format!("{what} failed"),
        (None, status) => format!("{what} is {}", status.as_str().to_ascii_lowercase()),
    }
}

impl Board {
    /// The board provided by the app.
    pub fn expect() -> Self {
        expect_context::<Board>()
    }

    /// Record the tasks a submit just created. Each is stored before anything
    /// else happens, so a reload or a closed tab right after loses nothing;
    /// then it is shown and followed.
    pub fn add_submitted(&self, request: &Request, submitted: &Submitted) {
        let at = now_ms();
        let new: Vec<TaskRecord> = submitted
            .task_ids
            .iter()
            .map(|id| TaskRecord {
                relay: submitted.relay.clone(),
                ..TaskRecord::submitted(request, id, at)
            })
            .collect();
        for record in &new {
            store(record, self.storage_problem);
        }
        if self.leading.get_untracked() {
            self.poller.with_value(|poller| {
                for record in &new {
                    follow(poller, record);
                }
            });
        }
        self.records.update(|records| records.extend(new));
    }

    /// Submit `request` and record the tasks it made (see
    /// [`Board::add_submitted`]): the one way the app submits, so forms,
    /// every model and batches share one copy of it.
    pub async fn submit(&self, request: &Request) -> Result<Submitted, ClientError> {
        let submitted = self.settings.client().submit_any(request, None).await?;
        self.add_submitted(request, &submitted);
        Ok(submitted)
    }

    /// Whether the task is heard of through the gateway's relay now,
    /// rather than read (tracked: changes as the relay's stream opens and
    /// is given up).
    pub fn is_relayed(&self, kind: TaskKind, task_id: &str) -> bool {
        self.stream_open.get()
            && self
                .poller
                .try_with_value(|poller| poller.is_relayed(kind, task_id))
                .unwrap_or(false)
    }

    /// Submit a stored task's request again, unchanged; returns the new ids.
    /// A file it names that was uploaded to this site is reused while the
    /// gateway keeps it; once gone, the re-run is refused with what to do
    /// (the service could not fetch it).
    pub async fn rerun(&self, record: &TaskRecord) -> Result<Vec<String>, String> {
        let request = record.request.as_ref().ok_or_else(|| {
            "This task's parameters are not known here, so it cannot be re-run".to_owned()
        })?;
        let client = self.settings.client();
        let uploads_here = media_gen_ui::components::curl_copy::absolute_url(
            client.base_url().trim_end_matches('/'),
            "/uploads/",
        );
        for input in request.media_inputs() {
            if input.url.starts_with(&uploads_here) && client.upload_gone(input.url).await {
                return Err(format!(
                    "{} was a file uploaded here, and the site no longer keeps it: \
                     use Edit and re-run to choose the file again",
                    input.field
                ));
            }
        }
        self.submit(request)
            .await
            .map(|submitted| submitted.task_ids)
            .map_err(|error| error.to_string())
    }

    /// The stored task `task_id` of `kind`, if it is on the board.
    pub fn find(&self, kind: TaskKind, task_id: &str) -> Option<TaskRecord> {
        self.records
            .with(|records| records.iter().find(|r| r.is(kind, task_id)).cloned())
    }

    /// Put a task submitted elsewhere on the board, as just read, and follow
    /// it until it ends. Its parameters are not known, so it cannot be re-run.
    pub fn follow(&self, task: &AnyTask) {
        let kind = task.kind();
        let known = self
            .records
            .with_untracked(|records| records.iter().any(|r| r.is(kind, task.task_id())));
        if known {
            return;
        }
        let now = now_ms();
        let mut record = TaskRecord::followed(kind, task.task_id(), now);
        record.apply(Some(task), None, now);
        store(&record, self.storage_problem);
        if record.is_active() && self.leading.get_untracked() {
            self.poller
                .with_value(|poller| poller.watch(kind, &record.task_id, now));
        }
        self.records.update(|records| records.push(record));
    }

    /// Take in a task on the board read once more (a finished one whose
    /// kept copies were not named by its last read): stored and shown.
    pub fn reread(&self, task: &AnyTask) {
        let now = now_ms();
        let mut changed = None;
        self.records.update(|records| {
            let found = records
                .iter_mut()
                .find(|r| r.is(task.kind(), task.task_id()));
            if let Some(record) = found {
                if record.apply(Some(task), None, now) {
                    changed = Some(record.clone());
                }
            }
        });
        if let Some(record) = changed {
            store(&record, self.storage_problem);
        }
    }

    /// How long tasks of `kind` have usually taken, once some were seen to end.
    pub fn usual_duration(&self, kind: TaskKind) -> Option<std::time::Duration> {
        self.poller.with_value(|poller| poller.estimate(kind))
    }

    /// Follow every active task (this tab just became the one that follows).
    fn follow_active(&self) {
        let active: Vec<TaskRecord> = self
            .records
            .with_untracked(|records| records.iter().filter(|r| r.is_active()).cloned().collect());
        self.poller.with_value(|poller| {
            for record in &active {
                follow(poller, record);
            }
        });
    }

    /// Stop following every task (another tab takes over).
    fn unfollow_all(&self) {
        let all: Vec<TaskKey> = self
            .records
            .with_untracked(|records| records.iter().map(TaskRecord::task_key).collect());
        self.poller.with_value(|poller| {
            for task in &all {
                poller.unwatch(task.kind, &task.id);
            }
        });
    }

    /// Take in what another tab stored or removed.
    fn take_in(&self, change: TaskChange) {
        match change {
            TaskChange::Saved(record) => {
                let (kind, id) = (record.kind, record.task_id.clone());
                let to_follow =
                    (record.is_active() && self.leading.get_untracked()).then(|| (*record).clone());
                let ended = !record.is_active();
                let mut newly_ended = None;
                self.records.try_update(|records| {
                    match records.iter_mut().find(|r| r.is(kind, &id)) {
                        Some(shown) => {
                            if ended && shown.is_active() {
                                newly_ended = Some(record.clone());
                            }
                            *shown = *record;
                        }
                        None => records.push(*record),
                    }
                });
                // Another tab saw it end: a hidden tab counts it too.
                if let Some(record) = newly_ended {
                    self.notifier.ended(&record);
                }
                self.poller.with_value(|poller| {
                    if let Some(record) = &to_follow {
                        follow(poller, record);
                    } else if ended {
                        poller.unwatch(kind, &id);
                    }
                });
            }
            TaskChange::Removed(task) => {
                self.poller
                    .with_value(|poller| poller.unwatch(task.kind, &task.id));
                self.records
                    .try_update(|records| records.retain(|r| !r.is(task.kind, &task.id)));
            }
        }
    }

    /// Forget a task: off the board, out of storage, no longer followed. It
    /// is kept as [`Board::removed`] until the next removal, for
    /// [`Board::undo_remove`].
    pub fn remove(&self, kind: TaskKind, task_id: &str) {
        self.remove_tasks(&[TaskKey::new(kind, task_id)]);
    }

    /// [`Board::remove`] for several tasks at once, undone together.
    pub fn remove_tasks(&self, tasks: &[TaskKey]) {
        let mut removed = Removed {
            records: Vec::new(),
            from_library: Vec::new(),
        };
        self.poller.with_value(|poller| {
            for task in tasks {
                poller.unwatch(task.kind, &task.id);
            }
        });
        for task in tasks {
            if let Err(error) = tasks::remove(task.kind, &task.id) {
                self.storage_problem.set(Some(error.to_string()));
            }
        }
        self.records.update(|records| {
            for task in tasks {
                let Some(index) = records.iter().position(|r| r.is(task.kind, &task.id)) else {
                    continue;
                };
                let record = records.remove(index);
                // The request leaves the library with its last task here
                // (another device then no longer shows it either).
                if let Some(request) = record.library.clone().filter(|request| {
                    !records
                        .iter()
                        .any(|r| r.library.as_deref() == Some(request.as_str()))
                }) {
                    removed.from_library.push(request);
                }
                removed.records.push((record, index));
            }
        });
        if removed.records.is_empty() {
            return;
        }
        self.in_library(
            move |client, ids| async move { client.library_remove(&ids).await.map(drop) },
            removed.from_library.clone(),
        );
        // A notice about a task that is gone would link to nothing.
        if self.notice.with_untracked(|n| {
            n.as_ref()
                .and_then(|n| n.task.as_ref())
                .is_some_and(|t| removed.find(t.kind, &t.id).is_some())
        }) {
            self.notice.set(None);
        }
        self.removed.set(Some(removed));
    }

    /// Put the tasks removed last back: stored again, each in its place,
    /// followed again when not ended. Returns their keys.
    pub fn undo_remove(&self) -> Vec<TaskKey> {
        let Some(Removed {
            records: removed,
            from_library,
        }) = self.removed.get_untracked()
        else {
            return Vec::new();
        };
        self.removed.set(None);
        self.in_library(
            move |client, ids| async move { client.library_restore(&ids).await.map(drop) },
            from_library,
        );
        for (record, _) in &removed {
            store(record, self.storage_problem);
        }
        if self.leading.get_untracked() {
            self.poller.with_value(|poller| {
                for (record, _) in removed.iter().filter(|(r, _)| r.is_active()) {
                    follow(poller, record);
                }
            });
        }
        let keys = removed
            .iter()
            .map(|(record, _)| record.task_key())
            .collect();
        self.records.update(|records| {
            for (record, index) in removed.into_iter().rev() {
                if !records.iter().any(|r| r.is(record.kind, &record.task_id)) {
                    records.insert(index.min(records.len()), record);
                }
            }
        });
        keys
    }
}

impl Board {
    /// Do `change` to the requests `requests` of the person's library in
    /// the background (nothing when there are none); a failure becomes the
    /// board's storage notice.
    pub(super) fn in_library<F, Fut>(&self, change: F, requests: Vec<String>)
    where
        F: FnOnce(media_gen_client::Client, Vec<RequestId>) -> Fut + 'static,
        Fut: std::future::Future<Output = Result<(), ClientError>> + 'static,
    {
        let ids: Vec<RequestId> = requests
            .iter()
            .filter_map(|id| RequestId::parse(id))
            .collect();
        if ids.is_empty() {
            return;
        }
        let client = self.settings.client();
        let problem = self.storage_problem;
        leptos::task::spawn_local(async move {
            if let Err(error) = change(client, ids).await {
                problem.try_set(Some(format!(
                    "Your library could not be changed: {error}. Try again when the site answers."
                )));
            }
        });
    }

    /// Take in a page of the person's library: each task already on the
    /// board learns its request's id and any later news; a request the
    /// board does not know yet is added whole, stored, and followed. A task
    /// removed here while the rest of its request stays is not brought back.
    /// A `whole` page (no filter) also tells which requests were removed on
    /// another device: see [`Board::forget_removed_elsewhere`].
    pub fn take_in_library(&self, items: &[LibraryRequest], whole: bool) {
        let mut stored = Vec::new();
        let mut added = Vec::new();
        if whole {
            self.forget_removed_elsewhere(items);
        }
        self.records.update(|records| {
            for item in items {
                let known_request = records
                    .iter()
                    .any(|r| r.library.as_deref() == Some(item.id.as_str()));
                for task in &item.tasks {
                    if let Some(record) =
                        records.iter_mut().find(|r| r.is(item.kind, &task.task_id))
                    {
                        if record.take_in_library(item, task) {
                            stored.push(record.clone());
                        }
                    } else if !known_request {
                        let record = TaskRecord::from_library(item, task);
                        let at = records.partition_point(|r| r.submitted_at <= record.submitted_at);
                        records.insert(at, record.clone());
                        added.push(record);
                    }
                }
            }
        });
        for record in stored.iter().chain(&added) {
            store(record, self.storage_problem);
        }
        if self.leading.get_untracked() {
            self.poller.with_value(|poller| {
                for record in added.iter().filter(|r| r.is_active()) {
                    follow(poller, record);
                }
            });
        }
    }
}

impl Board {
    /// Forget the tasks of requests the library no longer holds: those
    /// named by a library request submitted strictly between the oldest
    /// and the newest request of `items`, a whole page of it, which would
    /// be on that page if the library still held them.
    fn forget_removed_elsewhere(&self, items: &[LibraryRequest]) {
        let (Some(newest), Some(oldest)) = (items.first(), items.last()) else {
            return;
        };
        let (from, to) = (oldest.created, newest.created);
        // A page holds at most a hundred: a list serves.
        let listed: Vec<&str> = items.iter().map(|item| item.id.as_str()).collect();
        let gone: Vec<TaskKey> = self.records.with_untracked(|records| {
            records
                .iter()
                .filter(|r| r.submitted_at > from && r.submitted_at < to)
                .filter(|r| r.library.as_deref().is_some_and(|id| !listed.contains(&id)))
                .map(TaskRecord::task_key)
                .collect()
        });
        for task in gone {
            self.poller
                .with_value(|poller| poller.unwatch(task.kind, &task.id));
            if let Err(error) = tasks::remove(task.kind, &task.id) {
                self.storage_problem.set(Some(error.to_string()));
            }
            self.records
                .update(|records| records.retain(|r| !r.is(task.kind, &task.id)));
        }
    }
}

/// Load the stored tasks, follow the active ones, and provide the board.
pub fn provide_board(settings: Settings, announcer: Announcer, notifier: Notifier) -> Board {
    let records = RwSignal::new(Vec::new());
    let storage_problem = RwSignal::new(None);
    let (loaded, problem) = match tasks::load() {
        Ok((loaded, 0)) => (loaded, None),
        Ok((loaded, unreadable)) => (
            loaded,
            Some(format!(
                "{unreadable} stored tasks could not be read and are not shown."
            )),
        ),
        Err(error) => (Vec::new(), Some(error.to_string())),
    };
    storage_problem.set(problem);
    let access = use_context::<Access>();
    let poller = Poller::new(settings.client(), FollowOptions::default(), move |update| {
        apply(
            update,
            records,
            storage_problem,
            announcer,
            notifier,
            access,
        )
    });
    records.set(loaded);
    let board = Board {
        records,
        storage_problem,
        notice: RwSignal::new(None),
        removed: RwSignal::new(None),
        leading: RwSignal::new(false),
        stream_open: RwSignal::new(false),
        organised_elsewhere: RwSignal::new(0),
        poller: StoredValue::new_local(poller),
        settings,
        notifier,
    };
    // Through a gateway that relays callbacks, relayed tasks are heard of
    // rather than read; anything else (the service itself, an error) polls.
    board.poller.with_value(|poller| {
        poller.on_stream(move |open| {
            board.stream_open.try_set(open);
        })
    });
    board.poller.with_value(Poller::discover_relay);
    // Follow the active tasks once this tab is the one that follows them. A
    // tab that goes to the background hands the job on (a visible tab waiting
    // for it takes over) and queues up again.
    let elect = move || {
        web_lock::request(POLLER_LOCK, move || {
            board.leading.try_set(true);
            board.follow_active();
        })
    };
    let leadership = StoredValue::new_local(elect());
    let hand_on = media_gen_client::visibility::on_page_leave(move || {
        if board.leading.get_untracked() {
            board.leading.set(false);
            board.unfollow_all();
        }
        leadership.update_value(|held| {
            held.release();
            *held = elect();
        });
    });
    let sync = sync::listen(move |change| board.take_in(change));
    let listeners = StoredValue::new_local((hand_on, sync));
    on_cleanup(move || {
        leadership.try_with_value(web_lock::WebLock::release);
        listeners.try_update_value(|(hand_on, sync)| {
            hand_on.take();
            sync.take();
        });
        board.poller.try_with_value(Poller::stop);
    });
    provide_context(board);
    board
}
