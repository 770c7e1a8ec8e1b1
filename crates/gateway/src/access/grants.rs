//! What an access key grants for a while: a page's session, a page token.
//! Each is a random secret handed out once and kept only by its SHA-256,
//! naming its person and the key it came from; it ends after its lifetime,
//! when idle too long (if it can be), or as soon as that key is revoked.
//! Kept in the gateway's memory; ended ones go as new ones come.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::keys::{key_hash, random_secret};

#[derive(Debug, Clone)]
struct Grant {
    name: String,
    key_hash: String,
    created: Instant,
    last_seen: Instant,
    lifetime: Duration,
}

/// Grants of one kind.
#[derive(Debug)]
pub struct Grants {
    by_hash: Mutex<HashMap<String, Grant>>,
    /// Unused this long, a grant ends (`None`: only its lifetime counts).
    idle: Option<Duration>,
}

impl Grants {
    /// Grants that end after `idle` without use, if given.
    pub fn new(idle: Option<Duration>) -> Grants {
        Grants {
            by_hash: Mutex::new(HashMap::new()),
            idle,
        }
    }

    fn with<T>(&self, change: impl FnOnce(&mut HashMap<String, Grant>) -> T) -> T {
        let mut grants = self
            .by_hash
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
    /// `lifetime`: its secret (`prefix` and 256 random bits).
    pub fn give(
        &self,
        prefix: &str,
        name: &str,
        from_key: &str,
        lifetime: Duration,
    ) -> Option<String> {
        let secret = random_secret(prefix)?;
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
    /// `key_alive` still knows; the call counts as use.
    pub fn person(&self, secret: &str, key_alive: impl Fn(&str) -> bool) -> Option<String> {
        let now = Instant::now();
        self.with(|grants| {
            let hash = key_hash(secret);
            let grant = grants.get_mut(&hash)?;
            if !self.alive(grant, now) || !key_alive(&grant.key_hash) {
                grants.remove(&hash);
                return None;
            }
            grant.last_seen = now;
            Some(grant.name.clone())
        })
    }

    /// End the grant of `secret`.
    pub fn end(&self, secret: &str) {
        self.with(|grants| grants.remove(&key_hash(secret)));
    }

    /// Grants alive now.
    pub fn count(&self) -> usize {
        let now = Instant::now();
        self.with(|grants| {
            grants
                .values()
                .filter(|grant| self.alive(grant, now))
                .count()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grant_names_its_person_until_it_ends_idles_or_its_key_goes() {
        let grants = Grants::new(Some(Duration::from_secs(60)));
        let secret = grants
            .give("x_", "ada", "key-a", Duration::from_secs(60))
            .unwrap();
        assert!(secret.starts_with("x_") && secret.len() == 45);
        assert_eq!(grants.person(&secret, |_| true).as_deref(), Some("ada"));
        assert_eq!(grants.person("x_forged", |_| true), None);
        assert_eq!(grants.count(), 1);
        assert_eq!(
            grants.person(&secret, |key| key != "key-a"),
            None,
            "the key revoked"
        );
        assert_eq!(grants.person(&secret, |_| true), None, "and gone for good");
        let short = grants.give("x_", "ada", "key-a", Duration::ZERO).unwrap();
        assert_eq!(grants.person(&short, |_| true), None, "past its lifetime");
        let idle = Grants::new(Some(Duration::ZERO));
        let unused = idle
            .give("x_", "ada", "key-a", Duration::from_secs(60))
            .unwrap();
        assert_eq!(idle.person(&unused, |_| true), None, "idle too long");
        let ended = grants
            .give("x_", "ada", "key-a", Duration::from_secs(60))
            .unwrap();
        grants.end(&ended);
        assert_eq!(grants.person(&ended, |_| true), None);
    }
}
