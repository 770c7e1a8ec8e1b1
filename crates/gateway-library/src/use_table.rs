//! Each person's use in the library's database (`access_use`): their
//! tasks of the day and their last call, as the gateways counted them
//! (in memory, or in Redis), kept every second and read back at start.

use std::collections::HashMap;

use crate::access::person_usage::PersonUsage;

use super::database::{DbError, Statement};
use super::Library;

impl Library {
    /// Keep `people`'s use as one gateway counted it: each last call when
    /// later than the one kept, and each day's count when it is of a
    /// later day or higher (several gateways writing never take back what
    /// another counted).
    pub async fn keep_use(&self, people: &[(String, PersonUsage)]) -> Result<(), DbError> {
        let statements = people
            .iter()
            .map(|(name, used)| {
                // Never for a person forgotten since this gateway counted
                // them: what it holds of them is being dropped.
                Statement::new(
                    "INSERT INTO access_use (name, last_used, day, tasks) \
                     SELECT CAST($1 AS TEXT), CAST($2 AS BIGINT), CAST($3 AS BIGINT), \
                     CAST($4 AS BIGINT) \
                     WHERE NOT EXISTS (SELECT 1 FROM access_forgotten WHERE who = $5) \
                     ON CONFLICT (name) DO UPDATE SET \
                     last_used = CASE WHEN excluded.last_used > access_use.last_used \
                         THEN excluded.last_used ELSE access_use.last_used END, \
                     tasks = CASE WHEN excluded.day > access_use.day THEN excluded.tasks \
                         WHEN excluded.day = access_use.day AND excluded.tasks > access_use.tasks \
                         THEN excluded.tasks ELSE access_use.tasks END, \
                     day = CASE WHEN excluded.day > access_use.day \
                         THEN excluded.day ELSE access_use.day END",
                )
                .text(name.as_str())
                .int(used.last_used)
                .int(used.day)
                .int(used.tasks_today)
                .text(crate::access::forgotten::mark(name))
            })
            .collect();
        self.write(statements).await.map(drop)
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
        rows.into_iter()
            .filter_map(|row| {
                let [name, last_used, day, tasks] = &row[..] else {
                    return None;
                };
                let used = || -> Result<PersonUsage, DbError> {
                    Ok(PersonUsage {
                        last_used: last_used.whole("access_use.last_used")?,
                        day: day.whole("access_use.day")?,
                        tasks_today: tasks.whole("access_use.tasks")?,
                    })
                };
                Some(used().map(|used| (name.string(), used)))
            })
            .collect()
    }
}
