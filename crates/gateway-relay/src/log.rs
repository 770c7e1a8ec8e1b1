//! The announcements, numbered: the last [`KEPT`] are kept so a stream
//! that reconnects with `Last-Event-ID` gets what it missed, and each new
//! one is broadcast to the open streams.

use std::collections::VecDeque;
use std::sync::Arc;

use media_gen_api::AnyTask;

use super::capability::Capability;
use tokio::sync::broadcast;

/// How many announcements are kept for replay.
pub const KEPT: usize = 10_000;

/// What a stream starts from: the kept announcements after its last event
/// id, and a receiver of those that follow.
pub type Subscription = (
    Vec<Arc<Announcement>>,
    broadcast::Receiver<Arc<Announcement>>,
);

/// An announcement's place in the order of all announcements: the event
/// id a stream gives it and a browser reconnects with. Written `major-minor`
/// as a Redis stream's entry id is, in memory too: the milliseconds since
/// 1970 and the order within them, so an id tells a visitor when, never how
/// many tasks ended before theirs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EventId {
    /// Milliseconds since 1970.
    pub major: u64,
    /// The order within the same `major`.
    pub minor: u64,
}

impl EventId {
    /// `12-0`, or `12` alone.
    pub fn parse(text: &str) -> Option<EventId> {
        let text = text.trim();
        let (major, minor) = text.split_once('-').unwrap_or((text, "0"));
        Some(EventId {
            major: major.parse().ok()?,
            minor: minor.parse().ok()?,
        })
    }
}

impl std::fmt::Display for EventId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.major, self.minor)
    }
}

/// Who hears an announcement.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Channel {
    /// The pages following a relayed submission, by its listening
    /// capability.
    Submission(Capability),
    /// A person's open pages: their library's news, which the server
    /// tells as the library learns it.
    Library(String),
}

impl Channel {
    /// The channel of `person`'s library: written so that it never has a
    /// capability's shape, so no page can ask for it by name.
    pub fn library(person: &str) -> Channel {
        Channel::Library(person.to_owned())
    }
}

/// How a stream entry writes a person's channel: never a capability's
/// shape (32 hex digits), so no page can name it.
const LIBRARY_PREFIX: &str = "library:";

impl Channel {
    /// The channel as a stream entry writes it: the capability, or
    /// `library:{person}`.
    pub fn written(&self) -> String {
        match self {
            Channel::Submission(capability) => capability.as_str().to_owned(),
            Channel::Library(person) => format!("{LIBRARY_PREFIX}{person}"),
        }
    }

    /// A channel as a stream entry wrote it (`None`: neither shape).
    pub fn read(text: &str) -> Option<Channel> {
        match text.strip_prefix(LIBRARY_PREFIX) {
            Some(person) => Some(Channel::Library(person.to_owned())),
            None => Capability::parse(text).map(Channel::Submission),
        }
    }
}

/// One announcement: a task of a relayed submission has ended, or a
/// person's task changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Announcement {
    /// Its place: the stream's event id.
    pub id: EventId,
    /// Which streams hear it.
    pub channel: Channel,
    /// The task as it ended.
    pub task: AnyTask,
}

/// The kept announcements and the streams' channel.
#[derive(Debug)]
pub struct Log {
    kept: VecDeque<Arc<Announcement>>,
    last: EventId,
    live: broadcast::Sender<Arc<Announcement>>,
}

impl Default for Log {
    fn default() -> Self {
        Log {
            kept: VecDeque::new(),
            last: EventId::default(),
            live: broadcast::channel(1024).0,
        }
    }
}

/// Milliseconds since 1970, now.
fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_millis() as u64)
}

impl Log {
    /// The id after `last` at `now` (ms): `now-0`, or the next in the same
    /// millisecond (or after a clock that stepped back).
    fn next_id(last: EventId, now: u64) -> EventId {
        if now > last.major {
            EventId {
                major: now,
                minor: 0,
            }
        } else {
            EventId {
                major: last.major,
                minor: last.minor + 1,
            }
        }
    }

