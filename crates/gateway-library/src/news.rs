//! What a person's open pages hear when their requests change apart from
//! their tasks (a star, a collection): each task of each request changed,
//! as last known, told through the pages' news, which the server gives
//! ([`PagesNews`]). A page that hears of a task it holds, unchanged, reads
//! its request again, and so learns the change.

use std::sync::Arc;

use media_gen_api::library::{LibraryItem, RequestId};
use media_gen_api::{AnyTask, TaggedTask};

use super::database::BoxFuture;
use super::Library;

/// Where a person's open pages hear of their library.
pub trait PagesNews: Send + Sync {
    /// Tell `person`'s open pages of `tasks`, each as last known.
    fn tell<'a>(&'a self, person: &'a str, tasks: Vec<AnyTask>) -> BoxFuture<'a, ()>;
}

/// Each task of `item` as last known: as read, or as created before a
/// read.
fn tasks_of(item: &LibraryItem) -> impl Iterator<Item = AnyTask> + '_ {
    item.tasks.iter().map(|task| {
        task.task
            .clone()
            .and_then(|tagged| serde_json::from_value::<TaggedTask>(tagged).ok())
            .and_then(|tagged| tagged.read().ok())
            .unwrap_or_else(|| AnyTask::created(item.kind, &task.task_id))
    })
}

impl Library {
    /// Tell the person's open pages through `news` from now on.
    pub fn tell_pages_with(&self, news: Arc<dyn PagesNews>) {
        let _ = self.news.set(news);
    }

    /// Tell `person`'s open pages that their `requests` changed, in the
    /// background: the answer to the change waits for none of it.
    pub(crate) fn organised(self: &Arc<Self>, person: &str, requests: Vec<RequestId>) {
        let Some(news) = self.news.get().cloned() else {
            return;
        };
        if requests.is_empty() {
            return;
        }
        let (library, person) = (Arc::clone(self), person.to_owned());
        tokio::spawn(async move {
            let mut tasks = Vec::new();
            for id in &requests {
                match library.get(&person, id).await {
                    Ok(Some(item)) => tasks.extend(tasks_of(&item)),
                    Ok(None) => {}
                    Err(error) => {
                        tracing::warn!(%error, "a changed request could not be read to tell its pages");
                    }
                }
            }
            news.tell(&person, tasks).await;
        });
    }
}
