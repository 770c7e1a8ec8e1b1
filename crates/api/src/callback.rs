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
    /// `task_type` with the matching `data`.
    #[serde(flatten)]
    pub result: CallbackResult,
}

/// `data` by `task_type`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "task_type", content = "data", rename_all = "snake_case")]
pub enum CallbackResult {
    /// task_id, status, video_url, thumbnail_url, error_message.
    ImageToVideo(ImageToVideoTask),
    /// task_id, name, language, status, video_url, caption_url, error_message.
    VideoTranslate(VideoTranslateTask),
    /// task_id, status, image_url, error_message, perhaps a thumbnail.
    ImageGenerate(ImageGenerateTask),
}

impl CallbackResult {
    /// Which kind of task this is about.
    pub fn kind(&self) -> TaskKind {
        match self {
            CallbackResult::ImageToVideo(_) => TaskKind::ImageToVideo,
            CallbackResult::VideoTranslate(_) => TaskKind::VideoTranslate,
            CallbackResult::ImageGenerate(_) => TaskKind::ImageGenerate,
        }
    }

    /// The task's id.
    pub fn task_id(&self) -> &str {
        match self {
            CallbackResult::ImageToVideo(task) => &task.task_id,
            CallbackResult::VideoTranslate(task) => &task.task_id,
            CallbackResult::ImageGenerate(task) => &task.task_id,
        }
    }

    /// The task's status (`SUCCEEDED` or `FAILED` in a callback).
    pub fn status(&self) -> &TaskStatus {
        match self {
            CallbackResult::ImageToVideo(task) => &task.status,
            CallbackResult::VideoTranslate(task) => &task.status,
            CallbackResult::ImageGenerate(task) => &task.status,
        }
    }

    /// The task's error detail; empty when there is none.
    pub fn error_message(&self) -> &str {
        match self {
            CallbackResult::ImageToVideo(task) => &task.error_message,
            CallbackResult::VideoTranslate(task) => &task.error_message,
            CallbackResult::ImageGenerate(task) => &task.error_message,
        }
    }
}
