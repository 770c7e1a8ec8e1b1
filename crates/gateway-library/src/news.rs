//! What a person's open pages hear when their requests change apart from
//! their tasks (a star, a collection): the first task of each request
//! changed, as last known, told through the pages' news, which the server
//! gives ([`PagesNews`]). A page that hears of a task it holds, unchanged,
//! reads its request again, and so learns the change for all its tasks:
//! one read per request, however many tasks it made.

use std::sync::Arc;

use media_gen_api::library::{LibraryItem, RequestId};
use media_gen_api::{AnyTask, TaggedTask};

use super::database::BoxFuture;
use super::Library;

/// How many changed requests are read in one trip to the database.
const READ_AT_ONCE: usize = 200;

/// Where a person's open pages hear of their library.
pub trait PagesNews: Send + Sync {
    /// Tell `person`'s open pages of `tasks`, each as last known.
    fn tell<'a>(&'a self, person: &'a str, tasks: Vec<AnyTask>) -> BoxFuture<'a, ()>;
}

/// The first task of `item` as last known: as read, or as created before
/// a read; none for a request that made no task.
fn first_task_of(item: &LibraryItem) -> Option<AnyTask> {
    let task = item.tasks.first()?;
    Some(
        task.task
            .clone()
            .and_then(|tagged| serde_json::from_value::<TaggedTask>(tagged).ok())
            .and_then(|tagged| tagged.read().ok())
            .unwrap_or_else(|| AnyTask::created(item.kind, &task.task_id)),
    )
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
            // A removed collection may have held thousands: read a few
            // hundred at a time, each lot in one trip.
            for lot in requests.chunks(READ_AT_ONCE) {
                match library.get_many(&person, lot).await {
                    Ok(items) => tasks.extend(items.iter().filter_map(first_task_of)),
                    Err(error) => {
                        tracing::warn!(%error, "changed requests could not be read to tell their pages");
                    }
                }
            }
            news.tell(&person, tasks).await;
        });
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use media_gen_api::{Request, TaskKind};

    use super::*;
    use crate::items::Submitted;
    use crate::LibraryAt;

    /// News kept instead of told: each person and the tasks told them.
    #[derive(Default)]
    struct Kept(Mutex<Vec<(String, Vec<AnyTask>)>>);

    impl PagesNews for Kept {
        fn tell<'a>(&'a self, person: &'a str, tasks: Vec<AnyTask>) -> BoxFuture<'a, ()> {
            self.0.lock().unwrap().push((person.to_owned(), tasks));
            Box::pin(async {})
        }
    }

    #[tokio::test]
    async fn a_changed_request_is_told_once_by_its_first_task_however_many_it_made() {
        let dir = tempfile::tempdir().unwrap();
        let library = Arc::new(Library::open(&LibraryAt::in_dir(dir.path())).await.unwrap());
        let kept = Arc::new(Kept::default());
        library.tell_pages_with(Arc::clone(&kept) as Arc<dyn PagesNews>);
        let body = br#"{"prompt":"a flock of geese","generate_count":3}"#;
        let request = Request::from_json(
            TaskKind::ImageGenerate,
            serde_json::from_slice(body).unwrap(),
        )
        .unwrap();
        let mut made = Vec::new();
        for (task_ids, now) in [(vec!["g1", "g2", "g3"], 1_000), (vec!["f1"], 2_000)] {
            let task_ids: Vec<String> = task_ids.into_iter().map(String::from).collect();
            let submitted = Submitted {
                person: "ada",
                kind: TaskKind::ImageGenerate,
                body,
                request: &request,
                task_ids: &task_ids,
                now,
            };
            made.push(library.record_submit(submitted).await.unwrap());
        }
        // One not in the library: skipped, the others still told.
        made.insert(1, RequestId::parse(&"0".repeat(32)).expect("an id's form"));
        library.organised("ada", made);
        let told = tokio::time::timeout(std::time::Duration::from_secs(10), async {
            loop {
                if let Some(told) = kept.0.lock().unwrap().first().cloned() {
                    break told;
                }
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
        })
        .await
        .expect("the news is told in the background, within seconds");
        let ids: Vec<&str> = told.1.iter().map(|task| task.task_id()).collect();
        assert_eq!(told.0, "ada");
        assert_eq!(ids, ["g1", "f1"], "one task per request, its first");
        assert!(told
            .1
            .iter()
            .all(|task| *task.status() == media_gen_api::TaskStatus::Pending));
    }
}
