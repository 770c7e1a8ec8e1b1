//! `POST` and `GET /sandbox/inbox/{name}`: a place to point `callback_url` at
//! and watch callbacks arrive, kept within the bounds of [`boxes`].

pub mod boxes;

use boxes::Message;

use axum::extract::{Path, State};
use axum::Json;
use media_gen_api::envelope::MSG_OK;
use media_gen_api::relay::{Capabilities, SandboxInfo, SANDBOX_INBOX_PATH};
use media_gen_api::Envelope;
use serde_json::Value;

use crate::body::JsonBody;
use crate::error::{ApiError, Refusal};
use crate::state::AppState;

fn check_name(name: &str) -> Result<(), ApiError> {
    let ok = (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(())
    } else {
        Err(ApiError(Refusal::InvalidParameter(
            "inbox name: 1 to 64 letters, digits, - or _".to_owned(),
        )))
    }
}

/// `POST /sandbox/inbox/{name}`: keep the JSON body.
pub async fn receive(
    State(app): State<AppState>,
    Path(name): Path<String>,
    JsonBody(body): JsonBody<Value>,
) -> Result<Json<Envelope<usize>>, ApiError> {
    check_name(&name)?;
    let count = app.inbox.keep(&name, &body)?;
    Ok(Json(Envelope::success("ok", count)))
}

/// `GET /sandbox/inbox/{name}`: the messages, oldest first (none for an unknown name).
pub async fn list(
    State(app): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Envelope<Vec<Message>>>, ApiError> {
    check_name(&name)?;
    let messages = app.inbox.messages(&name)?;
    Ok(Json(Envelope::success("ok", messages)))
}

/// `GET /capabilities`: this server is a sandbox, with inboxes at
/// [`SANDBOX_INBOX_PATH`]; a page offers one as a form's callback URL (the
/// service and a gateway have no inbox, so a page shows none there).
pub async fn capabilities() -> Json<Envelope<Capabilities>> {
    Json(Envelope::success(
        MSG_OK,
        Capabilities {
            relay: None,
            sandbox: Some(SandboxInfo {
                inbox: SANDBOX_INBOX_PATH.to_owned(),
            }),
            access: None,
            uploads: None,
            sharing: None,
        },
    ))
}
