//! Why an upload call is refused: each with its status, the contract's
//! error envelope and a message naming the header or rule. A refusal keeps
//! nothing of a file that broke a rule.

use std::time::Duration;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use media_gen_api::media_type::MediaRefusal;
use media_gen_api::{error_codes, ErrorEnvelope};

use super::TUS_RESUMABLE;
use media_gen_gateway_base::refusal::retry_after_seconds;

/// An upload call refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UploadRefusal {
    /// Uploads are off on this gateway.
    #[error("Uploads are off on this gateway")]
    Off,
    /// No such upload (or never one).
    #[error("No upload at this address")]
    Unknown,
    /// The upload is not complete: nothing to serve yet.
    #[error("This upload is not complete yet")]
    Incomplete,
    /// The upload expired and its bytes are deleted.
    #[error("This upload expired and was deleted; upload the file again")]
    Expired,
    /// A tus header is missing or does not read.
    #[error("{0}")]
    Header(String),
    /// Not tus 1.0.0.
    #[error("Tus-Resumable: this server speaks tus 1.0.0")]
    Version,
    /// The declared length is over every bound.
    #[error("Upload-Length: at most {max} bytes (a video; images at most {images}); this file has {length}")]
    TooLong {
        /// The declared length.
        length: u64,
        /// The largest video.
        max: u64,
        /// The largest image.
        images: u64,
    },
    /// More bytes than declared.
    #[error("the body goes past Upload-Length ({0} bytes)")]
    PastLength(u64),
    /// The file is not one the service takes, or too large for its type.
    #[error("{0}")]
    Media(#[from] MediaRefusal),
    /// A PATCH at an offset that is not the upload's.
    #[error("Upload-Offset: the upload is at {0}; send from there (HEAD says it)")]
    WrongOffset(u64),
    /// The body is not `application/offset+octet-stream`.
    #[error("Content-Type: application/offset+octet-stream")]
    ContentType,
    /// Another PATCH of this upload is under way.
    #[error("This upload is being written by another request; try again")]
    Locked,
    /// The uploads' storage has no room for it.
    #[error("The upload storage is full: {used} of its {quota} bytes are in use, and this file needs {length} more; try again later or a smaller file")]
    Full {
        /// The bytes still to come.
        length: u64,
        /// The bytes in use (what has arrived, and what uploads under way
        /// have reserved).
        used: u64,
        /// `--upload-quota`.
        quota: u64,
    },
    /// This person's uploads in flight are as many as may be.
    #[error("You have {0} uploads under way; finish or cancel one first")]
    TooManyInFlight(usize, Duration),
    /// This person's bytes of the day are used.
    #[error("Your {0} bytes of uploads of today are used; more from midnight UTC (after Retry-After seconds)")]
    BytesOfTheDayUsed(u64, Duration),
    /// Another person's upload.
    #[error("This upload is someone else's")]
    NotYours,
    /// The body came slower than the gateway takes (what arrived is kept:
    /// HEAD says where to go on from).
    #[error("The bytes came too slowly and the request was ended; what arrived is kept, go on from Upload-Offset (HEAD says it)")]
    TooSlow,
    /// The folder, the object storage or Redis failed or did not answer
    /// (what happened is in the gateway's log, not in the answer).
    #[error("The upload storage did not answer; try again in a moment")]
    Storage,
}

impl UploadRefusal {
    /// A storage failure, said in the log; the caller is told to try again.
    pub fn storage(error: std::io::Error) -> UploadRefusal {
        tracing::warn!(error = %crate::observe::Scrubbed(&error), "an upload's storage failed");
        UploadRefusal::Storage
    }

    fn status(&self) -> (StatusCode, i64) {
        match self {
            UploadRefusal::Off | UploadRefusal::Unknown | UploadRefusal::Incomplete => {
                (StatusCode::NOT_FOUND, error_codes::NOT_FOUND)
            }
            UploadRefusal::Expired => (StatusCode::GONE, error_codes::GONE),
            UploadRefusal::Header(_) => (StatusCode::BAD_REQUEST, error_codes::INVALID_PARAMETER),
            UploadRefusal::Version => (
                StatusCode::PRECONDITION_FAILED,
                error_codes::INVALID_PARAMETER,
            ),
            UploadRefusal::TooLong { .. }
            | UploadRefusal::PastLength(_)
            | UploadRefusal::Media(MediaRefusal::TooLarge { .. }) => {
                (StatusCode::PAYLOAD_TOO_LARGE, error_codes::BODY_TOO_LARGE)
            }
            UploadRefusal::Media(MediaRefusal::NotMedia) | UploadRefusal::ContentType => (
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                error_codes::INVALID_PARAMETER,
            ),
            UploadRefusal::WrongOffset(_) => (StatusCode::CONFLICT, error_codes::INVALID_PARAMETER),
            UploadRefusal::Locked => (StatusCode::LOCKED, error_codes::BUSY),
            UploadRefusal::Full { .. } => {
                (StatusCode::INSUFFICIENT_STORAGE, error_codes::UNAVAILABLE)
            }
            UploadRefusal::TooManyInFlight(..) | UploadRefusal::BytesOfTheDayUsed(..) => {
                (StatusCode::TOO_MANY_REQUESTS, error_codes::RATE_LIMITED)
            }
            UploadRefusal::NotYours => (StatusCode::FORBIDDEN, error_codes::UNAUTHORIZED),
            UploadRefusal::Storage => (StatusCode::SERVICE_UNAVAILABLE, error_codes::UNAVAILABLE),
            UploadRefusal::TooSlow => (StatusCode::REQUEST_TIMEOUT, error_codes::MALFORMED_BODY),
        }
    }
}

impl IntoResponse for UploadRefusal {
    fn into_response(self) -> Response {
        let (status, code) = self.status();
        let mut response =
            (status, Json(ErrorEnvelope::new(code, self.to_string()))).into_response();
        let headers = response.headers_mut();
        headers.insert(TUS_RESUMABLE, HeaderValue::from_static("1.0.0"));
        if self == UploadRefusal::Version {
            headers.insert("tus-version", HeaderValue::from_static("1.0.0"));
        }
        if let UploadRefusal::TooManyInFlight(_, wait) | UploadRefusal::BytesOfTheDayUsed(_, wait) =
            &self
        {
            headers.insert(
                header::RETRY_AFTER,
                HeaderValue::from(retry_after_seconds(*wait)),
            );
        }
        if self == UploadRefusal::Storage {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(2));
        }
        response
    }
}
