//! Start-up settings: flags, each with an environment variable and a key
//! of `--config`'s file ([`crate::config_file`]), and the service's token,
//! read from `MEDIA_GEN_TOKEN` or a file and never printed.

use std::fmt;
use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use ipnet::IpNet;

/// Bytes a second an upload's body must average by default
/// (`--upload-min-rate`): a phone on a poor line sends far more.
pub const DEFAULT_UPLOAD_MIN_RATE: u64 = 4 * 1024;

/// The environment variable that holds the service's token.
pub const TOKEN_VAR: &str = "MEDIA_GEN_TOKEN";

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// One readable line per event.
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

/// `media-gen-gateway`'s flags.
#[derive(Debug, Clone, Parser)]
#[command(
    name = "media-gen-gateway",
    version,
    about = "Forwards the Media Generation Service's documented calls with the token kept server-side"
)]
pub struct Config {
    /// The owner's commands; without one, serve.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// A TOML file of settings, each key a flag's name
    /// (`upload-dir = "/var/lib/media-gen/uploads"`); the environment and
    /// the flags override it, in that order (docs/deploy.md).
    #[arg(long, env = "MEDIA_GEN_CONFIG", value_name = "FILE", global = true)]
    pub config: Option<PathBuf>,
    /// Who may use the gateway: `open` (anyone; budgets per address),
    /// `keys` (holders of an access key from `keys add`; budgets per
    /// person) or `proxy` (the person an auth proxy names in --user-header).
    #[arg(long, env = "MEDIA_GEN_ACCESS", default_value = "open", value_parser = access_modes())]
    pub access: crate::access::AccessMode,
    /// Where the access keys and the people's use are kept (`keys.json`,
    /// `usage.json`) without --redis; `--access keys` and the `keys`
    /// commands need it or --redis.
    #[arg(long, env = "MEDIA_GEN_DATA_DIR", value_name = "DIR", global = true)]
    pub data_dir: Option<PathBuf>,
    /// Where each person's library and the access keys are kept:
    /// `postgres://user:password@host/database` for gateways behind one
    /// balancer, `sqlite:PATH`, or `off`. Default in `keys` and `proxy`
    /// mode: `library.sqlite3` under --data-dir (without --redis).
    #[arg(long, env = "MEDIA_GEN_LIBRARY", value_name = "URL", global = true)]
    pub library: Option<String>,
    /// Tasks a person may create per day (UTC) unless their key says
    /// (`keys add NAME --tasks-per-day N`). Not a flag of the commands:
    /// there `--tasks-per-day` is the key's own (the environment variable
    /// still gives `keys` the default it shows).
    #[arg(long, env = "MEDIA_GEN_TASKS_PER_DAY", default_value = "50")]
    pub tasks_per_day: u32,
    /// Another site whose pages may call the gateway (CORS: exact origins,
    /// repeatable; their pages send a page token from `POST /tokens`).
    #[arg(long = "allow-origin", value_name = "ORIGIN", value_parser = parse_allowed_origin)]
    pub allow_origin: Vec<String>,
    /// How long a page token from `POST /tokens` lasts.
    #[arg(long, default_value = "10m", value_parser = humantime::parse_duration)]
    pub token_lifetime: Duration,
    /// The header a trusted auth proxy names the person in (`--access proxy`).
    #[arg(
        long,
        env = "MEDIA_GEN_USER_HEADER",
        default_value = "X-Forwarded-User"
    )]
    pub user_header: String,
    /// Where to listen.
    #[arg(long, env = "MEDIA_GEN_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// The service the documented calls go to; may carry a path prefix
    /// (`https://host/api`). The token comes from MEDIA_GEN_TOKEN or --token-file.
    #[arg(long, env = "MEDIA_GEN_UPSTREAM", value_parser = media_gen_api::validate::parse_base_url)]
    pub upstream: Option<String>,
    /// The built app to serve (`dist/`): its files, and `index.html` for
    /// the app's routes.
    #[arg(long = "static", value_name = "DIR", env = "MEDIA_GEN_STATIC")]
    pub static_dir: Option<PathBuf>,
    /// The path the app and the documented calls are served under, for a
    /// site that has the gateway at a path (`/media/`: the app at
    /// `https://example.com/media/`, the calls at `/media/v1/…`). Health
    /// and metrics stay at the root. With the relay, `--public-url` ends in it.
    #[arg(long, env = "MEDIA_GEN_BASE_PATH", default_value = "/")]
    pub base_path: crate::base_path::BasePath,
    /// Another origin the served pages may call or read from (their
    /// Content-Security-Policy `connect-src`); repeat for several.
    #[arg(long = "connect-src", value_name = "ORIGIN", value_parser = media_gen_api::validate::parse_origin)]
    pub connect_src: Vec<String>,
    /// A file holding the service's token (instead of MEDIA_GEN_TOKEN).
    #[arg(long, env = "MEDIA_GEN_TOKEN_FILE")]
    pub token_file: Option<PathBuf>,
    /// A reverse proxy whose --client-address-header names the visitor
    /// (CIDR, repeatable). Others' headers are ignored.
    #[arg(long = "trusted-proxy", value_name = "CIDR")]
    pub trusted_proxies: Vec<IpNet>,
    /// The one header the trusted proxies name the visitor in (the guide's
    /// nginx sets X-Forwarded-For); every other forwarding header is the
    /// visitor's own and is never read.
    #[arg(
        long,
        env = "MEDIA_GEN_CLIENT_ADDRESS_HEADER",
        value_enum,
        default_value = "x-forwarded-for"
    )]
    pub client_address_header: crate::client_address::AddressHeader,
    /// Requests to `/v1` per visitor per minute.
    #[arg(long, env = "MEDIA_GEN_REQUESTS_PER_MINUTE", default_value = "120")]
    pub requests_per_minute: NonZeroU32,
    /// Tasks a visitor's submits may create per hour (`generate_count` of
    /// each submit, or its number of target languages).
    #[arg(long, env = "MEDIA_GEN_TASKS_PER_HOUR", default_value = "60")]
    pub tasks_per_hour: NonZeroU32,
    /// Open connections at most; more are closed at once.
    #[arg(long, env = "MEDIA_GEN_MAX_CONNECTIONS", default_value = "512")]
    pub max_connections: usize,
    /// Open connections one address may hold (an IPv6 visitor: their
    /// /64); more are closed at once. Trusted proxies are not capped.
    #[arg(
        long,
        env = "MEDIA_GEN_MAX_CONNECTIONS_PER_ADDRESS",
        default_value = "32"
    )]
    pub max_connections_per_address: usize,
    /// Time to send a request's headers, and to start the next request on
    /// a kept-alive connection.
    #[arg(long, default_value = "10s", value_parser = humantime::parse_duration)]
    pub header_timeout: Duration,
    /// Time to send a request's body: between two pieces of it, and for
    /// the whole of it (an upload's: to start with; see --upload-min-rate).
    #[arg(long, default_value = "30s", value_parser = humantime::parse_duration)]
    pub body_timeout: Duration,
    /// Bytes a second an upload's body must average after its first
    /// --body-timeout (`4KiB`); a slower sender is cut off with 408 and
    /// resumes from what arrived.
    #[arg(long, default_value = "4KiB", value_parser = parse_bytes)]
    pub upload_min_rate: u64,
    /// Time the service has to answer one call.
    #[arg(long, default_value = "60s", value_parser = humantime::parse_duration)]
    pub upstream_timeout: Duration,
    /// Time requests in flight get to finish after SIGTERM.
    #[arg(long, default_value = "20s", value_parser = humantime::parse_duration)]
    pub shutdown_grace: Duration,
    /// How log lines are written.
    #[arg(long, env = "MEDIA_GEN_LOG_FORMAT", value_enum, default_value = "text")]
    pub log_format: LogFormat,
    /// This gateway's address as the service reaches it (`https://gw.example`).
    /// With it, a submit without a `callback_url` gets one of the gateway's
    /// own, and the task's end reaches the browser over `GET /events`
    /// instead of status reads (docs/deploy.md, "The relay").
    #[arg(long, env = "MEDIA_GEN_PUBLIC_URL", value_parser = media_gen_api::validate::parse_base_url)]
    pub public_url: Option<String>,
    /// Take uploads (tus 1.0 under `/uploads/`) into this folder and serve
    /// them to the service; needs --public-url, and in `--access open`
    /// --uploads-open too (docs/deploy.md, "Uploads").
    #[arg(long, env = "MEDIA_GEN_UPLOAD_DIR", value_name = "DIR", global = true)]
    pub upload_dir: Option<PathBuf>,
    /// Keep uploads' bytes in S3-compatible object storage
    /// (`s3://bucket/prefix`) instead of --upload-dir; endpoint and
    /// credentials from AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID,
    /// AWS_SECRET_ACCESS_KEY, AWS_REGION. What is known of each upload is
    /// kept in --redis, or in --upload-dir without it.
    #[arg(
        long,
        env = "MEDIA_GEN_UPLOAD_STORE",
        value_name = "S3_URL",
        global = true
    )]
    pub upload_store: Option<String>,
    /// How long an upload is kept after it is made, and again after it is
    /// finished.
    #[arg(long, default_value = "24h", value_parser = humantime::parse_duration)]
    pub upload_ttl: Duration,
    /// Bytes the upload folder may hold in all (`20GiB`); more: 507.
    #[arg(long, default_value = "20GiB", value_parser = parse_bytes)]
    pub upload_quota: u64,
    /// The largest video taken (images: the service's 20 MB).
    #[arg(long, default_value = "2GiB", value_parser = parse_bytes)]
    pub upload_max_video: u64,
    /// Bytes each person (or address) may upload a day (UTC).
    #[arg(long, default_value = "10GiB", value_parser = parse_bytes)]
    pub upload_bytes_per_day: u64,
    /// Uploads each person (or address) may have under way at once.
    #[arg(long, default_value_t = 4)]
    pub uploads_in_flight: usize,
    /// How long an unfinished upload no byte reached still counts as under
    /// way: for the uploads one may have at once, and for the piece of the
    /// quota it reserves beyond the bytes in.
    #[arg(long, default_value = "10m", value_parser = humantime::parse_duration)]
    pub upload_idle: Duration,
    /// The longest a task keeps an upload it was made from, counted from the
    /// submit: then the upload's own expiry applies, ended or not.
    #[arg(long, default_value = "48h", value_parser = humantime::parse_duration)]
    pub upload_hold_max: Duration,
    /// Keep a copy of every result of a task forwarded here (`on`, the
    /// default wherever uploads are taken, in their store) or none (`off`):
    /// the service's own URLs do not last (docs/deploy.md, "Results kept").
    #[arg(long, default_value = "on", value_parser = parse_on_off)]
    pub keep_results: bool,
    /// How long a kept copy is kept after its task's end.
    #[arg(long, default_value = "30d", value_parser = humantime::parse_duration)]
    pub keep_for: Duration,
    /// Offer shared links of kept results (`on`, the default wherever a
    /// library is kept and results are) or none (`off`): docs/deploy.md,
    /// "Shared links".
    #[arg(long, default_value = "on", value_parser = parse_on_off)]
    pub share_links: bool,
    /// Bytes all kept copies may take (`50GiB`); the oldest go first.
    #[arg(long, default_value = "50GiB", value_parser = parse_bytes)]
    pub keep_quota: u64,
    /// The largest result file kept.
    #[arg(long, default_value = "2GiB", value_parser = parse_bytes)]
    pub keep_max_bytes: u64,
    /// Bytes of results kept for one person a day (UTC), in `keys` and
    /// `proxy` mode.
    #[arg(long, default_value = "20GiB", value_parser = parse_bytes)]
    pub keep_bytes_per_day: u64,
    /// Bytes of results kept for one person at once, in `keys` and `proxy`
    /// mode (default: a fifth of --keep-quota, so no one person's copies
    /// push out everyone else's).
    #[arg(long, value_parser = parse_bytes)]
    pub keep_bytes_per_person: Option<u64>,
    /// The longest one result file's fetch may take.
    #[arg(long, default_value = "10m", value_parser = humantime::parse_duration)]
    pub keep_fetch_timeout: Duration,
    /// Result files fetched at once by this gateway; more wait their turn.
    #[arg(long, default_value_t = crate::kept::FETCHES_AT_ONCE)]
    pub keep_fetches_at_once: usize,
    /// A host results may be fetched from although its address is not
    /// public (`HOST` or `HOST:PORT`; repeat or separate with commas), for
    /// a service that stores its media on a private host. The service's
    /// own host and port always are; any other address must be public and
    /// reached over https (docs/deploy.md, "Results kept").
    #[arg(
        long,
        env = "MEDIA_GEN_KEEP_FROM",
        value_delimiter = ',',
        value_name = "HOST[:PORT]"
    )]
    pub keep_from: Vec<crate::kept::sources::MediaHost>,
    /// Take uploads in `--access open` too: anyone who reaches the gateway
    /// may then store files on it (for loopback and demos).
    #[arg(long, env = "MEDIA_GEN_UPLOADS_OPEN")]
    pub uploads_open: bool,
    /// Announce callbacks as they come, without confirming each with one
    /// status read (the interface document gives callbacks no signature:
    /// only for a service reached over a private network).
    #[arg(long, env = "MEDIA_GEN_TRUST_CALLBACKS")]
    pub trust_callbacks: bool,
    /// A Redis (`redis://host:6379/`) the gateways behind one balancer
    /// share: the budgets are counted there; the access keys, sessions,
    /// page tokens and each person's use are kept there (not under
    /// --data-dir); and with the relay a callback any of them takes reaches
    /// the streams open on every other, and a stream resumes on another
    /// gateway where it was.
    #[arg(long, env = "MEDIA_GEN_REDIS", global = true)]
    pub redis: Option<String>,
    /// How often an idle event stream gets a comment line, so proxies keep it open.
    #[arg(long, default_value = "15s", value_parser = humantime::parse_duration)]
    pub relay_heartbeat: Duration,
    /// A task is read to confirm a callback at most once this often
    /// (callbacks in between are answered 503 with Retry-After).
    #[arg(long, default_value = "10s", value_parser = humantime::parse_duration)]
    pub relay_confirm_interval: Duration,
    /// Confirming reads per second, all tasks together: the relay's own
    /// budget of reads on the service's token.
    #[arg(long, default_value = "20")]
    pub relay_confirm_reads: NonZeroU32,
    /// Event streams one visitor may hold open (a page needs one, two when
    /// signed in to a library; a few tabs, a few more).
    #[arg(long, default_value = "8")]
    pub relay_streams_per_visitor: usize,
    /// Event streams open at most (default: three quarters of
    /// `--max-connections`, so other requests always find room).
    #[arg(long)]
    pub relay_max_streams: Option<usize>,
    /// How long one event stream lasts; the browser opens it again at once
    /// with Last-Event-ID, missing nothing.
    #[arg(long, default_value = "10m", value_parser = humantime::parse_duration)]
    pub relay_stream_lifetime: Duration,
    /// Threads serving requests (default: one per core). On a machine the
    /// gateway shares with other busy processes, fewer threads wake each
    /// other less and answer sooner; with 1, one thread does everything
    /// (accepting too) and no request changes threads on its way.
    #[arg(long, env = "MEDIA_GEN_WORKER_THREADS")]
    pub worker_threads: Option<std::num::NonZeroUsize>,
}

