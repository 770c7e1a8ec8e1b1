//! The library's requests and tasks: a submit written, a task's news
//! learnt, a person's pages listed, and their renames, removals (undone
//! within a minute), imports, export and forgetting. A person only ever
//! reaches their own rows: every statement names them.

use media_gen_api::library::{
    given_name, output_per_task, searched_text, Cursor, Imported, KnownTask, LibraryItem,
    LibraryPage, LibraryQuery, LibraryTask, Removed, RequestId, IMPORT_MAX, MANY_MAX, PAGE_MAX,
    UNDO_MS,
};
use media_gen_api::{AnyTask, Request, TaskKind, TaskStatus};

use super::database::{Cell, DbError, Rows, Statement};
use super::Library;

/// Milliseconds in a day.
pub const DAY_MS: u64 = 86_400_000;

/// A submit the service took, to write down.
#[derive(Debug, Clone, Copy)]
pub struct Submitted<'a> {
    /// Whose.
    pub person: &'a str,
    /// Its kind.
    pub kind: TaskKind,
    /// Its body as the person sent it.
    pub body: &'a [u8],
    /// The body as the contract reads it.
    pub request: &'a Request,
    /// The ids of the tasks it made.
    pub task_ids: &'a [String],
    /// When (milliseconds since 1970).
    pub now: u64,
}

/// A new request id: the time in milliseconds (48 bits), then 80
/// random bits, in lowercase hex. Ids made later sort after, so each
/// insert lands at the end of the indexes that hold them instead of on
/// a random page, and the random part keeps them unguessable.
fn new_id(now_ms: u64) -> Option<RequestId> {
    RequestId::parse(&new_id_text(now_ms)?)
}

/// A new id's text, as [`new_id`] makes it (a collection's too).
pub(super) fn new_id_text(now_ms: u64) -> Option<String> {
    let mut random = [0u8; 10];
    getrandom::fill(&mut random).ok()?;
    let mut id = format!("{:012x}", now_ms & 0xffff_ffff_ffff);
    for byte in random {
        id.push_str(&format!("{byte:02x}"));
    }
    Some(id)
}

