//! Who may spend the owner's service (`--access`). `open`: anyone, each
//! address with its own budgets. `keys`: holders of an access key the
//! owner handed out (`media-gen-gateway keys add NAME`), sent as
//! `Authorization: Bearer mgk_…` by programs, or exchanged once for a
//! session cookie by a page (`POST /session`); the budgets count per
//! person, and each person has a number of tasks a day. `proxy`: the
//! person an auth proxy in front names in a header (nginx `auth_basic`,
//! oauth2-proxy), believed only from `--trusted-proxy` addresses. Every
//! `/v1` and `/events` call asks [`Access::who`] first; health, metrics,
//! `/capabilities` and the service's callbacks do not. The keys, sessions,
//! page tokens and each person's use live in this gateway (the keys and
//! use in files under `--data-dir`) or, with `--redis`, in Redis, shared
//! by every gateway behind a balancer ([`shared`]).

pub mod admission;
pub mod budgets;
pub mod database;
pub mod forgotten;
pub mod grants;
pub mod key_file;
pub mod key_store;
pub mod keys;
pub mod page_tokens;
pub mod person_usage;
pub mod same_site;
pub mod sessions;
pub mod shared;
pub mod shared_budgets;
pub mod sign_in;
pub mod usage;

use std::collections::HashMap;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime};

use axum::http::{header, HeaderMap};
use governor::clock::{Clock, DefaultClock};
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

pub(crate) use media_gen_gateway_base::{
    client_address, observe, private_files, redis_link, refusal,
};

use crate::client_address::visitor;
use crate::redis_link::RedisLink;
use crate::refusal::Refusal;
use key_file::KeyFile;
use key_store::KeyStore;
use keys::{AccessKey, KeyError, KeyRecord};
use usage::Usage;

pub use media_gen_api::relay::AccessMode;

/// Whose budget a call counts against.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Who {
    /// A visitor, by address (an IPv6 visitor by their /64).
    Address(IpAddr),
    /// A person, by the name their key was given to.
    Person(Arc<str>),
}

impl std::fmt::Display for Who {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Who::Address(address) => write!(f, "{address}"),
            Who::Person(name) => write!(f, "person:{name}"),
        }
    }
}

impl Who {
    /// `Who` back from its text ([`std::fmt::Display`]), as a store kept
    /// it: `person:NAME` or an address.
    pub fn from_text(text: &str) -> Option<Who> {
        match text.strip_prefix("person:") {
            Some(name) if !name.is_empty() => Some(Who::Person(Arc::from(name))),
            Some(_) => None,
            None => text.parse().ok().map(Who::Address),
        }
    }

    /// The person's name, for a person.
    pub fn person(&self) -> Option<&str> {
        match self {
            Who::Person(name) => Some(name),
            Who::Address(_) => None,
        }
    }
}

/// Wrong keys one address may send per minute before it is refused (429).
const GUESSES_PER_MINUTE: u32 = 10;

/// How often the keys are read again (a revoked key stops working within
/// this, on every gateway).
pub const KEYS_RELOAD: Duration = Duration::from_secs(1);

type Guesses = RateLimiter<IpAddr, DefaultKeyedStateStore<IpAddr>, DefaultClock>;

/// The keys as last read, by hash, and the key file's state when read.
#[derive(Debug, Default)]
struct Ring {
    by_hash: HashMap<String, KeyRecord>,
    /// The file's modification time, length and inode when read (each
    /// write renames a new file in: a new inode); `None` for Redis, read
    /// every time.
    seen: Option<(SystemTime, u64, u64)>,
}

/// The gateway's access rule and what it needs.
pub struct Access {
    mode: AccessMode,
    keys: Option<KeyStore>,
    ring: RwLock<Ring>,
    usage: Usage,
    tasks_per_day: u32,
    guesses: Guesses,
    clock: DefaultClock,
    sessions: sessions::Sessions,
    user_header: axum::http::HeaderName,
    trusted: Vec<ipnet::IpNet>,
    page_tokens: page_tokens::PageTokens,
    token_lifetime: Duration,
    allowed_origins: Vec<String>,
    keeps_library: bool,
}

