//! People forgotten (`keys revoke NAME --forget`), as the gateways tell
//! each other: a mark per person, a hash of their name and nothing else,
//! kept a day in the library's database or the shared Redis. A running
//! gateway that finds a new mark drops what it holds of whoever it names
//! (their use in memory, their sessions, their uploads and kept copies) and
//! never writes their use back.

use sha2::{Digest, Sha256};

use super::person_usage::DAY;

/// How long a mark is kept: every gateway reads the marks each second.
pub const REMEMBERED: u64 = DAY;

/// The mark of the person named `name`.
pub fn mark(name: &str) -> String {
    let mut hash = Sha256::new();
    hash.update(b"media-gen forgotten\n");
    hash.update(name.as_bytes());
    media_gen_gateway_base::ids::hex(&hash.finalize())
}

/// What forgetting a person removed: counts only, never what it said.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Removed {
    /// Requests of their library.
    pub requests: u64,
    /// Tasks of those requests.
    pub tasks: u64,
    /// Days of their spending figures.
    pub spent_days: u64,
    /// Records of their use (last call, tasks of the day).
    pub use_records: u64,
    /// Their uploads.
    pub uploads: u64,
    /// Copies of their results.
    pub kept: u64,
}

impl Removed {
    /// `self` and `other` together.
    pub fn and(self, other: Removed) -> Removed {
        Removed {
            requests: self.requests + other.requests,
            tasks: self.tasks + other.tasks,
            spent_days: self.spent_days + other.spent_days,
            use_records: self.use_records + other.use_records,
            uploads: self.uploads + other.uploads,
            kept: self.kept + other.kept,
        }
    }
}

impl std::fmt::Display for Removed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let counted = |count: u64, one: &str, many: &str| {
            format!("{count} {}", if count == 1 { one } else { many })
        };
        write!(
            f,
            "{}, {}, {}, {}, {}, {}",
            counted(self.requests, "request", "requests"),
            counted(self.tasks, "task", "tasks"),
            counted(self.spent_days, "day of figures", "days of figures"),
            counted(self.use_records, "record of use", "records of use"),
            counted(self.uploads, "upload", "uploads"),
            counted(self.kept, "kept copy", "kept copies"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_names_nobody_in_its_text_and_is_the_same_everywhere() {
        let ada = mark("ada");
        assert_eq!(ada.len(), 64);
        assert!(!ada.contains("ada"));
        assert_eq!(mark("ada"), ada);
        assert_ne!(mark("grace"), ada);
    }

    #[test]
    fn what_was_removed_reads_as_counts() {
        let removed = Removed {
            requests: 2,
            tasks: 1,
            ..Removed::default()
        };
        assert_eq!(
            removed.to_string(),
            "2 requests, 1 task, 0 days of figures, 0 records of use, 0 uploads, 0 kept copies"
        );
    }
}