/// A `LIKE` pattern that finds `word` anywhere, its `%`, `_` and `\`
/// taken as themselves.
fn containing(word: &str) -> String {
    let mut pattern = String::from("%");
    for c in word.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

/// The model a request is listed under (`model=`): an image-to-video
/// request's, or empty (a row read, never read again at start).
pub(super) fn model_of(request: Option<&Request>) -> String {
    match request {
        Some(Request::ImageToVideo(request)) => request
            .model
            .map(|model| model.to_string())
            .unwrap_or_default(),
        _ => String::new(),
    }
}

/// The columns of a listing, request first, then its task.
const LISTED: &str = "r.id, r.kind, r.created, r.name, r.body, r.starred, \
     t.task_id, t.status, t.task, t.updated";

/// The statement listing `person`'s requests as `query` asks (one more
/// than the page, to know whether another follows), or the one request
/// `only`.
fn listing(person: &str, query: &LibraryQuery, only: Option<&RequestId>) -> Statement {
    let mut statement = Statement::new("").text(person);
    let mut filters = String::new();
    if let Some(id) = only {
        filters.push_str(&format!(" AND id = {}", statement.next_placeholder()));
        statement = statement.text(id.as_str());
    }
    if let Some(kind) = query.kind {
        filters.push_str(&format!(" AND kind = {}", statement.next_placeholder()));
        statement = statement.text(kind.as_str());
    }
    if let Some(cursor) = &query.cursor {
        let created = statement.next_placeholder();
        statement = statement.int(cursor.created);
        let id = statement.next_placeholder();
        statement = statement.text(cursor.request.as_str());
        filters.push_str(&format!(" AND (created, id) < ({created}, {id})"));
    }
    for word in &query.words {
        filters.push_str(&format!(
            " AND words LIKE {} ESCAPE '\\'",
            statement.next_placeholder()
        ));
        statement = statement.text(containing(word));
    }
    if let Some(status) = &query.status {
        filters.push_str(&format!(
            " AND EXISTS (SELECT 1 FROM library_tasks s WHERE s.request = library_requests.id AND s.status = {})",
            statement.next_placeholder()
        ));
        statement = statement.text(status.as_str());
    }
    if query.starred {
        filters.push_str(" AND starred = 1");
    }
    // A collection's requests are found from the collection (its few
    // rows first: `CROSS JOIN` keeps that order in SQLite), never by a
    // scan of the person's whole library.
    let mut from = "library_requests".to_owned();
    if let Some(collection) = &query.collection {
        from = "library_collected c CROSS JOIN library_requests".to_owned();
        filters.push_str(&format!(
            " AND c.collection = {} AND c.request = library_requests.id \
             AND EXISTS (SELECT 1 FROM library_collections o WHERE o.id = c.collection AND o.person = $1)",
            statement.next_placeholder()
        ));
        statement = statement.text(collection.as_str());
    }
    if let Some(model) = query.model {
        filters.push_str(&format!(" AND model = {}", statement.next_placeholder()));
        statement = statement.text(model.as_str());
    }
    if let Some(from) = &query.from {
        filters.push_str(&format!(" AND created >= {}", statement.next_placeholder()));
        statement = statement.int(from.start());
    }
    if let Some(to) = &query.to {
        filters.push_str(&format!(" AND created < {}", statement.next_placeholder()));
        statement = statement.int(to.end());
    }
    if query.kept {
        // A task's `kept` is an object of its copies where there are any
        // (`null` or absent otherwise), as the gateway writes it.
        filters.push_str(
            " AND EXISTS (SELECT 1 FROM library_tasks k WHERE k.request = library_requests.id \
             AND k.task LIKE '%\"kept\":{\"%')",
        );
    }
    let limit = statement.next_placeholder();
    statement = statement.int(query.limit.min(PAGE_MAX) + 1);
    statement.sql = format!(
        "SELECT {LISTED} FROM (SELECT id, kind, created, name, body, starred FROM {from} \
         WHERE person = $1 AND removed IS NULL{filters} \
         ORDER BY created DESC, id DESC LIMIT {limit}) r \
         JOIN library_tasks t ON t.request = r.id \
         ORDER BY r.created DESC, r.id DESC, t.position"
    );
    statement
}

/// The requests of a listing's rows, in order.
fn items(rows: Rows) -> Result<Vec<LibraryItem>, DbError> {
    let mut items: Vec<LibraryItem> = Vec::new();
    for row in rows {
        let [id, kind, created, name, body, starred, task_id, status, task, updated] = &row[..]
        else {
            continue;
        };
        let Some(request) = id.text().and_then(RequestId::parse) else {
            continue;
        };
        let task = LibraryTask {
            task_id: task_id.string(),
            status: TaskStatus::from(status.text().unwrap_or_default()),
            updated: updated.whole("library_tasks.updated")?,
            task: task.text().and_then(|text| serde_json::from_str(text).ok()),
        };
        match items.last_mut() {
            Some(last) if last.request == request => last.tasks.push(task),
            _ => {
                let Ok(kind) = kind.string().parse() else {
                    continue;
                };
                items.push(LibraryItem {
                    request,
                    kind,
                    created: created.whole("library_requests.created")?,
                    name: name.text().map(str::to_owned),
                    body: body
                        .text()
                        .and_then(|text| serde_json::from_str(text).ok())
                        .unwrap_or(serde_json::Value::Null),
                    tasks: vec![task],
                    starred: starred.whole::<i64>("library_requests.starred")? != 0,
                    collections: Vec::new(),
                });
            }
        }
    }
    Ok(items)
}

/// The statements deleting the requests `filter` picks (a condition on
/// `library_requests` of `$1`, which `bind` gives): their tasks, their
/// places in collections, then the requests.
pub(super) fn deleting(filter: &str, bind: impl Fn(Statement) -> Statement) -> Vec<Statement> {
    vec![
        bind(Statement::new(format!(
            "DELETE FROM library_tasks WHERE request IN (SELECT id FROM library_requests WHERE {filter})"
        ))),
        bind(Statement::new(format!(
            "DELETE FROM library_collected WHERE request IN (SELECT id FROM library_requests WHERE {filter})"
        ))),
        bind(Statement::new(format!(
            "DELETE FROM library_requests WHERE {filter}"
        ))),
    ]
}

/// The text of the first cell of the first row of the first statement's
/// answer, if any.
fn first_text(ran: &[Rows]) -> Option<String> {
    ran.first()
        .and_then(|rows| rows.first())
        .and_then(|row| row.first())
        .and_then(|cell| cell.text().map(str::to_owned))
}

/// The ids a statement's `RETURNING id` gave.
fn returned_ids(rows: &Rows) -> Vec<RequestId> {
    rows.iter()
        .filter_map(|row| row.first().and_then(Cell::text).and_then(RequestId::parse))
        .collect()
}

/// One request to write, with its tasks (id, status, the task as read).
struct NewRequest<'a> {
    id: &'a RequestId,
    person: &'a str,
    kind: TaskKind,
    created: u64,
    body: &'a str,
    request: Option<&'a Request>,
    tasks: &'a [(String, TaskStatus, Option<String>)],
    now: u64,
    /// Written only if the library holds no task of this id (an import):
    /// its first statement then returns the request's id when written.
    unless_known: Option<&'a str>,
}

