//! The library in one SQLite file under `--data-dir`: write-ahead
//! logging (readers never wait for the writer), a busy timeout (a `keys`
//! command writing beside a running gateway waits instead of failing),
//! and one connection, so one writer. Calls run on tokio's blocking
//! threads.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, TransactionBehavior};

use super::database::{
    to_apply, BoxFuture, Cell, Database, DbError, Migration, Param, Rows, Statement,
    MIGRATIONS_TABLE,
};

/// How long a call waits for another process's write to end.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The library's SQLite file.
pub struct Sqlite {
    connection: Arc<Mutex<Connection>>,
    path: PathBuf,
}

impl Sqlite {
    /// Open (or create) the file at `path`, in WAL mode.
    pub fn open(path: &Path) -> Result<Sqlite, DbError> {
        let failed = |error: rusqlite::Error| DbError::Sqlite {
            path: path.display().to_string(),
            error: error.to_string(),
        };
        let connection = Connection::open(path).map_err(failed)?;
        connection.busy_timeout(BUSY_TIMEOUT).map_err(failed)?;
        // No checkpoint in a writer's commit: `checkpoint` copies the log
        // into the file from another connection, so no submit waits on
        // that copy and its flush to disk. What a delete frees is zeroed
        // (`secure_delete`): a forgotten person's prompts are not left in
        // free pages.
        connection
            .execute_batch(
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
                 PRAGMA wal_autocheckpoint = 0; PRAGMA secure_delete = ON;",
            )
            .map_err(failed)?;
        Ok(Sqlite {
            connection: Arc::new(Mutex::new(connection)),
            path: path.to_owned(),
        })
    }

    /// Run `work` on the connection, on a blocking thread.
    fn on_connection<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> BoxFuture<'_, Result<T, DbError>> {
        let connection = Arc::clone(&self.connection);
        let path = self.path.display().to_string();
        Box::pin(async move {
            let failed = |error: String| DbError::Sqlite {
                path: path.clone(),
                error,
            };
            tokio::task::spawn_blocking(move || {
                // A call that panicked while holding the lock left no
                // transaction open (rusqlite rolls back on drop).
                let mut connection = connection
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                work(&mut connection)
            })
            .await
            .map_err(|error| failed(error.to_string()))?
            .map_err(|error| failed(error.to_string()))
        })
    }
}

/// `$1` as SQLite spells a numbered parameter: `?1`.
fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('?');
        } else {
            out.push(c);
        }
    }
    out
}

fn value(param: Param) -> Value {
    match param {
        Param::Int(Some(number)) => Value::Integer(number),
        Param::Text(Some(text)) => Value::Text(text),
        Param::Int(None) | Param::Text(None) => Value::Null,
    }
}

fn cell(value: ValueRef<'_>) -> Cell {
    match value {
        ValueRef::Integer(number) => Cell::Int(number),
        ValueRef::Text(text) => Cell::Text(String::from_utf8_lossy(text).into_owned()),
        ValueRef::Real(number) => Cell::Int(number as i64),
        ValueRef::Null | ValueRef::Blob(_) => Cell::Null,
    }
}

