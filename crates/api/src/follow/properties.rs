//! Properties of the follow engine over random sequences of events: a
//! simulated service answers each read (tasks end after a random length,
//! some reads fail), a simulated stream opens, loses itself and announces
//! ends, the page hides and shows, time passes; the driver carries out
//! every command as the real ones do.

use std::collections::{HashMap, HashSet};

use proptest::prelude::*;

use super::*;

const CAPS: [&str; 2] = [
    "0123456789abcdef0123456789abcdef",
    "fedcba9876543210fedcba9876543210",
];

/// Something that happens between two polls.
#[derive(Debug, Clone)]
enum Happening {
    /// A new task, ending `length` ms after it was submitted, relayed
    /// under capability `relayed` (an index into [`CAPS`]) or not.
    Submit {
        length: Millis,
        relayed: Option<usize>,
    },
    /// The site's relay becomes known (or changes).
    Relay(bool),
    /// The gateway answers the open stream.
    StreamOpened,
    /// The browser gives the stream up.
    StreamLost(f64),
    /// The page is hidden or shown.
    Hidden(bool),
    /// Time passes.
    Wait(Millis),
    /// The next read in flight fails (retryably).
    FailNextRead,
}

fn happening() -> impl Strategy<Value = Happening> {
    prop_oneof![
        3 => (1_000..600_000u64, proptest::option::of(0..2usize))
            .prop_map(|(length, relayed)| Happening::Submit { length, relayed }),
        1 => any::<bool>().prop_map(Happening::Relay),
        2 => Just(Happening::StreamOpened),
        1 => (0.0..1.0f64).prop_map(Happening::StreamLost),
        1 => any::<bool>().prop_map(Happening::Hidden),
        6 => (1..120_000u64).prop_map(Happening::Wait),
        1 => Just(Happening::FailNextRead),
    ]
}

/// The simulated world around the engine.
struct World {
    follow: Follow,
    now: Millis,
    /// Each task's submit time, length and capability.
    tasks: HashMap<TaskKey, (Millis, Millis, Option<String>)>,
    in_flight: Vec<TaskKey>,
    /// The capabilities the open stream names, if one is open.
    stream: Option<Vec<String>>,
    streams_open: usize,
    most_streams_open: usize,
    /// Tasks whose end the stream announced.
    heard: HashSet<TaskKey>,
    reads: HashMap<TaskKey, u32>,
    read_after_heard: bool,
    fail_next: bool,
    ended: HashSet<TaskKey>,
    next_id: u32,
}

impl World {
    fn new() -> World {
        World {
            follow: Follow::new(FollowOptions::default()),
            now: 0,
            tasks: HashMap::new(),
            in_flight: Vec::new(),
            stream: None,
            streams_open: 0,
            most_streams_open: 0,
            heard: HashSet::new(),
            reads: HashMap::new(),
            read_after_heard: false,
            fail_next: false,
            ended: HashSet::new(),
            next_id: 0,
        }
    }

    fn status(&self, key: &TaskKey) -> TaskStatus {
        let (submitted, length, _) = self.tasks[key];
        if self.now >= submitted + length {
            TaskStatus::Succeeded
        } else {
            TaskStatus::Generating
        }
    }

    /// Answer the reads in flight, then carry out what the engine asks.
    fn turn(&mut self) {
        for key in std::mem::take(&mut self.in_flight) {
            let outcome = if std::mem::take(&mut self.fail_next) {
                ReadOutcome::Failed {
                    retryable: true,
                    shape: false,
                }
            } else {
                ReadOutcome::Read(self.status(&key))
            };
            if let Some(verdict) = self.follow.read_done(&key, outcome, self.now) {
                if verdict.done {
                    self.ended.insert(key);
                }
            }
        }
        self.announce();
        for command in self.follow.poll(self.now) {
            match command {
                Command::Read(key) => {
                    if self.heard.contains(&key) {
                        self.read_after_heard = true;
                    }
                    *self.reads.entry(key.clone()).or_default() += 1;
                    self.in_flight.push(key);
                }
                Command::OpenStream { capabilities, .. } => {
                    assert!(!capabilities.is_empty());
                    self.streams_open += 1;
                    self.most_streams_open = self.most_streams_open.max(self.streams_open);
                    self.stream = Some(capabilities);
                }
                Command::CloseStream => {
                    self.streams_open = self.streams_open.saturating_sub(1);
                    self.stream = None;
                }
            }
        }
    }

