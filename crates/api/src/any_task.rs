//! A task object of any kind (`AnyTask`), as a status read answers it, a
//! callback carries it and a stored record keeps it: its kind named beside
//! its data, `{"task_type": …, "data": {…}}`.

use serde::{Deserialize, Serialize};

use crate::image_generate::ImageGenerateTask;
use crate::image_to_video::ImageToVideoTask;
use crate::kind::TaskKind;
use crate::status::TaskStatus;
use crate::video_translate::VideoTranslateTask;

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

/// A task as a callback, a stored record or the relay's stream writes it,
/// `{"task_type": …, "data": {…}}`, before its data is read as its kind's.
#[derive(Debug, Clone, Deserialize)]
pub struct TaggedTask {
    /// The kind.
    pub task_type: TaskKind,
    /// The task object, unread.
    pub data: serde_json::Value,
}

impl TaggedTask {
    /// The task, read with the decoders of the service's answers (bytes,
    /// one per task type) rather than serde's adjacently tagged path, which
    /// adds a buffering decoder for every task type to a browser's wasm.
    pub fn read(&self) -> serde_json::Result<AnyTask> {
        AnyTask::from_json(self.task_type, self.data.to_string().as_bytes())
    }
}

impl AnyTask {
    /// Task `task_id` of `kind` as a submit's answer leaves it: `PENDING`,
    /// nothing else known yet.
    pub fn created(kind: TaskKind, task_id: &str) -> AnyTask {
        let (task_id, status) = (task_id.to_owned(), TaskStatus::Pending);
        match kind {
            TaskKind::ImageToVideo => AnyTask::ImageToVideo(ImageToVideoTask {
                task_id,
                status,
                video_url: String::new(),
                thumbnail_url: String::new(),
                error_message: String::new(),
                duration: None,
                width: None,
                height: None,
                kept: None,
                not_kept: None,
            }),
            TaskKind::VideoTranslate => AnyTask::VideoTranslate(VideoTranslateTask {
                task_id,
                name: String::new(),
                language: String::new(),
                status,
                video_url: String::new(),
                caption_url: String::new(),
                error_message: String::new(),
                kept: None,
                not_kept: None,
            }),
            TaskKind::ImageGenerate => AnyTask::ImageGenerate(ImageGenerateTask {
                task_id,
                status,
                image_url: String::new(),
                thumbnail_url: String::new(),
                error_message: String::new(),
                kept: None,
                not_kept: None,
            }),
        }
    }

    /// A task object of `kind` (`{"task_id": …, "status": …}`) read from
    /// JSON with the decoders of the service's answers.
    pub fn from_json(kind: TaskKind, json: &[u8]) -> serde_json::Result<AnyTask> {
        match kind {
            TaskKind::ImageToVideo => serde_json::from_slice(json).map(AnyTask::ImageToVideo),
            TaskKind::VideoTranslate => serde_json::from_slice(json).map(AnyTask::VideoTranslate),
            TaskKind::ImageGenerate => serde_json::from_slice(json).map(AnyTask::ImageGenerate),
        }
    }

    /// A task object of `kind` out of a body of any form
    /// ([`crate::decode::Body`]: a value a browser already parsed, say).
    pub fn from_body(
        kind: TaskKind,
        body: &(impl crate::decode::Body + ?Sized),
    ) -> Result<AnyTask, String> {
        match kind {
            TaskKind::ImageToVideo => body.read_as().map(AnyTask::ImageToVideo),
            TaskKind::VideoTranslate => body.read_as().map(AnyTask::VideoTranslate),
            TaskKind::ImageGenerate => body.read_as().map(AnyTask::ImageGenerate),
        }
    }

    /// The task object alone, as a status read answers it (no `task_type`).
    pub fn to_json(&self) -> serde_json::Result<String> {
        match self {
            AnyTask::ImageToVideo(task) => serde_json::to_string(task),
            AnyTask::VideoTranslate(task) => serde_json::to_string(task),
            AnyTask::ImageGenerate(task) => serde_json::to_string(task),
        }
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_created_task_is_pending_and_reads_back_as_its_kind() {
        for &kind in TaskKind::ALL {
            let task = AnyTask::created(kind, "t1");
            assert_eq!((task.kind(), task.task_id()), (kind, "t1"));
            assert_eq!(task.status(), &TaskStatus::Pending);
            let json = task.to_json().unwrap_or_default();
            assert_eq!(AnyTask::from_json(kind, json.as_bytes()).ok(), Some(task));
        }
    }
}
