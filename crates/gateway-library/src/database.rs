//! The one thing the library asks of a database: run a few statements in
//! one transaction and hand back their rows, and bring the schema up to
//! date. The SQL is written once, in what SQLite and PostgreSQL both read
//! (`$1` parameters, `ON CONFLICT`, `RETURNING`, row values); each driver
//! ([`super::sqlite`], [`super::postgres`]) only carries it out.

use std::future::Future;
use std::pin::Pin;

/// A future a driver returns.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A value bound to a statement's `$n`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Param {
    /// A `BIGINT` (or `NULL`).
    Int(Option<i64>),
    /// A `TEXT` (or `NULL`).
    Text(Option<String>),
}

/// A value of a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    /// `NULL`.
    Null,
    /// A whole number.
    Int(i64),
    /// A text.
    Text(String),
}

impl Cell {
    /// The whole number the cell of `column` holds, as `T` (a count, a
    /// time), or the error that names the column and what it held: a
    /// `NULL`, a text, or a number out of `T`'s range is a database this
    /// gateway does not understand, never read as 0 or cut to fit.
    pub fn whole<T: TryFrom<i64>>(&self, column: &'static str) -> Result<T, DbError> {
        let found = match self {
            Cell::Int(value) => match T::try_from(*value) {
                Ok(value) => return Ok(value),
                Err(_) => value.to_string(),
            },
            Cell::Null => "NULL".to_owned(),
            Cell::Text(_) => "a text".to_owned(),
        };
        Err(DbError::Value { column, found })
    }

    /// The text, or `None` (`NULL`, a number).
    pub fn text(&self) -> Option<&str> {
        match self {
            Cell::Text(value) => Some(value),
            _ => None,
        }
    }

    /// The text, or an empty one.
    pub fn string(&self) -> String {
        self.text().unwrap_or_default().to_owned()
    }
}

/// The rows one statement returned, each a list of cells in the order
/// of its `SELECT` or `RETURNING`.
pub type Rows = Vec<Vec<Cell>>;

/// One statement and its parameters, in order (`$1` first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// The SQL, with `$1`, `$2`, … for its parameters.
    pub sql: String,
    /// The parameters.
    pub params: Vec<Param>,
    /// A parameter that did not fit, said when the statement is run.
    pub unfit: Option<String>,
}

impl Statement {
    /// `sql` with no parameters yet.
    pub fn new(sql: impl Into<String>) -> Statement {
        Statement {
            sql: sql.into(),
            params: Vec::new(),
            unfit: None,
        }
    }

    /// The same statement answering a row for each row it changed, to
    /// count them.
    pub fn returning_one(mut self) -> Statement {
        self.sql.push_str(" RETURNING 1");
        self
    }

    /// With a text parameter next.
    pub fn text(mut self, value: impl Into<String>) -> Statement {
        self.params.push(Param::Text(Some(value.into())));
        self
    }

    /// With a text parameter or `NULL` next.
    pub fn maybe_text(mut self, value: Option<impl Into<String>>) -> Statement {
        self.params.push(Param::Text(value.map(Into::into)));
        self
    }

    /// With a number parameter next. One over the largest `BIGINT` is not
    /// cut to fit: the statement is refused when run, naming it.
    pub fn int(mut self, value: impl TryInto<i64> + Copy + std::fmt::Display) -> Statement {
        match value.try_into() {
            Ok(value) => self.params.push(Param::Int(Some(value))),
            Err(_) => {
                let place = self.params.len() + 1;
                self.unfit.get_or_insert_with(|| {
                    format!("parameter ${place} is {value}, over the largest BIGINT")
                });
                self.params.push(Param::Int(None));
            }
        }
        self
    }

    /// `Ok` unless a parameter did not fit ([`Statement::int`]).
    pub fn check(&self) -> Result<(), DbError> {
        match &self.unfit {
            Some(why) => Err(DbError::Parameter(why.clone())),
            None => Ok(()),
        }
    }

    /// With a number parameter or `NULL` next.
    pub fn maybe_int(mut self, value: Option<i64>) -> Statement {
        self.params.push(Param::Int(value));
        self
    }

    /// The placeholder the next parameter will take (`$3`).
    pub fn next_placeholder(&self) -> String {
        format!("${}", self.params.len() + 1)
    }
}

/// Why the database failed a call.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The SQLite file could not be opened, read or written.
    #[error("the library's SQLite file {path}: {error}")]
    Sqlite {
        /// The file.
        path: String,
        /// What SQLite said.
        error: String,
    },
    /// PostgreSQL refused, or could not be reached.
    #[error("the library's PostgreSQL at {at}: {error}")]
    Postgres {
        /// Where, without the password.
        at: String,
        /// What it said.
        error: String,
    },
    /// The library is closing: the call was not run.
    #[error("the library is closing")]
    Closed,
    /// The operating system gave no random bits for a new id.
    #[error("the operating system gave no random bits for a new id")]
    NoRandomness,
    /// A cell held what its column should not (a `NULL`, a text, a number
    /// out of range).
    #[error("the library's {column} holds {found}, not the whole number it keeps")]
    Value {
        /// The column.
        column: &'static str,
        /// What it held.
        found: String,
    },
    /// A statement's parameter did not fit its column.
    #[error("the library was asked to keep a value that does not fit: {0}")]
    Parameter(String),
    /// The schema on disk is newer than this gateway knows.
    #[error("the library's schema is at version {found}, newer than this gateway's {known}: run the newer gateway")]
    Newer {
        /// The newest version applied.
        found: i64,
        /// The newest this gateway has.
        known: i64,
    },
}

