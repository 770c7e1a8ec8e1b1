//! What every call on the library shares: its state (`KeptLibrary`), the
//! person a call is from, an answer in the service's envelope, a body
//! read, and a failed database call said and counted.

use std::sync::Arc;

use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;

use super::Library;
use crate::access::admission::Admitted;
use crate::access::Who;
use crate::refusal::Refusal;
use media_gen_gateway_base::offered::Offered;

/// The library a gateway keeps, if any: the routes' state.
#[derive(Clone, Default)]
pub struct KeptLibrary(pub Option<Arc<Library>>);

impl Offered for KeptLibrary {
    type Part = Arc<Library>;
    type Off = Refusal;

    /// The library, when this site keeps one; 404 otherwise.
    fn part(self) -> Result<Arc<Library>, Refusal> {
        self.0.ok_or(Refusal::NotFound)
    }
}

/// The person a call let in is from; an address (open mode) has no
/// library (404).
pub fn person(admitted: Admitted) -> Result<Arc<str>, Refusal> {
    match admitted.who {
        Who::Person(name) => Ok(name),
        Who::Address(_) => Err(Refusal::NotFound),
    }
}

/// `data` in the service's envelope, as the gateway's other answers are.
pub fn answer(data: impl serde::Serialize) -> Response {
    Json(media_gen_api::Envelope::success(
        media_gen_api::envelope::MSG_OK,
        data,
    ))
    .into_response()
}

/// A failed call of the database: 503, said in the log and counted.
pub fn unavailable(error: super::database::DbError) -> Refusal {
    tracing::error!(%error, "the library failed a call");
    metrics::counter!(crate::observe::LIBRARY_FAILURES).increment(1);
    Refusal::Unavailable
}

/// `body` read as `T`, or a 400 naming what is wrong.
pub fn read<T: DeserializeOwned>(body: &[u8]) -> Result<T, Refusal> {
    serde_json::from_slice(body).map_err(|error| Refusal::Invalid(format!("the body: {error}")))
}
