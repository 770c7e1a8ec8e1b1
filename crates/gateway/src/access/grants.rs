//! What an access key grants for a while: a page's session, a page token.
//! Each is a random secret handed out once and kept only by its SHA-256,
//! naming its person and the key it came from; it ends after its lifetime,
//! when idle too long (if it can be), or as soon as that key is revoked.
//! Kept in the gateway's memory (ended ones go as new ones come), or with
//! `--redis` in Redis ([`super::shared::grants`]), where every gateway
//! finds it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::keys::{key_hash, random_secret};
use super::now_seconds;
use super::shared::grants::{self as shared, Stored};
use crate::redis_link::RedisLink;
use crate::relay::store::StoreError;

#[derive(Debug, Clone)]
struct Grant {
    name: String,
    key_hash: String,
    created: Instant,
    last_seen: Instant,
    lifetime: Duration,
}

/// Grants of one kind.
pub struct Grants {
    /// What they are (`session`, `token`): their name in Redis.
    kind: &'static str,
    here: Mutex<HashMap<String, Grant>>,
    /// Unused this long, a grant ends (`None`: only its lifetime counts).
    idle: Option<Duration>,
    /// Where they are kept instead of here, with `--redis`.
    redis: Option<Arc<RedisLink>>,
}

impl Grants {
    /// Grants of `kind` that end after `idle` without use, if given, kept
    /// in the Redis of `redis` if given, else here.
    pub fn new(
        kind: &'static str,
        idle: Option<Duration>,
        redis: Option<Arc<RedisLink>>,
    ) -> Grants {
        Grants {
            kind,
            here: Mutex::new(HashMap::new()),
            idle,
            redis,
        }
    }

    fn with<T>(&self, change: impl FnOnce(&mut HashMap<String, Grant>) -> T) -> T {
        let mut grants = self
            .here
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        change(&mut grants)
    }

    fn alive(&self, grant: &Grant, now: Instant) -> bool {
        now.duration_since(grant.created) < grant.lifetime
            && self
                .idle
                .is_none_or(|idle| now.duration_since(grant.last_seen) < idle)
    }

    /// A new grant for `name` from the key of hash `from_key`, lasting
    /// `lifetime`: its secret (`prefix` and 256 random bits). `None` when
    /// no randomness or no Redis answers.
    pub async fn give(
        &self,
        prefix: &str,
        name: &str,
        from_key: &str,
        lifetime: Duration,
    ) -> Option<String> {
        let secret = random_secret(prefix)?;
        if let Some(link) = &self.redis {
            let grant = Stored {
                name: name.to_owned(),
                key_hash: from_key.to_owned(),
                created: now_seconds(),
                lifetime: lifetime.as_secs(),
            };
            let kept = match link.connection() {
                Ok(mut connection) => {
                    shared::give(
                        &mut connection,
                        self.kind,
                        &key_hash(&secret),
                        &grant,
                        self.idle,
                    )
                    .await
                }
                Err(error) => Err(error),
            };
            return kept
                .inspect_err(
                    |error| tracing::warn!(%error, kind = self.kind, "could not keep a grant"),
                )
                .ok()
                .map(|()| secret);
        }
        let now = Instant::now();
        self.with(|grants| {
            grants.retain(|_, grant| self.alive(grant, now));
            grants.insert(
                key_hash(&secret),
                Grant {
                    name: name.to_owned(),
                    key_hash: from_key.to_owned(),
                    created: now,
                    last_seen: now,
                    lifetime,
                },
            );
        });
        Some(secret)
    }

    /// The person of `secret`, while its grant is alive and its key is one
    /// `key_alive` still knows; the call counts as use. Fails only when
    /// the Redis it is kept in does not answer.
    pub async fn person(
        &self,
        secret: &str,
        key_alive: impl Fn(&str) -> bool,
    ) -> Result<Option<String>, StoreError> {
        let hash = key_hash(secret);
        if let Some(link) = &self.redis {
            let mut connection = link.connection()?;
            let found =
                shared::look_up(&mut connection, self.kind, &hash, now_seconds(), self.idle)
                    .await?;
            return match found {
                Some(grant) if key_alive(&grant.key_hash) => Ok(Some(grant.name)),
                Some(_) => shared::end(&mut connection, self.kind, &hash)
                    .await
                    .map(|()| None),
                None => Ok(None),
            };
        }
        let now = Instant::now();
        Ok(self.with(|grants| {
            let grant = grants.get_mut(&hash)?;
            if !self.alive(grant, now) || !key_alive(&grant.key_hash) {
                grants.remove(&hash);
                return None;
            }
            grant.last_seen = now;
            Some(grant.name.clone())
        }))
    }

    /// End the grant of `secret`.
    pub async fn end(&self, secret: &str) -> Result<(), StoreError> {
        let hash = key_hash(secret);
        match &self.redis {
            Some(link) => shared::end(&mut link.connection()?, self.kind, &hash).await,
            None => {
                self.with(|grants| grants.remove(&hash));
                Ok(())
            }
        }
    }

    /// Grants alive now (with `--redis`, on every gateway).
    pub async fn count(&self) -> Result<usize, StoreError> {
        if let Some(link) = &self.redis {
            return shared::count(&mut link.connection()?, self.kind, now_seconds()).await;
        }
        let now = Instant::now();
        Ok(self.with(|grants| {
            grants
                .values()
                .filter(|grant| self.alive(grant, now))
                .count()
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn person(grants: &Grants, secret: &str, alive: fn(&str) -> bool) -> Option<String> {
        grants.person(secret, alive).await.unwrap()
    }

    async fn give(grants: &Grants, lifetime: Duration) -> String {
        grants.give("x_", "ada", "key-a", lifetime).await.unwrap()
    }

    #[tokio::test]
    async fn a_grant_names_its_person_until_it_ends_idles_or_its_key_goes() {
        let minute = Duration::from_secs(60);
        let grants = Grants::new("x", Some(minute), None);
        let secret = give(&grants, minute).await;
        assert!(secret.starts_with("x_") && secret.len() == 45);
        assert_eq!(
            person(&grants, &secret, |_| true).await.as_deref(),
            Some("ada")
        );
        assert_eq!(person(&grants, "x_forged", |_| true).await, None);
        assert_eq!(grants.count().await.unwrap(), 1);
        assert_eq!(
            person(&grants, &secret, |key| key != "key-a").await,
            None,
            "the key revoked"
        );
        assert_eq!(
            person(&grants, &secret, |_| true).await,
            None,
            "and gone for good"
        );
        let short = give(&grants, Duration::ZERO).await;
        assert_eq!(
            person(&grants, &short, |_| true).await,
            None,
            "past its lifetime"
        );
        let idle = Grants::new("x", Some(Duration::ZERO), None);
        let unused = give(&idle, minute).await;
        assert_eq!(
            person(&idle, &unused, |_| true).await,
            None,
            "idle too long"
        );
        let ended = give(&grants, minute).await;
        grants.end(&ended).await.unwrap();
        assert_eq!(person(&grants, &ended, |_| true).await, None);
    }
}
