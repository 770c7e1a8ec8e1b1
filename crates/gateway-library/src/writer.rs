//! Group commit: the library's frequent writes (a submit written, a
//! task's news) wait in one queue, and one task runs all those waiting in
//! one transaction, so a commit is paid once for many calls while each
//! still returns only once its rows are written. A batch that fails is
//! run again call by call, so one bad call fails alone.

use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};

use super::database::{Database, DbError, Rows, Statement};

/// The most calls one transaction takes.
const BATCH: usize = 64;

/// One call: its statements, and where its rows go.
type Job = (Vec<Statement>, oneshot::Sender<Result<Vec<Rows>, DbError>>);

/// The queue's sending end.
#[derive(Clone)]
pub struct Writes(mpsc::UnboundedSender<Job>);

/// Start the task that writes to `db`, with as many transactions at once
/// as it takes (SQLite one, in the order called); it ends with the last
/// sender.
pub fn start(db: Arc<dyn Database>) -> Writes {
    let (send, mut receive) = mpsc::unbounded_channel::<Job>();
    let room = Arc::new(tokio::sync::Semaphore::new(db.writers().max(1)));
    tokio::spawn(async move {
        let mut batch = Vec::with_capacity(BATCH);
        while receive.recv_many(&mut batch, BATCH).await > 0 {
            let Ok(permit) = Arc::clone(&room).acquire_owned().await else {
                return;
            };
            // Taken after the wait, so a batch holds what queued meanwhile.
            while batch.len() < BATCH {
                match receive.try_recv() {
                    Ok(job) => batch.push(job),
                    Err(_) => break,
                }
            }
            let (db, jobs) = (Arc::clone(&db), std::mem::take(&mut batch));
            tokio::spawn(async move {
                run(&*db, jobs).await;
                drop(permit);
            });
        }
    });
    Writes(send)
}

impl Writes {
    /// Run `statements` in the next batch; their rows.
    pub async fn run(&self, statements: Vec<Statement>) -> Result<Vec<Rows>, DbError> {
        let (answer, answered) = oneshot::channel();
        if self.0.send((statements, answer)).is_err() {
            return Err(DbError::Closed);
        }
        answered.await.unwrap_or(Err(DbError::Closed))
    }
}

/// Run `jobs` in one transaction and hand each its rows; on a failure,
/// each in one of its own.
async fn run(db: &dyn Database, jobs: Vec<Job>) {
    if jobs.len() == 1 {
        for (statements, answer) in jobs {
            let _ = answer.send(db.run(statements).await);
        }
        return;
    }
    let lengths: Vec<usize> = jobs
        .iter()
        .map(|(statements, _)| statements.len())
        .collect();
    let all: Vec<Statement> = jobs
        .iter()
        .flat_map(|(statements, _)| statements.iter().cloned())
        .collect();
    match db.run(all).await {
        Ok(mut rows) => {
            for ((_, answer), length) in jobs.into_iter().zip(lengths) {
                let rest = rows.split_off(length.min(rows.len()));
                let _ = answer.send(Ok(std::mem::replace(&mut rows, rest)));
            }
        }
        Err(_) => {
            for (statements, answer) in jobs {
                let _ = answer.send(db.run(statements).await);
            }
        }
    }
}
