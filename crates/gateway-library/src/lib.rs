//! Each person's library, in a real database: every request a person
//! submits through the gateway (in `keys` and `proxy` mode), written
//! before the answer reaches their page, with its tasks' last known
//! status and result; the access keys beside it. One machine: an SQLite
//! file under `--data-dir`; several gateways: PostgreSQL
//! (`--library postgres://…`). Redis is never the store of record.
//!
//! The SQL is written once ([`database`]); [`items`] is the library,
//! [`spent`] the owner's `usage`, [`key_table`] the keys, [`use_table`]
//! each person's use (the two [`people_database`] offers access),
//! [`forget`] a person forgotten, [`routes`] the page's calls and [`cli`]
//! the owner's commands; [`news`] tells a person's pages of a change to
//! their requests apart from their tasks. What forwarded calls write in it, and what the
//! person's open pages hear of it, the server decides.

mod calls;
pub mod cli;
pub mod database;
pub mod forget;
pub mod items;
pub mod key_table;
pub mod news;
pub mod organise;
pub mod organise_routes;
pub mod people_database;
pub mod postgres;
pub mod routes;
pub mod shares;
pub mod spent;
pub mod sqlite;
pub mod use_table;
mod writer;

use std::path::{Path, PathBuf};

pub(crate) use media_gen_gateway_access as access;
pub(crate) use media_gen_gateway_base::{observe, private_files, refusal};

use database::{Database, DbError, MIGRATIONS};

/// The SQLite file's name under `--data-dir`.
pub const SQLITE_FILE: &str = "library.sqlite3";

/// Where the library is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LibraryAt {
    /// An SQLite file.
    Sqlite(PathBuf),
    /// The PostgreSQL at this URL.
    Postgres(String),
}

impl LibraryAt {
    /// `--library`'s value: `postgres://…` (or `postgresql://…`), or
    /// `sqlite:PATH`.
    pub fn parse(text: &str) -> Result<LibraryAt, String> {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Ok(LibraryAt::Postgres(text.to_owned()))
        } else if let Some(path) = text.strip_prefix("sqlite:") {
            if path.is_empty() {
                return Err(
                    "--library sqlite: names no file (sqlite:/var/lib/media-gen/library.sqlite3)"
                        .to_owned(),
                );
            }
            Ok(LibraryAt::Sqlite(PathBuf::from(path)))
        } else {
            // Only its scheme is named: the rest may hold a password.
            let given = match text.split_once(':') {
                Some((scheme, _)) => format!("a {scheme}: address"),
                None => "a value without a scheme".to_owned(),
            };
            Err(format!(
                "--library takes postgres://user@host/database or sqlite:PATH, not {given}"
            ))
        }
    }

    /// The SQLite file under `dir`.
    pub fn in_dir(dir: &Path) -> LibraryAt {
        LibraryAt::Sqlite(dir.join(SQLITE_FILE))
    }
}

/// `--library` as given.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum LibraryFlag {
    /// Not given: the SQLite file under `--data-dir` where a library is
    /// kept ([`LibraryFlag::resolve`]).
    #[default]
    Default,
    /// `off`: no library.
    Off,
    /// This database.
    At(LibraryAt),
}

impl LibraryFlag {
    /// The flag's value, if given.
    pub fn parse(text: Option<&str>) -> Result<LibraryFlag, String> {
        match text {
            None => Ok(LibraryFlag::Default),
            Some("off") => Ok(LibraryFlag::Off),
            Some(text) => LibraryAt::parse(text).map(LibraryFlag::At),
        }
    }

    /// Where the library is kept, if anywhere, for a gateway that `keeps`
    /// one (`keys` and `proxy` mode, and the owner's commands): the
    /// database given, else the SQLite file under `data_dir`. Not by
    /// default with `--redis`: gateways sharing one Redis share a
    /// PostgreSQL too, and their keys stay in Redis until it is given.
    pub fn resolve(&self, keeps: bool, data_dir: Option<&Path>, redis: bool) -> Option<LibraryAt> {
        match (self, data_dir) {
            (LibraryFlag::At(at), _) => Some(at.clone()),
            (LibraryFlag::Default, Some(dir)) if keeps && !redis => Some(LibraryAt::in_dir(dir)),
            _ => None,
        }
    }
}

