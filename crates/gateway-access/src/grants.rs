//! What an access key grants for a while: a page's session, a page token.
//! Each is a random secret handed out once and kept only by its SHA-256,
//! naming its person and the key it came from; it ends after its lifetime,
//! when idle too long (if it can be), or as soon as that key is revoked.
//! Kept in the gateway's memory, or with `--redis` in Redis
//! ([`super::shared::grants`]), where every gateway finds it.
//!
//! In memory, giving a grant touches no other: a lookup refuses an ended
//! grant by itself, and ended grants are dropped by a sweep, which keeps
//! the grants in order of when each may end and so looks only at those
//! due. [`super::upkeep`] sweeps the sessions and the page tokens every
//! second.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::keys::{key_hash, random_secret};
use super::now_seconds;
use super::shared::grants::{self as shared, Stored};
use crate::redis_link::RedisLink;
use crate::redis_link::StoreError;

/// Far enough to stand for "never" when a lifetime is past what an
/// [`Instant`] can hold.
const CENTURY: Duration = Duration::from_secs(100 * 365 * 24 * 3_600);

/// A grant's secret as it is handed out (a session's cookie, a page
/// token): shown once, to its page, and never in a log (its `Debug` prints
/// a placeholder).
pub struct GrantSecret(String);

impl GrantSecret {
    /// The secret as written, to hand it to its page.
    pub fn reveal(self) -> String {
        self.0
    }
}

impl std::fmt::Debug for GrantSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GrantSecret(…)")
    }
}

#[derive(Debug, Clone)]
struct Grant {
    name: String,
    key_hash: String,
    created: Instant,
    last_seen: Instant,
    lifetime: Duration,
    /// Its place in [`Here::ends`]: never later than it ends (use only
    /// pushes its end back, and a sweep moves it along then).
    due: Instant,
}

/// The grants kept in this gateway's memory.
#[derive(Debug)]
struct Here {
    grants: HashMap<String, Grant>,
    /// Each grant's `(due, hash)`, earliest first.
    ends: BTreeSet<(Instant, String)>,
}

impl Here {
    /// Drop the grant of `hash`, from the index too.
    fn forget(&mut self, hash: &str) {
        if let Some(grant) = self.grants.remove(hash) {
            self.ends.remove(&(grant.due, hash.to_owned()));
        }
    }
}

/// `wait` after `from`, or a century when that is past what an [`Instant`] holds.
fn after(from: Instant, wait: Duration) -> Instant {
    from.checked_add(wait)
        .or_else(|| from.checked_add(CENTURY))
        .unwrap_or(from)
}

/// Grants of one kind.
pub struct Grants {
    /// What they are (`session`, `token`): their name in Redis.
    kind: &'static str,
    /// Unused this long, a grant ends (`None`: only its lifetime counts).
    idle: Option<Duration>,
    /// Where they are kept.
    kept: Kept,
}

/// Where grants are kept: in this gateway's memory, or with `--redis` in
/// Redis instead, where every gateway finds them.
enum Kept {
    Here(Mutex<Here>),
    Redis(Arc<RedisLink>),
}

/// `change` made to the grants kept here, under their lock.
fn with<T>(here: &Mutex<Here>, change: impl FnOnce(&mut Here) -> T) -> T {
    change(
        &mut here
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    )
}

impl Grants {
    /// Grants of `kind` that end after `idle` without use, if given, kept
    /// in the Redis of `redis` if given, else here.
    pub fn new(
        kind: &'static str,
        idle: Option<Duration>,
        redis: Option<Arc<RedisLink>>,
    ) -> Grants {
        let kept = match redis {
            Some(link) => Kept::Redis(link),
            None => Kept::Here(Mutex::new(Here {
                grants: HashMap::new(),
                ends: BTreeSet::new(),
            })),
        };
        Grants { kind, idle, kept }
    }

    fn alive(&self, grant: &Grant, now: Instant) -> bool {
        now.duration_since(grant.created) < grant.lifetime
            && self
                .idle
                .is_none_or(|idle| now.duration_since(grant.last_seen) < idle)
    }

    /// When `grant` ends unless used again: its lifetime, or sooner its idle time.
    fn ends(&self, grant: &Grant) -> Instant {
        let lifetime = after(grant.created, grant.lifetime);
        self.idle
            .map_or(lifetime, |idle| lifetime.min(after(grant.last_seen, idle)))
    }

    /// Drop the grants ended at `now`; those used since they were placed
    /// go back in order of their new end. Only the grants due are looked at.
    fn sweep_here(&self, here: &mut Here, now: Instant) {
        let mut due = Vec::new();
        while here.ends.first().is_some_and(|(when, _)| *when <= now) {
            if let Some((_, hash)) = here.ends.pop_first() {
                due.push(hash);
            }
        }
        for hash in due {
            let Some(grant) = here.grants.get_mut(&hash) else {
                continue;
            };
            if self.alive(grant, now) {
                grant.due = self.ends(grant);
                here.ends.insert((grant.due, hash));
            } else {
                here.grants.remove(&hash);
            }
        }
    }

    /// The names of the people holding grants kept here.
    pub fn names(&self) -> Vec<String> {
        match &self.kept {
            Kept::Here(here) => with(here, |here| {
                here.grants
                    .values()
                    .map(|grant| grant.name.clone())
                    .collect()
            }),
            Kept::Redis(_) => Vec::new(),
        }
    }

