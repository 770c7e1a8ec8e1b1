//! The polling engine: follows many tasks until each ends.
//!
//! One driver loop serves every watched task, so a hundred tasks cost one
//! timer, not a hundred. Per task it follows `media-gen-api`'s
//! [`PollSchedule`] (learning each kind's typical length as tasks end), keeps
//! at most `max_in_flight` reads going at once, pauses while the page is
//! hidden if asked and reads every task it reads at once when the page
//! becomes visible again.
//! [`Poller::stop`] (also on drop) aborts reads in flight and removes every
//! timer and listener.
//!
//! A task whose callbacks a gateway relays ([`Poller::watch_relayed`]) is
//! not read: its end arrives on one event stream for all such tasks
//! ([`Poller::use_relay`] says where), with one safety read after twice the
//! usual length. Without a relay, or when the safety read finds the task
//! still running, it is read as any other. A stream the browser gives up
//! (its gateway restarting behind the balancer, say) is opened again, soon
//! and then less often ([`relay_reopen_delay`]); its tasks are read in the
//! meantime, from [`RELAY_FAILED_WAIT`] on, and heard of again once it is
//! back.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Duration;

use futures::channel::mpsc;
use futures::future::{select, Either};
use futures::StreamExt;
use gloo_events::EventListener;
use media_gen_api::poll::{
    relay_reopen_delay, relayed_delay, DurationEstimate, PollSchedule, RELAY_FAILED_WAIT,
};
use media_gen_api::relay::{is_capability, RelayInfo, MAX_RELAYS};
use media_gen_api::{AnyTask, TaskKind};
use wasm_bindgen_futures::spawn_local;
use web_sys::AbortController;

use crate::relay_stream::RelayStream;
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
    /// Read nothing until the page is visible again (the relay's events
    /// still arrive).
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

/// What the poller reports after each read, and when the relay announces
/// a task's end.
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

/// How a watched task is followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Follow {
    /// Read on the schedule.
    Reads,
    /// Heard of on the relay's stream, read once as a safety net.
    Stream,
    /// Its relay's stream was given up: read on the schedule until one is
    /// open again, then heard of there.
    StreamLost,
}

struct Watch {
    submitted_ms: f64,
    /// The relay's capability for the task's submission, when one relays it.
    capability: Option<String>,
    follow: Follow,
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
    /// The gateway's relay, once known.
    relay: Option<RelayInfo>,
    /// Whether [`Poller::use_relay`] has said: until then, tasks watched
    /// with a capability wait (a page that just reloaded reads none of
    /// them before it knows whether it can listen instead).
    relay_known: bool,
    /// The stream open now, and the capabilities it names.
    stream: Option<(RelayStream, Vec<String>)>,
    /// Streams the browser gave up in a row (0 once the gateway answers one).
    stream_failures: u32,
    /// When to open a given-up stream again (`Date.now()` milliseconds).
    reopen_ms: Option<f64>,
    /// Hears whether the stream is open (see [`Poller::on_stream`]).
    on_stream: Option<Rc<dyn Fn(bool)>>,
    /// Wakes the driver (the stream's news comes outside it).
    wake: mpsc::UnboundedSender<()>,
}

/// Follows tasks until they end; see the module docs.
pub struct Poller {
    state: Rc<RefCell<State>>,
    wake: mpsc::UnboundedSender<()>,
    abort: Option<AbortController>,
    _visibility: Option<EventListener>,
}

