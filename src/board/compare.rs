//! Choosing two finished tasks on the board to compare, and what of them
//! can be compared: an image or a video each.

use leptos::prelude::*;
use media_gen_api::kept::{MediaField, ResultFiles};
use media_gen_api::{AnyTask, TaskKey, TaskKind, TaskStatus};

use media_gen_ui::components::safe_url::safe_url;
use media_gen_ui::store::record::TaskRecord;

/// What a finished task shows in a comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Media {
    /// An image URL.
    Image(String),
    /// A video URL.
    Video(String),
}

/// The comparable result of `record`: its image or video, when it succeeded
/// and the address is http(s).
pub fn media_of(record: &TaskRecord) -> Option<Media> {
    match record.task.as_ref()? {
        task if *task.status() != TaskStatus::Succeeded => None,
        task @ AnyTask::ImageGenerate(_) => {
            safe_url(task.shown(MediaField::ImageUrl)).map(Media::Image)
        }
        task => safe_url(task.shown(MediaField::VideoUrl)).map(Media::Video),
    }
}

/// The tasks chosen on the board for comparing, the latest last (at most two).
#[derive(Clone, Copy)]
pub struct Picks(pub RwSignal<Vec<TaskKey>>);

impl Picks {
    /// Choose or un-choose a task; a third choice replaces the oldest.
    pub fn toggle(&self, kind: TaskKind, task_id: &str, chosen: bool) {
        self.0.update(|picks| {
            picks.retain(|pick| !pick.is(kind, task_id));
            if chosen {
                picks.push(TaskKey::new(kind, task_id));
                if picks.len() > 2 {
                    picks.remove(0);
                }
            }
        });
    }

    /// Whether the task is chosen.
    pub fn has(&self, kind: TaskKind, task_id: &str) -> bool {
        self.0
            .with(|picks| picks.iter().any(|pick| pick.is(kind, task_id)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_finished_safe_media_compare() {
        let mut record = TaskRecord::followed(TaskKind::ImageGenerate, "ig-1", 0.0);
        assert_eq!(media_of(&record), None);
        let task = |status, url: &str| {
            Some(AnyTask::ImageGenerate(media_gen_api::ImageGenerateTask {
                task_id: "ig-1".into(),
                status,
                image_url: url.into(),
                thumbnail_url: String::new(),
                error_message: String::new(),
                kept: None,
                not_kept: None,
            }))
        };
        record.task = task(TaskStatus::Succeeded, "https://x.io/a.png");
        assert_eq!(
            media_of(&record),
            Some(Media::Image("https://x.io/a.png".into()))
        );
        record.task = task(TaskStatus::Succeeded, "javascript:alert(1)");
        assert_eq!(media_of(&record), None);
        record.task = task(TaskStatus::Failed, "https://x.io/a.png");
        assert_eq!(media_of(&record), None);
    }
}
