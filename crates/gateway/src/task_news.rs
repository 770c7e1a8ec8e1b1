//! What a task's news leads to, written once, whoever brought it: a
//! status read the gateway forwarded, a relayed callback it confirmed, or
//! its own read of a task holding an upload. In one order: the uploads the
//! task held are let go once it ended; its results are kept once it
//! succeeded, as its submitter's, and the task says where; the person's
//! library learns it (and through it their open pages).

use std::time::Duration;

use media_gen_api::{AnyTask, TaskKey, TaskStatus};

use crate::access::Who;
use crate::Gateway;

/// Who brought the news.
#[derive(Debug, Clone, Copy)]
pub enum Heard<'a> {
    /// A status read the gateway forwarded for `reader`.
    Read {
        /// Who read it.
        reader: &'a Who,
    },
    /// A relayed callback, confirmed; its submitter as the relay kept it.
    Callback {
        /// Who submitted the task, when known.
        submitter: Option<&'a Who>,
    },
    /// The gateway's own read of a task that holds an upload.
    Watched,
}

/// Act on `task` as `heard` told it: see the module's order. `task` gains
/// where its results are kept, and why any is not.
pub async fn learnt(gateway: &Gateway, task: &mut AnyTask, heard: Heard<'_>) {
    let key = TaskKey::new(task.kind(), task.task_id());
    if let Some(uploads) = &gateway.uploads {
        uploads.seen(&key, task.status()).await;
    }
    if *task.status() == TaskStatus::Succeeded {
        if let Some(kept) = &gateway.kept {
            // The owner is looked up only when a file is to be fetched.
            match heard {
                Heard::Read { reader } => {
                    let owner = async || Some(owner_of(gateway, &key, reader).await);
                    crate::kept::keep(kept, task, owner, kept.settings.wait).await;
                }
                // The service waits on a callback's answer: half as long.
                Heard::Callback { submitter } => {
                    let owner = async || submitter.cloned();
                    crate::kept::keep(kept, task, owner, kept.settings.wait / 2).await;
                }
                // Nobody waits: the copies are made in the background.
                Heard::Watched => {
                    let owner = async || submitter_of(gateway, &key).await;
                    crate::kept::keep(kept, task, owner, Duration::ZERO).await;
                }
            }
        }
    }
    // A read by an address (open mode) names no one's library.
    let tells_library = match heard {
        Heard::Read { reader } => matches!(reader, Who::Person(_)),
        Heard::Callback { .. } | Heard::Watched => true,
    };
    if tells_library {
        crate::library_writes::learn_task(gateway, task).await;
    }
}

/// Whose kept results task `key`'s are: its submitter as the library holds
/// it, else `reader` (open mode, a gateway without a library, or a task
/// submitted elsewhere), so the first reader does not decide for the
/// person who asked for it.
async fn owner_of(gateway: &Gateway, key: &TaskKey, reader: &Who) -> Who {
    submitter_of(gateway, key)
        .await
        .unwrap_or_else(|| reader.clone())
}

/// Who submitted task `key`, when the library holds it.
async fn submitter_of(gateway: &Gateway, key: &TaskKey) -> Option<Who> {
    let library = gateway.library.as_ref()?;
    match library.submitter(key.kind, &key.id).await {
        Ok(person) => person.map(|person| Who::Person(person.into())),
        Err(error) => {
            tracing::warn!(error = %crate::observe::Scrubbed(&error), "the library could not say whose task it is");
            None
        }
    }
}

#[async_trait::async_trait]
impl crate::relay::TaskNews for Gateway {
    async fn read(
        &self,
        kind: media_gen_api::TaskKind,
        task_id: &str,
    ) -> Result<AnyTask, crate::refusal::Refusal> {
        self.read_task(kind, task_id).await
    }

    async fn ended(&self, task: &mut AnyTask, submitter: Option<&Who>) {
        learnt(self, task, Heard::Callback { submitter }).await;
    }
}