    /// Drop `name`'s grants kept here (forgotten); how many. In Redis
    /// theirs end with their revoked key, on their next use.
    pub fn drop_person(&self, name: &str) -> usize {
        let Kept::Here(here) = &self.kept else {
            return 0;
        };
        with(here, |here| {
            let theirs: Vec<String> = here
                .grants
                .iter()
                .filter(|(_, grant)| grant.name == name)
                .map(|(hash, _)| hash.clone())
                .collect();
            for hash in &theirs {
                here.forget(hash);
            }
            theirs.len()
        })
    }

    /// Drop the grants kept here that have ended (past their lifetime or
    /// idle too long). Redis drops its own.
    pub fn sweep(&self) {
        if let Kept::Here(here) = &self.kept {
            with(here, |here| self.sweep_here(here, Instant::now()));
        }
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
    ) -> Option<GrantSecret> {
        let secret = random_secret(prefix)?;
        let here = match &self.kept {
            Kept::Here(here) => here,
            Kept::Redis(link) => {
                return self
                    .give_shared(link, secret, name, from_key, lifetime)
                    .await
            }
        };
        let now = Instant::now();
        let mut grant = Grant {
            name: name.to_owned(),
            key_hash: from_key.to_owned(),
            created: now,
            last_seen: now,
            lifetime,
            due: now,
        };
        grant.due = self.ends(&grant);
        let hash = key_hash(&secret);
        with(here, |here| {
            here.ends.insert((grant.due, hash.clone()));
            here.grants.insert(hash, grant);
        });
        Some(GrantSecret(secret))
    }

    /// [`Grants::give`] in Redis.
    async fn give_shared(
        &self,
        link: &RedisLink,
        secret: String,
        name: &str,
        from_key: &str,
        lifetime: Duration,
    ) -> Option<GrantSecret> {
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
        kept.inspect_err(|error| tracing::warn!(%error, kind = self.kind, "could not keep a grant"))
            .ok()
            .map(|()| GrantSecret(secret))
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
        let here = match &self.kept {
            Kept::Here(here) => here,
            Kept::Redis(link) => {
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
        };
        let now = Instant::now();
        Ok(with(here, |here| {
            let grant = here.grants.get_mut(&hash)?;
            if !self.alive(grant, now) || !key_alive(&grant.key_hash) {
                here.forget(&hash);
                return None;
            }
            grant.last_seen = now;
            Some(grant.name.clone())
        }))
    }

    /// End the grant of `secret`.
    pub async fn end(&self, secret: &str) -> Result<(), StoreError> {
        let hash = key_hash(secret);
        match &self.kept {
            Kept::Redis(link) => shared::end(&mut link.connection()?, self.kind, &hash).await,
            Kept::Here(here) => {
                with(here, |here| here.forget(&hash));
                Ok(())
            }
        }
    }

    /// Grants alive now (with `--redis`, on every gateway).
    pub async fn count(&self) -> Result<usize, StoreError> {
        match &self.kept {
            Kept::Redis(link) => {
                shared::count(&mut link.connection()?, self.kind, now_seconds()).await
            }
            // Once swept, every grant left is alive: each is due after now.
            Kept::Here(here) => Ok(with(here, |here| {
                self.sweep_here(here, Instant::now());
                here.grants.len()
            })),
        }
    }

    /// Grants held in memory, ended or not.
    #[cfg(test)]
    fn held(&self) -> usize {
        self.with_here(|here| here.grants.len())
    }

    /// `change` made to the grants kept here (a test's are).
    #[cfg(test)]
    fn with_here<T>(&self, change: impl FnOnce(&mut Here) -> T) -> T {
        match &self.kept {
            Kept::Here(here) => with(here, change),
            Kept::Redis(_) => panic!("these grants are kept in Redis"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn person(grants: &Grants, secret: &str, alive: fn(&str) -> bool) -> Option<String> {
        grants.person(secret, alive).await.unwrap()
    }

    async fn give(grants: &Grants, lifetime: Duration) -> String {
        grants
            .give("x_", "ada", "key-a", lifetime)
            .await
            .unwrap()
            .reveal()
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

    #[tokio::test]
    async fn a_give_leaves_other_grants_alone_and_a_sweep_drops_only_the_ended() {
        let minute = Duration::from_secs(60);
        let grants = Grants::new("x", Some(minute), None);
        give(&grants, Duration::ZERO).await;
        give(&grants, Duration::ZERO).await;
        let live = give(&grants, minute).await;
        assert_eq!(grants.held(), 3, "giving looked at no other grant");
        grants.sweep();
        assert_eq!(grants.held(), 1, "the two ended ones are gone");
        assert_eq!(
            person(&grants, &live, |_| true).await.as_deref(),
            Some("ada")
        );
        assert_eq!(grants.with_here(|here| here.ends.len()), 1);
    }

    #[tokio::test]
    async fn a_sweep_keeps_a_grant_used_since_and_drops_it_once_idle() {
        let minute = Duration::from_secs(60);
        let grants = Grants::new("x", Some(minute), None);
        let secret = give(&grants, 60 * minute).await;
        let start = Instant::now();
        // Used 50 s on: idle until 110 s, not 60 s.
        grants.with_here(|here| {
            for grant in here.grants.values_mut() {
                grant.last_seen = start + Duration::from_secs(50);
            }
        });
        grants.with_here(|here| grants.sweep_here(here, start + Duration::from_secs(70)));
        assert_eq!(grants.held(), 1, "used since: kept");
        grants.with_here(|here| grants.sweep_here(here, start + Duration::from_secs(120)));
        assert_eq!(grants.held(), 0, "idle since: gone");
        assert!(grants.with_here(|here| here.ends.is_empty()));
        assert_eq!(person(&grants, &secret, |_| true).await, None);
    }
}