/// The statements writing one request and its tasks.
fn request_rows(new: NewRequest<'_>) -> Vec<Statement> {
    let NewRequest {
        id,
        person,
        kind,
        created,
        body,
        request,
        tasks,
        now,
        unless_known,
    } = new;
    let name = request.and_then(given_name);
    let values = match unless_known {
        None => "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        Some(_) => {
            "SELECT $1, $2, $3, CAST($4 AS BIGINT), $5, $6, $7, $8 WHERE NOT EXISTS \
             (SELECT 1 FROM library_tasks WHERE kind = $3 AND task_id = $9) RETURNING id"
        }
    };
    let request_row = Statement::new(format!(
        "INSERT INTO library_requests (id, person, kind, created, name, words, body, model) {values}"
    ))
    .text(id.as_str())
    .text(person)
    .text(kind.as_str())
    .int(created)
    .maybe_text(name.clone())
    .text(searched_text(request, name.as_deref()))
    .text(body)
    .text(model_of(request));
    // Its task (whose conflict clause keeps a task already there) after it.
    let mut statements = vec![match unless_known {
        Some(task_id) => request_row.text(task_id),
        None => request_row,
    }];
    for (position, (task_id, status, task)) in tasks.iter().enumerate() {
        statements.push(
            Statement::new(
                "INSERT INTO library_tasks (kind, task_id, request, position, status, task, updated) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (kind, task_id) DO NOTHING",
            )
            .text(kind.as_str())
            .text(task_id.as_str())
            .text(id.as_str())
            .int(position)
            .text(status.as_str())
            .maybe_text(task.clone())
            .int(now),
        );
    }
    statements
}