/// An origin other sites' pages call from: exact, never `*`.
fn parse_allowed_origin(text: &str) -> Result<String, String> {
    if text == "*" {
        return Err(
            "every site may not call: name each site's origin (https://app.example.com)".to_owned(),
        );
    }
    media_gen_api::validate::parse_origin(text)
}

/// A size as people write it (`20GiB`, `500 MB`, `1048576`), in bytes.
/// `on` or `off` (also `true`/`false`, `yes`/`no`).
fn parse_on_off(text: &str) -> Result<bool, String> {
    match text.to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" => Ok(true),
        "off" | "false" | "no" => Ok(false),
        _ => Err(format!("{text:?} is neither on nor off")),
    }
}

fn parse_bytes(text: &str) -> Result<u64, String> {
    text.parse::<bytesize::ByteSize>()
        .map(|size| size.as_u64())
        .map_err(|why| format!("{text:?} is not a size such as 20GiB: {why}"))
}

/// The owner's commands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum Command {
    /// Print the settings the gateway would serve with, each with where it
    /// came from (default, file, environment, flag); secrets hidden. Takes
    /// every flag serving takes, before or after it.
    Config,
    /// Try everything serving needs (the service and its token, Redis, the
    /// library, the store, the folders, the public address), one line
    /// each; exits non-zero when anything fails. Takes every flag serving
    /// takes (see `media-gen-gateway --help`), before or after it.
    Check,
    /// The access keys under --data-dir, or in --redis (run without the
    /// gateway; running ones see a change within a second).
    Keys {
        /// What to do.
        #[command(subcommand)]
        action: crate::keys_cli::KeysAction,
    },
    /// What the service was spent on, per person, day or kind, from the
    /// library (--library, or --data-dir's).
    Usage(crate::library::cli::UsageArgs),
    /// A person's library (--library, or --data-dir's).
    Library {
        /// What to do.
        #[command(subcommand)]
        action: crate::library::cli::LibraryAction,
    },
}

