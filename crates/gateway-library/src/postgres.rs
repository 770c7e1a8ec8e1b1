//! The library in PostgreSQL (`--library postgres://…`), shared by every
//! gateway behind a balancer: a pool of connections, each statement
//! prepared once per connection, and migrations applied under an
//! advisory lock so gateways starting together apply each once.

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio_postgres::types::{ToSql, Type};
use tokio_postgres::NoTls;

use super::database::{
    to_apply, BoxFuture, Cell, Database, DbError, Migration, Param, Rows, Statement,
    MIGRATIONS_TABLE,
};

/// Write transactions one gateway runs at once (each on a connection of
/// its own; the rest of the pool stays for reads).
const WRITERS: usize = 4;
/// Connections one gateway keeps open at most.
const POOL_SIZE: usize = 16;
/// How long a call waits for a connection (the pool busy, or the server
/// slow to accept) before it fails.
const WAIT: std::time::Duration = std::time::Duration::from_secs(5);
/// The advisory lock migrations run under (any fixed number: the
/// gateways only need to agree on it).
const MIGRATION_LOCK: i64 = 0x6d67_6c69_6272;

/// Where `config` connects, as a log line or an error names it: its
/// hosts, ports, database and user, read from the parsed configuration so
/// no password (in the URL's user part or a `?password=`) is ever in it.
fn described(config: &tokio_postgres::Config) -> String {
    use tokio_postgres::config::Host;
    let ports = config.get_ports();
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(n, host)| {
            let host = match host {
                Host::Tcp(name) => name.clone(),
                #[cfg(unix)]
                Host::Unix(path) => path.display().to_string(),
            };
            // One port for all hosts, or one each.
            match ports.get(n).or(ports.first()) {
                Some(port) => format!("{host}:{port}"),
                None => host,
            }
        })
        .collect();
    let user = config
        .get_user()
        .map(|user| format!("{user}@"))
        .unwrap_or_default();
    let database = config.get_dbname().unwrap_or_default();
    format!("{user}{}/{database}", hosts.join(","))
}

/// The library's PostgreSQL.
pub struct Postgres {
    pool: Pool,
    at: String,
}

impl Postgres {
    /// A pool for the server at `url` (`postgres://user:password@host/db`);
    /// nothing is connected until the first call.
    pub fn open(url: &str) -> Result<Postgres, DbError> {
        let config: tokio_postgres::Config =
            url.parse()
                .map_err(|error: tokio_postgres::Error| DbError::Postgres {
                    at: "given to --library".to_owned(),
                    error: error.to_string(),
                })?;
        let at = described(&config);
        let failed = |error: String| DbError::Postgres {
            at: at.clone(),
            error,
        };
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(WAIT))
            .create_timeout(Some(WAIT))
            .build()
            .map_err(|error| failed(error.to_string()))?;
        Ok(Postgres { pool, at })
    }

    /// The refusal, with what the server said (a driver's error names
    /// only its kind; the server's words are its source).
    fn failed(&self, error: impl std::error::Error) -> DbError {
        DbError::Postgres {
            at: self.at.clone(),
            error: chain(&error),
        }
    }
}

/// `error` and its causes, each said once: the pool's error already says
/// the driver's, which says the socket's.
fn chain(error: &dyn std::error::Error) -> String {
    let mut said = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_said = cause.to_string();
        if !said.contains(&cause_said) {
            said.push_str(": ");
            said.push_str(&cause_said);
        }
        source = cause.source();
    }
    said
}

/// `param` as the type PostgreSQL inferred for its place.
fn bound(param: &Param, wanted: &Type) -> Box<dyn ToSql + Sync + Send> {
    match (param, wanted) {
        (Param::Int(value), &Type::INT4) => {
            Box::new(value.map(|v| i32::try_from(v).unwrap_or(i32::MAX)))
        }
        (Param::Int(value), &Type::INT2) => {
            Box::new(value.map(|v| i16::try_from(v).unwrap_or(i16::MAX)))
        }
        (Param::Int(value), &Type::TEXT | &Type::VARCHAR) => Box::new(value.map(|v| v.to_string())),
        (Param::Int(value), _) => Box::new(*value),
        (Param::Text(value), _) => Box::new(value.clone()),
    }
}

fn cells(row: &tokio_postgres::Row) -> Result<Vec<Cell>, tokio_postgres::Error> {
    (0..row.len())
        .map(|index| {
            let kind = row.columns()[index].type_();
            Ok(match *kind {
                Type::INT8 => row.try_get::<_, Option<i64>>(index)?.map(Cell::Int),
                Type::INT4 => row
                    .try_get::<_, Option<i32>>(index)?
                    .map(|v| Cell::Int(v.into())),
                Type::INT2 => row
                    .try_get::<_, Option<i16>>(index)?
                    .map(|v| Cell::Int(v.into())),
                Type::BOOL => row
                    .try_get::<_, Option<bool>>(index)?
                    .map(|v| Cell::Int(v.into())),
                _ => row.try_get::<_, Option<String>>(index)?.map(Cell::Text),
            }
            .unwrap_or(Cell::Null))
        })
        .collect()
}

