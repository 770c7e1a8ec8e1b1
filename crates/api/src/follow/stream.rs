//! What the engine knows of the site's relay and its one event stream.

use crate::relay::RelayInfo;

use super::Millis;

/// Whether the site relays the service's callbacks, and the stream.
#[derive(Debug, Clone, PartialEq)]
pub enum Relay {
    /// Not said yet: tasks with a capability wait for it (a page that just
    /// reloaded reads none of them before it knows whether it can listen).
    Unknown,
    /// The site relays nothing: every task is read.
    Off,
    /// The site relays at `info`.
    On {
        /// Where its stream is.
        info: RelayInfo,
        /// The stream.
        stream: Stream,
    },
}

/// The relay's one event stream.
#[derive(Debug, Clone, PartialEq)]
pub enum Stream {
    /// None open: none wanted yet, or closed to open another.
    Closed {
        /// Streams given up in a row before it (0 once one was answered).
        failures: u32,
    },
    /// Asked open on these capabilities.
    Open {
        /// The capabilities it names.
        capabilities: Vec<String>,
        /// Streams given up in a row before it (0 once this or an earlier
        /// one was answered).
        failures: u32,
    },
    /// Given up `failures` times in a row; opened again at `until`.
    Resting {
        /// Streams given up in a row.
        failures: u32,
        /// When to open one again.
        until: Millis,
    },
}

impl Stream {
    /// Streams given up in a row (0 once the gateway answers one).
    pub fn failures(&self) -> u32 {
        match self {
            Stream::Closed { failures }
            | Stream::Open { failures, .. }
            | Stream::Resting { failures, .. } => *failures,
        }
    }
}

impl Relay {
    /// Streams given up in a row (0 without a relay).
    pub fn failures(&self) -> u32 {
        match self {
            Relay::On { stream, .. } => stream.failures(),
            Relay::Unknown | Relay::Off => 0,
        }
    }

    /// Whether a stream is open (asked open) now.
    pub fn stream_open(&self) -> bool {
        matches!(
            self,
            Relay::On {
                stream: Stream::Open { .. },
                ..
            }
        )
    }
}
