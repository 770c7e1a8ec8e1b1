//! The browser's driver of the follow engine ([`media_gen_api::follow`]):
//! the engine decides which task to read when and when to listen to the
//! site's relay instead; this carries it out with timers, `fetch`, one
//! `EventSource` and the page's visibility, telling the engine what
//! happened and when, and the caller what each read or announced end
//! meant.
//!
//! One driver loop serves every watched task, so a hundred tasks cost one
//! timer, not a hundred. [`Poller::stop`] (also on drop) aborts reads in
//! flight and removes every timer and listener.

mod drive;
mod stream;

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use futures::channel::mpsc;
use gloo_events::EventListener;
use media_gen_api::follow::{Follow, FollowOptions, Millis, Verdict};
use media_gen_api::relay::RelayInfo;
use media_gen_api::{AnyTask, TaskKey, TaskKind};
use wasm_bindgen_futures::spawn_local;
use web_sys::AbortController;

use crate::relay_stream::RelayStream;
use crate::visibility::{on_visibility_change, page_hidden};
use crate::{now_ms, Client, ClientError};

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

/// The clock as the engine reads it: whole milliseconds since 1970.
fn now() -> Millis {
    now_ms() as Millis
}

/// What the poller's parts share: the engine and what carries it out.
struct State {
    client: Client,
    engine: Follow,
    stopped: bool,
    on_update: Rc<dyn Fn(&TaskUpdate)>,
    /// The relay's stream open now.
    stream: Option<RelayStream>,
    /// Hears whether the stream is open (see [`Poller::on_stream`]).
    on_stream: Option<Rc<dyn Fn(bool)>>,
    /// Wakes the driver (news comes outside it).
    wake: mpsc::UnboundedSender<()>,
}

type Shared = Rc<RefCell<State>>;

/// Follows tasks until they end; see the module docs.
pub struct Poller {
    state: Shared,
    abort: Option<AbortController>,
    _visibility: Option<EventListener>,
}

/// Tell the driver something changed.
fn wake(state: &Shared) {
    let _ = state.borrow().wake.unbounded_send(());
}

/// Tell the engine something about the page (`change`), then wake the driver.
fn tell(state: &Shared, change: impl FnOnce(&mut Follow, Millis)) {
    change(&mut state.borrow_mut().engine, now());
    wake(state);
}

impl Poller {
    /// A poller reading through `client`; `on_update` hears about every
    /// read and every end the relay announces.
    pub fn new(
        client: Client,
        options: FollowOptions,
        on_update: impl Fn(&TaskUpdate) + 'static,
    ) -> Self {
        let (wake_driver, woken) = mpsc::unbounded();
        let mut engine = Follow::new(options);
        // The page may start hidden (a tab opened in the background).
        engine.visibility(page_hidden(), now());
        let state = Rc::new(RefCell::new(State {
            client,
            engine,
            stopped: false,
            on_update: Rc::new(on_update),
            stream: None,
            on_stream: None,
            wake: wake_driver,
        }));
        let abort = AbortController::new().ok();
        let visibility = {
            let state = Rc::clone(&state);
            on_visibility_change(move |hidden| {
                tell(&state, |engine, now| engine.visibility(hidden, now));
            })
        };
        let signal = abort.as_ref().map(AbortController::signal);
        spawn_local(drive::drive(Rc::downgrade(&state), woken, signal));
        Poller {
            state,
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
        let key = TaskKey::new(kind, task_id);
        tell(&self.state, |engine, now| {
            engine.watch(key, submitted_ms as Millis, capability, now);
        });
    }

    /// Where the gateway's relay is (`None`: no relay, poll everything).
    /// Tasks watched with a capability are followed through it from now on.
    pub fn use_relay(&self, relay: Option<RelayInfo>) {
        tell(&self.state, |engine, now| engine.set_relay(relay, now));
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
            self.use_relay(Some(RelayInfo::default()));
            return;
        }
        self.after(async move { client.refresh_token().await }, |state, ()| {
            tell(state, |engine, now| {
                engine.set_relay(Some(RelayInfo::default()), now)
            })
        });
    }

    /// Ask the site (the client's base URL) where its relay is, and use
    /// the answer ([`Poller::use_relay`]); a site that does not answer has
    /// none. Tasks watched with a capability wait for the answer.
    pub fn discover_relay(&self) {
        let client = self.state.borrow().client.clone();
        self.after(
            async move { client.capabilities(None).await.ok().and_then(|c| c.relay) },
            |state, relay| tell(state, |engine, now| engine.set_relay(relay, now)),
        );
    }

    /// Run `work`, then `then` with its outcome, unless the poller is gone
    /// by then (not kept alive by the wait).
    fn after<T: 'static>(
        &self,
        work: impl std::future::Future<Output = T> + 'static,
        then: impl FnOnce(&Shared, T) + 'static,
    ) {
        let state = Rc::downgrade(&self.state);
        spawn_local(async move {
            let outcome = work.await;
            if let Some(state) = state.upgrade() {
                then(&state, outcome);
            }
        });
    }

    /// Whether `task_id` of `kind` is followed through the relay now.
    pub fn is_relayed(&self, kind: TaskKind, task_id: &str) -> bool {
        self.state
            .borrow()
            .engine
            .is_relayed(&TaskKey::new(kind, task_id))
    }

    /// `hear` learns whether the relay's stream is open: `true` each time
    /// the gateway answers it, `false` when the browser gives it up (it is
    /// opened again later). Replaces any earlier listener.
    pub fn on_stream(&self, hear: impl Fn(bool) + 'static) {
        self.state.borrow_mut().on_stream = Some(Rc::new(hear));
    }

    /// Stop following one task.
    pub fn unwatch(&self, kind: TaskKind, task_id: &str) {
        let key = TaskKey::new(kind, task_id);
        tell(&self.state, |engine, _| engine.unwatch(&key));
    }

    /// How many tasks are being followed.
    pub fn watching(&self) -> usize {
        self.state.borrow().engine.watching()
    }

    /// The most reads that were ever in flight at once.
    pub fn peak_in_flight(&self) -> usize {
        self.state.borrow().engine.peak_in_flight()
    }

    /// The typical length of `kind`'s tasks seen so far, if any ended.
    pub fn estimate(&self, kind: TaskKind) -> Option<Duration> {
        self.state.borrow().engine.estimate(kind)
    }

    /// Stop everything: reads in flight are aborted, the driver ends, the
    /// stream closes, the visibility listener goes with the poller.
    pub fn stop(&self) {
        let stream = {
            let mut state = self.state.borrow_mut();
            state.stopped = true;
            state.stream.take()
        };
        drop(stream);
        if let Some(abort) = &self.abort {
            abort.abort();
        }
        wake(&self.state);
    }
}

impl Drop for Poller {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Tell the caller what `verdict` meant for `key`.
fn report(
    state: &Shared,
    key: TaskKey,
    task: Option<AnyTask>,
    error: Option<ClientError>,
    verdict: Verdict,
) {
    let on_update = Rc::clone(&state.borrow().on_update);
    on_update(&TaskUpdate {
        kind: key.kind,
        task_id: key.id,
        task,
        error,
        changed: verdict.changed,
        elapsed: verdict.elapsed,
        done: verdict.done,
    });
}
