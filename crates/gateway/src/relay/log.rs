//! The announcements, numbered: the last [`KEPT`] are kept so a stream
//! that reconnects with `Last-Event-ID` gets what it missed, and each new
//! one is broadcast to the open streams.

use std::collections::VecDeque;
use std::sync::Arc;

use media_gen_api::AnyTask;
use tokio::sync::broadcast;

/// How many announcements are kept for replay.
pub const KEPT: usize = 10_000;

/// One announcement: a task of a relayed submission has ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Announcement {
    /// Its number, counted from 1; the stream's event id.
    pub id: u64,
    /// The submission's capability: which streams hear it.
    pub capability: String,
    /// The task as it ended.
    pub task: AnyTask,
}

/// The kept announcements and the streams' channel.
#[derive(Debug)]
pub struct Log {
    kept: VecDeque<Arc<Announcement>>,
    next: u64,
    live: broadcast::Sender<Arc<Announcement>>,
}

impl Default for Log {
    fn default() -> Self {
        Log {
            kept: VecDeque::new(),
            next: 1,
            live: broadcast::channel(1024).0,
        }
    }
}

impl Log {
    /// Announce `task` of `capability` to the streams, and keep it.
    pub fn announce(&mut self, capability: &str, task: AnyTask) -> Arc<Announcement> {
        let announcement = Arc::new(Announcement {
            id: self.next,
            capability: capability.to_owned(),
            task,
        });
        self.next += 1;
        if self.kept.len() == KEPT {
            self.kept.pop_front();
        }
        self.kept.push_back(Arc::clone(&announcement));
        // No stream open is no error: the announcement is kept.
        let _ = self.live.send(Arc::clone(&announcement));
        announcement
    }

    /// The kept announcements after `id`, oldest first, and a receiver of
    /// those that follow: taken together, so none falls between them.
    pub fn subscribe(
        &self,
        after: u64,
    ) -> (
        Vec<Arc<Announcement>>,
        broadcast::Receiver<Arc<Announcement>>,
    ) {
        let missed = self
            .kept
            .iter()
            .filter(|announcement| announcement.id > after)
            .cloned()
            .collect();
        (missed, self.live.subscribe())
    }

    /// The id of the last announcement (0 before the first).
    pub fn last_id(&self) -> u64 {
        self.next - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use media_gen_api::{ImageGenerateTask, TaskStatus};

    fn task(id: &str) -> AnyTask {
        AnyTask::ImageGenerate(ImageGenerateTask {
            task_id: id.into(),
            status: TaskStatus::Succeeded,
            image_url: String::new(),
            thumbnail_url: String::new(),
            error_message: String::new(),
        })
    }

    #[test]
    fn replay_gives_what_came_after_the_last_id_then_the_live_ones() {
        let mut log = Log::default();
        log.announce("c", task("a"));
        log.announce("c", task("b"));
        let (missed, mut live) = log.subscribe(1);
        assert_eq!(missed.len(), 1);
        assert_eq!(missed[0].task.task_id(), "b");
        log.announce("c", task("c"));
        assert_eq!(live.try_recv().map(|a| a.id).ok(), Some(3));
        assert_eq!(log.last_id(), 3);
    }

    #[test]
    fn only_the_last_ones_are_kept() {
        let mut log = Log::default();
        for n in 0..KEPT + 5 {
            log.announce("c", task(&n.to_string()));
        }
        let (missed, _) = log.subscribe(0);
        assert_eq!(missed.len(), KEPT);
        assert_eq!(missed[0].id, 6);
    }
}
