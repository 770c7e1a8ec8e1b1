//! The access keys in the library's database (`access_keys`): the store
//! of record wherever a library is kept. Keys kept before in `keys.json`
//! or in Redis are moved in once, at start, and the move is recorded
//! (`moved_in`) so a key revoked later is not brought back.

use crate::access::keys::{KeyError, KeyRecord};

use super::database::{Cell, DbError, Rows, Statement};
use super::Library;

impl From<DbError> for KeyError {
    fn from(error: DbError) -> KeyError {
        KeyError::Library(error.to_string())
    }
}

fn records(rows: Rows) -> Result<Vec<KeyRecord>, DbError> {
    rows.into_iter()
        .filter_map(|row| {
            let [name, hash, created, tasks_per_day] = &row[..] else {
                return None;
            };
            let created = match created.whole("access_keys.created") {
                Ok(created) => created,
                Err(error) => return Some(Err(error)),
            };
            Some(Ok(KeyRecord {
                name: name.string(),
                hash: hash.string(),
                created,
                tasks_per_day: match tasks_per_day {
                    Cell::Int(n) => u32::try_from(*n).ok(),
                    _ => None,
                },
            }))
        })
        .collect()
}

fn insert(record: &KeyRecord) -> Statement {
    Statement::new(
        "INSERT INTO access_keys (name, hash, created, tasks_per_day) VALUES ($1, $2, $3, $4) \
         ON CONFLICT DO NOTHING RETURNING name",
    )
    .text(record.name.as_str())
    .text(record.hash.as_str())
    .int(record.created)
    .maybe_int(record.tasks_per_day.map(i64::from))
}

impl Library {
    /// Every key given.
    pub async fn keys(&self) -> Result<Vec<KeyRecord>, KeyError> {
        let rows = self
            .db()
            .run(vec![Statement::new(
                "SELECT name, hash, created, tasks_per_day FROM access_keys",
            )])
            .await?
            .pop()
            .unwrap_or_default();
        Ok(records(rows)?)
    }

    /// Keep `record`, unless its name already has a key.
    pub async fn add_key(&self, record: &KeyRecord) -> Result<(), KeyError> {
        // A person forgotten and given a key again is remembered anew.
        let unmark = Statement::new("DELETE FROM access_forgotten WHERE who = $1")
            .text(crate::access::forgotten::mark(&record.name));
        let added = self.db().run(vec![insert(record), unmark]).await?;
        if added.first().is_some_and(|rows| !rows.is_empty()) {
            Ok(())
        } else {
            Err(KeyError::Exists(record.name.clone()))
        }
    }

    /// Take `name`'s key back.
    pub async fn revoke_key(&self, name: &str) -> Result<(), KeyError> {
        let removed = self
            .db()
            .run(vec![Statement::new(
                "DELETE FROM access_keys WHERE name = $1 RETURNING name",
            )
            .text(name)])
            .await?;
        if removed.first().is_some_and(|rows| !rows.is_empty()) {
            Ok(())
        } else {
            Err(KeyError::Unknown(name.to_owned()))
        }
    }

    /// Move `keys` in from `source` (`keys.json`, a Redis), unless keys
    /// were moved from there before; how many were added (a name that
    /// already has a key here keeps it), or `None` when moved before.
    pub async fn move_keys_in(
        &self,
        source: &str,
        keys: &[KeyRecord],
        now: u64,
    ) -> Result<Option<usize>, KeyError> {
        // Each key only while `source` is not recorded, and the record
        // last: one transaction, so a crash moves all or none.
        let mut statements: Vec<Statement> = keys
            .iter()
            .map(|record| {
                Statement::new(
                    "INSERT INTO access_keys (name, hash, created, tasks_per_day) \
                     SELECT $1, $2, CAST($3 AS BIGINT), CAST($4 AS BIGINT) \
                     WHERE NOT EXISTS (SELECT 1 FROM moved_in WHERE source = $5) \
                     ON CONFLICT DO NOTHING RETURNING name",
                )
                .text(record.name.as_str())
                .text(record.hash.as_str())
                .int(record.created)
                .maybe_int(record.tasks_per_day.map(i64::from))
                .text(source)
            })
            .collect();
        statements.push(
            Statement::new(
                "INSERT INTO moved_in (source, at) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING source",
            )
            .text(source)
            .int(now),
        );
        let mut ran = self.db().run(statements).await?;
        let recorded = ran.pop().is_some_and(|rows| !rows.is_empty());
        if !recorded {
            return Ok(None);
        }
        Ok(Some(ran.iter().filter(|rows| !rows.is_empty()).count()))
    }
}
