//! The follow engine: which task to read when, when to listen to the
//! site's relay instead, and what each answer means, as a plain state
//! machine with no I/O (in the manner of `quinn-proto`): drivers (the
//! browser client, the npm package) tell it what happened and when
//! ([`Follow::watch`], [`Follow::read_done`], [`Follow::stream_lost`], …,
//! each with the time as a value) and carry out the [`Command`]s
//! [`Follow::poll`] gives (read this task, open or close the stream),
//! waking at [`Follow::next_wake`]. Every decision is tested natively here.
//!
//! Per task it follows [`PollSchedule`] (learning each kind's typical
//! length as tasks end), keeps at most `max_in_flight` reads going at
//! once, and reads every task it reads at once when the page is shown
//! again (pausing while hidden if asked). A task whose callbacks the site
//! relays is not read: its end arrives on one stream for all such tasks,
//! with one safety read after twice the usual length. A stream the browser
//! gives up is opened again, soon and then less often
//! ([`relay_reopen_delay`]); its tasks are read from [`RELAY_FAILED_WAIT`]
//! on meanwhile, and heard of again once it is answered.

mod stream;
mod table;
mod watch;

use std::time::Duration;

use crate::kind::TaskKind;
use crate::poll::{
    relay_reopen_delay, relayed_delay, DurationEstimate, PollSchedule, RELAY_FAILED_WAIT,
};
use crate::relay::{is_capability, RelayInfo, MAX_RELAYS};
use crate::status::TaskStatus;
use crate::task_key::TaskKey;
use table::Table;

pub use stream::{Relay, Stream};
pub use watch::{Next, Watch, Way};

/// Milliseconds since 1970, as the drivers read the clock (`Date.now()`).
pub type Millis = u64;

/// Answers not in the documented shape, in a row, that end a watch. One
/// garbled or cut body (a proxy, a dropped connection) is read again at the
/// next scheduled read; a service that keeps answering nonsense is given up.
pub const MAX_SHAPE_ERRORS_IN_A_ROW: u32 = 5;

/// What the engine does while the page is hidden.
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

/// How the engine paces its reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FollowOptions {
    /// When to read each task.
    pub schedule: PollSchedule,
    /// The most status reads in flight at once.
    pub max_in_flight: usize,
    /// Reading on, or pausing, while the page is hidden. Either way every
    /// task is read as soon as the page is visible again.
    pub while_hidden: WhileHidden,
}

impl Default for FollowOptions {
    /// The default schedule, at most 4 reads in flight, reading on while hidden.
    fn default() -> Self {
        FollowOptions {
            schedule: PollSchedule::default(),
            max_in_flight: 4,
            while_hidden: WhileHidden::Continue,
        }
    }
}

/// What a driver does for the engine.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Read this task's status now, then say how it went ([`Follow::read_done`]).
    Read(TaskKey),
    /// Open the relay's stream at `relay` naming `capabilities` (the one
    /// open before is closed first by a [`Command::CloseStream`]); say when
    /// the gateway answers it ([`Follow::stream_opened`]), each end it
    /// announces ([`Follow::stream_end`]) and when the browser gives it up
    /// ([`Follow::stream_lost`]).
    OpenStream {
        /// Where the stream is.
        relay: RelayInfo,
        /// The capabilities it names (at most [`MAX_RELAYS`]).
        capabilities: Vec<String>,
    },
    /// Close the stream open now.
    CloseStream,
}

/// How a read went, as the engine needs to know it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadOutcome {
    /// The task was read: its status.
    Read(TaskStatus),
    /// The read failed.
    Failed {
        /// Whether reading again may succeed (a network error, a timeout,
        /// 429, 5xx); an unknown task is not.
        retryable: bool,
        /// Whether the answer was not in the documented shape (read again,
        /// up to [`MAX_SHAPE_ERRORS_IN_A_ROW`] in a row).
        shape: bool,
    },
    /// Cancelled by the driver (stopping).
    Aborted,
}