/// Milliseconds since 1970.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|since| u64::try_from(since.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or_default()
}

/// The library, open and migrated.
pub struct Library {
    db: std::sync::Arc<dyn Database>,
    writes: writer::Writes,
    /// Where its people's open pages hear of it, once the server says.
    news: std::sync::OnceLock<std::sync::Arc<dyn news::PagesNews>>,
}

impl Library {
    /// Open the library `at` and bring its schema up to date (said in the
    /// log); fails when it cannot be reached or is newer than this gateway.
    pub async fn open(at: &LibraryAt) -> Result<Library, DbError> {
        let db = database_at(at)?;
        let db: std::sync::Arc<dyn Database> = std::sync::Arc::new(Timed(db));
        let applied = db.migrate(MIGRATIONS).await?;
        if !applied.is_empty() {
            tracing::info!(library = %db.describe(), ?applied, "the library's schema is brought up to date");
        }
        let writes = writer::start(std::sync::Arc::clone(&db));
        let library = Library {
            db,
            writes,
            news: std::sync::OnceLock::new(),
        };
        let filled = library.fill_models().await?;
        if filled > 0 {
            tracing::info!(
                requests = filled,
                "the library's requests are listed by model"
            );
        }
        Ok(library)
    }

    /// Where it is, for the log.
    pub fn describe(&self) -> String {
        self.db.describe()
    }

    /// The database, for the modules that keep things in it.
    pub(crate) fn db(&self) -> &dyn Database {
        &*self.db
    }

    /// Run `statements` in one transaction with the other writes waiting
    /// now (one commit for many submits); the rows each returned.
    pub(crate) async fn write(
        &self,
        statements: Vec<database::Statement>,
    ) -> Result<Vec<database::Rows>, DbError> {
        self.writes.run(statements).await
    }
}

/// The database `at`, not yet migrated (an SQLite file and its folder made
/// if missing, its user's alone).
fn database_at(at: &LibraryAt) -> Result<Box<dyn Database>, DbError> {
    Ok(match at {
        LibraryAt::Sqlite(path) => {
            // The folder of a new deployment, and the file, its user's
            // alone (SQLite gives its -wal and -shm files the file's
            // mode); a failure here shows in the open.
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                let _ = crate::private_files::create_dir_all(parent);
            }
            let _ = crate::private_files::open_options()
                .write(true)
                .create(true)
                .truncate(false)
                .open(path);
            Box::new(sqlite::Sqlite::open(path)?)
        }
        LibraryAt::Postgres(url) => Box::new(postgres::Postgres::open(url)?),
    })
}

/// How the schema of a library stands against this gateway's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaState {
    /// Where the library is (no password).
    pub at: String,
    /// The newest change applied (0: none yet).
    pub version: i64,
    /// The changes the gateway applies when it starts, in order.
    pub to_apply: Vec<&'static str>,
}

/// Whether the library `at` answers and how its schema stands, changing
/// nothing; fails when it cannot be reached or is newer than this gateway.
pub async fn schema_state(at: &LibraryAt) -> Result<SchemaState, DbError> {
    let db = database_at(at)?;
    let described = db.describe();
    let applied = match db
        .run(vec![database::Statement::new(
            "SELECT version FROM schema_migrations",
        )])
        .await
    {
        Ok(rows) => rows
            .into_iter()
            .flatten()
            .filter_map(|row| {
                row.first()
                    .map(|cell| cell.whole::<i64>("schema_migrations.version"))
            })
            .collect::<Result<Vec<i64>, DbError>>()?,
        // No table of applied changes: a new database, if it answers at all.
        Err(_) => {
            db.run(vec![database::Statement::new("SELECT 1")]).await?;
            Vec::new()
        }
    };
    let to_apply = database::to_apply(&applied, MIGRATIONS)?;
    Ok(SchemaState {
        at: described,
        version: applied.iter().copied().max().unwrap_or(0),
        to_apply: to_apply.iter().map(|migration| migration.name).collect(),
    })
}

