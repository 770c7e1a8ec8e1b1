//! A stored task as the service reports it at a given moment.

use std::time::Instant;

use media_gen_api::path::segment;
use media_gen_api::{
    AnyTask, AspectRatio, ImageGenerateTask, ImageToVideoTask, TaskStatus, VideoTranslateTask,
};

use crate::lifecycle::Outcome;
use crate::media;
use crate::store::{Detail, Task};

/// The task's status and, once it has failed, its error message.
fn status(task: &Task, now: Instant) -> (TaskStatus, String) {
    let status = task.schedule.status_at(now, &task.outcome);
    let error = match (&status, &task.outcome) {
        (TaskStatus::Failed, Outcome::Failure(message)) => message.clone(),
        _ => String::new(),
    };
    (status, error)
}

/// `value` once the task has succeeded, else `""` (no result yet, or none).
fn when_done(status: &TaskStatus, value: impl FnOnce() -> String) -> String {
    if *status == TaskStatus::Succeeded {
        value()
    } else {
        String::new()
    }
}

/// The task object of its kind, as a status read or a callback reports it.
pub fn render(task: &Task, now: Instant) -> AnyTask {
    let (status, error_message) = status(task, now);
    let base = &task.base_url;
    match &task.detail {
        Detail::ImageToVideo {
            aspect,
            resolution,
            duration,
        } => {
            let shape = media::shape(*aspect);
            let (width, height) = resolution.frame_size(*aspect);
            AnyTask::ImageToVideo(ImageToVideoTask {
                task_id: task.id.clone(),
                video_url: when_done(&status, || {
                    format!("{base}/sandbox/media/video/{shape}.mp4?task={}", task.id)
                }),
                thumbnail_url: when_done(&status, || {
                    format!("{base}/sandbox/media/video/{shape}.webp?task={}", task.id)
                }),
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
            let folder = format!("{base}/sandbox/media/translated/{}", segment(language));
            AnyTask::VideoTranslate(VideoTranslateTask {
                task_id: task.id.clone(),
                name: name.clone(),
                language: language.clone(),
                video_url: when_done(&status, || {
                    format!("{folder}/{}.mp4?task={}", segment(name), task.id)
                }),
                caption_url: if *caption {
                    when_done(&status, || {
                        format!("{folder}/{}.ass?task={}", segment(name), task.id)
                    })
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
            let image = format!(
                "{base}/sandbox/media/image/{quality}/{}",
                media::ratio_segment(*ratio)
            );
            AnyTask::ImageGenerate(ImageGenerateTask {
                task_id: task.id.clone(),
                image_url: when_done(&status, || format!("{image}.png?task={}", task.id)),
                thumbnail_url: when_done(&status, || {
                    format!("{image}/thumbnail.png?task={}", task.id)
                }),
                status,
                error_message,
                kept: None,
                not_kept: None,
            })
        }
    }
}

/// The aspect ratio for a video task when the request gave none.
pub const DEFAULT_ASPECT: AspectRatio = media_gen_api::defaults::ASPECT_RATIO;
