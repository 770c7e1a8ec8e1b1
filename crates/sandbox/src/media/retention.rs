//! `--media-ttl`: result files that stop answering, as the service's do
//! once it no longer keeps them (its interface document does not say when).
//!
//! Each result URL names its task (`?task=…`); with a TTL set, a file is
//! served only while that task is held and ended less than the TTL ago.

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use media_gen_api::TaskKind;
use serde::Deserialize;

use crate::state::AppState;

/// The query every result URL carries.
#[derive(Debug, Default, Deserialize)]
pub struct MediaQuery {
    /// The task whose result this is.
    pub task: Option<String>,
}

/// Why a result file is not served any more.
#[derive(Debug, PartialEq, Eq)]
pub enum Gone {
    /// The URL names no task the sandbox holds.
    UnknownTask,
    /// The task ended longer than the TTL ago.
    Expired {
        /// The TTL, in seconds.
        ttl_seconds: u64,
    },
}

impl IntoResponse for Gone {
    fn into_response(self) -> Response {
        let message = match self {
            Gone::UnknownTask => "No such media file: its task is not known here".to_owned(),
            Gone::Expired { ttl_seconds } => format!(
                "This result was removed {ttl_seconds} s after its task ended (--media-ttl)"
            ),
        };
        (StatusCode::NOT_FOUND, message).into_response()
    }
}

/// Whether a file of the `kind` task named by `query` is still served at
/// `now`: always without a TTL; with one, while its task is held and ended
/// less than the TTL ago.
pub fn check(app: &AppState, kind: TaskKind, query: &MediaQuery, now: Instant) -> Result<(), Gone> {
    let Some(ttl_seconds) = app.config.media_ttl else {
        return Ok(());
    };
    let task = query
        .task
        .as_deref()
        .and_then(|id| app.task(kind, id).ok())
        .ok_or(Gone::UnknownTask)?;
    let removed_at = task.schedule.ends + Duration::from_secs(ttl_seconds);
    if now >= removed_at {
        return Err(Gone::Expired { ttl_seconds });
    }
    Ok(())
}
