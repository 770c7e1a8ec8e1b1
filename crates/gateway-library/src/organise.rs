//! Organising a person's library in its database: a star on a request
//! (`library_requests.starred`), named collections (`library_collections`,
//! the requests each holds in `library_collected`) and settings saved by
//! name (`library_presets`). A person reaches only their own: another's
//! request or collection is left out, as a guessed id is.

use media_gen_api::library::{LibraryItem, RequestId};
use media_gen_api::organise::{Collection, CollectionId, Preset, COLLECTIONS_MAX, PRESETS_MAX};
use media_gen_api::{Request, TaskKind};

use super::database::{Cell, DbError, Rows, Statement};
use super::Library;

/// What a change to the person's collections or settings found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Changed<T> {
    /// Done.
    Done(T),
    /// No such collection of theirs (404).
    Unknown,
    /// Past the most a person keeps (the bound, for the refusal).
    Full(usize),
}

impl<T> Changed<T> {
    /// What was done, made into `U`; the refusals as they were.
    pub fn map<U>(self, done: impl FnOnce(T) -> U) -> Changed<U> {
        match self {
            Changed::Done(value) => Changed::Done(done(value)),
            Changed::Unknown => Changed::Unknown,
            Changed::Full(bound) => Changed::Full(bound),
        }
    }
}

/// The ids of the rows' first cells.
fn request_ids(rows: &Rows) -> Vec<RequestId> {
    rows.iter()
        .filter_map(|row| row.first().and_then(Cell::text).and_then(RequestId::parse))
        .collect()
}

/// A new collection's id: as a request's, time first.
fn new_collection_id(now: u64) -> Option<CollectionId> {
    CollectionId::parse(&super::items::new_id_text(now)?)
}

impl Library {
    /// Star or unstar `person`'s requests `ids`; those changed.
    pub async fn star(
        &self,
        person: &str,
        ids: &[RequestId],
        starred: bool,
    ) -> Result<Vec<RequestId>, DbError> {
        let statements = ids
            .iter()
            .map(|id| {
                Statement::new(
                    "UPDATE library_requests SET starred = $3 \
                     WHERE person = $1 AND id = $2 AND removed IS NULL RETURNING id",
                )
                .text(person)
                .text(id.as_str())
                .int(i64::from(starred))
            })
            .collect();
        let ran = self.db().run(statements).await?;
        Ok(ran.iter().flat_map(request_ids).collect())
    }

    /// `person`'s collections, newest first, each with how many requests
    /// of the library it holds.
    pub async fn collections(&self, person: &str) -> Result<Vec<Collection>, DbError> {
        let rows = self
            .db()
            .run(vec![Statement::new(
                "SELECT o.id, o.name, o.created, \
                 (SELECT COUNT(*) FROM library_collected c JOIN library_requests r ON r.id = c.request \
                  WHERE c.collection = o.id AND r.removed IS NULL) \
                 FROM library_collections o WHERE o.person = $1 ORDER BY o.created DESC, o.id DESC",
            )
            .text(person)])
            .await?
            .pop()
            .unwrap_or_default();
        rows.iter()
            .filter_map(|row| {
                let [id, name, created, requests] = &row[..] else {
                    return None;
                };
                let id = id.text().and_then(CollectionId::parse)?;
                Some(Ok(Collection {
                    id,
                    name: name.string(),
                    created: match created.whole("library_collections.created") {
                        Ok(created) => created,
                        Err(error) => return Some(Err(error)),
                    },
                    requests: requests.whole("library_collected count").unwrap_or(0),
                }))
            })
            .collect()
    }

    /// A new collection of `person`'s named `name` (already checked), with
    /// `requests` of theirs in it.
    pub async fn add_collection(
        &self,
        person: &str,
        name: &str,
        requests: &[RequestId],
        now: u64,
    ) -> Result<Changed<Collection>, DbError> {
        let count = self
            .db()
            .run(vec![Statement::new(
                "SELECT COUNT(*) FROM library_collections WHERE person = $1",
            )
            .text(person)])
            .await?
            .pop()
            .and_then(|rows| rows.into_iter().next())
            .and_then(|row| row.into_iter().next())
            .map_or(Ok(0), |cell| {
                cell.whole::<usize>("library_collections count")
            })?;
        if count >= COLLECTIONS_MAX {
            return Ok(Changed::Full(COLLECTIONS_MAX));
        }
        let id = new_collection_id(now).ok_or(DbError::NoRandomness)?;
        let mut statements = vec![Statement::new(
            "INSERT INTO library_collections (id, person, name, created) VALUES ($1, $2, $3, $4)",
        )
        .text(id.as_str())
        .text(person)
        .text(name)
        .int(now)];
        statements.extend(collecting(person, &id, requests, now));
        let ran = self.db().run(statements).await?;
        Ok(Changed::Done(Collection {
            id,
            name: name.to_owned(),
            created: now,
            requests: ran.iter().skip(1).map(|rows| rows.len() as u64).sum(),
        }))
    }

