//! The polling engine: follows many tasks until each ends.
//!
//! One driver loop serves every watched task, so a hundred tasks cost one
//! timer, not a hundred. Per task it follows `media-gen-api`'s
//! [`PollSchedule`] (learning each kind's typical length as tasks end), keeps
//! at most `max_in_flight` reads going at once, pauses while the page is
//! hidden and reads every task at once when it becomes visible again.
//! [`Poller::stop`] (also on drop) aborts reads in flight and removes every
//! timer and listener.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Duration;

use futures::channel::mpsc;
use futures::future::{select, Either};
use futures::StreamExt;
use gloo_events::EventListener;
use media_gen_api::poll::{DurationEstimate, PollSchedule};
use media_gen_api::{AnyTask, TaskKind};
use wasm_bindgen_futures::spawn_local;
use web_sys::AbortController;

use crate::visibility::{on_visibility_change, page_hidden};
use crate::{now_ms, Client, ClientError};

/// What a [`Poller`] does while the page is hidden.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum WhileHidden {
    /// Keep reading on schedule (browsers slow a background tab's timers
    /// themselves): a task that ends while the person is away is seen then,
    /// for the title's count, a notification or a widget's event.
    #[default]
    Continue,
    /// Read nothing until the page is visible again.
    Pause,
}

/// How a [`Poller`] paces its reads.
#[derive(Debug, Clone, Copy)]
pub struct PollerOptions {
    /// When to read each task.
    pub schedule: PollSchedule,
    /// The most status reads in flight at once.
    pub max_in_flight: usize,
    /// Reading on, or pausing, while the page is hidden. Either way every
    /// task is read as soon as the page is visible again.
    pub while_hidden: WhileHidden,
}

impl Default for PollerOptions {
    /// The default schedule, at most 4 reads in flight, reading on while hidden.
    fn default() -> Self {
        PollerOptions {
            schedule: PollSchedule::default(),
            max_in_flight: 4,
            while_hidden: WhileHidden::Continue,
        }
    }
}

/// What the poller reports after each read.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskUpdate {
    /// The task's kind.
    pub kind: TaskKind,
    /// The task's id.
    pub task_id: String,
    /// The task as last read, when the read succeeded.
    pub task: Option<AnyTask>,
    /// Why the read failed, when it did. A failure that retrying cannot fix
    /// (an unknown task, say) ends the watch.
    pub error: Option<ClientError>,
    /// Whether the status differs from the previous read's (always true for the first).
    pub changed: bool,
    /// Time since the task was submitted.
    pub elapsed: Duration,
    /// Whether this is the last update for the task.
    pub done: bool,
}

/// Answers not in the documented shape, in a row, that end a watch. One
/// garbled or cut body (a proxy, a dropped connection) is read again at the
/// next scheduled read; a service that keeps answering nonsense is given up.
const MAX_SHAPE_ERRORS_IN_A_ROW: u32 = 5;

struct Watch {
    submitted_ms: f64,
    shape_errors: u32,
    last_status: Option<media_gen_api::TaskStatus>,
    reads: u32,
    next_ms: f64,
    in_flight: bool,
}

struct State {
    client: Client,
    options: PollerOptions,
    watches: HashMap<(TaskKind, String), Watch>,
    estimates: HashMap<TaskKind, DurationEstimate>,
    in_flight: usize,
    peak_in_flight: usize,
    stopped: bool,
    on_update: Rc<dyn Fn(&TaskUpdate)>,
}

/// Follows tasks until they end; see the module docs.
pub struct Poller {
    state: Rc<RefCell<State>>,
    wake: mpsc::UnboundedSender<()>,
    abort: Option<AbortController>,
    _visibility: Option<EventListener>,
}