/// What a read or an announced end meant for its task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the status differs from the one seen before (always for the first).
    pub changed: bool,
    /// Time since the task was submitted.
    pub elapsed: Duration,
    /// Whether following it ended: it ended, or reading it failed for good.
    pub done: bool,
}

/// The follow engine; see the module docs.
#[derive(Debug, Clone)]
pub struct Follow {
    options: FollowOptions,
    watches: Table<TaskKey, Watch>,
    estimates: Table<TaskKind, DurationEstimate>,
    relay: Relay,
    in_flight: usize,
    peak_in_flight: usize,
    hidden: bool,
    /// The stream open before the relay changed, to close at the next poll.
    close_pending: bool,
}

fn millis(duration: Duration) -> Millis {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl Follow {
    /// An engine following nothing yet, the relay not known.
    pub fn new(options: FollowOptions) -> Follow {
        Follow {
            options,
            watches: Table::default(),
            estimates: Table::default(),
            relay: Relay::Unknown,
            in_flight: 0,
            peak_in_flight: 0,
            hidden: false,
            close_pending: false,
        }
    }

    fn expected(&self, kind: TaskKind) -> Option<Duration> {
        self.estimates.get(&kind).and_then(DurationEstimate::median)
    }

    /// Follow `key`, submitted at `submitted` (a stored time when resuming
    /// after a reload), whose callbacks the site relays under `capability`
    /// when given (one of another shape is not listened for: the gateway
    /// would refuse the whole stream for it). A task followed already is
    /// left as it is.
    pub fn watch(
        &mut self,
        key: TaskKey,
        submitted: Millis,
        capability: Option<String>,
        now: Millis,
    ) {
        if self.watches.contains_key(&key) {
            return;
        }
        let capability = capability.filter(|capability| is_capability(capability));
        let way = match (capability, &self.relay) {
            (Some(capability), Relay::On { stream, .. }) if stream.failures() > 0 => {
                Way::StreamLost { capability }
            }
            (Some(capability), Relay::On { .. }) => Way::Stream { capability },
            (capability, _) => Way::Reads { capability },
        };
        let first = millis(self.options.schedule.first);
        let mut watch = Watch {
            submitted,
            next: Next::At(submitted.saturating_add(first).min(now + first)),
            way,
            reads: 0,
            shape_errors: 0,
            last_status: None,
        };
        if let Way::Stream { .. } = watch.way {
            listen(&mut watch, self.expected(key.kind), now);
        }
        self.watches.insert(key, watch);
    }

    /// Stop following `key`.
    pub fn unwatch(&mut self, key: &TaskKey) {
        self.watches.remove(key);
    }

    /// Where the site's relay is (`None`: it relays nothing; read every
    /// task). Tasks with a capability are heard of through it from now
    /// on. Saying it again changes nothing.
    pub fn set_relay(&mut self, relay: Option<RelayInfo>, now: Millis) {
        let same = match (&self.relay, &relay) {
            (Relay::Off, None) => true,
            (Relay::On { info, .. }, Some(new)) => info == new,
            _ => false,
        };
        if same {
            return;
        }
        self.close_pending |= self.relay.stream_open();
        let on = relay.is_some();
        self.relay = match relay {
            Some(info) => Relay::On {
                info,
                stream: Stream::Closed { failures: 0 },
            },
            None => Relay::Off,
        };
        let estimates = &self.estimates;
        for (key, watch) in self.watches.iter_mut() {
            match (on, watch.way.clone()) {
                // A read out: heard of once it is back (a running task's
                // answer must not send it back to reads for good).
                (
                    true,
                    Way::Reads {
                        capability: Some(capability),
                    }
                    | Way::StreamLost { capability },
                ) if watch.next == Next::InFlight => {
                    watch.way = Way::StreamLost { capability };
                }
                (
                    true,
                    Way::Reads {
                        capability: Some(capability),
                    },
                )
                | (true, Way::StreamLost { capability }) => {
                    watch.way = Way::Stream { capability };
                    let expected = estimates.get(&key.kind).and_then(DurationEstimate::median);
                    listen(watch, expected, now);
                }
                (
                    false,
                    way @ (Way::Stream { .. } | Way::StreamLost { .. } | Way::NoRoom { .. }),
                ) => {
                    watch.way = way.into_reads();
                    watch.due_by(now);
                }
                _ => {}
            }
        }
    }

    /// The page was hidden (`true`) or shown again: shown, every task not
    /// heard of on the stream is read now.
    pub fn visibility(&mut self, hidden: bool, now: Millis) {
        self.hidden = hidden;
        if !hidden {
            for watch in self.watches.values_mut() {
                if !matches!(watch.way, Way::Stream { .. }) {
                    watch.due_by(now);
                }
            }
        }
    }

    /// The read of `key` came back: what it meant, unless the task is no
    /// longer followed (or the read was cancelled).
    pub fn read_done(
        &mut self,
        key: &TaskKey,
        outcome: ReadOutcome,
        now: Millis,
    ) -> Option<Verdict> {
        self.in_flight = self.in_flight.saturating_sub(1);
        let stream_back = self.relay.failures() == 0;
        let expected = self.expected(key.kind);
        let schedule = self.options.schedule;
        let watch = self.watches.get_mut(key)?;
        if outcome == ReadOutcome::Aborted {
            watch.next = Next::At(now);
            return None;
        }
        watch.reads += 1;
        let elapsed = Duration::from_millis(watch.elapsed(now));
        let status = match &outcome {
            ReadOutcome::Read(status) => Some(status.clone()),
            _ => None,
        };
        let changed = status.is_some() && status != watch.last_status;
        if status.is_some() {
            watch.last_status.clone_from(&status);
        }
        watch.shape_errors = match outcome {
            ReadOutcome::Failed { shape: true, .. } => watch.shape_errors + 1,
            _ => 0,
        };
        let ended = status.as_ref().is_some_and(TaskStatus::is_terminal);
        let gives_up = match outcome {
            ReadOutcome::Failed { shape: true, .. } => {
                watch.shape_errors >= MAX_SHAPE_ERRORS_IN_A_ROW
            }
            ReadOutcome::Failed { retryable, .. } => !retryable,
            ReadOutcome::Read(_) | ReadOutcome::Aborted => false,
        };
        let done = ended || gives_up;
        if done {
            self.watches.remove(key);
            if ended {
                self.estimates.or_default(key.kind).record(elapsed);
            }
        } else {
            let delay = schedule.next_delay(watch.reads, elapsed, expected);
            watch.next = Next::At(now + millis(delay));
            match watch.way.clone() {
                // The safety read found it running: read from now on. (A
                // read that failed leaves it to the stream.)
                way @ Way::Stream { .. } if status.is_some() => watch.way = way.into_reads(),
                // Read while the stream was away, which is back now.
                Way::StreamLost { capability } if stream_back => {
                    watch.way = Way::Stream { capability };
                    listen(watch, expected, now);
                }
                _ => {}
            }
        }
        Some(Verdict {
            changed,
            elapsed,
            done,
        })
    }

    /// The relay announced `key` reached `status`: an end finishes the
    /// watch as a read would (anything else is left to the reads).
    pub fn stream_end(
        &mut self,
        key: &TaskKey,
        status: &TaskStatus,
        now: Millis,
    ) -> Option<Verdict> {
        if !status.is_terminal() {
            return None;
        }
        let watch = self.watches.remove(key)?;
        let elapsed = Duration::from_millis(watch.elapsed(now));
        self.estimates.or_default(key.kind).record(elapsed);
        Some(Verdict {
            changed: watch.last_status.as_ref() != Some(status),
            elapsed,
            done: true,
        })
    }

    /// The gateway answered the stream: the tasks read while it was away
    /// (and not being read this moment) are heard of on it again.
    pub fn stream_opened(&mut self, now: Millis) {
        if let Relay::On {
            stream: Stream::Open { failures, .. },
            ..
        } = &mut self.relay
        {
            *failures = 0;
        }
        let estimates = &self.estimates;
        for (key, watch) in self.watches.iter_mut() {
            if let (Way::StreamLost { capability }, Next::At(_)) = (&watch.way, watch.next) {
                watch.way = Way::Stream {
                    capability: capability.clone(),
                };
                let expected = estimates.get(&key.kind).and_then(DurationEstimate::median);
                listen(watch, expected, now);
            }
        }
    }

    /// The browser gave the stream up (it is closed): its tasks are read
    /// from [`RELAY_FAILED_WAIT`] on, until a stream, opened again after
    /// [`relay_reopen_delay`] (`unit`: a uniform random number in `[0, 1)`
    /// spreading it), is answered.
    pub fn stream_lost(&mut self, now: Millis, unit: f64) {
        let Relay::On { stream, .. } = &mut self.relay else {
            return;
        };
        let failures = stream.failures().saturating_add(1);
        let until = now + millis(relay_reopen_delay(failures, unit));
        *stream = Stream::Resting { failures, until };
        let first = now + millis(RELAY_FAILED_WAIT);
        for watch in self.watches.values_mut() {
            if let Way::Stream { capability } = &watch.way {
                watch.way = Way::StreamLost {
                    capability: capability.clone(),
                };
                if let Next::At(_) = watch.next {
                    watch.next = Next::At(first);
                }
            }
        }
    }

    /// What to do now: the stream to close or open, and the reads that are
    /// due, within the cap (longest-waiting first).
    pub fn poll(&mut self, now: Millis) -> Vec<Command> {
        let mut commands = Vec::new();
        if std::mem::take(&mut self.close_pending) {
            commands.push(Command::CloseStream);
        }
        if let Relay::On { stream, .. } = &mut self.relay {
            if let Stream::Resting { failures, until } = *stream {
                if until <= now {
                    *stream = Stream::Closed { failures };
                }
            }
        }
        self.sync_stream(now, &mut commands);
        if self.options.while_hidden == WhileHidden::Pause && self.hidden {
            return commands;
        }
        let waiting_for_relay = self.relay == Relay::Unknown;
        let mut due: Vec<(Millis, &TaskKey)> = self
            .watches
            .iter()
            .filter_map(|(key, watch)| match watch.next {
                Next::At(at)
                    if at <= now && !(waiting_for_relay && watch.way.capability().is_some()) =>
                {
                    Some((at, key))
                }
                _ => None,
            })
            .collect();
        let room = self.options.max_in_flight.saturating_sub(self.in_flight);
        let mut chosen = Vec::new();
        for _ in 0..room {
            // The cap is a handful: picking the earliest each time costs
            // less code than a full sort.
            let Some(earliest) =
                (0..due.len()).reduce(|a, b| if due[b].0 < due[a].0 { b } else { a })
            else {
                break;
            };
            chosen.push(due.swap_remove(earliest).1.clone());
        }
        for key in chosen {
            if let Some(watch) = self.watches.get_mut(&key) {
                watch.next = Next::InFlight;
            }
            self.in_flight += 1;
            commands.push(Command::Read(key));
        }
        self.peak_in_flight = self.peak_in_flight.max(self.in_flight);
        commands
    }

    /// Keep one stream open on the capabilities of the tasks the relay
    /// follows (or would, were its stream not given up), at most
    /// [`MAX_RELAYS`] of them (tasks of others are read): reopened when
    /// one it lacks is wanted, kept when tasks end, closed when none is
    /// wanted, left closed while resting.
    fn sync_stream(&mut self, now: Millis, commands: &mut Vec<Command>) {
        let Relay::On { info, stream } = &mut self.relay else {
            return;
        };
        if let Stream::Resting { .. } = stream {
            return;
        }
        // Each capability once; a handful, so no sort (its code is large in wasm).
        let mut wanted: Vec<String> = Vec::new();
        for watch in self.watches.values() {
            if let (true, Some(capability)) = (watch.way.wants_stream(), watch.way.capability()) {
                if !wanted.iter().any(|have| have == capability) {
                    wanted.push(capability.to_owned());
                }
            }
        }
        if wanted.len() > MAX_RELAYS {
            wanted.truncate(MAX_RELAYS);
            for watch in self.watches.values_mut() {
                let left_out = watch
                    .way
                    .capability()
                    .is_some_and(|capability| !wanted.iter().any(|have| have == capability));
                if let (true, Way::Stream { capability } | Way::StreamLost { capability }) =
                    (left_out, &watch.way)
                {
                    watch.way = Way::NoRoom {
                        capability: capability.clone(),
                    };
                    watch.due_by(now);
                }
            }
        } else {
            // Room again: those waiting for it are heard of from now on.
            let estimates = &self.estimates;
            for (key, watch) in self.watches.iter_mut() {
                let Way::NoRoom { capability } = &watch.way else {
                    continue;
                };
                let fits = wanted.contains(capability) || wanted.len() < MAX_RELAYS;
                if fits && watch.next != Next::InFlight {
                    if !wanted.contains(capability) {
                        wanted.push(capability.clone());
                    }
                    watch.way = Way::Stream {
                        capability: capability.clone(),
                    };
                    let expected = estimates.get(&key.kind).and_then(DurationEstimate::median);
                    listen(watch, expected, now);
                }
            }
        }
        let failures = stream.failures();
        if let Stream::Open { capabilities, .. } = stream {
            let covers = !wanted.is_empty()
                && wanted
                    .iter()
                    .all(|capability| capabilities.contains(capability));
            if covers {
                return;
            }
            commands.push(Command::CloseStream);
            *stream = Stream::Closed { failures };
        }
        if !wanted.is_empty() {
            commands.push(Command::OpenStream {
                relay: info.clone(),
                capabilities: wanted.clone(),
            });
            *stream = Stream::Open {
                capabilities: wanted,
                failures,
            };
        }
    }

    /// When to poll again at the latest (nothing to wait for but news:
    /// `None`): the next due read while there is room for it, or the
    /// stream's time to open again.
    pub fn next_wake(&self) -> Option<Millis> {
        let reopen = match &self.relay {
            Relay::On {
                stream: Stream::Resting { until, .. },
                ..
            } => Some(*until),
            _ => None,
        };
        let paused = self.options.while_hidden == WhileHidden::Pause && self.hidden;
        let read = if paused || self.in_flight >= self.options.max_in_flight {
            None
        } else {
            let waiting_for_relay = self.relay == Relay::Unknown;
            self.watches
                .values()
                .filter(|watch| !(waiting_for_relay && watch.way.capability().is_some()))
                .filter_map(|watch| match watch.next {
                    Next::At(at) => Some(at),
                    Next::InFlight => None,
                })
                .min()
        };
        match (read, reopen) {
            (Some(read), Some(reopen)) => Some(read.min(reopen)),
            (read, reopen) => read.or(reopen),
        }
    }

    /// Whether `key` is heard of on the stream now.
    pub fn is_relayed(&self, key: &TaskKey) -> bool {
        self.watches
            .get(key)
            .is_some_and(|watch| matches!(watch.way, Way::Stream { .. }))
    }

    /// How many tasks are followed.
    pub fn watching(&self) -> usize {
        self.watches.len()
    }

    /// The most reads that were ever in flight at once.
    pub fn peak_in_flight(&self) -> usize {
        self.peak_in_flight
    }

    /// The typical length of `kind`'s tasks seen so far, if any ended.
    pub fn estimate(&self, kind: TaskKind) -> Option<Duration> {
        self.expected(kind)
    }

    /// What the engine knows of the relay and its stream.
    pub fn relay(&self) -> &Relay {
        &self.relay
    }

    /// The followed task `key`, as the engine sees it.
    pub fn watched(&self, key: &TaskKey) -> Option<&Watch> {
        self.watches.get(key)
    }
}

/// Follow `watch` through the relay: no read until the safety read (a
/// read in flight stays in flight; its outcome decides).
fn listen(watch: &mut Watch, expected: Option<Duration>, now: Millis) {
    let elapsed = Duration::from_millis(watch.elapsed(now));
    if let Next::At(_) = watch.next {
        watch.next = Next::At(now + millis(relayed_delay(elapsed, expected)));
    }
}

#[cfg(test)]
mod properties;
#[cfg(test)]
mod tests;