    /// The open stream announces the ends of the tasks it names.
    fn announce(&mut self) {
        let Some(capabilities) = self.stream.clone() else {
            return;
        };
        let ended: Vec<TaskKey> = self
            .tasks
            .iter()
            .filter(|(key, (submitted, length, capability))| {
                self.now >= submitted + length
                    && capability
                        .as_ref()
                        .is_some_and(|c| capabilities.contains(c))
                    && !self.heard.contains(*key)
            })
            .map(|(key, _)| key.clone())
            .collect();
        for key in ended {
            self.heard.insert(key.clone());
            if let Some(verdict) = self
                .follow
                .stream_end(&key, &TaskStatus::Succeeded, self.now)
            {
                assert!(verdict.done);
                self.ended.insert(key);
            }
        }
    }

    fn happen(&mut self, happening: &Happening) {
        match happening {
            Happening::Submit { length, relayed } => {
                self.next_id += 1;
                let key = TaskKey::new(TaskKind::ImageToVideo, format!("t{}", self.next_id));
                let capability = relayed.map(|index| CAPS[index].to_owned());
                self.tasks
                    .insert(key.clone(), (self.now, *length, capability.clone()));
                self.follow.watch(key, self.now, capability, self.now);
            }
            Happening::Relay(on) => self.follow.set_relay(on.then(RelayInfo::default), self.now),
            Happening::StreamOpened => {
                if self.stream.is_some() {
                    self.follow.stream_opened(self.now);
                }
            }
            Happening::StreamLost(unit) => {
                if self.stream.take().is_some() {
                    self.streams_open -= 1;
                    self.follow.stream_lost(self.now, *unit);
                }
            }
            Happening::Hidden(hidden) => self.follow.visibility(*hidden, self.now),
            Happening::Wait(ms) => self.advance(*ms),
            Happening::FailNextRead => self.fail_next = true,
        }
        self.turn();
    }

    /// Let `ms` pass, waking as the engine asks (and at least every 5 s).
    fn advance(&mut self, ms: Millis) {
        let until = self.now + ms;
        while self.now < until {
            let wake = self.follow.next_wake().unwrap_or(until).max(self.now + 1);
            self.now = wake.min(until).min(self.now + 5_000);
            self.turn();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_task_ends_in_finitely_many_reads_with_one_stream_at_most(
        happenings in proptest::collection::vec(happening(), 1..60)
    ) {
        let mut world = World::new();
        for happening in &happenings {
            world.happen(happening);
        }
        // Then the site settles (relay known, the page shown) and time runs
        // on past every task's end: each watch ends.
        world.follow.visibility(false, world.now);
        if world.follow.relay() == &Relay::Unknown {
            world.follow.set_relay(None, world.now);
        }
        world.advance(2 * 3_600_000);
        prop_assert_eq!(world.follow.watching(), 0, "every task ended");
        prop_assert!(world.most_streams_open <= 1, "at most one stream");
        prop_assert!(!world.read_after_heard, "no read of a task the stream ended");
        for (key, (_, length, _)) in &world.tasks {
            // The schedule's bound: the growing waits up to 15 s, then one
            // read per 15 s of the task's length, a few more for failures,
            // reopened streams and shown pages.
            let reads = world.reads.get(key).copied().unwrap_or(0);
            let bound = 12 + (*length / 1_000) as u32 + happenings.len() as u32;
            prop_assert!(reads <= bound, "{key}: {reads} reads for a {length} ms task (bound {bound})");
        }
    }

    #[test]
    fn a_lost_stream_brings_reads_back_within_the_wait(
        lengths in proptest::collection::vec(600_000..3_600_000u64, 1..6),
        lost_after in 1_000..300_000u64,
        unit in 0.0..1.0f64,
    ) {
        let mut world = World::new();
        world.follow.set_relay(Some(RelayInfo::default()), 0);
        for length in &lengths {
            world.happen(&Happening::Submit { length: *length, relayed: Some(0) });
        }
        world.happen(&Happening::StreamOpened);
        world.advance(lost_after);
        let relayed: Vec<TaskKey> = world
            .tasks
            .keys()
            .filter(|key| world.follow.is_relayed(key))
            .cloned()
            .collect();
        let before: HashMap<TaskKey, u32> =
            relayed.iter().map(|key| (key.clone(), world.reads.get(key).copied().unwrap_or(0))).collect();
        world.happen(&Happening::StreamLost(unit));
        // The stream reopens but is never answered: reads take over.
        world.advance(millis(RELAY_FAILED_WAIT) + 1);
        for key in &relayed {
            let now = world.reads.get(key).copied().unwrap_or(0);
            prop_assert!(now > before[key], "{key} read again within RELAY_FAILED_WAIT");
        }
    }
}