/// How the access rule is set up (the flags).
#[derive(Debug, Clone)]
pub struct AccessSettings {
    /// Who may use the gateway.
    pub mode: AccessMode,
    /// Where keys and use are kept without `--redis`.
    pub data_dir: Option<PathBuf>,
    /// Whether `--redis` is given: keys, sessions, page tokens and use are
    /// kept there.
    pub redis: bool,
    /// Whether a library is kept: the keys are then kept in its database.
    pub library: bool,
    /// Tasks a person may create per day unless their key says.
    pub tasks_per_day: u32,
    /// The header an auth proxy names the person in (`proxy` mode).
    pub user_header: String,
    /// Proxies whose headers are believed.
    pub trusted: Vec<ipnet::IpNet>,
    /// Other sites whose pages may call (`--allow-origin`).
    pub allowed_origins: Vec<String>,
    /// How long a page token lasts.
    pub token_lifetime: Duration,
}

pub use media_gen_gateway_base::clock::now_seconds;

impl AccessSettings {
    /// Whether the flags go together, and the key file (if keys are kept in
    /// one) reads: the header the person is named in, or the refusal that
    /// names the flag to fix.
    pub fn check(&self) -> Result<axum::http::HeaderName, String> {
        match (self.mode, &self.data_dir, self.redis || self.library) {
            (AccessMode::Keys, None, false) => {
                return Err(
                    "--access keys needs --data-dir, where the keys are kept (or --library, or --redis)"
                        .to_owned(),
                )
            }
            (AccessMode::Keys, Some(dir), _) if !self.redis => {
                KeyFile::new(dir)
                    .load()
                    .map_err(|error| error.to_string())?;
            }
            _ => {}
        }
        if self.mode == AccessMode::Proxy && self.trusted.is_empty() {
            return Err("--access proxy needs --trusted-proxy: the auth proxy whose --user-header is believed".to_owned());
        }
        axum::http::HeaderName::try_from(self.user_header.as_str())
            .map_err(|_| format!("--user-header {:?} is not a header name", self.user_header))
    }
}

impl Access {
    /// The rule of `settings`, its keys read; keys, grants and use kept in
    /// the Redis of `redis` when given (a Redis not answering yet is read
    /// within a second of answering). Fails on flags that do not go
    /// together or a key file that cannot be read.
    pub async fn new(
        settings: &AccessSettings,
        redis: Option<Arc<RedisLink>>,
        library: Option<Arc<dyn database::PeopleDatabase>>,
    ) -> Result<Access, String> {
        let user_header = settings.check()?;
        let data_dir = settings.data_dir.as_deref();
        let keys = match (settings.mode, &redis, data_dir) {
            (AccessMode::Keys, _, dir) if library.is_some() => {
                let library = library.clone().ok_or("no library")?;
                key_store::move_into(library.as_ref(), dir, redis.as_ref(), now_seconds())
                    .await
                    .map_err(|error| error.to_string())?;
                Some(KeyStore::Library(library))
            }
            (AccessMode::Keys, Some(link), dir) => {
                if let Some(dir) = dir.filter(|dir| KeyFile::new(dir).path().exists()) {
                    tracing::warn!(
                        dir = %dir.display(),
                        "keys are kept in redis with --redis: the key file under --data-dir is not read"
                    );
                }
                Some(KeyStore::Redis(Arc::clone(link)))
            }
            (AccessMode::Keys, None, Some(dir)) => Some(KeyStore::File(KeyFile::new(dir))),
            _ => None,
        };
        let access = Access {
            mode: settings.mode,
            keys,
            ring: RwLock::new(Ring::default()),
            usage: match (&library, settings.mode) {
                (Some(library), AccessMode::Keys | AccessMode::Proxy) => {
                    Usage::in_library(Arc::clone(library), redis.clone()).await
                }
                _ => Usage::new(data_dir.map(Usage::file), redis.clone()),
            },
            tasks_per_day: settings.tasks_per_day,
            guesses: RateLimiter::keyed(Quota::per_minute(
                std::num::NonZeroU32::new(GUESSES_PER_MINUTE).unwrap_or(std::num::NonZeroU32::MIN),
            )),
            clock: DefaultClock::default(),
            sessions: sessions::Sessions::new(redis.clone()),
            user_header,
            trusted: settings.trusted.clone(),
            page_tokens: page_tokens::PageTokens::new(redis.clone()),
            token_lifetime: settings.token_lifetime,
            allowed_origins: settings.allowed_origins.clone(),
            keeps_library: settings.library && settings.mode.names_people(),
        };
        match access.reload().await {
            Err(KeyError::Redis(error)) => {
                tracing::warn!(%error, "the keys in redis could not be read yet; trying every second");
            }
            other => other.map_err(|error| error.to_string())?,
        }
        Ok(access)
    }

