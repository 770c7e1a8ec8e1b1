//! Organising the board: requests chosen with their rows' boxes (Shift
//! for a range), a star on each, and what is done to those chosen: star,
//! put in a collection or take out of one, remove. Where the site keeps
//! the person's library the library holds stars and collections (every
//! device shows them); elsewhere this browser does, on its records.

use leptos::prelude::*;
use media_gen_api::library::RequestId;
use media_gen_api::TaskKey;
use media_gen_ui::store::record::TaskRecord;

use super::requests::same_request;
use super::state::store;
use super::Board;

/// The requests chosen on the board, each by its row's first task.
#[derive(Debug, Clone, Copy)]
pub struct Selection {
    /// Those chosen, in the order chosen.
    pub chosen: RwSignal<Vec<TaskKey>>,
    /// The rows shown, in order: what a range and "select all shown" take.
    pub shown: StoredValue<Vec<TaskKey>>,
    /// The row chosen or let go last: where a Shift range starts.
    anchor: StoredValue<Option<TaskKey>>,
}

impl Selection {
    /// Nothing chosen; provided as context for the rows.
    pub fn provide() -> Selection {
        let selection = Selection {
            chosen: RwSignal::new(Vec::new()),
            shown: StoredValue::new(Vec::new()),
            anchor: StoredValue::new(None),
        };
        provide_context(selection);
        selection
    }

    /// The selection of the board.
    pub fn expect() -> Selection {
        expect_context()
    }

    /// Whether `row` is chosen (tracked).
    pub fn has(self, row: &TaskKey) -> bool {
        self.chosen.with(|chosen| chosen.contains(row))
    }

    /// Choose `row` or let it go; with `range`, every row shown between
    /// the last one chosen or let go and this one goes the same way.
    pub fn choose(self, row: &TaskKey, on: bool, range: bool) {
        let rows = match self.anchor.get_value().filter(|_| range) {
            Some(anchor) => self
                .shown
                .with_value(|shown| between(shown, &anchor, row).to_vec()),
            None => vec![row.clone()],
        };
        self.anchor.set_value(Some(row.clone()));
        self.chosen.update(|chosen| {
            chosen.retain(|key| !rows.contains(key));
            if on {
                chosen.extend(rows);
            }
        });
    }

    /// Choose every row shown.
    pub fn all_shown(self) {
        let shown = self.shown.get_value();
        self.chosen.update(|chosen| {
            for row in shown {
                if !chosen.contains(&row) {
                    chosen.push(row);
                }
            }
        });
    }

    /// Let every row go.
    pub fn clear(self) {
        self.chosen.set(Vec::new());
        self.anchor.set_value(None);
    }
}

/// The rows of `shown` from `a` to `b`, both included, in either order;
/// only `b` when `a` is no longer shown.
fn between<'a>(shown: &'a [TaskKey], a: &TaskKey, b: &TaskKey) -> &'a [TaskKey] {
    let at = |key: &TaskKey| shown.iter().position(|row| row == key);
    match (at(a), at(b)) {
        (Some(a), Some(b)) => &shown[a.min(b)..=a.max(b)],
        (_, Some(b)) => &shown[b..=b],
        _ => &[],
    }
}

impl Board {
    /// Every task of the requests whose rows are `rows`.
    pub fn tasks_of(&self, rows: &[TaskKey]) -> Vec<TaskRecord> {
        self.records.with_untracked(|records| {
            let firsts: Vec<&TaskRecord> = rows
                .iter()
                .filter_map(|row| records.iter().find(|r| r.is(row.kind, &row.id)))
                .collect();
            records
                .iter()
                .filter(|record| firsts.iter().any(|first| same_request(first, record)))
                .cloned()
                .collect()
        })
    }

