//! The JSON body of a submit: content type, size limit, and decoding errors
//! that name the field (the contract's `submit_body`).

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, Request};
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

use crate::error::{ApiError, Refusal};

/// The largest body the sandbox reads.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// A request body decoded from `application/json`.
pub struct JsonBody<T>(pub T);

impl<S, T> FromRequest<S> for JsonBody<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let content_type = request
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|value| value.to_str().ok());
        if !media_gen_api::service::calls::is_json(content_type) {
            return Err(ApiError(Refusal::not_json()));
        }
        let bytes =
            Bytes::from_request(request, state)
                .await
                .map_err(|rejection: BytesRejection| {
                    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                        ApiError(Refusal::BodyTooLarge)
                    } else {
                        ApiError(Refusal::MalformedBody(format!(
                            "Could not read the body: {rejection}"
                        )))
                    }
                })?;
        media_gen_api::submit_body::read_json_body(&bytes)
            .map(JsonBody)
            .map_err(|problem| ApiError(Refusal::from(problem)))
    }
}
