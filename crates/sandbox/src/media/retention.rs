//! `--media-ttl`: result files that stop answering, as the service's do
//! once it no longer keeps them (its interface document does not say
//! when). Whether a file is still served is the model's to say
//! ([`media_gen_api::service::ServiceModel::media_served`]); each result
//! URL names its task (`?task=…`).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use media_gen_api::service::Gone;
use media_gen_api::TaskKind;
use serde::Deserialize;

use crate::state::AppState;

/// The query every result URL carries.
#[derive(Debug, Default, Deserialize)]
pub struct MediaQuery {
    /// The task whose result this is.
    pub task: Option<String>,
}

/// The 404 for a file of a `kind` task that is no longer served, if it is not.
pub fn removed(app: &AppState, kind: TaskKind, query: &MediaQuery) -> Option<Response> {
    let now = app.clock.now();
    app.with_model(|model| model.media_served(kind, query.task.as_deref(), now))
        .err()
        .map(|gone: Gone| (StatusCode::NOT_FOUND, gone.to_string()).into_response())
}