    /// Change every task of the requests `rows` with `change`, store those
    /// it changed, and return the library's ids of their requests.
    fn organise(&self, rows: &[TaskKey], change: impl Fn(&mut TaskRecord) -> bool) -> Vec<String> {
        let tasks: Vec<TaskKey> = self
            .tasks_of(rows)
            .iter()
            .map(TaskRecord::task_key)
            .collect();
        let mut changed = Vec::new();
        let mut library = Vec::new();
        self.records.update(|records| {
            for record in records.iter_mut() {
                if !tasks.iter().any(|task| record.is(task.kind, &task.id)) {
                    continue;
                }
                if change(record) {
                    changed.push(record.clone());
                }
                if let Some(id) = &record.library {
                    if !library.contains(id) {
                        library.push(id.clone());
                    }
                }
            }
        });
        for record in &changed {
            store(record, self.storage_problem);
        }
        library
    }

    /// Star the requests `rows`, or take their star off.
    pub fn star(&self, rows: &[TaskKey], starred: bool) {
        let library = self.organise(rows, |record| {
            std::mem::replace(&mut record.starred, starred) != starred
        });
        self.in_library(
            move |client, ids| async move { client.star(&ids, starred).await },
            library,
        );
    }

    /// Put the requests `rows` in the collection `collection`, or take
    /// them out of it (`add` false).
    pub fn collect(&self, rows: &[TaskKey], collection: &str, add: bool) {
        let library = self.collected_here(rows, collection, add);
        let collection = collection.to_owned();
        self.in_library(
            move |client, ids| async move {
                if add {
                    client.collect(&collection, &ids).await
                } else {
                    client.take_out(&collection, &ids).await
                }
            },
            library,
        );
    }

    /// Put the requests `rows` in the collection `collection` (or take
    /// them out) on this board only, where the library already has them
    /// so; the library's ids of their requests.
    pub fn collected_here(&self, rows: &[TaskKey], collection: &str, add: bool) -> Vec<String> {
        self.organise(rows, |record| {
            let held = record.collections.iter().any(|c| c == collection);
            match (held, add) {
                (false, true) => record.collections.push(collection.to_owned()),
                (true, false) => record.collections.retain(|c| c != collection),
                _ => return false,
            }
            true
        })
    }

    /// The library's ids of the requests `rows`, each once.
    pub fn library_ids(&self, rows: &[TaskKey]) -> Vec<RequestId> {
        let mut ids: Vec<RequestId> = Vec::new();
        for record in self.tasks_of(rows) {
            let id = record.library.as_deref().and_then(RequestId::parse);
            if let Some(id) = id.filter(|id| !ids.contains(id)) {
                ids.push(id);
            }
        }
        ids
    }

    /// Forget the collection `collection` on every task that names it
    /// (it was removed).
    pub fn forget_collection(&self, collection: &str) {
        let rows: Vec<TaskKey> = self.records.with_untracked(|records| {
            records
                .iter()
                .filter(|r| r.collections.iter().any(|c| c == collection))
                .map(TaskRecord::task_key)
                .collect()
        });
        self.organise(&rows, |record| {
            let before = record.collections.len();
            record.collections.retain(|c| c != collection);
            record.collections.len() != before
        });
    }

    /// Remove the requests `rows`, every task of each (one "Undo").
    pub fn remove_requests(&self, rows: &[TaskKey]) {
        let tasks: Vec<TaskKey> = self
            .tasks_of(rows)
            .iter()
            .map(TaskRecord::task_key)
            .collect();
        self.remove_tasks(&tasks);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use media_gen_api::TaskKind;

    fn key(id: &str) -> TaskKey {
        TaskKey::new(TaskKind::ImageGenerate, id)
    }

    #[test]
    fn a_range_runs_between_two_rows_either_way() {
        let shown: Vec<TaskKey> = ["a", "b", "c", "d"].into_iter().map(key).collect();
        let ids = |rows: &[TaskKey]| rows.iter().map(|r| r.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(between(&shown, &key("b"), &key("d"))), ["b", "c", "d"]);
        assert_eq!(
            ids(between(&shown, &key("d"), &key("a"))),
            ["a", "b", "c", "d"]
        );
        assert_eq!(ids(between(&shown, &key("c"), &key("c"))), ["c"]);
        assert_eq!(ids(between(&shown, &key("gone"), &key("b"))), ["b"]);
        assert!(between(&shown, &key("a"), &key("gone")).is_empty());
    }
}
