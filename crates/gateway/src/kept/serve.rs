//! A kept copy served at its own address, as an upload is
//! ([`crate::uploads::serve::stored_file`]): its type, `Range`, an `ETag`,
//! and headers that keep a browser from running it as a page of this site.

use axum::extract::{Path, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use media_gen_api::{error_codes, ErrorEnvelope};

use crate::access::now_seconds;
use crate::Gateway;

/// `GET`/`HEAD /kept/{id}`.
pub async fn file(
    State(gateway): State<Gateway>,
    Path(id): Path<String>,
    request: Request,
) -> Response {
    serve(&gateway, &id, request).await
}

/// `GET`/`HEAD /kept/{id}/{name}` (the name is for a download; the copy
/// is the id's whatever it says).
pub async fn named(
    State(gateway): State<Gateway>,
    Path((id, _name)): Path<(String, String)>,
    request: Request,
) -> Response {
    serve(&gateway, &id, request).await
}

fn refused(status: StatusCode, message: &str) -> Response {
    (
        status,
        Json(ErrorEnvelope::new(
            error_codes::NOT_FOUND,
            message.to_owned(),
        )),
    )
        .into_response()
}

async fn serve(gateway: &Gateway, id: &str, request: Request) -> Response {
    let unknown = || refused(StatusCode::NOT_FOUND, "No kept file at this address");
    let Some(uploads) = gateway.uploads.as_deref() else {
        return unknown();
    };
    if !media_gen_api::relay::is_capability(id) {
        return unknown();
    }
    let record = match uploads.store.get(id).await {
        Ok(Some(record)) => record,
        Ok(None) => return unknown(),
        Err(error) => {
            tracing::warn!(error = %crate::observe::Scrubbed(&error), "a kept copy's record could not be read");
            return refused(
                StatusCode::SERVICE_UNAVAILABLE,
                "The storage did not answer; try again in a moment",
            );
        }
    };
    let Some(kept) = record.kept.as_ref().filter(|kept| kept.not_kept.is_none()) else {
        return unknown();
    };
    if record.expired_at(now_seconds()) {
        return refused(
            StatusCode::GONE,
            "This kept copy's time ended and it was deleted",
        );
    }
    if !record.complete {
        return unknown();
    }
    let Ok(mime) = kept.mime.parse::<mime::Mime>() else {
        return unknown();
    };
    crate::uploads::serve::stored_file(uploads, id, &record, &mime, request).await
}
