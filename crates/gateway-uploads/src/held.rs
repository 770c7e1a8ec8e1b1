//! An upload a submitted task is made from is kept until that task ends
//! (as the relay hears, a status read shows, or the gateway's own read of
//! a task it hears of no other way finds: [`super::hold_watch`]) and then
//! `--upload-ttl` more, so the service never finds the file gone however
//! long the task waits; but never more than `--upload-hold-max` after the
//! last submit that named it. The submit names uploads by URL in its media fields (the
//! contract's `media_inputs`); only this gateway's own upload addresses
//! count.

use media_gen_api::{Request, TaskKey, TaskStatus};

use super::{FileId, Uploads, UPLOADS_PATH};
use crate::access::now_seconds;

pub use crate::record::held_task;

/// Every way `task` may be named in a record or a note of its holds: as
/// written now, and as records written before named it.
fn names_of(task: &TaskKey) -> [String; 2] {
    [
        task.to_string(),
        format!("{}/{}", task.kind.as_str(), task.id),
    ]
}

impl Uploads {
    /// The upload `url` names, if it is one of this gateway's (with or
    /// without a `/{name}` after it).
    fn upload_of(&self, url: &str) -> Option<FileId> {
        let prefix = format!(
            "{}{UPLOADS_PATH}",
            self.settings.public_url.trim_end_matches('/')
        );
        let rest = url.strip_prefix(&prefix)?;
        let id = rest.split(['/', '?', '#']).next()?;
        FileId::parse(id)
    }

    /// A submit asking `request` (as the contract read it, once) made the
    /// tasks `task_ids`: each upload it names is held until they end.
    pub async fn hold(&self, request: &Request, task_ids: &[String]) {
        let kind = request.kind();
        for input in request.media_inputs() {
            let Some(id) = self.upload_of(input.url) else {
                continue;
            };
            // An upload already past its time is not brought back: the
            // service finds it gone, as the task's failure will say.
            let names: Vec<String> = task_ids
                .iter()
                .map(|task_id| TaskKey::new(kind, task_id.as_str()).to_string())
                .collect();
            let now = now_seconds();
            let ceiling = super::ends_after(self.settings.hold_max);
            let held = self
                .store
                .update(&id, |upload| {
                    if !upload.expired_at(now) {
                        upload.held_by.extend(names.iter().cloned());
                        upload.held_until = upload.held_until.max(ceiling);
                    }
                })
                .await;
            let noted = async {
                for name in &names {
                    self.store.note_hold(name, &id).await?;
                }
                Ok(())
            };
            if let Err(error) = held.map(drop).and(noted.await) {
                tracing::warn!(error = %crate::observe::Scrubbed(&error), "an upload could not be held for its tasks");
            }
        }
    }

    /// `task` was read or heard of at `status`: when it has ended, the
    /// uploads it held are kept `--upload-ttl` from now, and then go.
    pub async fn seen(&self, task: &TaskKey, status: &TaskStatus) {
        self.watch.heard(task, tokio::time::Instant::now());
        if !status.is_terminal() {
            return;
        }
        let names = names_of(task);
        let mut held = Vec::new();
        for name in &names {
            match self.store.held_by(name).await {
                Ok(ids) => held.extend(ids),
                Err(error) => {
                    tracing::warn!(error = %crate::observe::Scrubbed(&error), "the uploads a task held could not be read");
                    return;
                }
            }
        }
        held.sort();
        held.dedup();
        for id in held {
            let let_go = self
                .store
                .update(&id, |upload| {
                    // Only an upload this task held (one past its time when
                    // the task was made is not brought back).
                    if upload.held_by.iter().any(|held| names.contains(held)) {
                        upload.held_by.retain(|held| !names.contains(held));
                        if upload.held_by.is_empty() {
                            upload.expires = upload.expires.max(self.settings.ends_from_now());
                        }
                    }
                })
                .await;
            if let Err(error) = let_go {
                tracing::warn!(error = %crate::observe::Scrubbed(&error), "an upload could not be let go by its task");
                return;
            }
        }
        for name in &names {
            if let Err(error) = self.store.forget_holds(name).await {
                tracing::warn!(error = %crate::observe::Scrubbed(&error), "a task's note of its uploads stays until it expires");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use media_gen_api::TaskKind;

    #[test]
    fn a_holding_task_reads_back_as_written_now_and_as_written_before() {
        let task = TaskKey::new(TaskKind::ImageToVideo, "t-1");
        let [now, before] = names_of(&task);
        assert_eq!(now, "image_to_video:t-1");
        assert_eq!(before, "image_to_video/t-1");
        assert_eq!(held_task(&now), Some(task.clone()));
        assert_eq!(held_task(&before), Some(task));
        for name in [
            "",
            "image_to_video",
            "image_to_video/",
            "nope/t-1",
            "nope:t-1",
        ] {
            assert_eq!(held_task(name), None, "{name:?}");
        }
    }
}