/// One change of the schema: a file of `migrations/`, applied once, in
/// order, and recorded in `schema_migrations`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Migration {
    /// Its number (the file name's first digits).
    pub version: i64,
    /// Its file's name.
    pub name: &'static str,
    /// Its SQL: several statements.
    pub sql: &'static str,
}

/// Every migration, in order.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "0001_library.sql",
        sql: include_str!("../migrations/0001_library.sql"),
    },
    Migration {
        version: 2,
        name: "0002_access_keys.sql",
        sql: include_str!("../migrations/0002_access_keys.sql"),
    },
    Migration {
        version: 3,
        name: "0003_access_use.sql",
        sql: include_str!("../migrations/0003_access_use.sql"),
    },
    Migration {
        version: 4,
        name: "0004_access_forgotten.sql",
        sql: include_str!("../migrations/0004_access_forgotten.sql"),
    },
    Migration {
        version: 5,
        name: "0005_shares.sql",
        sql: include_str!("../migrations/0005_shares.sql"),
    },
    Migration {
        version: 6,
        name: "0006_organise.sql",
        sql: include_str!("../migrations/0006_organise.sql"),
    },
];

/// The table that records which migrations were applied.
pub const MIGRATIONS_TABLE: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (\
     version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied BIGINT NOT NULL)";

/// What to apply, given the versions already applied: the migrations
/// after them, in order; or a refusal when the database is newer than
/// this gateway.
pub fn to_apply<'a>(
    applied: &[i64],
    migrations: &'a [Migration],
) -> Result<Vec<&'a Migration>, DbError> {
    let known = migrations.last().map_or(0, |last| last.version);
    if let Some(found) = applied.iter().copied().filter(|v| *v > known).max() {
        return Err(DbError::Newer { found, known });
    }
    Ok(migrations
        .iter()
        .filter(|migration| !applied.contains(&migration.version))
        .collect())
}

/// A database the library can be kept in.
pub trait Database: Send + Sync + 'static {
    /// Run `statements` in order, in one transaction (all or none); the
    /// rows each returned.
    fn run(&self, statements: Vec<Statement>) -> BoxFuture<'_, Result<Vec<Rows>, DbError>>;

    /// Apply the migrations of `migrations` not yet applied, once even
    /// when several gateways start together; the names of those applied.
    fn migrate(
        &self,
        migrations: &'static [Migration],
    ) -> BoxFuture<'_, Result<Vec<&'static str>, DbError>>;

    /// Where it is, for the log (no password).
    fn describe(&self) -> String;

    /// How many write transactions may run at once (SQLite: one writer).
    fn writers(&self) -> usize {
        1
    }

    /// Upkeep the database wants now and then, off the writers' path
    /// (SQLite: its write-ahead log copied into the file).
    fn tidy(&self) -> BoxFuture<'_, Result<(), DbError>> {
        Box::pin(async { Ok(()) })
    }

    /// Overwrite what deleted rows left behind, after a person is
    /// forgotten (SQLite: the log copied in and emptied, the freed pages
    /// zeroed already by `secure_delete`; PostgreSQL: the tables vacuumed).
    fn scrub(&self) -> BoxFuture<'_, Result<(), DbError>> {
        Box::pin(async { Ok(()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_is_read_as_the_number_it_holds_or_named_as_what_it_is_not() {
        assert_eq!(Cell::Int(7).whole::<u64>("t.c").unwrap(), 7);
        for (cell, found) in [
            (Cell::Null, "NULL"),
            (Cell::Text("7".into()), "a text"),
            (Cell::Int(-1), "-1"),
        ] {
            let error = cell.whole::<u64>("t.c").unwrap_err().to_string();
            assert_eq!(
                error,
                format!("the library's t.c holds {found}, not the whole number it keeps")
            );
        }
        let too_many = Cell::Int(i64::from(u32::MAX) + 1)
            .whole::<u32>("t.c")
            .unwrap_err();
        assert!(
            too_many.to_string().contains("4294967296"),
            "never cut to fit"
        );
        assert!(Statement::new("SELECT $1").int(5u64).check().is_ok());
    }

    #[test]
    fn migrations_are_numbered_in_order_by_their_files() {
        for (index, migration) in MIGRATIONS.iter().enumerate() {
            assert_eq!(migration.version, index as i64 + 1);
            assert!(migration
                .name
                .starts_with(&format!("{:04}_", migration.version)));
        }
        let pending = to_apply(&[1], MIGRATIONS).unwrap();
        assert_eq!(pending.len(), MIGRATIONS.len() - 1);
        assert!(to_apply(&[], MIGRATIONS).unwrap().len() == MIGRATIONS.len());
        let newer = to_apply(&[1, 2, 99], MIGRATIONS).unwrap_err().to_string();
        assert!(newer.contains("version 99"), "{newer}");
    }

    #[test]
    fn every_migration_file_is_listed() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/migrations");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        let listed: Vec<&str> = MIGRATIONS.iter().map(|m| m.name).collect();
        assert_eq!(files, listed);
    }
}