impl Database for Postgres {
    fn run(&self, statements: Vec<Statement>) -> BoxFuture<'_, Result<Vec<Rows>, DbError>> {
        Box::pin(async move {
            let mut client = self.pool.get().await.map_err(|e| self.failed(e))?;
            let transaction = client.transaction().await.map_err(|e| self.failed(e))?;
            // Every statement sent at once, in order, and their answers
            // read as they come: one round trip for the lot, not one each.
            let prepared = futures_util::future::try_join_all(
                statements
                    .iter()
                    .map(|statement| transaction.prepare_cached(&statement.sql)),
            )
            .await
            .map_err(|e| self.failed(e))?;
            let params: Vec<Vec<Box<dyn ToSql + Sync + Send>>> = statements
                .iter()
                .zip(&prepared)
                .map(|(statement, prepared)| {
                    statement
                        .params
                        .iter()
                        .zip(prepared.params())
                        .map(|(param, wanted)| bound(param, wanted))
                        .collect()
                })
                .collect();
            let refs: Vec<Vec<&(dyn ToSql + Sync)>> = params
                .iter()
                .map(|params| {
                    params
                        .iter()
                        .map(|param| &**param as &(dyn ToSql + Sync))
                        .collect()
                })
                .collect();
            let answers = futures_util::future::try_join_all(
                prepared
                    .iter()
                    .zip(&refs)
                    .map(|(prepared, refs)| transaction.query(prepared, refs)),
            )
            .await
            .map_err(|e| self.failed(e))?;
            let all = answers
                .iter()
                .map(|rows| rows.iter().map(cells).collect::<Result<Rows, _>>())
                .collect::<Result<Vec<Rows>, _>>()
                .map_err(|e| self.failed(e))?;
            transaction.commit().await.map_err(|e| self.failed(e))?;
            Ok(all)
        })
    }

    fn migrate(
        &self,
        migrations: &'static [Migration],
    ) -> BoxFuture<'_, Result<Vec<&'static str>, DbError>> {
        Box::pin(async move {
            let mut client = self.pool.get().await.map_err(|e| self.failed(e))?;
            let transaction = client.transaction().await.map_err(|e| self.failed(e))?;
            // Held until the transaction ends: a second gateway waits here,
            // then finds everything applied.
            transaction
                .execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
                .await
                .map_err(|e| self.failed(e))?;
            transaction
                .batch_execute(MIGRATIONS_TABLE)
                .await
                .map_err(|e| self.failed(e))?;
            let applied: Vec<i64> = transaction
                .query("SELECT version FROM schema_migrations", &[])
                .await
                .map_err(|e| self.failed(e))?
                .iter()
                .map(|row| row.get(0))
                .collect();
            let mut names = Vec::new();
            for migration in to_apply(&applied, migrations)? {
                transaction
                    .batch_execute(migration.sql)
                    .await
                    .map_err(|e| match self.failed(e) {
                        DbError::Postgres { at, error } => DbError::Postgres {
                            at,
                            error: format!("{}: {error}", migration.name),
                        },
                        other => other,
                    })?;
                transaction
                    .execute(
                        "INSERT INTO schema_migrations (version, name, applied) VALUES ($1, $2, $3)",
                        &[
                            &migration.version,
                            &migration.name,
                            &(super::now_ms() as i64),
                        ],
                    )
                    .await
                    .map_err(|e| self.failed(e))?;
                names.push(migration.name);
            }
            transaction.commit().await.map_err(|e| self.failed(e))?;
            Ok(names)
        })
    }

    fn describe(&self) -> String {
        format!("postgres {}", self.at)
    }

    fn scrub(&self) -> BoxFuture<'_, Result<(), DbError>> {
        Box::pin(async move {
            let client = self.pool.get().await.map_err(|e| self.failed(e))?;
            // Plain VACUUM: the dead rows' space is pruned and marked for
            // reuse, without the exclusive lock FULL would take from every
            // gateway (docs/deploy.md says what stays until reused).
            client
                .batch_execute(
                    "VACUUM library_requests, library_tasks, library_spent, access_use, access_keys",
                )
                .await
                .map_err(|e| self.failed(e))
        })
    }

    fn writers(&self) -> usize {
        WRITERS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error saying `said`, caused by `cause`.
    #[derive(Debug)]
    struct Said(String, Option<Box<Said>>);

    impl std::fmt::Display for Said {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(&self.0)
        }
    }

    impl std::error::Error for Said {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.1.as_deref().map(|cause| cause as _)
        }
    }

    #[test]
    fn each_cause_is_said_once() {
        let refused = Said("Connection refused (os error 111)".into(), None);
        let driver = Said(
            "error connecting to server: Connection refused (os error 111)".into(),
            Some(Box::new(refused)),
        );
        let pool = Said(
            "Error occurred while creating a new object: error connecting to server: \
             Connection refused (os error 111)"
                .into(),
            Some(Box::new(driver)),
        );
        assert_eq!(
            chain(&pool),
            "Error occurred while creating a new object: error connecting to server: \
             Connection refused (os error 111)"
        );
        let quiet = Said(
            "db error".into(),
            Some(Box::new(Said("FATAL: no such database".into(), None))),
        );
        assert_eq!(chain(&quiet), "db error: FATAL: no such database");
    }

    #[test]
    fn a_database_is_named_without_its_password_wherever_the_url_put_it() {
        for url in [
            "postgres://ada:hunter2@db.internal:5433/media?sslmode=disable",
            "postgres://ada@db.internal:5433/media?password=hunter2",
            "postgresql://db.internal:5433/media?user=ada&password=hunter2",
        ] {
            let library = Postgres::open(url).expect("the URL reads");
            let named = library.describe();
            assert_eq!(named, "postgres ada@db.internal:5433/media", "{url}");
            let refusal = library
                .failed(std::io::Error::other("connection refused"))
                .to_string();
            assert!(!refusal.contains("hunter2"), "{refusal}");
        }
        let several = Postgres::open("postgres://a:1,b:2/media").expect("the URL reads");
        assert_eq!(several.describe(), "postgres a:1,b:2/media");
    }
}
