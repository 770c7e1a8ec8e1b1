//! Bearer authentication for `/v1/*`.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::middleware::Next;
use axum::response::Response;
use subtle::ConstantTimeEq;

use crate::error::{ApiError, Refusal};

/// The tokens the sandbox accepts.
#[derive(Debug, Clone)]
pub struct Tokens(Arc<[String]>);

impl Tokens {
    /// Accept exactly these tokens.
    pub fn new(tokens: &[String]) -> Self {
        Self(tokens.iter().filter(|t| !t.is_empty()).cloned().collect())
    }

    /// Whether `candidate` is one of the accepted tokens. Every token is
    /// compared in constant time, so timing does not reveal how close a guess was.
    pub fn accepts(&self, candidate: &str) -> bool {
        self.0.iter().fold(false, |found, token| {
            found | bool::from(token.as_bytes().ct_eq(candidate.as_bytes()))
        })
    }
}

/// Middleware: let the request through only with `Authorization: Bearer <accepted token>`.
pub async fn require_bearer(
    State(tokens): State<Tokens>,
    request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let token = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(str::trim);
    match token {
        Some(token) if tokens.accepts(token) => Ok(next.run(request).await),
        _ => Err(ApiError(Refusal::Unauthorized)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_only_configured_tokens() {
        let tokens = Tokens::new(&["a-token".into(), "other".into()]);
        assert!(tokens.accepts("a-token"));
        assert!(tokens.accepts("other"));
        assert!(!tokens.accepts("a-toke"));
        assert!(!tokens.accepts(""));
    }

    #[test]
    fn an_empty_configured_token_never_matches() {
        let tokens = Tokens::new(&[String::new()]);
        assert!(!tokens.accepts(""));
    }
}
