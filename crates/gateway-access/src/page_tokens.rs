//! Short-lived page tokens: what another site's server hands its pages
//! instead of an access key (the pattern of Stripe's ephemeral keys). The
//! host's server sends `POST /tokens` with its key and gets `{ token,
//! expiresAt }`; the page sends the token as `Authorization: Bearer mgt_…`
//! (the widgets' and the client's `getToken` fetch a new one from the host
//! when the last expires). A token is a [`Grants`] secret: it names its
//! person and ends after its lifetime or as soon as its key is revoked.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use super::grants::Grants;
use crate::redis_link::RedisLink;
use crate::redis_link::StoreError;

/// What every page token starts with.
pub const TOKEN_PREFIX: &str = media_gen_api::relay::PAGE_TOKEN_PREFIX;

/// How long a page token lasts.
pub const TOKEN_LIFETIME: Duration = Duration::from_secs(10 * 60);

/// The page tokens given out: by this gateway, or with `--redis` by any.
pub struct PageTokens(Grants);

/// A token given out: itself, and when it ends (RFC 3339).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Given {
    /// `mgt_…`.
    pub token: String,
    /// When it stops working, e.g. `2026-11-26T05:30:00Z`.
    #[serde(rename = "expiresAt")]
    pub expires_at: String,
}

impl PageTokens {
    /// The tokens, kept in the Redis of `redis` if given, else here.
    pub fn new(redis: Option<Arc<RedisLink>>) -> PageTokens {
        PageTokens(Grants::new("token", None, redis))
    }

    /// A new token for `name`, from the key of hash `from_key`, lasting `lifetime`.
    pub async fn give(&self, name: &str, from_key: &str, lifetime: Duration) -> Option<Given> {
        let token = self
            .0
            .give(TOKEN_PREFIX, name, from_key, lifetime)
            .await?
            .reveal();
        let expires_at =
            humantime::format_rfc3339_seconds(SystemTime::now() + lifetime).to_string();
        Some(Given { token, expires_at })
    }

    /// Drop the tokens kept here that have ended.
    pub fn sweep(&self) {
        self.0.sweep();
    }

    /// The grants underneath, for what every kind does alike.
    pub fn grants(&self) -> &Grants {
        &self.0
    }

    /// The person of `token`, while it lasts and its key is one
    /// `key_alive` still knows. Fails only when the Redis tokens are kept
    /// in does not answer.
    pub async fn person(
        &self,
        token: &str,
        key_alive: impl Fn(&str) -> bool,
    ) -> Result<Option<String>, StoreError> {
        self.0.person(token, key_alive).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_token_is_shaped_and_says_when_it_ends() {
        let tokens = PageTokens::new(None);
        let given = tokens
            .give("ada", "key-a", Duration::from_secs(60))
            .await
            .unwrap();
        assert!(given.token.starts_with(TOKEN_PREFIX) && given.token.len() == 47);
        assert!(given.expires_at.ends_with('Z'), "{}", given.expires_at);
        assert_eq!(
            tokens
                .person(&given.token, |_| true)
                .await
                .unwrap()
                .as_deref(),
            Some("ada")
        );
    }
}