impl Library {
    /// Write down a submit the service took (its request, its tasks as
    /// pending, and what it spent); the request's id.
    pub async fn record_submit(&self, submitted: Submitted<'_>) -> Result<RequestId, DbError> {
        let id = new_id(submitted.now).ok_or(DbError::NoRandomness)?;
        let body = std::str::from_utf8(submitted.body).unwrap_or("null");
        let tasks: Vec<_> = submitted
            .task_ids
            .iter()
            .map(|task_id| (task_id.clone(), TaskStatus::Pending, None))
            .collect();
        let mut statements = request_rows(NewRequest {
            id: &id,
            person: submitted.person,
            kind: submitted.kind,
            created: submitted.now,
            body,
            request: Some(submitted.request),
            tasks: &tasks,
            now: submitted.now,
            unless_known: None,
        });
        let each = output_per_task(submitted.request);
        let count = submitted.task_ids.len() as u64;
        statements.push(
            Statement::new(
                "INSERT INTO library_spent (person, day, kind, tasks, images, video_seconds) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (person, day, kind) DO UPDATE SET \
                 tasks = library_spent.tasks + excluded.tasks, \
                 images = library_spent.images + excluded.images, \
                 video_seconds = library_spent.video_seconds + excluded.video_seconds",
            )
            .text(submitted.person)
            .int(submitted.now / DAY_MS)
            .text(submitted.kind.as_str())
            .int(count)
            .int(each.images * count)
            .int(each.video_seconds * count),
        );
        self.write(statements).await?;
        Ok(id)
    }

    /// What a read or a callback said of `task`: its status and result,
    /// unless the library already holds it ended (an old read arriving
    /// late) or holds it as it is. Whose task it is, when the library
    /// holds it and it changed.
    pub async fn learn(&self, task: &AnyTask, now: u64) -> Result<Option<String>, DbError> {
        let (kind, task_id, status) = (task.kind(), task.task_id(), task.status());
        let tagged = serde_json::to_string(task).ok();
        let ran = self
            .write(vec![Statement::new(
                "UPDATE library_tasks SET status = $3, task = $4, updated = $5 \
                 WHERE kind = $1 AND task_id = $2 \
                 AND (status NOT IN ('SUCCEEDED', 'FAILED') OR $3 IN ('SUCCEEDED', 'FAILED')) \
                 AND (status <> $3 OR task IS NULL OR task <> $4) \
                 RETURNING (SELECT person FROM library_requests WHERE id = library_tasks.request)",
            )
            .text(kind.as_str())
            .text(task_id)
            .text(status.as_str())
            .maybe_text(tagged)
            .int(now)])
            .await?;
        Ok(first_text(&ran))
    }

    /// Who submitted task `task_id` of `kind`, when the library holds it:
    /// whose budgets its kept results count against, whoever reads it.
    pub async fn submitter(
        &self,
        kind: TaskKind,
        task_id: &str,
    ) -> Result<Option<String>, DbError> {
        let rows = self
            .db()
            .run(vec![Statement::new(
                "SELECT r.person FROM library_tasks t \
                 JOIN library_requests r ON r.id = t.request \
                 WHERE t.kind = $1 AND t.task_id = $2",
            )
            .text(kind.as_str())
            .text(task_id)])
            .await?;
        Ok(first_text(&rows))
    }

    /// A page of `person`'s library, as `query` asks.
    pub async fn list(&self, person: &str, query: &LibraryQuery) -> Result<LibraryPage, DbError> {
        let rows = self
            .db()
            .run(vec![listing(person, query, None)])
            .await?
            .pop()
            .unwrap_or_default();
        let mut items = items(rows)?;
        let limit = query.limit.min(PAGE_MAX) as usize;
        let next = (items.len() > limit).then(|| {
            items.truncate(limit);
            items.last().map(|last| Cursor::after(last).to_text())
        });
        self.with_collections(&mut items).await?;
        Ok(LibraryPage {
            items,
            next: next.flatten(),
        })
    }

    /// `person`'s request `id`, when it is theirs and not removed.
    pub async fn get(&self, person: &str, id: &RequestId) -> Result<Option<LibraryItem>, DbError> {
        Ok(self.get_many(person, std::slice::from_ref(id)).await?.pop())
    }