impl Config {
    /// `--library` as given.
    pub fn library_flag(&self) -> Result<crate::library::LibraryFlag, ConfigError> {
        crate::library::LibraryFlag::parse(self.library.as_deref()).map_err(ConfigError::Library)
    }
}

/// The service's token. Its `Debug` and `Display` print a placeholder, so
/// it cannot reach a log line or a panic message by accident.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// `Authorization: Bearer …` with this token, marked sensitive (left
    /// out of debug output and of HTTP/2 header compression tables).
    pub fn authorization(&self) -> Option<axum::http::HeaderValue> {
        let mut value = axum::http::HeaderValue::from_str(&format!("Bearer {}", self.0)).ok()?;
        value.set_sensitive(true);
        Some(value)
    }

    /// A token from its text (trimmed; a file usually ends with a newline).
    pub fn new(text: &str) -> Option<Token> {
        let text = text.trim();
        (!text.is_empty()).then(|| Token(text.to_owned()))
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(…)")
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("…")
    }
}

/// Why the gateway cannot start.
#[derive(Debug)]
pub enum ConfigError {
    /// An upstream is set but no token was given.
    NoToken,
    /// The token file could not be read.
    TokenFile(PathBuf, std::io::Error),
    /// The upstream is not an http(s) base URL.
    Upstream(String),
    /// The public URL is not under the base path, so the service's
    /// callbacks would go where the gateway does not answer.
    PublicUrlOutsideBase {
        /// `--public-url`.
        public_url: String,
        /// `--base-path`.
        base_path: crate::base_path::BasePath,
    },
    /// Uploads without an address the service can fetch them from.
    UploadsWithoutPublicUrl,
    /// Uploads in object storage with nowhere to keep their records.
    UploadRecordsNowhere,
    /// `--library` names no database this gateway keeps a library in.
    Library(String),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Library(why) => f.write_str(why),
            ConfigError::NoToken => write!(
                f,
                "--upstream is set but there is no token: set {TOKEN_VAR} or --token-file"
            ),
            ConfigError::TokenFile(path, error) => {
                write!(f, "cannot read the token file {}: {error}", path.display())
            }
            ConfigError::Upstream(why) => write!(f, "--upstream: {why}"),
            ConfigError::UploadsWithoutPublicUrl => write!(
                f,
                "uploads (--upload-dir, --upload-store) need --public-url: the address the \
                 service fetches uploads from"
            ),
            ConfigError::UploadRecordsNowhere => write!(
                f,
                "--upload-store needs --redis or --upload-dir: where what is known of each upload \
                 is kept"
            ),
            ConfigError::PublicUrlOutsideBase {
                public_url,
                base_path,
            } => write!(
                f,
                "--public-url {public_url} does not end in --base-path {base_path}: \
                 the service's callbacks would go where the gateway does not answer \
                 (give the address the gateway's base path has, e.g. https://example.com{})",
                base_path.prefix()
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

/// Where the documented calls go, and with which token.
#[derive(Debug, Clone)]
pub struct Upstream {
    /// The service's base URL without a trailing slash; the documented
    /// paths (`/v1/...`) are appended to it.
    pub base: String,
    /// The `Authorization` header the calls carry (`Bearer` and the token),
    /// made once and marked sensitive.
    pub authorization: axum::http::HeaderValue,
}

impl Upstream {
    /// Its base URL as a log or a banner may show it: without a user name
    /// or password written into it (`https://user:secret@host` → `https://host`).
    pub fn shown(&self) -> String {
        media_gen_api::url_parts::without_userinfo(&self.base)
    }

    /// The upstream at `url` (an http(s) base URL), with `token`.
    pub fn new(url: &str, token: Token) -> Result<Upstream, ConfigError> {
        let base = media_gen_api::validate::parse_base_url(url).map_err(ConfigError::Upstream)?;
        let authorization = token.authorization().ok_or(ConfigError::NoToken)?;
        Ok(Upstream {
            base,
            authorization,
        })
    }
}

impl Config {
    /// Refuses a `--public-url` outside `--base-path`.
    pub fn check_public_url(&self) -> Result<(), ConfigError> {
        let Some(public_url) = &self.public_url else {
            return Ok(());
        };
        let path = media_gen_api::url_parts::url_parts(public_url)
            .map(|parts| parts.path)
            .unwrap_or_default();
        if self.base_path.ends(&path) {
            Ok(())
        } else {
            Err(ConfigError::PublicUrlOutsideBase {
                public_url: public_url.clone(),
                base_path: self.base_path.clone(),
            })
        }
    }

    /// The uploads' settings, when `--upload-dir` is given: refused without
    /// `--public-url`; off (with a warning) in `open` mode without
    /// `--uploads-open`.
    pub fn uploads(&self) -> Result<Option<crate::uploads::UploadSettings>, ConfigError> {
        if self.upload_dir.is_none() && self.upload_store.is_none() {
            return Ok(None);
        }
        let Some(public_url) = &self.public_url else {
            return Err(ConfigError::UploadsWithoutPublicUrl);
        };
        if self.upload_store.is_some() && self.upload_dir.is_none() && self.redis.is_none() {
            return Err(ConfigError::UploadRecordsNowhere);
        }
        if self.access == crate::access::AccessMode::Open && !self.uploads_open {
            tracing::warn!(
                "uploads are off: --access open would make this gateway a free file host for \
                 anyone who reaches it; add --uploads-open to take them anyway"
            );
            return Ok(None);
        }
        Ok(Some(crate::uploads::UploadSettings {
            ttl: self.upload_ttl,
            quota: self.upload_quota,
            max_video_bytes: self.upload_max_video,
            bytes_per_day: self.upload_bytes_per_day,
            in_flight: self.uploads_in_flight,
            idle: self.upload_idle,
            hold_max: self.upload_hold_max,
            dir: self.upload_dir.clone(),
            store: self.upload_store.clone(),
            ..crate::uploads::UploadSettings::new(PathBuf::new(), public_url.clone())
        }))
    }

    /// How results are kept, unless `--keep-results off` (or no service
    /// to keep them of): ids derived from `upstream`'s token.
    pub fn keep_settings(&self, upstream: Option<&Upstream>) -> Option<crate::kept::KeepSettings> {
        if !self.keep_results {
            return None;
        }
        let upstream = upstream?;
        Some(crate::kept::KeepSettings {
            keep_for: self.keep_for,
            quota: self.keep_quota,
            max_bytes: self.keep_max_bytes,
            bytes_per_day: self.keep_bytes_per_day,
            bytes_per_person: self
                .keep_bytes_per_person
                .unwrap_or_else(|| crate::kept::per_person_share(self.keep_quota)),
            fetch_deadline: self.keep_fetch_timeout,
            fetches_at_once: self.keep_fetches_at_once.max(1),
            from: self.keep_from.clone(),
            ..crate::kept::KeepSettings::new(upstream.authorization.as_bytes())
        })
    }

    /// The relay's settings, when `--public-url` is given.
    pub fn relay(&self) -> Option<crate::relay::RelaySettings> {
        self.public_url
            .as_ref()
            .map(|public_url| crate::relay::RelaySettings {
                public_url: public_url.clone(),
                trust_callbacks: self.trust_callbacks,
                heartbeat: self.relay_heartbeat,
                confirm_interval: self.relay_confirm_interval,
                confirm_reads_per_second: self.relay_confirm_reads,
                streams_per_visitor: self.relay_streams_per_visitor,
                max_streams: self
                    .relay_max_streams
                    .unwrap_or_else(|| crate::relay::default_max_streams(self.max_connections)),
                stream_lifetime: self.relay_stream_lifetime,
            })
    }

    /// The upstream with its token, if one is set: the token from
    /// `--token-file`, else from `token_var` (the environment's
    /// `MEDIA_GEN_TOKEN`). Refuses an upstream without a token.
    pub fn upstream(&self, token_var: Option<String>) -> Result<Option<Upstream>, ConfigError> {
        let Some(url) = &self.upstream else {
            return Ok(None);
        };
        let token = match &self.token_file {
            Some(path) => std::fs::read_to_string(path)
                .map_err(|error| ConfigError::TokenFile(path.clone(), error))?,
            None => token_var.unwrap_or_default(),
        };
        let token = Token::new(&token).ok_or(ConfigError::NoToken)?;
        Upstream::new(url, token).map(Some)
    }
}

/// `--access`: the contract's modes, listed in `--help` and errors.
fn access_modes() -> impl clap::builder::TypedValueParser<Value = crate::access::AccessMode> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(
        crate::access::AccessMode::ALL.map(crate::access::AccessMode::as_str),
    )
    .try_map(|mode: String| mode.parse::<crate::access::AccessMode>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uploads::UploadSettings;

    fn config(args: &[&str]) -> Config {
        Config::parse_from(std::iter::once("media-gen-gateway").chain(args.iter().copied()))
    }

    #[test]
    fn one_persons_kept_results_are_a_share_of_the_quota_unless_said() {
        let upstream = Upstream::new("https://svc.example", Token::new("t").unwrap()).unwrap();
        let keep = |args: &[&str]| config(args).keep_settings(Some(&upstream)).unwrap();
        let default = keep(&[]);
        assert_eq!(default.quota, 50 << 30);
        assert_eq!(default.bytes_per_person, 10 << 30, "a fifth of the quota");
        assert!(default.bytes_per_person < default.quota);
        assert_eq!(
            keep(&["--keep-quota", "1GiB"]).bytes_per_person,
            (1 << 30) / 5
        );
        assert_eq!(
            keep(&["--keep-quota", "1GiB", "--keep-bytes-per-person", "300MiB"]).bytes_per_person,
            300 << 20
        );
        let defaults = crate::kept::KeepSettings::new(b"t");
        assert_eq!(
            defaults.bytes_per_person, default.bytes_per_person,
            "the two defaults agree"
        );
        assert_eq!(defaults.fetches_at_once, default.fetches_at_once);
        let from = keep(&["--keep-from", "media.internal:9000,10.0.0.5"]).from;
        assert_eq!(
            from.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["media.internal:9000", "10.0.0.5"]
        );
        let wrong = Config::try_parse_from(["g", "--keep-from", "http://x/y"]).unwrap_err();
        assert!(
            wrong.to_string().contains("--keep-from takes HOST"),
            "{wrong}"
        );
    }

    #[test]
    fn uploads_need_a_public_url_and_in_open_mode_a_yes() {
        let refused = config(&["--upload-dir", "/tmp/u"]).uploads().unwrap_err();
        assert!(refused
            .to_string()
            .contains("uploads (--upload-dir, --upload-store) need --public-url"));
        let public = [
            "--upload-dir",
            "/tmp/u",
            "--public-url",
            "https://gw.example",
        ];
        assert_eq!(config(&public).uploads().unwrap().map(|u| u.dir), None);
        let open = config(&[&public[..], &["--uploads-open"]].concat());
        let settings = open.uploads().unwrap().unwrap();
        let defaults = UploadSettings::new("/tmp/u".into(), "https://gw.example".to_owned());
        assert_eq!(
            (
                settings.ttl,
                settings.quota,
                settings.max_video_bytes,
                settings.bytes_per_day,
                settings.in_flight,
                settings.idle,
                settings.hold_max
            ),
            (
                defaults.ttl,
                defaults.quota,
                defaults.max_video_bytes,
                defaults.bytes_per_day,
                defaults.in_flight,
                defaults.idle,
                defaults.hold_max
            ),
            "one set of defaults: the flags' and UploadSettings::new's"
        );
        let keys = config(
            &[
                &public[..],
                &["--access", "keys", "--upload-quota", "1.5 GiB"],
            ]
            .concat(),
        );
        assert_eq!(keys.uploads().unwrap().unwrap().quota, 1_610_612_736);
        assert!(Config::try_parse_from(["g", "--upload-quota", "lots"]).is_err());
    }

    #[test]
    fn uploads_in_object_storage_keep_their_records_in_redis_or_the_folder() {
        let store = [
            "--upload-store",
            "s3://media/uploads",
            "--public-url",
            "https://gw.example",
            "--uploads-open",
        ];
        let nowhere = config(&store).uploads().unwrap_err();
        assert!(nowhere
            .to_string()
            .contains("--upload-store needs --redis or --upload-dir"));
        let with_redis = config(&[&store[..], &["--redis", "redis://127.0.0.1:6379/"]].concat());
        let settings = with_redis.uploads().unwrap().unwrap();
        assert_eq!(
            (settings.dir, settings.store.as_deref()),
            (None, Some("s3://media/uploads"))
        );
        let with_dir = config(&[&store[..], &["--upload-dir", "/tmp/u"]].concat());
        assert!(with_dir.uploads().unwrap().is_some());
        let alone = config(&["--upload-store", "s3://media/uploads"])
            .uploads()
            .unwrap_err();
        assert!(alone.to_string().contains("need --public-url"));
    }

    #[test]
    fn the_relays_flag_defaults_are_its_settings_defaults() {
        // One set of defaults: the flags' and `RelaySettings::new`'s
        // (tests and embedders start from the latter).
        let flags = config(&[
            "--public-url",
            "https://gw.example",
            "--max-connections",
            "400",
        ]);
        let expected = crate::relay::RelaySettings::new("https://gw.example".to_owned(), 400);
        assert_eq!(
            format!("{:?}", flags.relay()),
            format!("{:?}", Some(expected))
        );
    }

    #[test]
    fn the_public_url_must_be_under_the_base_path() {
        let at = |public_url: &str| {
            config(&["--base-path", "/media", "--public-url", public_url]).check_public_url()
        };
        assert!(at("https://example.com/media").is_ok());
        assert!(at("https://example.com/media/").is_ok());
        let refused = at("https://example.com").unwrap_err().to_string();
        assert!(
            refused
                .contains("--public-url https://example.com does not end in --base-path /media/")
                && refused.contains("https://example.com/media"),
            "{refused}"
        );
        assert!(config(&["--public-url", "https://gw.example"])
            .check_public_url()
            .is_ok());
        let bad = Config::try_parse_from(["media-gen-gateway", "--base-path", "/me dia"])
            .unwrap_err()
            .to_string();
        assert!(bad.contains("--base-path") && bad.contains("' '"), "{bad}");
    }

    #[test]
    fn an_upstream_needs_a_token() {
        let with_upstream = config(&["--upstream", "https://service.example/api/"]);
        assert!(matches!(
            with_upstream.upstream(None),
            Err(ConfigError::NoToken)
        ));
        assert!(matches!(
            with_upstream.upstream(Some("  \n".into())),
            Err(ConfigError::NoToken)
        ));
        let upstream = with_upstream
            .upstream(Some("secret\n".into()))
            .unwrap()
            .unwrap();
        assert_eq!(upstream.base, "https://service.example/api");
        assert_eq!(upstream.authorization, "Bearer secret");
        assert!(config(&[]).upstream(None).unwrap().is_none());
    }

    #[test]
    fn the_token_never_prints() {
        let token = Token::new("secret-token").unwrap();
        let shown = format!("{token:?} {token}");
        let upstream = Upstream::new("https://x", token).unwrap();
        let shown = format!("{shown} {upstream:?}");
        assert!(!shown.contains("secret"), "{shown}");
    }

    #[test]
    fn other_schemes_are_refused() {
        assert!(Upstream::new("ftp://service.example/", Token::new("t").unwrap()).is_err());
    }
}