impl Database for Sqlite {
    fn run(&self, statements: Vec<Statement>) -> BoxFuture<'_, Result<Vec<Rows>, DbError>> {
        // A write takes the lock first, so it waits out another process's
        // write (the busy timeout) instead of failing half way.
        let reads_only = statements
            .iter()
            .all(|statement| statement.sql.trim_start().starts_with("SELECT"));
        let behavior = if reads_only {
            TransactionBehavior::Deferred
        } else {
            TransactionBehavior::Immediate
        };
        self.on_connection(move |connection| {
            let transaction = connection.transaction_with_behavior(behavior)?;
            let mut all = Vec::with_capacity(statements.len());
            for statement in statements {
                let mut prepared = transaction.prepare_cached(&numbered(&statement.sql))?;
                let columns = prepared.column_count();
                let params = statement.params.into_iter().map(value);
                let mut rows = prepared.query(rusqlite::params_from_iter(params))?;
                let mut got = Vec::new();
                while let Some(row) = rows.next()? {
                    got.push(
                        (0..columns)
                            .map(|index| row.get_ref(index).map(cell))
                            .collect::<rusqlite::Result<Vec<Cell>>>()?,
                    );
                }
                all.push(got);
            }
            transaction.commit()?;
            Ok(all)
        })
    }

    fn migrate(
        &self,
        migrations: &'static [Migration],
    ) -> BoxFuture<'_, Result<Vec<&'static str>, DbError>> {
        let path = self.path.display().to_string();
        Box::pin(async move {
            let outcome = self
                .on_connection(move |connection| {
                    // Immediate: the write lock first, so two processes
                    // starting together apply each migration once.
                    let transaction =
                        connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
                    transaction.execute_batch(MIGRATIONS_TABLE)?;
                    let applied: Vec<i64> = transaction
                        .prepare("SELECT version FROM schema_migrations")?
                        .query_map([], |row| row.get(0))?
                        .collect::<rusqlite::Result<_>>()?;
                    let pending = match to_apply(&applied, migrations) {
                        Ok(pending) => pending,
                        Err(newer) => return Ok(Err(newer)),
                    };
                    let mut names = Vec::new();
                    for migration in pending {
                        transaction.execute_batch(migration.sql)?;
                        transaction.execute(
                            "INSERT INTO schema_migrations (version, name, applied) VALUES (?1, ?2, ?3)",
                            rusqlite::params![migration.version, migration.name, super::now_ms() as i64],
                        )?;
                        names.push(migration.name);
                    }
                    transaction.commit()?;
                    Ok(Ok(names))
                })
                .await;
            outcome.map_err(|error| match error {
                DbError::Sqlite { error, .. } => DbError::Sqlite { path, error },
                other => other,
            })?
        })
    }

    fn describe(&self) -> String {
        format!("sqlite {}", self.path.display())
    }

    fn scrub(&self) -> BoxFuture<'_, Result<(), DbError>> {
        let path = self.path.clone();
        Box::pin(async move {
            let shown = path.display().to_string();
            tokio::task::spawn_blocking(move || Sqlite::truncate_log(&path))
                .await
                .map_err(|error| error.to_string())
                .and_then(|scrubbed| scrubbed)
                .map_err(|error| DbError::Sqlite { path: shown, error })
        })
    }

    fn tidy(&self) -> BoxFuture<'_, Result<(), DbError>> {
        let path = self.path.clone();
        Box::pin(async move {
            let shown = path.display().to_string();
            let failed = |error: String| DbError::Sqlite {
                path: shown.clone(),
                error,
            };
            tokio::task::spawn_blocking(move || {
                let connection = Connection::open(&path)?;
                connection.busy_timeout(BUSY_TIMEOUT)?;
                // PASSIVE: as much of the log as no reader still needs,
                // without waiting for anyone.
                connection.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
            })
            .await
            .map_err(|error| failed(error.to_string()))?
            .map_err(|error| failed(error.to_string()))
        })
    }
}

/// How long a scrub waits for the log to be free of readers, in all.
const SCRUB_TRIES: u32 = 50;

impl Sqlite {
    /// The log copied into the file and emptied (`TRUNCATE`): the page
    /// images it held, the deleted rows' among them, are gone from disk.
    /// Readers on other connections (a running gateway) may hold the log
    /// for a moment: tried again until they let go.
    fn truncate_log(path: &Path) -> Result<(), String> {
        let connection = Connection::open(path).map_err(|error| error.to_string())?;
        connection
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(|error| error.to_string())?;
        for _ in 0..SCRUB_TRIES {
            let (busy, _, _): (i64, i64, i64) = connection
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| {
                    Ok((row.get(0)?, row.get(1)?, row.get(2)?))
                })
                .map_err(|error| error.to_string())?;
            if busy == 0 {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err("its write-ahead log stayed in use; run the command again".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_numbered_as_sqlite_reads_them() {
        assert_eq!(
            numbered("SELECT $1, $12 WHERE a = '$' AND b = $2"),
            "SELECT ?1, ?12 WHERE a = '$' AND b = ?2"
        );
    }
}