    /// Rename `person`'s collection `id` (a name already checked); the
    /// requests it holds, whose pages show its name.
    pub async fn rename_collection(
        &self,
        person: &str,
        id: &CollectionId,
        name: &str,
    ) -> Result<Changed<Vec<RequestId>>, DbError> {
        let ran = self
            .db()
            .run(vec![
                Statement::new(
                    "UPDATE library_collections SET name = $3 WHERE person = $1 AND id = $2 \
                     RETURNING id",
                )
                .text(person)
                .text(id.as_str())
                .text(name),
                Statement::new(
                    "SELECT request FROM library_collected WHERE collection = $2 AND collection IN \
                     (SELECT id FROM library_collections WHERE person = $1)",
                )
                .text(person)
                .text(id.as_str()),
            ])
            .await?;
        Ok(found(&ran[..1]).map(|()| ran.get(1).map(request_ids).unwrap_or_default()))
    }

    /// Remove `person`'s collection `id`; its requests stay in the library
    /// and are answered, as they left it.
    pub async fn remove_collection(
        &self,
        person: &str,
        id: &CollectionId,
    ) -> Result<Changed<Vec<RequestId>>, DbError> {
        let ran = self
            .db()
            .run(vec![
                Statement::new(
                    "DELETE FROM library_collected WHERE collection = $2 AND collection IN \
                     (SELECT id FROM library_collections WHERE person = $1) RETURNING request",
                )
                .text(person)
                .text(id.as_str()),
                Statement::new(
                    "DELETE FROM library_collections WHERE person = $1 AND id = $2 RETURNING id",
                )
                .text(person)
                .text(id.as_str()),
            ])
            .await?;
        Ok(found(&ran[1..]).map(|()| ran.first().map(request_ids).unwrap_or_default()))
    }

    /// Put `person`'s `requests` in their collection `id` (each once), or
    /// take them out; the requests changed.
    pub async fn collect(
        &self,
        person: &str,
        id: &CollectionId,
        requests: &[RequestId],
        add: bool,
        now: u64,
    ) -> Result<Changed<Vec<RequestId>>, DbError> {
        let owned = self
            .db()
            .run(vec![Statement::new(
                "SELECT id FROM library_collections WHERE person = $1 AND id = $2",
            )
            .text(person)
            .text(id.as_str())])
            .await?;
        if owned.first().is_none_or(Vec::is_empty) {
            return Ok(Changed::Unknown);
        }
        let statements = if add {
            collecting(person, id, requests, now)
        } else {
            requests
                .iter()
                .map(|request| {
                    Statement::new(
                        "DELETE FROM library_collected WHERE collection = $1 AND request = $2 \
                         RETURNING request",
                    )
                    .text(id.as_str())
                    .text(request.as_str())
                })
                .collect()
        };
        let ran = self.db().run(statements).await?;
        Ok(Changed::Done(ran.iter().flat_map(request_ids).collect()))
    }

    /// Each of `items` with the collections it is in.
    pub(crate) async fn with_collections(&self, items: &mut [LibraryItem]) -> Result<(), DbError> {
        if items.is_empty() {
            return Ok(());
        }
        let mut statement = Statement::new("");
        let mut places = Vec::with_capacity(items.len());
        for item in items.iter() {
            places.push(statement.next_placeholder());
            statement = statement.text(item.request.as_str());
        }
        statement.sql = format!(
            "SELECT request, collection FROM library_collected WHERE request IN ({}) \
             ORDER BY added, collection",
            places.join(", ")
        );
        let rows = self
            .db()
            .run(vec![statement])
            .await?
            .pop()
            .unwrap_or_default();
        for row in rows {
            let [request, collection] = &row[..] else {
                continue;
            };
            let (Some(request), Some(collection)) = (
                request.text().and_then(RequestId::parse),
                collection.text().and_then(CollectionId::parse),
            ) else {
                continue;
            };
            if let Some(item) = items.iter_mut().find(|item| item.request == request) {
                item.collections.push(collection);
            }
        }
        Ok(())
    }