    /// The rule.
    pub fn mode(&self) -> AccessMode {
        self.mode
    }

    /// Read the keys again: from Redis, or from the key file when it
    /// changed since it was last read.
    pub async fn reload(&self) -> Result<(), KeyError> {
        let Some(store) = &self.keys else {
            return Ok(());
        };
        let state = match store {
            KeyStore::File(file) => std::fs::metadata(file.path()).ok().and_then(|meta| {
                use std::os::unix::fs::MetadataExt;
                Some((meta.modified().ok()?, meta.len(), meta.ino()))
            }),
            KeyStore::Redis(_) | KeyStore::Library(_) => None,
        };
        let unchanged = self
            .ring
            .read()
            .map(|ring| ring.seen == state && state.is_some())
            .unwrap_or(false);
        if unchanged {
            return Ok(());
        }
        let records = store.load().await?;
        let by_hash = records
            .into_iter()
            .map(|record| (record.hash.clone(), record))
            .collect();
        if let Ok(mut ring) = self.ring.write() {
            *ring = Ring {
                by_hash,
                seen: state,
            };
        }
        Ok(())
    }

    /// Keep the people's use (when it changed): on disk, or in Redis.
    pub async fn keep_usage(&self) {
        self.usage.keep().await;
    }

    /// Whose call this is: in `open` mode the visitor at `client`; in
    /// `keys` mode the person whose key the call carries, or why not (no
    /// key: 401; a wrong one: 401, and 429 once this address has sent
    /// too many).
    pub async fn who(
        &self,
        headers: &HeaderMap,
        peer: IpAddr,
        client: IpAddr,
    ) -> Result<Who, Refusal> {
        match self.mode {
            AccessMode::Open => Ok(Who::Address(visitor(client))),
            AccessMode::Keys => self.person(headers, client).await,
            AccessMode::Proxy => self.proxys_user(headers, peer),
        }
    }

    /// The person the auth proxy names, when the call comes from it. The
    /// header twice, or a list in it, is refused (400): a proxy that added
    /// its own to the visitor's instead of replacing it, where taking
    /// either could be taking the visitor's word.
    fn proxys_user(&self, headers: &HeaderMap, peer: IpAddr) -> Result<Who, Refusal> {
        if !self.trusted.iter().any(|net| net.contains(&peer)) {
            return Err(Refusal::SignInNeeded);
        }
        let mut named = headers.get_all(&self.user_header).iter();
        let (first, second) = (named.next(), named.next());
        if second.is_some() || first.is_some_and(|value| value.as_bytes().contains(&b',')) {
            return Err(Refusal::Invalid(format!(
                "{}: one name, sent once (the auth proxy must replace the visitor's header, not add to it)",
                self.user_header
            )));
        }
        let name = first
            .and_then(|value| value.to_str().ok())
            .map(str::trim)
            .filter(|name| keys::check_name(name).is_ok())
            .ok_or(Refusal::SignInNeeded)?;
        self.usage.seen(name, now_seconds());
        Ok(Who::Person(Arc::from(name)))
    }