/// A database whose calls are timed in the metrics.
struct Timed(Box<dyn Database>);

impl Database for Timed {
    fn run(
        &self,
        statements: Vec<database::Statement>,
    ) -> database::BoxFuture<'_, Result<Vec<database::Rows>, DbError>> {
        Box::pin(async move {
            for statement in &statements {
                statement.check()?;
            }
            let started = std::time::Instant::now();
            let ran = self.0.run(statements).await;
            metrics::histogram!(crate::observe::LIBRARY_SECONDS)
                .record(started.elapsed().as_secs_f64());
            ran
        })
    }

    fn migrate(
        &self,
        migrations: &'static [database::Migration],
    ) -> database::BoxFuture<'_, Result<Vec<&'static str>, DbError>> {
        self.0.migrate(migrations)
    }

    fn describe(&self) -> String {
        self.0.describe()
    }

    fn tidy(&self) -> database::BoxFuture<'_, Result<(), DbError>> {
        self.0.tidy()
    }

    fn scrub(&self) -> database::BoxFuture<'_, Result<(), DbError>> {
        self.0.scrub()
    }

    fn writers(&self) -> usize {
        self.0.writers()
    }
}

/// While the gateway runs: the database's upkeep every second, and the
/// requests removed more than a minute ago dropped every ten.
pub async fn upkeep(library: std::sync::Arc<Library>) {
    let mut every = tokio::time::interval(std::time::Duration::from_secs(1));
    for tick in 0_u64.. {
        every.tick().await;
        if let Err(error) = library.db.tidy().await {
            tracing::warn!(%error, "the library's upkeep failed; trying again in a second");
        }
        if tick % 10 == 0 {
            if let Err(error) = library.purge(now_ms()).await {
                tracing::warn!(%error, "removed requests could not be dropped yet");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_value_that_does_not_fit_is_refused_and_a_cell_that_does_not_read_named() {
        let dir = tempfile::tempdir().unwrap();
        let library = Library::open(&LibraryAt::in_dir(dir.path())).await.unwrap();
        let unfit = library
            .db()
            .run(vec![database::Statement::new("SELECT $1").int(u64::MAX)])
            .await
            .unwrap_err()
            .to_string();
        assert!(
            unfit.contains("parameter $1 is 18446744073709551615, over the largest BIGINT"),
            "{unfit}"
        );
        // A text where a time is kept: the listing says which column, it
        // does not read it as the start of 1970.
        library
            .db()
            .run(vec![database::Statement::new(
                "INSERT INTO access_use (name, last_used, day, tasks) VALUES ('ada', 'soon', 0, 0)",
            )])
            .await
            .unwrap();
        let unread = library.use_of_everyone().await.unwrap_err().to_string();
        assert!(
            unread.contains("access_use.last_used holds a text"),
            "{unread}"
        );
    }

    #[test]
    fn the_flag_names_one_of_two_databases() {
        assert_eq!(
            LibraryAt::parse("postgres://u:p@127.0.0.1:5432/db"),
            Ok(LibraryAt::Postgres(
                "postgres://u:p@127.0.0.1:5432/db".to_owned()
            ))
        );
        assert_eq!(
            LibraryAt::parse("sqlite:/tmp/l.db"),
            Ok(LibraryAt::Sqlite(PathBuf::from("/tmp/l.db")))
        );
        let wrong = LibraryAt::parse("mysql://u:secret@h/db").unwrap_err();
        assert!(
            wrong.contains("postgres://") && !wrong.contains("secret"),
            "{wrong}"
        );
        assert!(LibraryAt::parse("sqlite:").is_err());
    }
}
