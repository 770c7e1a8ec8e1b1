//! Who may spend the owner's service (`--access`). `open`: anyone, each
//! address with its own budgets. `keys`: holders of an access key the
//! owner handed out (`media-gen-gateway keys add NAME`), sent as
//! `Authorization: Bearer mgk_…` by programs, or exchanged once for a
//! session cookie by a page (`POST /session`); the budgets count per
//! person, and each person has a number of tasks a day. `proxy`: the
//! person an auth proxy in front names in a header (nginx `auth_basic`,
//! oauth2-proxy), believed only from `--trusted-proxy` addresses. Every `/v1` and `/events` call asks
//! [`Access::who`] first; health, metrics, `/capabilities` and the
//! service's callbacks do not.

pub mod cli;
pub mod grants;
pub mod key_file;
pub mod keys;
pub mod page_tokens;
pub mod same_site;
pub mod sessions;
pub mod sign_in;
pub mod usage;

use std::collections::HashMap;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::http::{header, HeaderMap};
use governor::clock::{Clock, DefaultClock};
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

use crate::client_address::visitor;
use crate::refusal::Refusal;
use key_file::KeyFile;
use keys::{key_hash, looks_like_key, KeyRecord};
use usage::Usage;

/// Who may use the gateway.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum AccessMode {
    /// Anyone; budgets per address (for loopback, demos, or behind another gate).
    #[default]
    Open,
    /// Holders of an access key.
    Keys,
    /// The people an auth proxy in front names (`--user-header`, believed
    /// from `--trusted-proxy` addresses only).
    Proxy,
}

impl AccessMode {
    /// How `/capabilities` names it.
    pub fn as_str(self) -> &'static str {
        match self {
            AccessMode::Open => "open",
            AccessMode::Keys => "keys",
            AccessMode::Proxy => "proxy",
        }
    }
}

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

/// Wrong keys one address may send per minute before it is refused (429).
const GUESSES_PER_MINUTE: u32 = 10;

/// How often the key file is looked at for changes (a revoked key stops
/// working within this).
pub const KEYS_RELOAD: Duration = Duration::from_secs(1);

type Guesses = RateLimiter<IpAddr, DefaultKeyedStateStore<IpAddr>, DefaultClock>;

/// The keys as last read, by hash, and the file's state when read.
#[derive(Debug, Default)]
struct Ring {
    by_hash: HashMap<String, KeyRecord>,
    /// The file's modification time, length and inode when read (each
    /// write renames a new file in: a new inode).
    seen: Option<(SystemTime, u64, u64)>,
}

/// The gateway's access rule and what it needs.
pub struct Access {
    mode: AccessMode,
    file: Option<KeyFile>,
    ring: RwLock<Ring>,
    usage: Usage,
    data_dir: Option<PathBuf>,
    tasks_per_day: u32,
    guesses: Guesses,
    clock: DefaultClock,
    sessions: sessions::Sessions,
    user_header: axum::http::HeaderName,
    trusted: Vec<ipnet::IpNet>,
    page_tokens: page_tokens::PageTokens,
    token_lifetime: Duration,
    allowed_origins: Vec<String>,
}

/// How the access rule is set up (the flags).
#[derive(Debug, Clone)]
pub struct AccessSettings {
    /// Who may use the gateway.
    pub mode: AccessMode,
    /// Where keys and use are kept.
    pub data_dir: Option<PathBuf>,
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

/// Seconds since 1970.
pub fn now_seconds() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs()
}

impl Access {
    /// The rule `mode`, keys (and their use) kept under `data_dir`, each
    /// person's tasks per day `tasks_per_day` unless their key says.
    /// Fails when keys are asked for without a folder to keep them in, or
    /// the key file cannot be read.
    pub fn new(settings: &AccessSettings) -> Result<Access, String> {
        let (mode, data_dir, tasks_per_day) = (
            settings.mode,
            settings.data_dir.as_deref(),
            settings.tasks_per_day,
        );
        let file = match (mode, data_dir) {
            (AccessMode::Keys, None) => {
                return Err("--access keys needs --data-dir, where the keys are kept".to_owned())
            }
            (AccessMode::Keys, Some(dir)) => Some(KeyFile::new(dir)),
            (AccessMode::Open | AccessMode::Proxy, _) => None,
        };
        if mode == AccessMode::Proxy && settings.trusted.is_empty() {
            return Err("--access proxy needs --trusted-proxy: the auth proxy whose --user-header is believed".to_owned());
        }
        let user_header =
            axum::http::HeaderName::try_from(settings.user_header.as_str()).map_err(|_| {
                format!(
                    "--user-header {:?} is not a header name",
                    settings.user_header
                )
            })?;
        let usage = data_dir.map_or_else(Usage::default, |dir| Usage::load(&Usage::file(dir)));
        let access = Access {
            mode,
            file,
            ring: RwLock::new(Ring::default()),
            usage,
            data_dir: data_dir.map(Path::to_owned),
            tasks_per_day,
            guesses: RateLimiter::keyed(Quota::per_minute(
                std::num::NonZeroU32::new(GUESSES_PER_MINUTE).unwrap_or(std::num::NonZeroU32::MIN),
            )),
            clock: DefaultClock::default(),
            sessions: sessions::Sessions::default(),
            user_header,
            trusted: settings.trusted.clone(),
            page_tokens: page_tokens::PageTokens::default(),
            token_lifetime: settings.token_lifetime,
            allowed_origins: settings.allowed_origins.clone(),
        };
        access.reload().map_err(|error| error.to_string())?;
        Ok(access)
    }

    /// The rule.
    pub fn mode(&self) -> AccessMode {
        self.mode
    }

