//! The completion callback the service POSTs to `callback_url`, one per task.

use serde::{Deserialize, Serialize};

use crate::image_generate::ImageGenerateTask;
use crate::image_to_video::ImageToVideoTask;
use crate::kind::TaskKind;
use crate::status::TaskStatus;
use crate::video_translate::VideoTranslateTask;

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

/// A task object of any kind, as a status read answers it and a callback
/// carries it (`data` by `task_type`). Stored task records keep it in this
/// form too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "task_type", content = "data", rename_all = "snake_case")]
pub enum AnyTask {
    /// task_id, status, video_url, thumbnail_url, error_message.
    ImageToVideo(ImageToVideoTask),
    /// task_id, name, language, status, video_url, caption_url, error_message.
    VideoTranslate(VideoTranslateTask),
    /// task_id, status, image_url, error_message, perhaps a thumbnail.
    ImageGenerate(ImageGenerateTask),
}

impl AnyTask {
    /// Which kind of task this is about.
    pub fn kind(&self) -> TaskKind {
        match self {
            AnyTask::ImageToVideo(_) => TaskKind::ImageToVideo,
            AnyTask::VideoTranslate(_) => TaskKind::VideoTranslate,
            AnyTask::ImageGenerate(_) => TaskKind::ImageGenerate,
        }
    }

    /// The task's id.
    pub fn task_id(&self) -> &str {
        match self {
            AnyTask::ImageToVideo(task) => &task.task_id,
            AnyTask::VideoTranslate(task) => &task.task_id,
            AnyTask::ImageGenerate(task) => &task.task_id,
        }
    }

    /// The task's status (`SUCCEEDED` or `FAILED` in a callback).
    pub fn status(&self) -> &TaskStatus {
        match self {
            AnyTask::ImageToVideo(task) => &task.status,
            AnyTask::VideoTranslate(task) => &task.status,
            AnyTask::ImageGenerate(task) => &task.status,
        }
    }

    /// The task's error detail; empty when there is none.
    pub fn error_message(&self) -> &str {
        match self {
            AnyTask::ImageToVideo(task) => &task.error_message,
            AnyTask::VideoTranslate(task) => &task.error_message,
            AnyTask::ImageGenerate(task) => &task.error_message,
        }
    }
}
