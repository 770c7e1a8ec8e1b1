//! Shared links in the library's database (`library_shares`, and the
//! tasks each shows in `library_share_tasks`): made by their person, read
//! by anyone holding the token on every gateway, counted when opened, and
//! taken back (the row stays, so the address answers 410). A person
//! forgotten takes their links with them ([`super::forget`]).

use media_gen_api::library::RequestId;
use media_gen_api::share::Share;
use media_gen_api::{TaskKey, TaskKind};

use super::database::{Cell, DbError, Rows, Statement};
use super::Library;

/// One task a link shows, with its request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedTask {
    /// The task.
    pub task: TaskKey,
    /// The request that made it.
    pub request: RequestId,
}

/// A link as the library keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedLink {
    /// Whose it is.
    pub person: String,
    /// When it was made (milliseconds since 1970).
    pub created: u64,
    /// When it ends; `None`: with the copies.
    pub ends: Option<u64>,
    /// Whether it shows what was asked.
    pub asked: bool,
    /// Whether only people signed in may open it.
    pub team: bool,
    /// When it was taken back.
    pub revoked: Option<u64>,
    /// The tasks it shows, in order.
    pub tasks: Vec<SharedTask>,
}

impl SharedLink {
    /// Whether it may be opened at `now` (milliseconds): not taken back,
    /// not past its end.
    pub fn live_at(&self, now: u64) -> bool {
        self.revoked.is_none() && self.ends.is_none_or(|ends| now < ends)
    }
}

/// A new link: what [`Library::add_share`] keeps.
#[derive(Debug, Clone)]
pub struct NewLink<'a> {
    /// The token, already drawn.
    pub token: &'a str,
    /// Whose it is.
    pub person: &'a str,
    /// When it ends; `None`: with the copies.
    pub ends: Option<u64>,
    /// Whether it shows what was asked.
    pub asked: bool,
    /// Whether only people signed in may open it.
    pub team: bool,
    /// The tasks it shows, in order.
    pub tasks: &'a [SharedTask],
}

fn flag(cell: &Cell, column: &'static str) -> Result<bool, DbError> {
    cell.whole::<i64>(column).map(|value| value != 0)
}

fn maybe_whole(cell: &Cell, column: &'static str) -> Result<Option<u64>, DbError> {
    match cell {
        Cell::Null => Ok(None),
        cell => cell.whole(column).map(Some),
    }
}

/// The tasks of one link, from `(position, kind, task_id, request)` rows.
fn tasks(rows: Rows) -> Vec<SharedTask> {
    rows.into_iter()
        .filter_map(|row| {
            let [kind, task_id, request] = &row[..] else {
                return None;
            };
            let kind: TaskKind = kind.string().parse().ok()?;
            Some(SharedTask {
                task: TaskKey::new(kind, task_id.string().as_str()),
                request: RequestId::parse(request.text()?)?,
            })
        })
        .collect()
}

