//! The JSON body of a submit: content type, size limit, and decoding errors
//! that name the field.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, Request};
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

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
        let is_json = request
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split(';').next())
            .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"));
        if !is_json {
            return Err(ApiError::MalformedBody(
                "Content-Type: send the body as application/json".to_owned(),
            ));
        }
        let bytes =
            Bytes::from_request(request, state)
                .await
                .map_err(|rejection: BytesRejection| {
                    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                        ApiError::BodyTooLarge
                    } else {
                        ApiError::MalformedBody(format!("Could not read the body: {rejection}"))
                    }
                })?;
        let mut deserializer = serde_json::Deserializer::from_slice(&bytes);
        match serde_path_to_error::deserialize(&mut deserializer) {
            Ok(value) => Ok(JsonBody(value)),
            Err(error) => {
                let path = error.path().to_string();
                let inner = error.into_inner();
                // Syntax errors mean the body is not JSON; type errors name the field.
                if inner.is_syntax() || inner.is_eof() || path == "." {
                    Err(ApiError::MalformedBody(format!(
                        "The body is not valid JSON: {inner}"
                    )))
                } else {
                    Err(ApiError::InvalidParameter(field_message(&path, &inner)))
                }
            }
        }
    }
}

/// `path: what is wrong`, without serde's "at line 1 column 9" and without
/// repeating the field when the message already starts with it.
fn field_message(path: &str, error: &serde_json::Error) -> String {
    let text = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    let text = text.strip_suffix(&position).unwrap_or(&text);
    if text.starts_with(&format!("{path}:")) {
        text.to_owned()
    } else {
        format!("{path}: {text}")
    }
}