    /// Read the key file again when it changed since it was last read.
    pub fn reload(&self) -> Result<(), key_file::KeyError> {
        let Some(file) = &self.file else {
            return Ok(());
        };
        let state = std::fs::metadata(file.path()).ok().and_then(|meta| {
            use std::os::unix::fs::MetadataExt;
            Some((meta.modified().ok()?, meta.len(), meta.ino()))
        });
        let unchanged = self
            .ring
            .read()
            .map(|ring| ring.seen == state && state.is_some())
            .unwrap_or(false);
        if unchanged {
            return Ok(());
        }
        let records = file.load()?;
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

    /// Keep the people's use on disk (when it changed).
    pub fn save_usage(&self) {
        if let Some(dir) = &self.data_dir {
            if let Err(error) = self.usage.save_if_changed(&Usage::file(dir)) {
                tracing::warn!(%error, "could not write the people's use");
            }
        }
    }

    /// Whose call this is: in `open` mode the visitor at `client`; in
    /// `keys` mode the person whose key the call carries, or why not (no
    /// key: 401; a wrong one: 401, and 429 once this address has sent
    /// too many).
    pub fn who(&self, headers: &HeaderMap, peer: IpAddr, client: IpAddr) -> Result<Who, Refusal> {
        match self.mode {
            AccessMode::Open => Ok(Who::Address(visitor(client))),
            AccessMode::Keys => self.person(headers, client),
            AccessMode::Proxy => self.proxys_user(headers, peer),
        }
    }

    /// The person the auth proxy names, when the call comes from it.
    fn proxys_user(&self, headers: &HeaderMap, peer: IpAddr) -> Result<Who, Refusal> {
        if !self.trusted.iter().any(|net| net.contains(&peer)) {
            return Err(Refusal::SignInNeeded);
        }
        let name = headers
            .get(&self.user_header)
            .and_then(|value| value.to_str().ok())
            .map(str::trim)
            .filter(|name| keys::check_name(name).is_ok())
            .ok_or(Refusal::SignInNeeded)?;
        self.usage.seen(name, now_seconds());
        Ok(Who::Person(Arc::from(name)))
    }

    fn person(&self, headers: &HeaderMap, client: IpAddr) -> Result<Who, Refusal> {
        let name = match (bearer(headers), sessions::cookie_of(headers)) {
            (Some(given), _) if given.starts_with(page_tokens::TOKEN_PREFIX) => self
                .page_tokens
                .person(given, |hash| self.knows(hash))
                .ok_or_else(|| self.wrong(client))?,
            (Some(given), _) => self.holder(given, client)?.name,
            (None, Some(cookie)) => self
                .sessions
                .person(cookie, |hash| self.knows(hash))
                .ok_or(Refusal::SignInNeeded)?,
            (None, None) => return Err(Refusal::SignInNeeded),
        };
        self.usage.seen(&name, now_seconds());
        Ok(Who::Person(Arc::from(name)))
    }

    /// The record of the key `given`, or the refusal of a wrong one (and of
    /// an address that sent too many).
    fn holder(&self, given: &str, client: IpAddr) -> Result<KeyRecord, Refusal> {
        let found = looks_like_key(given)
            .then(|| {
                self.ring
                    .read()
                    .ok()
                    .and_then(|ring| ring.by_hash.get(&key_hash(given)).cloned())
            })
            .flatten();
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
    pub fn page_token(
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
    pub fn sign_in(
        &self,
        key: &str,
        headers: &HeaderMap,
        client: IpAddr,
    ) -> Result<(media_gen_api::relay::PersonInfo, axum::http::HeaderValue), Refusal> {
        let record = self.holder(key, client)?;
        let cookie = self
            .sessions
            .start(&record.name, &record.hash, headers)
            .ok_or(Refusal::Unavailable)?;
        self.usage.seen(&record.name, now_seconds());
        let who = Who::Person(Arc::from(record.name.as_str()));
        let person = self.info(Some(&who)).person.ok_or(Refusal::Unavailable)?;
        Ok((person, cookie))
    }

    /// The pages' sessions.
    pub fn sessions(&self) -> &sessions::Sessions {
        &self.sessions
    }

    /// Count `tasks` against `who`'s tasks of the day (people only).
    pub fn take_tasks(&self, who: &Who, tasks: u64) -> Result<(), Refusal> {
        let Who::Person(name) = who else {
            return Ok(());
        };
        let per_day = self.tasks_per_day_of(name);
        let tasks = u32::try_from(tasks).unwrap_or(u32::MAX);
        self.usage
            .take_tasks(name, tasks, per_day, now_seconds())
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
    pub fn info(&self, who: Option<&Who>) -> media_gen_api::relay::AccessInfo {
        let person = match who {
            Some(Who::Person(name)) => {
                let per_day = self.tasks_per_day_of(name);
                let used = self.usage.of(name).tasks_on(now_seconds());
                Some(media_gen_api::relay::PersonInfo {
                    name: name.to_string(),
                    tasks_per_day: per_day,
                    tasks_left_today: per_day.saturating_sub(used),
                })
            }
            _ => None,
        };
        media_gen_api::relay::AccessInfo {
            mode: self.mode.as_str().to_owned(),
            person,
        }
    }
}

/// The token of `Authorization: Bearer …`, if the call carries one.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// Keep the key file read and the people's use written (when it changed)
/// every second while the gateway runs.
pub async fn upkeep(access: Arc<Access>) {
    let mut every = tokio::time::interval(KEYS_RELOAD);
    loop {
        every.tick().await;
        if let Err(error) = access.reload() {
            tracing::warn!(%error, "the key file could not be read; the keys as last read stay");
        }
        access.save_usage();
        metrics::gauge!(crate::observe::SESSIONS).set(access.sessions.count() as f64);
    }
}