impl Library {
    /// Keep `link`, made at `now` (milliseconds).
    pub async fn add_share(&self, link: &NewLink<'_>, now: u64) -> Result<(), DbError> {
        let mut statements = vec![Statement::new(
            "INSERT INTO library_shares (token, person, created, ends, asked, team, views, revoked) \
             VALUES ($1, $2, $3, $4, $5, $6, 0, NULL)",
        )
        .text(link.token)
        .text(link.person)
        .int(now)
        .maybe_int(link.ends.and_then(|ends| i64::try_from(ends).ok()))
        .int(i64::from(link.asked))
        .int(i64::from(link.team))];
        for (position, shared) in link.tasks.iter().enumerate() {
            statements.push(
                Statement::new(
                    "INSERT INTO library_share_tasks (token, position, kind, task_id, request) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .text(link.token)
                .int(position as i64)
                .text(shared.task.kind.as_str())
                .text(shared.task.id.as_str())
                .text(shared.request.as_str()),
            );
        }
        self.db().run(statements).await.map(drop)
    }

    /// The link `token`, live or not, with its tasks.
    pub async fn shared(&self, token: &str) -> Result<Option<SharedLink>, DbError> {
        let mut ran = self
            .db()
            .run(vec![
                Statement::new(
                    "SELECT person, created, ends, asked, team, revoked FROM library_shares \
                     WHERE token = $1",
                )
                .text(token),
                Statement::new(
                    "SELECT kind, task_id, request FROM library_share_tasks \
                     WHERE token = $1 ORDER BY position",
                )
                .text(token),
            ])
            .await?;
        let shown = ran.pop().unwrap_or_default();
        let Some(row) = ran.pop().unwrap_or_default().into_iter().next() else {
            return Ok(None);
        };
        let [person, created, ends, asked, team, revoked] = &row[..] else {
            return Ok(None);
        };
        Ok(Some(SharedLink {
            person: person.string(),
            created: created.whole("library_shares.created")?,
            ends: maybe_whole(ends, "library_shares.ends")?,
            asked: flag(asked, "library_shares.asked")?,
            team: flag(team, "library_shares.team")?,
            revoked: maybe_whole(revoked, "library_shares.revoked")?,
            tasks: tasks(shown),
        }))
    }

    /// One more opening of `token`'s page.
    pub async fn count_view(&self, token: &str) -> Result<(), DbError> {
        self.db()
            .run(vec![Statement::new(
                "UPDATE library_shares SET views = views + 1 WHERE token = $1",
            )
            .text(token)])
            .await
            .map(drop)
    }

    /// `person`'s links, newest first, live or not.
    pub async fn shares_of(&self, person: &str) -> Result<Vec<Share>, DbError> {
        let mut ran = self
            .db()
            .run(vec![
                Statement::new(
                    "SELECT token, created, ends, views, asked, team, revoked FROM library_shares \
                     WHERE person = $1 ORDER BY created DESC, token",
                )
                .text(person),
                Statement::new(
                    "SELECT t.token, t.request FROM library_share_tasks t \
                     JOIN library_shares s ON s.token = t.token \
                     WHERE s.person = $1 ORDER BY t.token, t.position",
                )
                .text(person),
            ])
            .await?;
        let shown = ran.pop().unwrap_or_default();
        let mut shares = Vec::new();
        for row in ran.pop().unwrap_or_default() {
            let [token, created, ends, views, asked, team, revoked] = &row[..] else {
                continue;
            };
            let token = token.string();
            let mut requests: Vec<RequestId> = Vec::new();
            let mut count = 0u32;
            for request in shown
                .iter()
                .filter(|row| row.first().and_then(Cell::text) == Some(token.as_str()))
                .filter_map(|row| row.get(1).and_then(Cell::text).and_then(RequestId::parse))
            {
                count += 1;
                if !requests.contains(&request) {
                    requests.push(request);
                }
            }
            // A link taken back ended when it was.
            let ends = match maybe_whole(revoked, "library_shares.revoked")? {
                Some(revoked) => Some(revoked),
                None => maybe_whole(ends, "library_shares.ends")?,
            };
            shares.push(Share {
                path: format!("{}{token}", media_gen_api::share::SHARED_PATH),
                token,
                created: created.whole("library_shares.created")?,
                ends,
                views: views.whole("library_shares.views")?,
                asked: flag(asked, "library_shares.asked")?,
                team: flag(team, "library_shares.team")?,
                requests,
                tasks: count,
            });
        }
        Ok(shares)
    }

    /// Take `person`'s link `token` back at `now`: whether it was theirs
    /// and live.
    pub async fn take_back_share(
        &self,
        person: &str,
        token: &str,
        now: u64,
    ) -> Result<bool, DbError> {
        let ran = self
            .db()
            .run(vec![Statement::new(
                "UPDATE library_shares SET revoked = $3 \
                 WHERE token = $1 AND person = $2 AND revoked IS NULL RETURNING token",
            )
            .text(token)
            .text(person)
            .int(now)])
            .await?;
        Ok(ran.first().is_some_and(|rows| !rows.is_empty()))
    }
}