    /// Announce `task` on `channel` to the streams, and keep it.
    pub fn announce(&mut self, channel: Channel, task: AnyTask) -> Arc<Announcement> {
        self.last = Log::next_id(self.last, now_ms());
        let announcement = Arc::new(Announcement {
            id: self.last,
            channel,
            task,
        });
        if self.kept.len() == KEPT {
            self.kept.pop_front();
        }
        self.kept.push_back(Arc::clone(&announcement));
        // No stream open is no error: the announcement is kept.
        let _ = self.live.send(Arc::clone(&announcement));
        announcement
    }

    /// The kept announcements after `id`, oldest first, and a receiver of
    /// those that follow: taken together, so none falls between them.
    pub fn subscribe(&self, after: EventId) -> Subscription {
        let missed = self
            .kept
            .iter()
            .filter(|announcement| announcement.id > after)
            .cloned()
            .collect();
        (missed, self.live.subscribe())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use media_gen_api::{ImageGenerateTask, TaskStatus};

    fn task(id: &str) -> AnyTask {
        AnyTask::ImageGenerate(ImageGenerateTask {
            task_id: id.into(),
            status: TaskStatus::Succeeded,
            image_url: String::new(),
            thumbnail_url: String::new(),
            error_message: String::new(),
            kept: None,
            not_kept: None,
        })
    }

    fn channel() -> Channel {
        Channel::Submission(Capability::parse("0123456789abcdef0123456789abcdef").expect("shaped"))
    }

    #[test]
    fn replay_gives_what_came_after_the_last_id_then_the_live_ones() {
        let mut log = Log::default();
        let first = log.announce(channel(), task("a")).id;
        log.announce(channel(), task("b"));
        let (missed, mut live) = log.subscribe(first);
        assert_eq!(missed.len(), 1);
        assert_eq!(missed[0].task.task_id(), "b");
        let third = log.announce(channel(), task("c")).id;
        assert_eq!(live.try_recv().map(|a| a.id).ok(), Some(third));
    }

    #[test]
    fn ids_tell_the_time_not_a_count() {
        let id = Log::next_id(EventId::default(), 1_732_450_000_000);
        assert_eq!(id.to_string(), "1732450000000-0");
        let same_ms = Log::next_id(id, 1_732_450_000_000);
        assert_eq!(same_ms.to_string(), "1732450000000-1");
        // A clock that steps back still orders them.
        assert!(Log::next_id(same_ms, 5) > same_ms);
    }

    #[test]
    fn event_ids_read_back_in_both_forms() {
        let id = EventId::parse("1732450000000-3").unwrap_or_default();
        assert_eq!((id.major, id.minor), (1_732_450_000_000, 3));
        assert_eq!(EventId::parse(&id.to_string()), Some(id));
        assert_eq!(
            EventId::parse("7").map(|id| id.to_string()).as_deref(),
            Some("7-0")
        );
        assert_eq!(EventId::parse("x"), None);
        assert!(EventId::parse("2-0") > EventId::parse("1-9"));
    }

    #[test]
    fn only_the_last_ones_are_kept() {
        let mut log = Log::default();
        for n in 0..KEPT + 5 {
            log.announce(channel(), task(&n.to_string()));
        }
        let (missed, _) = log.subscribe(EventId::default());
        assert_eq!(missed.len(), KEPT);
        assert_eq!(missed[0].task.task_id(), "5");
    }

    #[test]
    fn a_channel_is_never_a_capability_and_reads_back() {
        let person = "0123456789abcdef0123456789abcdef";
        let written = Channel::library(person).written();
        assert!(!media_gen_api::relay::is_capability(&written));
        assert_eq!(Channel::read(&written), Some(Channel::library(person)));
        assert!(matches!(
            Channel::read(person),
            Some(Channel::Submission(capability)) if capability.as_str() == person
        ));
        assert_eq!(Channel::read("neither"), None);
    }
}
