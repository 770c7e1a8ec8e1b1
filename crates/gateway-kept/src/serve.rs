//! A kept copy served at its own address, as an upload is
//! ([`media_gen_gateway_uploads::serve::stored_file`]): its type, `Range`, an `ETag`,
//! and headers that keep a browser from running it as a page of this site.

use axum::extract::{Path, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use media_gen_api::{error_codes, ErrorEnvelope};
use media_gen_gateway_uploads::FileId;

use crate::access::now_seconds;
use media_gen_gateway_uploads::TakenUploads;

/// `GET`/`HEAD /kept/{id}`.
pub async fn file(
    State(state): State<TakenUploads>,
    Path(id): Path<String>,
    request: Request,
) -> Result<Response, Refused> {
    serve(&state, &id, request).await
}

/// `GET`/`HEAD /kept/{id}/{name}` (the name is for a download; the copy
/// is the id's whatever it says).
pub async fn named(
    State(state): State<TakenUploads>,
    Path((id, _name)): Path<(String, String)>,
    request: Request,
) -> Result<Response, Refused> {
    serve(&state, &id, request).await
}

/// Why no copy is served: its status, the envelope's code and what it says.
pub struct Refused(StatusCode, i64, &'static str);

/// No kept copy at the address asked (or not one to show).
const UNKNOWN: Refused = Refused(
    StatusCode::NOT_FOUND,
    error_codes::NOT_FOUND,
    "No kept file at this address",
);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let Refused(status, code, message) = self;
        (status, Json(ErrorEnvelope::new(code, message.to_owned()))).into_response()
    }
}

async fn serve(state: &TakenUploads, id: &str, request: Request) -> Result<Response, Refused> {
    let uploads = state.0.as_deref().ok_or(UNKNOWN)?;
    let id = &FileId::parse(id).ok_or(UNKNOWN)?;
    let record = uploads
        .store
        .get(id)
        .await
        .map_err(|error| {
            tracing::warn!(error = %crate::observe::Scrubbed(&error), "a kept copy's record could not be read");
            Refused(
                StatusCode::SERVICE_UNAVAILABLE,
                error_codes::UNAVAILABLE,
                "The storage did not answer; try again in a moment",
            )
        })?
        .ok_or(UNKNOWN)?;
    let kept = record
        .kept
        .as_ref()
        .filter(|kept| kept.not_kept.is_none())
        .ok_or(UNKNOWN)?;
    if record.expired_at(now_seconds()) {
        return Err(Refused(
            StatusCode::GONE,
            error_codes::GONE,
            "This kept copy's time ended and it was deleted",
        ));
    }
    if !record.complete {
        return Err(UNKNOWN);
    }
    let mime = kept.mime.parse::<mime::Mime>().map_err(|_| UNKNOWN)?;
    Ok(media_gen_gateway_uploads::serve::stored_file(uploads, id, &record, &mime, request).await)
}
