//! Forgetting a person in the library's database: every row that names
//! them (their requests and tasks, their spending, their use, their
//! shared links), in one
//! transaction with the mark that tells running gateways
//! ([`crate::access::forgotten`]); then the freed space overwritten
//! ([`super::database::Database::scrub`]).

use super::database::{DbError, Rows, Statement};
use super::items::deleting;
use super::Library;
use crate::access::forgotten::{mark, Removed, REMEMBERED};

/// The rows a statement's `RETURNING` gave, counted.
fn count(rows: Option<&Rows>) -> u64 {
    rows.map_or(0, |rows| rows.len() as u64)
}

impl Library {
    /// Remove every row naming `person` and mark them forgotten at `now`;
    /// what was removed. Their key, when the keys are kept here, is
    /// removed by [`Library::revoke_key`].
    pub async fn forget(&self, person: &str, now: u64) -> Result<Removed, DbError> {
        let mut statements: Vec<Statement> =
            deleting("person = $1", |statement| statement.text(person))
                .into_iter()
                .map(|statement| statement.returning_one())
                .collect();
        statements.push(
            Statement::new("DELETE FROM library_spent WHERE person = $1 RETURNING 1").text(person),
        );
        statements.push(
            Statement::new("DELETE FROM access_use WHERE name = $1 RETURNING 1").text(person),
        );
        // Their links go with them: the tasks each shows, then the links.
        statements.push(
            Statement::new(
                "DELETE FROM library_share_tasks WHERE token IN \
                 (SELECT token FROM library_shares WHERE person = $1) RETURNING 1",
            )
            .text(person),
        );
        statements.push(
            Statement::new("DELETE FROM library_shares WHERE person = $1 RETURNING 1").text(person),
        );
        // Their collections and saved settings.
        statements.push(
            Statement::new(
                "DELETE FROM library_collected WHERE collection IN \
                 (SELECT id FROM library_collections WHERE person = $1)",
            )
            .text(person),
        );
        statements
            .push(Statement::new("DELETE FROM library_collections WHERE person = $1").text(person));
        statements
            .push(Statement::new("DELETE FROM library_presets WHERE person = $1").text(person));
        statements.push(
            Statement::new(
                "INSERT INTO access_forgotten (who, at) VALUES ($1, $2) \
                 ON CONFLICT (who) DO UPDATE SET at = excluded.at",
            )
            .text(mark(person))
            .int(now),
        );
        statements.push(
            Statement::new("DELETE FROM access_forgotten WHERE at < $1")
                .int(now.saturating_sub(REMEMBERED)),
        );
        let ran = self.db().run(statements).await?;
        Ok(Removed {
            tasks: count(ran.first()),
            // `ran.get(1)`: their requests' places in collections.
            requests: count(ran.get(2)),
            spent_days: count(ran.get(3)),
            use_records: count(ran.get(4)),
            ..Removed::default()
        })
    }

    /// Overwrite what deleted rows left on disk.
    pub async fn scrub(&self) -> Result<(), DbError> {
        self.db().scrub().await
    }

    /// The marks of the people forgotten in the last day.
    pub async fn forgotten(&self) -> Result<Vec<String>, DbError> {
        let rows = self
            .db()
            .run(vec![Statement::new("SELECT who FROM access_forgotten")])
            .await?;
        Ok(rows
            .first()
            .map(|rows| {
                rows.iter()
                    .filter_map(|row| row.first().and_then(|cell| cell.text()).map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default())
    }
}