    /// `person`'s saved settings, by kind and name.
    pub async fn presets(&self, person: &str) -> Result<Vec<Preset>, DbError> {
        let rows = self
            .db()
            .run(vec![Statement::new(
                "SELECT kind, name, body, updated FROM library_presets WHERE person = $1 \
                 ORDER BY kind, name",
            )
            .text(person)])
            .await?
            .pop()
            .unwrap_or_default();
        let mut presets = Vec::with_capacity(rows.len());
        for row in rows {
            let [kind, name, body, updated] = &row[..] else {
                continue;
            };
            let (Ok(kind), Some(Ok(serde_json::Value::Object(body)))) = (
                kind.string().parse::<TaskKind>(),
                body.text().map(serde_json::from_str::<serde_json::Value>),
            ) else {
                continue;
            };
            presets.push(Preset {
                kind,
                name: name.string(),
                body,
                updated: updated.whole("library_presets.updated")?,
            });
        }
        Ok(presets)
    }

    /// Save `preset` (already checked) for `person`, replacing one of the
    /// same kind and name.
    pub async fn save_preset(
        &self,
        person: &str,
        preset: &Preset,
        now: u64,
    ) -> Result<Changed<()>, DbError> {
        let body = serde_json::to_string(&preset.body).unwrap_or_else(|_| "{}".to_owned());
        let ran = self
            .db()
            .run(vec![Statement::new(
                "INSERT INTO library_presets (person, kind, name, body, updated) \
                 SELECT $1, $2, $3, $4, CAST($5 AS BIGINT) WHERE \
                 (SELECT COUNT(*) FROM library_presets WHERE person = $1) < $6 \
                 OR EXISTS (SELECT 1 FROM library_presets WHERE person = $1 AND kind = $2 AND name = $3) \
                 ON CONFLICT (person, kind, name) DO UPDATE SET body = excluded.body, updated = excluded.updated \
                 RETURNING name",
            )
            .text(person)
            .text(preset.kind.as_str())
            .text(preset.name.as_str())
            .text(body)
            .int(now)
            .int(PRESETS_MAX as i64)])
            .await?;
        // No row written: the person keeps the most settings already.
        Ok(match found(&ran) {
            Changed::Done(()) => Changed::Done(()),
            _ => Changed::Full(PRESETS_MAX),
        })
    }

    /// Forget `person`'s settings `name` of `kind`.
    pub async fn remove_preset(
        &self,
        person: &str,
        kind: TaskKind,
        name: &str,
    ) -> Result<Changed<()>, DbError> {
        let ran = self
            .db()
            .run(vec![Statement::new(
                "DELETE FROM library_presets WHERE person = $1 AND kind = $2 AND name = $3 RETURNING name",
            )
            .text(person)
            .text(kind.as_str())
            .text(name)])
            .await?;
        Ok(found(&ran))
    }

    /// The model of each image-to-video request written before the
    /// library kept it, read from its body, a thousand at a time; once a
    /// row is read it is never read again (a request with none gets an
    /// empty one). How many were read.
    pub async fn fill_models(&self) -> Result<usize, DbError> {
        let mut filled = 0;
        loop {
            let rows = self
                .db()
                .run(vec![Statement::new(
                    "SELECT id, kind, body FROM library_requests WHERE model IS NULL LIMIT 1000",
                )])
                .await?
                .pop()
                .unwrap_or_default();
            if rows.is_empty() {
                return Ok(filled);
            }
            let statements = rows
                .iter()
                .filter_map(|row| {
                    let [id, kind, body] = &row[..] else {
                        return None;
                    };
                    let request = kind
                        .string()
                        .parse()
                        .ok()
                        .zip(body.text().and_then(|body| serde_json::from_str(body).ok()))
                        .and_then(|(kind, body)| Request::from_json(kind, body).ok());
                    Some(
                        Statement::new("UPDATE library_requests SET model = $2 WHERE id = $1")
                            .text(id.string())
                            .text(super::items::model_of(request.as_ref())),
                    )
                })
                .collect::<Vec<_>>();
            filled += statements.len();
            self.db().run(statements).await?;
        }
    }
}

/// Whether the last statement changed a row.
fn found(ran: &[Rows]) -> Changed<()> {
    if ran.last().is_some_and(|rows| !rows.is_empty()) {
        Changed::Done(())
    } else {
        Changed::Unknown
    }
}

/// The statements putting `person`'s `requests` in collection `id`: only
/// requests of theirs, each once.
fn collecting(person: &str, id: &CollectionId, requests: &[RequestId], now: u64) -> Vec<Statement> {
    requests
        .iter()
        .map(|request| {
            Statement::new(
                "INSERT INTO library_collected (collection, request, added) \
                 SELECT $1, id, CAST($4 AS BIGINT) FROM library_requests \
                 WHERE id = $2 AND person = $3 AND removed IS NULL \
                 ON CONFLICT (collection, request) DO NOTHING RETURNING request",
            )
            .text(id.as_str())
            .text(request.as_str())
            .text(person)
            .int(now)
        })
        .collect()
}