    async fn person(&self, headers: &HeaderMap, client: IpAddr) -> Result<Who, Refusal> {
        let name = match (bearer(headers), sessions::cookie_of(headers)) {
            (Some(given), _) if given.starts_with(page_tokens::TOKEN_PREFIX) => self
                .page_tokens
                .person(given, |hash| self.knows(hash))
                .await
                .map_err(unavailable)?
                .ok_or_else(|| self.wrong(client))?,
            (Some(given), _) => self.holder(given, client)?.name,
            (None, Some(cookie)) => self
                .sessions
                .person(cookie, |hash| self.knows(hash))
                .await
                .map_err(unavailable)?
                .ok_or(Refusal::SignInNeeded)?,
            (None, None) => return Err(Refusal::SignInNeeded),
        };
        self.usage.seen(&name, now_seconds());
        Ok(Who::Person(Arc::from(name)))
    }

    /// The record of the key `given`, or the refusal of a wrong one (and of
    /// an address that sent too many).
    fn holder(&self, given: &str, client: IpAddr) -> Result<KeyRecord, Refusal> {
        let found = AccessKey::parse(given).and_then(|key| {
            self.ring
                .read()
                .ok()
                .and_then(|ring| ring.by_hash.get(&key.hash()).cloned())
        });
        found.ok_or_else(|| self.wrong(client))
    }

    /// The refusal of a wrong key or token from `client`, counted: 401, or
    /// 429 once the address has sent too many.
    fn wrong(&self, client: IpAddr) -> Refusal {
        metrics::counter!(crate::observe::REFUSED, "budget" => "keys").increment(1);
        match self.guesses.check_key(&visitor(client)) {
            Ok(()) => Refusal::WrongKey,
            Err(not_until) => Refusal::TooManyGuesses(not_until.wait_time_from(self.clock.now())),
        }
    }

    /// A page token for the person whose access key the call carries (a
    /// page token or a session does not make another).
    pub async fn page_token(
        &self,
        headers: &HeaderMap,
        client: IpAddr,
    ) -> Result<page_tokens::Given, Refusal> {
        let key = bearer(headers)
            .filter(|given| !given.starts_with(page_tokens::TOKEN_PREFIX))
            .ok_or(Refusal::SignInNeeded)?;
        let record = self.holder(key, client)?;
        self.page_tokens
            .give(&record.name, &record.hash, self.token_lifetime)
            .await
            .ok_or(Refusal::Unavailable)
    }

    /// Whether a call that changes something may: from this site's pages,
    /// a program, or a page of an `--allow-origin` site.
    pub fn may_change(&self, headers: &HeaderMap) -> bool {
        same_site::from_this_site(headers)
            || headers
                .get(header::ORIGIN)
                .and_then(|origin| origin.to_str().ok())
                .is_some_and(|origin| self.allowed_origins.iter().any(|allowed| allowed == origin))
    }

    /// Whether the key of hash `hash` is still given.
    fn knows(&self, hash: &str) -> bool {
        self.ring
            .read()
            .map(|ring| ring.by_hash.contains_key(hash))
            .unwrap_or(false)
    }

    /// A page signing in with `key`: the person, and the cookie of their
    /// new session.
    pub async fn sign_in(
        &self,
        key: &str,
        headers: &HeaderMap,
        client: IpAddr,
    ) -> Result<(media_gen_api::relay::PersonInfo, axum::http::HeaderValue), Refusal> {
        let record = self.holder(key, client)?;
        let cookie = self
            .sessions
            .start(&record.name, &record.hash, headers)
            .await
            .ok_or(Refusal::Unavailable)?;
        self.usage.seen(&record.name, now_seconds());
        let who = Who::Person(Arc::from(record.name.as_str()));
        let person = self
            .info(Some(&who))
            .await
            .person
            .ok_or(Refusal::Unavailable)?;
        Ok((person, cookie))
    }

