//! Tasks held, bounded: past the cap the oldest finished tasks go.

use std::collections::{HashMap, VecDeque};

use super::lifecycle::{Outcome, Schedule};
use crate::{AspectRatio, ImageQuality, ImageRatio, Resolution, TaskKind};

/// What a task needs to report its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Detail {
    /// A video of this shape and length.
    ImageToVideo {
        /// The requested aspect ratio (16:9 when not given).
        aspect: AspectRatio,
        /// The requested resolution.
        resolution: Resolution,
        /// The requested length in seconds.
        duration: i64,
    },
    /// A translation into one language.
    VideoTranslate {
        /// The target language.
        language: String,
        /// The video's name by the naming rule.
        name: String,
        /// Whether subtitles were requested.
        caption: bool,
    },
    /// One image of this quality and ratio.
    ImageGenerate {
        /// The image quality.
        quality: ImageQuality,
        /// The image ratio.
        ratio: ImageRatio,
    },
}

impl Detail {
    /// The kind of task this detail belongs to.
    pub fn kind(&self) -> TaskKind {
        match self {
            Detail::ImageToVideo { .. } => TaskKind::ImageToVideo,
            Detail::VideoTranslate { .. } => TaskKind::VideoTranslate,
            Detail::ImageGenerate { .. } => TaskKind::ImageGenerate,
        }
    }
}

/// One task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    /// The task's id.
    pub id: String,
    /// When it starts and ends.
    pub schedule: Schedule,
    /// How it ends.
    pub outcome: Outcome,
    /// The service's address as the submitter saw it, for result URLs.
    pub base_url: String,
    /// What it makes.
    pub detail: Detail,
    /// Where its callback goes, when the submit gave one.
    pub callback_url: Option<String>,
}

/// Every task, by id, with insertion order for eviction.
#[derive(Debug, Clone)]
pub struct Store {
    tasks: HashMap<String, Task>,
    order: VecDeque<String>,
    cap: usize,
}

impl Store {
    /// An empty store holding at most `cap` tasks (at least one).
    pub fn new(cap: usize) -> Self {
        Store {
            tasks: HashMap::new(),
            order: VecDeque::new(),
            cap: cap.max(1),
        }
    }

    /// Add a task. Past the cap, the oldest tasks are removed once they have
    /// ended by `now`. Eviction stops at the oldest unfinished task, so nothing
    /// a client is waiting for disappears; since tasks end in about the order
    /// they start, the store stays within the cap plus the tasks submitted
    /// during one task's lifetime, and each insert costs O(1) amortised.
    pub fn insert(&mut self, task: Task, now: u64) {
        self.order.push_back(task.id.clone());
        self.tasks.insert(task.id.clone(), task);
        while self.tasks.len() > self.cap {
            let oldest_ended = self
                .order
                .front()
                .and_then(|id| self.tasks.get(id))
                .is_none_or(|task| task.schedule.has_ended(now));
            if !oldest_ended {
                break;
            }
            if let Some(id) = self.order.pop_front() {
                self.tasks.remove(&id);
            }
        }
    }

    /// The task with this id, if it is of `kind`.
    pub fn get(&self, kind: TaskKind, id: &str) -> Option<&Task> {
        self.tasks.get(id).filter(|task| task.detail.kind() == kind)
    }

    /// The task with this id, to change, if it is of `kind`.
    pub fn get_mut(&mut self, kind: TaskKind, id: &str) -> Option<&mut Task> {
        self.tasks
            .get_mut(id)
            .filter(|task| task.detail.kind() == kind)
    }

    /// How many tasks are held.
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Whether no task is held.
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// Every task held, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &Task> {
        self.order.iter().filter_map(|id| self.tasks.get(id))
    }

    /// Forget every task.
    pub fn clear(&mut self) {
        self.tasks.clear();
        self.order.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::lifecycle::Timing;

    fn task(id: &str, now: u64, millis: u64) -> Task {
        let timing = Timing {
            typical_ms: millis,
            spread: 0.0,
        };
        Task {
            id: id.into(),
            schedule: Schedule::new(now, timing, 0.0),
            outcome: Outcome::Success,
            base_url: String::new(),
            detail: Detail::ImageGenerate {
                quality: ImageQuality::K1,
                ratio: ImageRatio::R1x1,
            },
            callback_url: None,
        }
    }

    #[test]
    fn finds_tasks_by_id_and_kind() {
        let mut store = Store::new(10);
        store.insert(task("i2is-1", 0, 0), 0);
        assert!(store.get(TaskKind::ImageGenerate, "i2is-1").is_some());
        assert!(store.get(TaskKind::ImageToVideo, "i2is-1").is_none());
        assert!(store.get(TaskKind::ImageGenerate, "i2is-2").is_none());
    }

    #[test]
    fn past_the_cap_the_oldest_finished_go() {
        let mut store = Store::new(2);
        for id in ["done-1", "done-2", "done-3"] {
            store.insert(task(id, 0, 0), 0);
        }
        assert_eq!(store.len(), 2);
        assert!(store.get(TaskKind::ImageGenerate, "done-1").is_none());
        assert!(store.get(TaskKind::ImageGenerate, "done-3").is_some());
    }

    #[test]
    fn unfinished_tasks_are_kept_until_they_end() {
        let mut store = Store::new(1);
        store.insert(task("running", 0, 1_000), 0);
        store.insert(task("done", 0, 0), 0);
        assert_eq!(store.len(), 2, "the oldest is still running");
        store.insert(task("next", 2_000, 0), 2_000);
        assert_eq!(store.len(), 1);
        assert!(store.get(TaskKind::ImageGenerate, "next").is_some());
    }
}