    /// Those of `person`'s requests `ids` that are theirs and not removed,
    /// in the order asked, read in one trip to the database.
    pub async fn get_many(
        &self,
        person: &str,
        ids: &[RequestId],
    ) -> Result<Vec<LibraryItem>, DbError> {
        let query = LibraryQuery {
            limit: 1,
            ..LibraryQuery::default()
        };
        let statements = ids
            .iter()
            .map(|id| listing(person, &query, Some(id)))
            .collect();
        // Each statement's rows are one request's, so together they read
        // as a listing of them all.
        let rows = self
            .db()
            .run(statements)
            .await?
            .into_iter()
            .flatten()
            .collect();
        let mut items = items(rows)?;
        self.with_collections(&mut items).await?;
        Ok(items)
    }

    /// Name `person`'s request `id` (a name already checked); whether it
    /// is theirs. What a search looks in is written again with the name.
    pub async fn rename(&self, person: &str, id: &RequestId, name: &str) -> Result<bool, DbError> {
        let found = self
            .db()
            .run(vec![Statement::new(
                "SELECT kind, body FROM library_requests WHERE person = $1 AND id = $2 AND removed IS NULL",
            )
            .text(person)
            .text(id.as_str())])
            .await?
            .pop()
            .and_then(|mut rows| rows.pop());
        let Some([kind, body]) = found.as_deref() else {
            return Ok(false);
        };
        let request = kind
            .string()
            .parse()
            .ok()
            .zip(body.text().and_then(|body| serde_json::from_str(body).ok()))
            .and_then(|(kind, body)| Request::from_json(kind, body).ok());
        let renamed = self
            .db()
            .run(vec![Statement::new(
                "UPDATE library_requests SET name = $3, words = $4 \
                 WHERE person = $1 AND id = $2 AND removed IS NULL RETURNING id",
            )
            .text(person)
            .text(id.as_str())
            .text(name)
            .text(searched_text(request.as_ref(), Some(name)))])
            .await?;
        Ok(renamed.first().is_some_and(|rows| !rows.is_empty()))
    }

    /// Remove `person`'s requests `ids` (at most [`MANY_MAX`]; others'
    /// ids are left out of the answer); they can be restored for a minute.
    pub async fn remove(
        &self,
        person: &str,
        ids: &[RequestId],
        now: u64,
    ) -> Result<Removed, DbError> {
        let statements = ids
            .iter()
            .take(MANY_MAX)
            .map(|id| {
                Statement::new(
                    "UPDATE library_requests SET removed = $3 \
                     WHERE person = $1 AND id = $2 AND removed IS NULL RETURNING id",
                )
                .text(person)
                .text(id.as_str())
                .int(now)
            })
            .collect();
        let ran = self.db().run(statements).await?;
        Ok(Removed {
            requests: ran.iter().flat_map(returned_ids).collect(),
            undo_until: now + UNDO_MS,
        })
    }

    /// Bring back `person`'s requests `ids` removed within the last
    /// minute; those brought back.
    pub async fn restore(
        &self,
        person: &str,
        ids: &[RequestId],
        now: u64,
    ) -> Result<Vec<RequestId>, DbError> {
        let statements = ids
            .iter()
            .take(MANY_MAX)
            .map(|id| {
                Statement::new(
                    "UPDATE library_requests SET removed = NULL \
                     WHERE person = $1 AND id = $2 AND removed >= $3 RETURNING id",
                )
                .text(person)
                .text(id.as_str())
                .int(now.saturating_sub(UNDO_MS))
            })
            .collect();
        let ran = self.db().run(statements).await?;
        Ok(ran.iter().flat_map(returned_ids).collect())
    }

    /// Drop for good the requests removed more than a minute before `now`.
    pub async fn purge(&self, now: u64) -> Result<(), DbError> {
        let cut = now.saturating_sub(UNDO_MS);
        self.db()
            .run(deleting("removed < $1", |statement| statement.int(cut)))
            .await
            .map(drop)
    }

