//! The completion callback the service POSTs to `callback_url`, one per task.

use serde::{Deserialize, Serialize};

use crate::any_task::AnyTask;

/// The callback body: `{code, msg, task_type, data}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Callback {
    /// 0 means the callback was sent successfully.
    pub code: i64,
    /// Usually `ok`.
    pub msg: String,
    /// The task: `task_type` with the matching `data`.
    #[serde(flatten)]
    pub task: AnyTask,
}
