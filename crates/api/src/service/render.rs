//! A task as the service reports it at a given moment: a status read's
//! `data`, a callback's.

use super::lifecycle::Outcome;
use super::media::{image_urls, translation_urls, video_urls};
use super::store::{Detail, Task};
use crate::{AnyTask, ImageGenerateTask, ImageToVideoTask, TaskStatus, VideoTranslateTask};

/// The task's status and, once it has failed, its error message.
fn status(task: &Task, now: u64) -> (TaskStatus, String) {
    let status = task.schedule.status_at(now, &task.outcome);
    let error = match (&status, &task.outcome) {
        (TaskStatus::Failed, Outcome::Failure(message)) => message.clone(),
        _ => String::new(),
    };
    (status, error)
}

/// `value` once the task has succeeded, else `""` (no result yet, or none).
fn when_done(status: &TaskStatus, value: String) -> String {
    if *status == TaskStatus::Succeeded {
        value
    } else {
        String::new()
    }
}

/// The task object of its kind at `now`.
pub fn render(task: &Task, now: u64) -> AnyTask {
    let (status, error_message) = status(task, now);
    let base = &task.base_url;
    match &task.detail {
        Detail::ImageToVideo {
            aspect,
            resolution,
            duration,
        } => {
            let (width, height) = resolution.frame_size(*aspect);
            let (video, thumbnail) = video_urls(base, *aspect, &task.id);
            AnyTask::ImageToVideo(ImageToVideoTask {
                task_id: task.id.clone(),
                video_url: when_done(&status, video),
                thumbnail_url: when_done(&status, thumbnail),
                status,
                error_message,
                duration: Some(*duration),
                width: Some(i64::from(width)),
                height: Some(i64::from(height)),
                kept: None,
                not_kept: None,
            })
        }
        Detail::VideoTranslate {
            language,
            name,
            caption,
        } => {
            let (video, captions) = translation_urls(base, language, name, &task.id);
            AnyTask::VideoTranslate(VideoTranslateTask {
                task_id: task.id.clone(),
                name: name.clone(),
                language: language.clone(),
                video_url: when_done(&status, video),
                caption_url: if *caption {
                    when_done(&status, captions)
                } else {
                    String::new()
                },
                status,
                error_message,
                kept: None,
                not_kept: None,
            })
        }
        Detail::ImageGenerate { quality, ratio } => {
            let (image, thumbnail) = image_urls(base, *quality, *ratio, &task.id);
            AnyTask::ImageGenerate(ImageGenerateTask {
                task_id: task.id.clone(),
                image_url: when_done(&status, image),
                thumbnail_url: when_done(&status, thumbnail),
                status,
                error_message,
                kept: None,
                not_kept: None,
            })
        }
    }
}