impl Poller {
    /// A poller reading through `client`; `on_update` hears about every read.
    pub fn new(
        client: Client,
        options: PollerOptions,
        on_update: impl Fn(&TaskUpdate) + 'static,
    ) -> Self {
        let state = Rc::new(RefCell::new(State {
            client,
            options,
            watches: HashMap::new(),
            estimates: HashMap::new(),
            in_flight: 0,
            peak_in_flight: 0,
            stopped: false,
            on_update: Rc::new(on_update),
        }));
        let (wake, woken) = mpsc::unbounded();
        let abort = AbortController::new().ok();
        let visibility = {
            let (state, wake) = (Rc::clone(&state), wake.clone());
            on_visibility_change(move |hidden| {
                if !hidden {
                    // Back in view: read every task now.
                    let now = now_ms();
                    for watch in state.borrow_mut().watches.values_mut() {
                        watch.next_ms = watch.next_ms.min(now);
                    }
                }
                let _ = wake.unbounded_send(());
            })
        };
        let signal = abort.as_ref().map(AbortController::signal);
        spawn_local(drive(Rc::clone(&state), woken, wake.clone(), signal));
        Poller {
            state,
            wake,
            abort,
            _visibility: visibility,
        }
    }

    /// Follow `task_id` of `kind`, submitted at `submitted_ms` (`Date.now()`
    /// milliseconds; a stored value when resuming after a reload).
    pub fn watch(&self, kind: TaskKind, task_id: &str, submitted_ms: f64) {
        let mut state = self.state.borrow_mut();
        let first = state.options.schedule.first.as_secs_f64() * 1000.0;
        state
            .watches
            .entry((kind, task_id.to_owned()))
            .or_insert(Watch {
                submitted_ms,
                shape_errors: 0,
                last_status: None,
                reads: 0,
                next_ms: (submitted_ms + first).min(now_ms() + first),
                in_flight: false,
            });
        drop(state);
        let _ = self.wake.unbounded_send(());
    }

    /// Stop following one task.
    pub fn unwatch(&self, kind: TaskKind, task_id: &str) {
        self.state
            .borrow_mut()
            .watches
            .remove(&(kind, task_id.to_owned()));
    }

    /// How many tasks are being followed.
    pub fn watching(&self) -> usize {
        self.state.borrow().watches.len()
    }

    /// The most reads that were ever in flight at once.
    pub fn peak_in_flight(&self) -> usize {
        self.state.borrow().peak_in_flight
    }

    /// The typical length of `kind`'s tasks seen so far, if any ended.
    pub fn estimate(&self, kind: TaskKind) -> Option<Duration> {
        self.state
            .borrow()
            .estimates
            .get(&kind)
            .and_then(DurationEstimate::median)
    }

    /// Stop everything: reads in flight are aborted, the driver ends, the
    /// visibility listener goes with the poller.
    pub fn stop(&self) {
        let mut state = self.state.borrow_mut();
        state.stopped = true;
        state.watches.clear();
        drop(state);
        if let Some(abort) = &self.abort {
            abort.abort();
        }
        let _ = self.wake.unbounded_send(());
    }
}

