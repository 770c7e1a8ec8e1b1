//! Short-lived page tokens: what another site's server hands its pages
//! instead of an access key (the pattern of Stripe's ephemeral keys). The
//! host's server sends `POST /tokens` with its key and gets `{ token,
//! expiresAt }`; the page sends the token as `Authorization: Bearer mgt_…`
//! (the widgets' and the client's `getToken` fetch a new one from the host
//! when the last expires). A token is 256 random bits, names its person,
//! and ends after its lifetime or as soon as the key it came from is revoked.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use base64::Engine;

use super::keys::key_hash;

/// What every page token starts with.
pub const TOKEN_PREFIX: &str = "mgt_";

/// How long a page token lasts.
pub const TOKEN_LIFETIME: Duration = Duration::from_secs(10 * 60);

#[derive(Debug, Clone)]
struct PageToken {
    name: String,
    key_hash: String,
    expires: Instant,
}

/// The page tokens this gateway gave out.
#[derive(Debug, Default)]
pub struct PageTokens {
    by_hash: Mutex<HashMap<String, PageToken>>,
}

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
    fn with<T>(&self, change: impl FnOnce(&mut HashMap<String, PageToken>) -> T) -> T {
        let mut tokens = self
            .by_hash
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        change(&mut tokens)
    }

    /// A new token for `name`, from the key of hash `from_key`, lasting `lifetime`.
    pub fn give(&self, name: &str, from_key: &str, lifetime: Duration) -> Option<Given> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).ok()?;
        let token = format!(
            "{TOKEN_PREFIX}{}",
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
        );
        let now = Instant::now();
        self.with(|tokens| {
            tokens.retain(|_, token| token.expires > now);
            tokens.insert(
                key_hash(&token),
                PageToken {
                    name: name.to_owned(),
                    key_hash: from_key.to_owned(),
                    expires: now + lifetime,
                },
            );
        });
        let expires_at =
            humantime::format_rfc3339_seconds(SystemTime::now() + lifetime).to_string();
        Some(Given { token, expires_at })
    }

    /// The person of `token`, while it lasts and its key is one
    /// `key_alive` still knows.
    pub fn person(&self, token: &str, key_alive: impl Fn(&str) -> bool) -> Option<String> {
        let now = Instant::now();
        self.with(|tokens| {
            let hash = key_hash(token);
            let found = tokens.get(&hash)?;
            if found.expires <= now || !key_alive(&found.key_hash) {
                tokens.remove(&hash);
                return None;
            }
            Some(found.name.clone())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_names_its_person_until_it_expires_or_its_key_goes() {
        let tokens = PageTokens::default();
        let given = tokens
            .give("ada", "key-a", Duration::from_secs(60))
            .unwrap();
        assert!(given.token.starts_with(TOKEN_PREFIX) && given.token.len() == 47);
        assert!(given.expires_at.ends_with('Z'), "{}", given.expires_at);
        assert_eq!(
            tokens.person(&given.token, |_| true).as_deref(),
            Some("ada")
        );
        assert_eq!(tokens.person("mgt_forged", |_| true), None);
        assert_eq!(
            tokens.person(&given.token, |key| key != "key-a"),
            None,
            "the key revoked"
        );
        let short = tokens.give("ada", "key-a", Duration::ZERO).unwrap();
        assert_eq!(tokens.person(&short.token, |_| true), None, "expired");
    }
}
