//! Task status: the document's values, and any other value kept as it came.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A task's `status`.
///
/// The document shows `SUCCEEDED`, `FAILED` and `GENERATING` and says the
/// complete list is not shown. Any other string is kept in [`TaskStatus::Other`],
/// shown to the user as it came, and treated as still in progress: an
/// unexpected status is never a decoding failure.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TaskStatus {
    /// `PENDING`: waiting to start. Not named by the document; it is the
    /// waiting state the sandbox reports, and a common name for one.
    Pending,
    /// `GENERATING`: work in progress.
    Generating,
    /// `SUCCEEDED`: done; the result URLs are set. Terminal.
    Succeeded,
    /// `FAILED`: done without a result; `error_message` says why. Terminal.
    Failed,
    /// Any other value, verbatim. Treated as in progress.
    Other(String),
}

impl TaskStatus {
    /// The status as the service spells it.
    pub fn as_str(&self) -> &str {
        match self {
            TaskStatus::Pending => "PENDING",
            TaskStatus::Generating => "GENERATING",
            TaskStatus::Succeeded => "SUCCEEDED",
            TaskStatus::Failed => "FAILED",
            TaskStatus::Other(other) => other,
        }
    }

    /// Whether the task has finished (`SUCCEEDED` or `FAILED`); nothing changes after.
    pub fn is_terminal(&self) -> bool {
        matches!(self, TaskStatus::Succeeded | TaskStatus::Failed)
    }
}

impl From<&str> for TaskStatus {
    fn from(text: &str) -> Self {
        match text {
            "PENDING" => TaskStatus::Pending,
            "GENERATING" => TaskStatus::Generating,
            "SUCCEEDED" => TaskStatus::Succeeded,
            "FAILED" => TaskStatus::Failed,
            other => TaskStatus::Other(other.to_owned()),
        }
    }
}

impl fmt::Display for TaskStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// In TypeScript: the document's values, and any other string.
#[cfg(feature = "typescript")]
impl ts_rs::TS for TaskStatus {
    type WithoutGenerics = Self;
    type OptionInnerType = Self;

    fn name(_: &ts_rs::Config) -> String {
        "TaskStatus".to_owned()
    }

    fn inline(_: &ts_rs::Config) -> String {
        r#""PENDING" | "GENERATING" | "SUCCEEDED" | "FAILED" | (string & {})"#.to_owned()
    }

    fn decl(config: &ts_rs::Config) -> String {
        format!("type {} = {};", Self::name(config), Self::inline(config))
    }

    fn decl_concrete(config: &ts_rs::Config) -> String {
        Self::decl(config)
    }
}

impl Serialize for TaskStatus {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for TaskStatus {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Ok(TaskStatus::from(text.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_statuses_round_trip() {
        for (text, status) in [
            ("SUCCEEDED", TaskStatus::Succeeded),
            ("FAILED", TaskStatus::Failed),
            ("GENERATING", TaskStatus::Generating),
            ("PENDING", TaskStatus::Pending),
        ] {
            let json = format!("\"{text}\"");
            assert_eq!(serde_json::from_str::<TaskStatus>(&json).unwrap(), status);
            assert_eq!(serde_json::to_string(&status).unwrap(), json);
        }
    }

    #[test]
    fn only_succeeded_and_failed_are_terminal() {
        assert!(TaskStatus::Succeeded.is_terminal());
        assert!(TaskStatus::Failed.is_terminal());
        assert!(!TaskStatus::Generating.is_terminal());
        assert!(!TaskStatus::Pending.is_terminal());
    }

    #[test]
    fn unknown_statuses_are_kept_and_in_progress() {
        let status: TaskStatus = serde_json::from_str("\"QUEUED_FOR_REVIEW\"").unwrap();
        assert_eq!(status, TaskStatus::Other("QUEUED_FOR_REVIEW".into()));
        assert_eq!(status.to_string(), "QUEUED_FOR_REVIEW");
        assert!(!status.is_terminal());
        // Case matters: "succeeded" is not the documented value.
        assert!(!TaskStatus::from("succeeded").is_terminal());
    }
}
