//! How a client reaches the service.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::time::Duration;

use media_gen_api::retry::RetryPolicy;

/// A function that supplies a token for each request (for tokens that expire).
pub type TokenProvider = Rc<dyn Fn() -> Pin<Box<dyn Future<Output = Option<String>>>>>;

/// Where the bearer token comes from.
#[derive(Clone, Default)]
pub enum Auth {
    /// No `Authorization` header: for a same-origin proxy that adds the token
    /// server-side, so no token is ever in the page.
    #[default]
    None,
    /// This token.
    Token(String),
    /// Ask this function before each request.
    Provider(TokenProvider),
}

impl std::fmt::Debug for Auth {
    // Never print a token.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Auth::None => "Auth::None",
            Auth::Token(_) => "Auth::Token(<hidden>)",
            Auth::Provider(_) => "Auth::Provider(<function>)",
        })
    }
}

/// Everything a [`crate::Client`] needs.
#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// The service's base URL, without `/v1` (a trailing slash is ignored).
    pub base_url: String,
    /// Where the token comes from.
    pub auth: Auth,
    /// Each attempt is abandoned after this long (fetch has no timeout of its own).
    pub attempt_timeout: Duration,
    /// A call, retries included, gives up after this long.
    pub deadline: Duration,
    /// When to retry.
    pub retry: RetryPolicy,
}

impl ClientOptions {
    /// Options for `base_url` with `auth`: 30 s per attempt, 2 minutes per
    /// call, the default retry policy.
    pub fn new(base_url: impl Into<String>, auth: Auth) -> Self {
        ClientOptions {
            base_url: base_url.into().trim_end_matches('/').to_owned(),
            auth,
            attempt_timeout: Duration::from_secs(30),
            deadline: Duration::from_secs(120),
            retry: RetryPolicy::default(),
        }
    }
}