    /// Add the tasks a browser knows (at most [`IMPORT_MAX`]), each as a
    /// request of its own, unless the library already holds it.
    pub async fn import(
        &self,
        person: &str,
        tasks: &[KnownTask],
        now: u64,
    ) -> Result<Imported, DbError> {
        let mut statements = Vec::new();
        for known in tasks.iter().take(IMPORT_MAX) {
            let request = Request::from_json(known.kind, known.request.clone()).ok();
            let created = if known.submitted_at.is_finite() && known.submitted_at > 0.0 {
                known.submitted_at as u64
            } else {
                now
            };
            let Some(id) = new_id(created) else { break };
            let body = serde_json::to_string(&known.request).unwrap_or_else(|_| "null".into());
            let task = known.task.as_ref().map(ToString::to_string);
            statements.extend(request_rows(NewRequest {
                id: &id,
                person,
                kind: known.kind,
                created,
                body: &body,
                request: request.as_ref(),
                tasks: &[(known.task_id.clone(), known.status.clone(), task)],
                now,
                unless_known: Some(&known.task_id),
            }));
        }
        let ran = self.db().run(statements).await?;
        let added = ran
            .iter()
            .filter(|rows| rows.iter().any(|row| row.len() == 1))
            .count();
        Ok(Imported {
            added: u32::try_from(added).unwrap_or(u32::MAX),
        })
    }

    /// Every request of `person`'s, newest first, a page at a time, each
    /// handed to `each`; how many.
    pub async fn export(
        &self,
        person: &str,
        mut each: impl FnMut(&LibraryItem) -> std::io::Result<()>,
    ) -> Result<u64, ExportError> {
        let mut query = LibraryQuery {
            limit: PAGE_MAX,
            ..LibraryQuery::default()
        };
        let mut count = 0;
        loop {
            let page = self.list(person, &query).await?;
            for item in &page.items {
                each(item)?;
                count += 1;
            }
            match page.next.as_deref().and_then(Cursor::parse) {
                Some(cursor) => query.cursor = Some(cursor),
                None => return Ok(count),
            }
        }
    }
}

/// Why an export stopped.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The library failed a read.
    #[error("{0}")]
    Library(#[from] DbError),
    /// The output could not be written.
    #[error("{0}")]
    Write(#[from] std::io::Error),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_made_later_sort_after_and_differ_within_one_millisecond() {
        let first = new_id(1_780_000_000_000).unwrap();
        let same_time = new_id(1_780_000_000_000).unwrap();
        let later = new_id(1_780_000_000_001).unwrap();
        assert_eq!(first.as_str().len(), 32);
        assert!(first.as_str() < later.as_str() && same_time.as_str() < later.as_str());
        assert_ne!(first, same_time);
        assert!(first
            .as_str()
            .starts_with(&format!("{:012x}", 1_780_000_000_000u64)));
    }

    #[test]
    fn a_searched_word_is_found_as_written() {
        assert_eq!(containing("50%_off\\"), "%50\\%\\_off\\\\%");
    }

    #[test]
    fn a_listing_names_the_person_and_binds_every_filter() {
        let query = LibraryQuery::from_pairs([
            ("kind", "image_generate"),
            ("status", "FAILED"),
            ("q", "vermilion fox"),
            ("cursor", "17.abc"),
            ("limit", "5"),
            ("starred", "true"),
            ("collection", "c-1"),
            ("model", "KL"),
            ("from", "2026-12-01"),
            ("to", "2026-12-07"),
            ("kept", "true"),
        ])
        .unwrap();
        let statement = listing("ada", &query, None);
        assert!(statement.sql.contains("person = $1"));
        assert_eq!(statement.params.len(), 12, "{statement:?}");
        assert_eq!(
            statement.params.last(),
            Some(&super::super::database::Param::Int(Some(6)))
        );
        for value in ["vermilion", "c-1", "KL", "image_generate", "FAILED"] {
            assert!(
                !statement.sql.contains(value),
                "values are bound, not written: {value}"
            );
        }
    }
}