impl Poller {
    /// A poller reading through `client`; `on_update` hears about every
    /// read and every end the relay announces.
    pub fn new(
        client: Client,
        options: PollerOptions,
        on_update: impl Fn(&TaskUpdate) + 'static,
    ) -> Self {
        let (wake, woken) = mpsc::unbounded();
        let state = Rc::new(RefCell::new(State {
            client,
            options,
            watches: HashMap::new(),
            estimates: HashMap::new(),
            in_flight: 0,
            peak_in_flight: 0,
            stopped: false,
            on_update: Rc::new(on_update),
            relay: None,
            relay_known: false,
            stream: None,
            stream_failures: 0,
            reopen_ms: None,
            on_stream: None,
            wake: wake.clone(),
        }));
        let abort = AbortController::new().ok();
        let visibility = {
            let (state, wake) = (Rc::clone(&state), wake.clone());
            on_visibility_change(move |hidden| {
                if !hidden {
                    // Back in view: read every task now (those the relay
                    // follows hear of their end without a read).
                    let now = now_ms();
                    for watch in state.borrow_mut().watches.values_mut() {
                        if watch.follow != Follow::Stream {
                            watch.next_ms = watch.next_ms.min(now);
                        }
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
        self.watch_with(kind, task_id, submitted_ms, None);
    }

    /// Follow `task_id` of `kind`, whose callbacks a gateway relays under
    /// `capability` (the submit answer's `media-gen-relay`): through the
    /// relay's stream once [`Poller::use_relay`] has said where it is, by
    /// reads while its stream is given up.
    pub fn watch_relayed(
        &self,
        kind: TaskKind,
        task_id: &str,
        submitted_ms: f64,
        capability: &str,
    ) {
        self.watch_with(kind, task_id, submitted_ms, Some(capability.to_owned()));
    }

    fn watch_with(
        &self,
        kind: TaskKind,
        task_id: &str,
        submitted_ms: f64,
        capability: Option<String>,
    ) {
        let mut state = self.state.borrow_mut();
        let first = state.options.schedule.first.as_secs_f64() * 1000.0;
        // A capability of another shape cannot be listened to: the
        // gateway would refuse the whole stream for it.
        let capability = capability.filter(|capability| is_capability(capability));
        let follow = match (&capability, &state.relay) {
            (Some(_), Some(_)) if state.stream_failures > 0 => Follow::StreamLost,
            (Some(_), Some(_)) => Follow::Stream,
            _ => Follow::Reads,
        };
        let expected = state
            .estimates
            .get(&kind)
            .and_then(DurationEstimate::median);
        state
            .watches
            .entry((kind, task_id.to_owned()))
            .or_insert_with(|| {
                let mut watch = Watch {
                    submitted_ms,
                    capability,
                    follow,
                    shape_errors: 0,
                    last_status: None,
                    reads: 0,
                    next_ms: (submitted_ms + first).min(now_ms() + first),
                    in_flight: false,
                };
                if follow == Follow::Stream {
                    listen(&mut watch, expected);
                }
                watch
            });
        drop(state);
        let _ = self.wake.unbounded_send(());
    }

    /// Where the gateway's relay is (`None`: no relay, poll everything).
    /// Tasks watched with a capability are followed through it from now on.
    pub fn use_relay(&self, relay: Option<RelayInfo>) {
        set_relay(&self.state, relay);
    }

    /// Use the relay at the contract's `EVENTS_PATH` without asking: a
    /// capability comes only from a gateway that relays there, so whoever
    /// holds one (a page that just submitted, a widget given a submit's
    /// `relay`) knows where to listen.
    /// A client that carries a token gets it first: another site's page
    /// names its page token in the stream's address.
    pub fn use_default_relay(&self) {
        let client = self.state.borrow().client.clone();
        if !client.carries_token() {
            set_relay(&self.state, Some(RelayInfo::default()));
            return;
        }
        let state = Rc::downgrade(&self.state);
        spawn_local(async move {
            client.refresh_token().await;
            if let Some(state) = state.upgrade() {
                set_relay(&state, Some(RelayInfo::default()));
            }
        });
    }

    /// Ask the site (the client's base URL) where its relay is, and use
    /// the answer ([`Poller::use_relay`]); a site that does not answer has
    /// none. Tasks watched with a capability wait for the answer.
    pub fn discover_relay(&self) {
        let client = self.state.borrow().client.clone();
        // Not keeping the poller alive: it may be gone by the time the answer comes.
        let state = Rc::downgrade(&self.state);
        spawn_local(async move {
            let relay = client.capabilities(None).await.ok().and_then(|c| c.relay);
            if let Some(state) = state.upgrade() {
                set_relay(&state, relay);
            }
        });
    }

    /// Whether `task_id` of `kind` is followed through the relay now.
    pub fn is_relayed(&self, kind: TaskKind, task_id: &str) -> bool {
        self.state
            .borrow()
            .watches
            .get(&(kind, task_id.to_owned()))
            .is_some_and(|watch| watch.follow == Follow::Stream)
    }

    /// `hear` learns whether the relay's stream is open: `true` each time
    /// the gateway answers it, `false` when the browser gives it up (it is
    /// opened again later). Replaces any earlier listener.
    pub fn on_stream(&self, hear: impl Fn(bool) + 'static) {
        self.state.borrow_mut().on_stream = Some(Rc::new(hear));
    }

    /// Stop following one task.
    pub fn unwatch(&self, kind: TaskKind, task_id: &str) {
        self.state
            .borrow_mut()
            .watches
            .remove(&(kind, task_id.to_owned()));
        let _ = self.wake.unbounded_send(());
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
        let stream = state.stream.take();
        drop(state);
        drop(stream);
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
        let reopen_in = reopen_when_due(&state);
        // Once a turn, however many watches came and went since the last.
        sync_stream(&state);
        let paused = state.borrow().options.while_hidden == WhileHidden::Pause && page_hidden();
        let next_read = if paused {
            None
        } else {
            start_due_reads(&state, &wake, &signal)
        };
        let next_due = match (next_read, reopen_in) {
            (Some(read), Some(reopen)) => Some(read.min(reopen)),
            (read, reopen) => read.or(reopen),
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

/// Open a given-up stream again when its time has come. Returns
/// milliseconds until then, when it is still to come.
fn reopen_when_due(state: &Rc<RefCell<State>>) -> Option<f64> {
    let at = state.borrow().reopen_ms?;
    let wait = at - now_ms();
    if wait > 0.0 {
        return Some(wait);
    }
    state.borrow_mut().reopen_ms = None;
    None
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
    let relay_known = borrowed.relay_known;
    let waits = |watch: &Watch| watch.in_flight || (watch.capability.is_some() && !relay_known);
    let mut due: Vec<(TaskKind, String, f64)> = borrowed
        .watches
        .iter()
        .filter(|(_, watch)| !waits(watch) && watch.next_ms <= now)
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
        .filter(|watch| !waits(watch))
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
    let elapsed = since(watch.submitted_ms, now);
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
        let stream_back = borrowed.stream_failures == 0;
        if let Some(watch) = borrowed.watches.get_mut(&key) {
            watch.next_ms = now + delay.as_secs_f64() * 1000.0;
            match watch.follow {
                // The safety read found it running: read from now on. (A
                // read that failed leaves it to the stream.)
                Follow::Stream if task.is_some() => watch.follow = Follow::Reads,
                // Read while the stream was away, which is back now.
                Follow::StreamLost if stream_back => listen(watch, expected),
                Follow::Stream | Follow::StreamLost | Follow::Reads => {}
            }
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

/// The time from `submitted_ms` to `now` (milliseconds), never negative.
fn since(submitted_ms: f64, now: f64) -> Duration {
    Duration::from_secs_f64(((now - submitted_ms) / 1000.0).max(0.0))
}

/// Where the relay is: tasks watched with a capability listen from now on
/// (or, without a relay, are read). Saying it again changes nothing.
fn set_relay(state: &Rc<RefCell<State>>, relay: Option<RelayInfo>) {
    let mut borrowed = state.borrow_mut();
    if borrowed.relay_known && borrowed.relay == relay {
        return;
    }
    borrowed.relay = relay;
    borrowed.relay_known = true;
    borrowed.reopen_ms = None;
    borrowed.stream_failures = 0;
    let on = borrowed.relay.is_some();
    let State {
        watches, estimates, ..
    } = &mut *borrowed;
    for ((kind, _), watch) in watches.iter_mut() {
        if on && watch.capability.is_some() && watch.follow != Follow::Stream {
            listen(
                watch,
                estimates.get(kind).and_then(DurationEstimate::median),
            );
        } else if !on && watch.follow != Follow::Reads {
            watch.follow = Follow::Reads;
            watch.next_ms = now_ms();
        }
    }
    let wake = borrowed.wake.clone();
    drop(borrowed);
    let _ = wake.unbounded_send(());
}

/// Follow `watch` through the relay: no read until the safety read.
fn listen(watch: &mut Watch, expected: Option<Duration>) {
    let now = now_ms();
    let elapsed = since(watch.submitted_ms, now);
    watch.follow = Follow::Stream;
    watch.next_ms = now + relayed_delay(elapsed, expected).as_secs_f64() * 1000.0;
}

/// Keep one stream open on the capabilities of the tasks the relay
/// follows (or would, were its stream not given up), at most
/// [`MAX_RELAYS`] of them (tasks of others are read): reopened when one it
/// lacks is wanted, kept when tasks end (events of tasks no longer watched
/// are ignored), closed when none is wanted, left closed until it is time
/// to try a given-up one again. A (re)opened stream replays what the
/// gateway kept for them.
fn sync_stream(state: &Rc<RefCell<State>>) {
    let mut borrowed = state.borrow_mut();
    if borrowed.reopen_ms.is_some() {
        return;
    }
    // Each capability once; a handful, so no sort (its code is large in wasm).
    let mut wanted: Vec<String> = Vec::new();
    let relayed = |watch: &&Watch| watch.follow != Follow::Reads;
    for watch in borrowed.watches.values().filter(relayed) {
        if let Some(capability) = &watch.capability {
            if !wanted.contains(capability) {
                wanted.push(capability.clone());
            }
        }
    }
    if wanted.len() > MAX_RELAYS {
        wanted.truncate(MAX_RELAYS);
        let now = now_ms();
        for watch in borrowed.watches.values_mut() {
            let left_out = watch
                .capability
                .as_ref()
                .is_some_and(|capability| !wanted.contains(capability));
            if left_out && watch.follow != Follow::Reads {
                watch.follow = Follow::Reads;
                watch.next_ms = watch.next_ms.min(now);
            }
        }
    }
    let covers = |open: &Vec<String>| {
        !wanted.is_empty() && wanted.iter().all(|capability| open.contains(capability))
    };
    if borrowed
        .stream
        .as_ref()
        .is_some_and(|(_, open)| covers(open))
    {
        return;
    }
    let old = borrowed.stream.take();
    let url = borrowed
        .relay
        .as_ref()
        .filter(|_| !wanted.is_empty())
        .map(|relay| {
            let base = borrowed.client.base_url().to_owned();
            let token = borrowed.client.page_token();
            format!(
                "{base}{}",
                relay.stream_path(wanted.iter().map(String::as_str), token.as_deref())
            )
        });
    drop(borrowed);
    drop(old);
    let Some(url) = url else {
        return;
    };
    let (on_open, on_task, on_closed) = (
        Rc::downgrade(state),
        Rc::downgrade(state),
        Rc::downgrade(state),
    );
    let stream = RelayStream::open(
        &url,
        move || {
            if let Some(state) = on_open.upgrade() {
                stream_opened(&state);
            }
        },
        move |task| {
            if let Some(state) = on_task.upgrade() {
                relayed_end(&state, task);
            }
        },
        move || {
            if let Some(state) = on_closed.upgrade() {
                relay_failed(&state);
            }
        },
    );
    match stream {
        Some(stream) => state.borrow_mut().stream = Some((stream, wanted)),
        None => relay_failed(state),
    }
}

/// The relay announced `task`'s end: the watch ends as a read would end it.
fn relayed_end(state: &Rc<RefCell<State>>, task: AnyTask) {
    // The gateway announces ends only; anything else is left to the reads.
    if !task.status().is_terminal() {
        return;
    }
    let now = now_ms();
    let mut borrowed = state.borrow_mut();
    let key = (task.kind(), task.task_id().to_owned());
    let Some(watch) = borrowed.watches.remove(&key) else {
        return;
    };
    let elapsed = since(watch.submitted_ms, now);
    let changed = watch.last_status.as_ref() != Some(task.status());
    borrowed.estimates.entry(key.0).or_default().record(elapsed);
    let (on_update, wake) = (Rc::clone(&borrowed.on_update), borrowed.wake.clone());
    drop(borrowed);
    let _ = wake.unbounded_send(());
    on_update(&TaskUpdate {
        kind: key.0,
        task_id: key.1,
        task: Some(task),
        error: None,
        changed,
        elapsed,
        done: true,
    });
}

/// The gateway answered the stream: the tasks read while it was away (and
/// not being read this moment) are heard of on it again.
fn stream_opened(state: &Rc<RefCell<State>>) {
    let mut borrowed = state.borrow_mut();
    borrowed.stream_failures = 0;
    let State {
        watches, estimates, ..
    } = &mut *borrowed;
    for ((kind, _), watch) in watches.iter_mut() {
        if watch.follow == Follow::StreamLost && !watch.in_flight {
            listen(
                watch,
                estimates.get(kind).and_then(DurationEstimate::median),
            );
        }
    }
    let (wake, on_stream) = (borrowed.wake.clone(), borrowed.on_stream.clone());
    drop(borrowed);
    if let Some(on_stream) = on_stream {
        on_stream(true);
    }
    let _ = wake.unbounded_send(());
}

/// The browser gave the relay's stream up: the tasks it followed are read
/// (the first read after [`RELAY_FAILED_WAIT`]) until a stream, opened again
/// after [`relay_reopen_delay`], is answered.
fn relay_failed(state: &Rc<RefCell<State>>) {
    let mut borrowed = state.borrow_mut();
    let now = now_ms();
    borrowed.stream_failures = borrowed.stream_failures.saturating_add(1);
    let wait = relay_reopen_delay(borrowed.stream_failures, js_sys::Math::random());
    borrowed.reopen_ms = Some(now + wait.as_secs_f64() * 1000.0);
    let first = now + RELAY_FAILED_WAIT.as_secs_f64() * 1000.0;
    for watch in borrowed.watches.values_mut() {
        if watch.follow == Follow::Stream {
            watch.follow = Follow::StreamLost;
            watch.next_ms = first;
        }
    }
    let stream = borrowed.stream.take();
    let (wake, on_stream) = (borrowed.wake.clone(), borrowed.on_stream.clone());
    drop(borrowed);
    drop(stream);
    if let Some(on_stream) = on_stream {
        on_stream(false);
    }
    let _ = wake.unbounded_send(());
}
