//! The parts of a gateway a deployment may leave off (uploads, the relay,
//! the library): a route of such a part takes [`On`], which answers for
//! it (a 404, as for any path not served) before the call is let in, so
//! asking for what is not there counts against no budget.

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::response::IntoResponse;

/// A part of the state a route needs, which a gateway may not have.
pub trait Offered: Sized {
    /// What the route gets when the part is there.
    type Part;
    /// The answer when it is not.
    type Off: IntoResponse;
    /// The part, or the answer that it is off.
    fn part(self) -> Result<Self::Part, Self::Off>;
}

/// The part `T` of the state, there: see the module.
pub struct On<T: Offered>(pub T::Part);

impl<S, T> FromRequestParts<S> for On<T>
where
    T: Offered + FromRef<S>,
    S: Send + Sync,
{
    type Rejection = T::Off;

    async fn from_request_parts(_: &mut Parts, state: &S) -> Result<On<T>, T::Off> {
        T::from_ref(state).part().map(On)
    }
}