impl Drop for Poller {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The driver: start due reads up to the cap, then sleep until the next is
/// due or something changes.
async fn drive(
    state: Rc<RefCell<State>>,
    mut woken: mpsc::UnboundedReceiver<()>,
    wake: mpsc::UnboundedSender<()>,
    signal: Option<web_sys::AbortSignal>,
) {
    loop {
        if state.borrow().stopped {
            return;
        }
        let paused = state.borrow().options.while_hidden == WhileHidden::Pause && page_hidden();
        let next_due = if paused {
            None
        } else {
            start_due_reads(&state, &wake, &signal)
        };
        match next_due {
            Some(wait) if wait > 0.0 => {
                let timer =
                    gloo_timers::future::TimeoutFuture::new(wait.min(f64::from(u32::MAX)) as u32);
                if let Either::Right((None, _)) = select(timer, woken.next()).await {
                    return;
                }
            }
            Some(_) => {}
            None => {
                if woken.next().await.is_none() {
                    return;
                }
            }
        }
    }
}

/// Start the reads that are due, within the cap. Returns milliseconds until
/// the next read is due (`None`: nothing to wait for but a wake-up).
fn start_due_reads(
    state: &Rc<RefCell<State>>,
    wake: &mpsc::UnboundedSender<()>,
    signal: &Option<web_sys::AbortSignal>,
) -> Option<f64> {
    let now = now_ms();
    let mut borrowed = state.borrow_mut();
    let mut due: Vec<(TaskKind, String, f64)> = borrowed
        .watches
        .iter()
        .filter(|(_, watch)| !watch.in_flight && watch.next_ms <= now)
        .map(|((kind, id), watch)| (*kind, id.clone(), watch.next_ms))
        .collect();
    let room = borrowed
        .options
        .max_in_flight
        .saturating_sub(borrowed.in_flight);
    for _ in 0..room {
        // Longest-waiting first, so no task starves behind the cap. The cap
        // is a handful, so picking the earliest each time beats a full sort.
        let Some(earliest) = (0..due.len()).reduce(|a, b| if due[b].2 < due[a].2 { b } else { a })
        else {
            break;
        };
        let (kind, id, _) = due.swap_remove(earliest);
        if let Some(watch) = borrowed.watches.get_mut(&(kind, id.clone())) {
            watch.in_flight = true;
        }
        borrowed.in_flight += 1;
        borrowed.peak_in_flight = borrowed.peak_in_flight.max(borrowed.in_flight);
        spawn_local(read(
            Rc::clone(state),
            kind,
            id,
            wake.clone(),
            signal.clone(),
        ));
    }
    if borrowed.in_flight >= borrowed.options.max_in_flight {
        return None;
    }
    borrowed
        .watches
        .values()
        .filter(|watch| !watch.in_flight)
        .map(|watch| (watch.next_ms - now).max(0.0))
        .reduce(f64::min)
}

/// Read one task, record the result, schedule its next read, report.
async fn read(
    state: Rc<RefCell<State>>,
    kind: TaskKind,
    task_id: String,
    wake: mpsc::UnboundedSender<()>,
    signal: Option<web_sys::AbortSignal>,
) {
    let client = state.borrow().client.clone();
    let result = client.task(kind, &task_id, signal.as_ref()).await;
    let now = now_ms();
    let mut borrowed = state.borrow_mut();
    borrowed.in_flight = borrowed.in_flight.saturating_sub(1);
    if borrowed.stopped || matches!(result, Err(ClientError::Aborted)) {
        return;
    }
    let key = (kind, task_id.clone());
    let Some(watch) = borrowed.watches.get_mut(&key) else {
        return;
    };
    watch.in_flight = false;
    watch.reads += 1;
    let elapsed = Duration::from_secs_f64(((now - watch.submitted_ms) / 1000.0).max(0.0));
    let reads = watch.reads;
    let (task, error) = match result {
        Ok(task) => (Some(task), None),
        Err(error) => (None, Some(error)),
    };
    let status = task.as_ref().map(|task| task.status().clone());
    let changed = status.is_some() && status != watch.last_status;
    if status.is_some() {
        watch.last_status = status;
    }
    let ended = task
        .as_ref()
        .is_some_and(|task| task.status().is_terminal());
    watch.shape_errors = match &error {
        Some(ClientError::Shape { .. }) => watch.shape_errors + 1,
        _ => 0,
    };
    let gives_up = match &error {
        Some(ClientError::Shape { .. }) => watch.shape_errors >= MAX_SHAPE_ERRORS_IN_A_ROW,
        Some(error) => !error.retryable(),
        None => false,
    };
    let done = ended || gives_up;
    if done {
        borrowed.watches.remove(&key);
        if ended {
            borrowed.estimates.entry(kind).or_default().record(elapsed);
        }
    } else {
        let expected = borrowed
            .estimates
            .get(&kind)
            .and_then(DurationEstimate::median);
        let delay = borrowed
            .options
            .schedule
            .next_delay(reads, elapsed, expected);
        if let Some(watch) = borrowed.watches.get_mut(&key) {
            watch.next_ms = now + delay.as_secs_f64() * 1000.0;
        }
    }
    let on_update = Rc::clone(&borrowed.on_update);
    drop(borrowed);
    on_update(&TaskUpdate {
        kind,
        task_id,
        task,
        error,
        changed,
        elapsed,
        done,
    });
    let _ = wake.unbounded_send(());
}