    /// The pages' sessions.
    pub fn sessions(&self) -> &sessions::Sessions {
        &self.sessions
    }

    /// Count `tasks` against `who`'s tasks of the day (people only).
    pub async fn take_tasks(&self, who: &Who, tasks: u64) -> Result<(), Refusal> {
        let Who::Person(name) = who else {
            return Ok(());
        };
        let per_day = self.tasks_per_day_of(name);
        let tasks = u32::try_from(tasks).unwrap_or(u32::MAX);
        self.usage
            .take_tasks(name, tasks, per_day, now_seconds())
            .await
            .map(drop)
            .map_err(|wait| Refusal::TasksOfTheDayUsed(per_day, wait))
    }

    /// `name`'s tasks per day: their key's, else the gateway's.
    fn tasks_per_day_of(&self, name: &str) -> u32 {
        self.ring
            .read()
            .ok()
            .and_then(|ring| {
                ring.by_hash
                    .values()
                    .find(|record| record.name == name)
                    .and_then(|record| record.tasks_per_day)
            })
            .unwrap_or(self.tasks_per_day)
    }

    /// What `/capabilities` says of the access rule and of `who`.
    pub async fn info(&self, who: Option<&Who>) -> media_gen_api::relay::AccessInfo {
        let person = match who {
            Some(Who::Person(name)) => {
                let per_day = self.tasks_per_day_of(name);
                let used = self.usage.tasks_on(name, now_seconds()).await;
                Some(media_gen_api::relay::PersonInfo {
                    name: name.to_string(),
                    tasks_per_day: per_day,
                    tasks_left_today: per_day.saturating_sub(used),
                })
            }
            _ => None,
        };
        media_gen_api::relay::AccessInfo {
            mode: self.mode,
            person,
            library: self.keeps_library,
        }
    }
}

/// A session or page token that cannot be looked up now (Redis silent):
/// 503, not a reason to sign in again.
fn unavailable(error: crate::redis_link::StoreError) -> Refusal {
    tracing::warn!(%error, "a session or page token could not be looked up");
    Refusal::Unavailable
}

/// The token of `Authorization: Bearer …`, if the call carries one.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

impl Access {
    /// The names of the people this gateway holds something of: their
    /// use counted here, their sessions and page tokens kept here.
    pub fn people_held(&self) -> Vec<String> {
        let mut names = self.usage.names();
        names.extend(self.sessions.grants().names());
        names.extend(self.page_tokens.grants().names());
        names.sort();
        names.dedup();
        names
    }

    /// Drop what this gateway holds of `name` (forgotten): their use
    /// counted here and their sessions and page tokens; how many grants.
    pub fn drop_person(&self, name: &str) -> usize {
        self.usage.drop_person(name);
        self.sessions.grants().drop_person(name) + self.page_tokens.grants().drop_person(name)
    }
}

/// Keep the keys read, the people's use kept (when it changed) and the
/// ended sessions dropped every second while the gateway runs.
pub async fn upkeep(access: Arc<Access>) {
    let mut every = tokio::time::interval(KEYS_RELOAD);
    loop {
        every.tick().await;
        if let Err(error) = access.reload().await {
            tracing::warn!(%error, "the keys could not be read; the keys as last read stay");
        }
        access.keep_usage().await;
        access.sessions.sweep();
        access.page_tokens.sweep();
        if let Ok(sessions) = access.sessions.count().await {
            metrics::gauge!(crate::observe::SESSIONS).set(sessions as f64);
        }
    }
}
