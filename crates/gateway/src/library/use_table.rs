//! Each person's use in the library's database (`access_use`): their
//! tasks of the day, counted against their limit in one statement (so
//! gateways sharing the database cannot both hand out the last task), and
//! their last call, written every second.

use std::collections::HashMap;
use std::time::Duration;

use crate::access::usage::{PersonUsage, DAY};

use super::database::{DbError, Statement};
use super::Library;

impl Library {
    /// Count `tasks` for `name` at `now` (seconds) against `per_day`: the
    /// tasks left today after them, or how long until the next day when
    /// they do not fit (nothing counted then).
    pub async fn take_tasks(
        &self,
        name: &str,
        tasks: u32,
        per_day: u32,
        now: u64,
    ) -> Result<Result<u32, Duration>, DbError> {
        let today = now / DAY;
        let ran = self
            .write(vec![
                Statement::new(
                    "INSERT INTO access_use (name, last_used, day, tasks) VALUES ($1, $2, $3, 0) \
                     ON CONFLICT (name) DO NOTHING",
                )
                .text(name)
                .int(now)
                .int(today),
                Statement::new(
                    "UPDATE access_use SET tasks = (CASE WHEN day = $3 THEN tasks ELSE 0 END) + $4, \
                     day = $3, last_used = $2 \
                     WHERE name = $1 AND (CASE WHEN day = $3 THEN tasks ELSE 0 END) + $4 <= $5 \
                     RETURNING tasks",
                )
                .text(name)
                .int(now)
                .int(today)
                .int(tasks)
                .int(per_day),
            ])
            .await?;
        let counted = ran
            .get(1)
            .and_then(|rows| rows.first())
            .and_then(|row| row.first())
            .map(super::database::Cell::int);
        Ok(match counted {
            Some(used) => Ok(per_day.saturating_sub(u32::try_from(used).unwrap_or(u32::MAX))),
            None => Err(Duration::from_secs(DAY - now % DAY)),
        })
    }

    /// Everyone's use.
    pub async fn use_of_everyone(&self) -> Result<HashMap<String, PersonUsage>, DbError> {
        let rows = self
            .db()
            .run(vec![Statement::new(
                "SELECT name, last_used, day, tasks FROM access_use",
            )])
            .await?
            .pop()
            .unwrap_or_default();
        Ok(rows
            .into_iter()
            .filter_map(|row| {
                let [name, last_used, day, tasks] = &row[..] else {
                    return None;
                };
                Some((
                    name.string(),
                    PersonUsage {
                        last_used: u64::try_from(last_used.int()).unwrap_or(0),
                        day: u64::try_from(day.int()).unwrap_or(0),
                        tasks_today: u32::try_from(tasks.int()).unwrap_or(u32::MAX),
                    },
                ))
            })
            .collect())
    }

    /// `name`'s use.
    pub async fn use_of(&self, name: &str) -> Result<PersonUsage, DbError> {
        let rows = self
            .db()
            .run(vec![Statement::new(
                "SELECT last_used, day, tasks FROM access_use WHERE name = $1",
            )
            .text(name)])
            .await?
            .pop()
            .unwrap_or_default();
        Ok(rows
            .first()
            .map(|row| PersonUsage {
                last_used: u64::try_from(row[0].int()).unwrap_or(0),
                day: u64::try_from(row[1].int()).unwrap_or(0),
                tasks_today: u32::try_from(row[2].int()).unwrap_or(u32::MAX),
            })
            .unwrap_or_default())
    }

    /// The last calls of `seen` (name, seconds), each kept when later than
    /// the one kept.
    pub async fn seen(&self, seen: &[(String, u64)]) -> Result<(), DbError> {
        let statements = seen
            .iter()
            .map(|(name, at)| {
                Statement::new(
                    "INSERT INTO access_use (name, last_used, day, tasks) VALUES ($1, $2, 0, 0) \
                     ON CONFLICT (name) DO UPDATE SET last_used = excluded.last_used \
                     WHERE access_use.last_used < excluded.last_used",
                )
                .text(name.as_str())
                .int(*at)
            })
            .collect();
        self.write(statements).await.map(drop)
    }
}
