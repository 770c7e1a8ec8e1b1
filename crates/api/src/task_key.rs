//! Which task: its kind and the service's id. Ids are the service's and
//! unique only within a kind, so a task is never named by its id alone.
//! Written `kind:id` wherever one string must name it (a storage key, the
//! comparison page's query); the id is everything after the first colon.

use std::fmt;
use std::str::FromStr;

use crate::kind::TaskKind;

/// One task: its kind and id.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TaskKey {
    /// The task's kind.
    pub kind: TaskKind,
    /// The service's id for it.
    pub id: String,
}

impl TaskKey {
    /// The task `id` of `kind`.
    pub fn new(kind: TaskKind, id: impl Into<String>) -> TaskKey {
        TaskKey {
            kind,
            id: id.into(),
        }
    }

    /// Whether this is the task `id` of `kind` (no allocation).
    pub fn is(&self, kind: TaskKind, id: &str) -> bool {
        self.kind == kind && self.id == id
    }
}

impl fmt::Display for TaskKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.kind, self.id)
    }
}

/// A `kind:id` text that names no task: an unknown kind, or no id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotATaskKey;

impl FromStr for TaskKey {
    type Err = NotATaskKey;

    fn from_str(text: &str) -> Result<TaskKey, NotATaskKey> {
        let (kind, id) = text.split_once(':').ok_or(NotATaskKey)?;
        let kind = kind.parse().map_err(|_| NotATaskKey)?;
        if id.is_empty() {
            return Err(NotATaskKey);
        }
        Ok(TaskKey::new(kind, id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_and_read_back_with_colons_in_the_id() {
        let key = TaskKey::new(TaskKind::ImageToVideo, "i2v-1:x/y");
        assert_eq!(key.to_string(), "image_to_video:i2v-1:x/y");
        assert_eq!(key.to_string().parse(), Ok(key.clone()));
        assert!(key.is(TaskKind::ImageToVideo, "i2v-1:x/y"));
        assert!(!key.is(TaskKind::ImageGenerate, "i2v-1:x/y"));
    }

    #[test]
    fn texts_that_name_no_task() {
        for text in ["", "ig-1", "image_generate:", "nope:ig-1", ":ig-1"] {
            assert_eq!(text.parse::<TaskKey>(), Err(NotATaskKey), "{text}");
        }
    }
}
