//! One followed task: how it is followed ([`Way`]), when it is read next
//! ([`Next`]), and what its reads have seen.

use crate::status::TaskStatus;

use super::Millis;

/// How a task is followed. A task heard of on the stream always has the
/// capability it is heard under: there is no stream-followed task without one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Way {
    /// Read on the schedule; `capability` kept for when the site's relay
    /// is known (or has room for it again).
    Reads {
        /// The relay's capability for the task's submission, if any.
        capability: Option<String>,
    },
    /// Heard of on the relay's stream, read once as a safety net.
    Stream {
        /// The capability the stream names.
        capability: String,
    },
    /// Its stream was given up: read on the schedule until one is
    /// answered again, then heard of there.
    StreamLost {
        /// The capability the stream named.
        capability: String,
    },
    /// The stream names as many capabilities as it may: read until there
    /// is room for this one, then heard of there.
    NoRoom {
        /// The capability waiting for room.
        capability: String,
    },
}

impl Way {
    /// The capability it was submitted under, if any.
    pub fn capability(&self) -> Option<&str> {
        match self {
            Way::Reads { capability } => capability.as_deref(),
            Way::Stream { capability }
            | Way::StreamLost { capability }
            | Way::NoRoom { capability } => Some(capability),
        }
    }

    /// Whether the stream follows it, or would were it not given up.
    pub fn wants_stream(&self) -> bool {
        matches!(self, Way::Stream { .. } | Way::StreamLost { .. })
    }

    /// Read from now on, keeping the capability.
    pub fn into_reads(self) -> Way {
        match self {
            Way::Reads { capability } => Way::Reads { capability },
            Way::Stream { capability }
            | Way::StreamLost { capability }
            | Way::NoRoom { capability } => Way::Reads {
                capability: Some(capability),
            },
        }
    }
}

/// When a task is read next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// At this time (or as soon as there is room).
    At(Millis),
    /// A read is in flight; its outcome decides.
    InFlight,
}

/// A followed task.
#[derive(Debug, Clone)]
pub struct Watch {
    /// When it was submitted.
    pub submitted: Millis,
    /// How it is followed.
    pub way: Way,
    /// When it is read next.
    pub next: Next,
    /// Reads answered so far.
    pub reads: u32,
    /// Answers not in the documented shape, in a row.
    pub shape_errors: u32,
    /// The status its last read (or event) showed.
    pub last_status: Option<TaskStatus>,
}

impl Watch {
    /// Milliseconds since it was submitted, at `now`.
    pub fn elapsed(&self, now: Millis) -> Millis {
        now.saturating_sub(self.submitted)
    }

    /// Read no later than `at` (a read in flight stays in flight).
    pub fn due_by(&mut self, at: Millis) {
        if let Next::At(next) = self.next {
            self.next = Next::At(next.min(at));
        }
    }
}
