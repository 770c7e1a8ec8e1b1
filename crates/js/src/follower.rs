//! The contract's follow engine ([`media_gen_api::follow`]) for the
//! package's JavaScript, which drives it: the JavaScript tells it what
//! happened (a watch, a read's outcome, the stream opened, an end it
//! announced, the page hidden) with the time, and carries out what
//! [`Follower::poll`] returns with its own timers, `fetch` and
//! `EventSource`. Every decision of when to read and when to listen is the
//! engine's, as in the app.

use media_gen_api::follow::{Command, Follow, FollowOptions, Millis, ReadOutcome, Verdict};
use media_gen_api::relay::RelayInfo;
use media_gen_api::{TaskKey, TaskKind, TaskStatus};
use wasm_bindgen::prelude::*;

use super::object::property;
use super::read::parse_kind;

/// The clock as the engine reads it: whole milliseconds since 1970.
fn millis(now: f64) -> Millis {
    now.max(0.0) as Millis
}

/// `kind` and `id` as the engine's key.
fn key(kind: &str, id: &str) -> Result<TaskKey, JsValue> {
    Ok(TaskKey::new(
        parse_kind(&JsValue::from_str(kind), "kind")?,
        id,
    ))
}

/// What a read or an announced end meant: `[changed, done]`, as the
/// JavaScript tells its listeners.
fn verdict(verdict: Option<Verdict>) -> Option<Vec<u8>> {
    verdict.map(|verdict| vec![u8::from(verdict.changed), u8::from(verdict.done)])
}

/// One engine for every task a client follows.
#[wasm_bindgen(js_name = Follower)]
pub struct Follower {
    engine: Follow,
}

#[wasm_bindgen(js_class = Follower)]
impl Follower {
    /// An engine following nothing yet; `hidden`: the page starts hidden.
    #[wasm_bindgen(constructor)]
    pub fn new(hidden: bool, now: f64) -> Follower {
        let mut engine = Follow::new(FollowOptions::default());
        engine.visibility(hidden, millis(now));
        Follower { engine }
    }

    /// Follow task `id` of `kind`, submitted at `submitted`; with the
    /// `relay` capability its submit was given, heard of on the site's
    /// stream instead of read once the relay is known
    /// ([`Follower::use_default_relay`]).
    pub fn watch(
        &mut self,
        kind: &str,
        id: &str,
        submitted: f64,
        relay: Option<String>,
        now: f64,
    ) -> Result<(), JsValue> {
        self.engine
            .watch(key(kind, id)?, millis(submitted), relay, millis(now));
        Ok(())
    }

    /// Listen at the contract's relay path without asking the site: a
    /// capability comes only from a gateway that relays there.
    #[wasm_bindgen(js_name = useDefaultRelay)]
    pub fn use_default_relay(&mut self, now: f64) {
        self.engine
            .set_relay(Some(RelayInfo::default()), millis(now));
    }

    /// Stop following task `id` of `kind`.
    pub fn unwatch(&mut self, kind: &str, id: &str) -> Result<(), JsValue> {
        self.engine.unwatch(&key(kind, id)?);
        Ok(())
    }

    /// The page was hidden (`true`) or shown.
    pub fn visibility(&mut self, hidden: bool, now: f64) {
        self.engine.visibility(hidden, millis(now));
    }

    /// What to do now, as flat arrays: `["read", kind, id]`, `["open",
    /// path]` (the stream's path and query, naming `pageToken` when it is
    /// one) and `["close"]`.
    pub fn poll(
        &mut self,
        now: f64,
        #[wasm_bindgen(js_name = pageToken)] page_token: Option<String>,
    ) -> js_sys::Array {
        self.engine
            .poll(millis(now))
            .into_iter()
            .map(|command| -> js_sys::Array {
                match command {
                    Command::Read(key) => js_sys::Array::of3(
                        &"read".into(),
                        &key.kind.as_str().into(),
                        &key.id.into(),
                    ),
                    Command::OpenStream {
                        relay,
                        capabilities,
                    } => {
                        let path = relay.stream_path(
                            capabilities.iter().map(String::as_str),
                            page_token.as_deref(),
                        );
                        js_sys::Array::of2(&"open".into(), &path.into())
                    }
                    Command::CloseStream => js_sys::Array::of1(&"close".into()),
                }
            })
            .collect()
    }

    /// When to poll again (ms since 1970), if nothing happens before.
    #[wasm_bindgen(js_name = nextWake)]
    pub fn next_wake(&self) -> Option<f64> {
        self.engine.next_wake().map(|at| at as f64)
    }

    /// The read of task `id` of `kind` came back: with its `status`, or
    /// failed with `error` (an error this package made: its `kind` and
    /// `retryable` decide). `[changed, done]`, or `undefined` when it is
    /// no news (the task is no longer followed).
    #[wasm_bindgen(js_name = readDone)]
    pub fn read_done(
        &mut self,
        kind: &str,
        id: &str,
        status: Option<String>,
        error: JsValue,
        now: f64,
    ) -> Result<Option<Vec<u8>>, JsValue> {
        let outcome = match status {
            Some(status) => ReadOutcome::Read(TaskStatus::from(status.as_str())),
            None => match property(&error, "kind").as_string().as_deref() {
                Some("aborted") => ReadOutcome::Aborted,
                kind => ReadOutcome::Failed {
                    retryable: property(&error, "retryable").is_truthy(),
                    shape: kind == Some("shape"),
                },
            },
        };
        Ok(verdict(self.engine.read_done(
            &key(kind, id)?,
            outcome,
            millis(now),
        )))
    }

    /// The gateway answered the stream.
    #[wasm_bindgen(js_name = streamOpened)]
    pub fn stream_opened(&mut self, now: f64) {
        self.engine.stream_opened(millis(now));
    }

    /// The browser gave the stream up; `random` is `Math.random()`.
    #[wasm_bindgen(js_name = streamLost)]
    pub fn stream_lost(&mut self, now: f64, random: f64) {
        self.engine.stream_lost(millis(now), random);
    }

    /// The stream announced task `id` of `kind` at `status`:
    /// `[changed, done]`, or `undefined` when it is no news.
    #[wasm_bindgen(js_name = streamEnd)]
    pub fn stream_end(
        &mut self,
        kind: &str,
        id: &str,
        status: &str,
        now: f64,
    ) -> Result<Option<Vec<u8>>, JsValue> {
        let status = TaskStatus::from(status);
        Ok(verdict(self.engine.stream_end(
            &key(kind, id)?,
            &status,
            millis(now),
        )))
    }
}

/// The kinds' wire names: the stream names each event by its task's kind.
#[wasm_bindgen(js_name = taskKinds)]
pub fn task_kinds() -> Vec<String> {
    TaskKind::ALL
        .iter()
        .map(|kind| kind.as_str().to_owned())
        .collect()
}
