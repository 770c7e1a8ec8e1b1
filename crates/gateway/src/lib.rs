//! `media-gen-gateway`: the server a deployment runs in front of the Media
//! Generation Service. It forwards exactly the documented calls with the
//! token kept server-side ([`forward`]), holds under abuse (per-visitor
//! budgets, connection cap, timeouts, body limit) and reports what it does
//! (metrics, health, one log line per request).

pub mod base_path;
pub mod capabilities;
pub mod check;
pub mod config;
pub mod config_file;
pub mod config_shown;
pub mod csp;
pub mod forgetting;
pub mod forward;
pub mod health;
pub mod hold_reads;
pub mod keys_cli;
pub mod library_news;
pub mod library_writes;
pub mod server;
pub mod static_files;
pub mod task_news;

pub use media_gen_gateway_access as access;
pub use media_gen_gateway_base::{
    body_deadline, client_address, observe, private_files, public_only, redis_link, refusal,
    upstream,
};
pub use media_gen_gateway_kept as kept;
pub use media_gen_gateway_library as library;
pub use media_gen_gateway_relay as relay;
pub use media_gen_gateway_sharing as sharing;
pub use media_gen_gateway_uploads as uploads;

use std::sync::Arc;
use std::time::Duration;

use axum::http::{header, HeaderName, HeaderValue};
use axum::response::IntoResponse;
use axum::routing::{any, get, post};
use axum::Router;
use ipnet::IpNet;
use tower_http::request_id::{PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::RequestBodyTimeoutLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};

pub use access::budgets::Budgets;
pub use config::{Config, ConfigError, Token, Upstream};
pub use server::ConnectionLimits;

use refusal::Refusal;

/// What every request handler shares.
#[derive(Clone)]
pub struct Gateway(Arc<Shared>);

/// The gateway's state: each part's own, handed to its routes through
/// `FromRef` (the server's modules read the rest).
pub struct Shared {
    /// Where the documented calls go, if anywhere.
    pub(crate) upstream: Option<Upstream>,
    /// Letting calls in: the access rule, visitors' addresses, budgets.
    pub(crate) admission: Arc<access::admission::Admission>,
    /// The client for the service (it follows no redirect).
    pub(crate) http: upstream::UpstreamClient,
    /// Time the service has to answer a call, whole.
    pub(crate) upstream_timeout: Duration,
    /// The callback relay, with `--public-url`.
    pub(crate) relay: Option<Arc<relay::Relay>>,
    /// The Redis the gateways share, with `--redis` (`/readyz` asks it).
    pub(crate) redis: Option<Arc<redis_link::RedisLink>>,
    /// The last readiness answer (`/readyz` reuses it a few seconds).
    pub(crate) readiness: std::sync::Mutex<Option<health::Readiness>>,
    /// Files uploaded for the service to fetch, with `--upload-dir`.
    pub(crate) uploads: Option<Arc<uploads::Uploads>>,
    /// Results kept in the uploads' store, when they are.
    pub(crate) kept: Option<Arc<kept::Kept>>,
    /// Shared links, where the gateway keeps a library and results.
    pub(crate) sharing: Option<Arc<sharing::Sharing>>,
    /// Each person's library, in `keys` and `proxy` mode.
    pub(crate) library: Option<Arc<library::Library>>,
}

impl std::ops::Deref for Gateway {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// Settings of one gateway, as the flags give them.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Where the documented calls go.
    pub upstream: Option<Upstream>,
    /// Proxies whose forwarding header is believed.
    pub trusted_proxies: Vec<IpNet>,
    /// The one header they name the visitor in.
    pub client_address_header: client_address::AddressHeader,
    /// Requests per visitor per minute.
    pub requests_per_minute: std::num::NonZeroU32,
    /// Tasks per visitor per hour.
    pub tasks_per_hour: std::num::NonZeroU32,
    /// Time to send a request's body: between two pieces, and in all.
    pub body_timeout: Duration,
    /// Bytes a second an upload's body must average after its first
    /// `body_timeout` (`--upload-min-rate`).
    pub upload_min_rate: u64,
    /// Time the service has to answer.
    pub upstream_timeout: Duration,
    /// Connection limits.
    pub connections: ConnectionLimits,
    /// The built app to serve, if any.
    pub static_dir: Option<std::path::PathBuf>,
    /// The path the app and the documented calls are served under.
    pub base_path: base_path::BasePath,
    /// Other origins the served pages may call.
    pub connect_src: Vec<String>,
    /// The callback relay, when the gateway has a public address.
    pub relay: Option<relay::RelaySettings>,
    /// The Redis the gateways behind one balancer share: the per-visitor
    /// budgets are counted there (and the relay kept, with `relay`).
    pub redis: Option<String>,
    /// Who may use it.
    pub access: access::AccessMode,
    /// Where the access keys and the people's use are kept.
    pub data_dir: Option<std::path::PathBuf>,
    /// Tasks a person may create per day unless their key says.
    pub tasks_per_day: u32,
    /// The header an auth proxy names the person in (`--access proxy`).
    pub user_header: String,
    /// Other sites whose pages may call the gateway (CORS).
    pub allowed_origins: Vec<String>,
    /// How long a page token lasts.
    pub token_lifetime: Duration,
    /// Uploads, when taken.
    pub uploads: Option<uploads::UploadSettings>,
    /// How tasks' results are kept in the uploads' store (`--keep-*`);
    /// none with `--keep-results off`, or without uploads.
    pub keep: Option<kept::KeepSettings>,
    /// Where each person's library and the access keys are kept.
    pub library: library::LibraryFlag,
    /// Whether shared links are offered (where a library and kept results
    /// are).
    pub share_links: bool,
}

impl Settings {
    /// A gateway on this machine for tests and benchmarks: in front of
    /// `upstream` (a base URL) with `token`, serving `static_dir`, its pages
    /// allowed to reach `upstream` too; budgets high enough to stay out of
    /// the way of a test's polling.
    pub fn for_tests(
        upstream: &str,
        token: &str,
        static_dir: Option<std::path::PathBuf>,
    ) -> Settings {
        let upstream = Token::new(token).and_then(|token| Upstream::new(upstream, token).ok());
        let connect_src = upstream
            .iter()
            .map(|upstream| upstream.base.clone())
            .collect();
        Settings {
            upstream,
            trusted_proxies: Vec::new(),
            client_address_header: client_address::AddressHeader::default(),
            requests_per_minute: std::num::NonZeroU32::new(1_000_000)
                .unwrap_or(std::num::NonZeroU32::MIN),
            tasks_per_hour: std::num::NonZeroU32::new(1_000_000)
                .unwrap_or(std::num::NonZeroU32::MIN),
            body_timeout: Duration::from_secs(30),
            upload_min_rate: config::DEFAULT_UPLOAD_MIN_RATE,
            upstream_timeout: Duration::from_secs(30),
            connections: ConnectionLimits {
                max_connections: 1_024,
                per_address: 1_024,
                header_timeout: Duration::from_secs(10),
                shutdown_grace: Duration::from_secs(1),
            },
            static_dir,
            base_path: base_path::BasePath::default(),
            connect_src,
            relay: None,
            redis: None,
            access: access::AccessMode::Open,
            data_dir: None,
            tasks_per_day: 1_000_000,
            user_header: "x-forwarded-user".to_owned(),
            allowed_origins: Vec::new(),
            token_lifetime: access::page_tokens::TOKEN_LIFETIME,
            uploads: None,
            keep: None,
            library: library::LibraryFlag::Default,
            share_links: true,
        }
    }

    /// The settings of `config`, with the token from `token_var`.
    pub fn from_config(
        config: &Config,
        token_var: Option<String>,
    ) -> Result<Settings, ConfigError> {
        config.check_public_url()?;
        let upstream = config.upstream(token_var)?;
        let uploads = config.uploads()?;
        let keep = uploads
            .as_ref()
            .and_then(|_| config.keep_settings(upstream.as_ref()));
        Ok(Settings {
            upstream,
            trusted_proxies: config.trusted_proxies.clone(),
            client_address_header: config.client_address_header,
            requests_per_minute: config.requests_per_minute,
            tasks_per_hour: config.tasks_per_hour,
            body_timeout: config.body_timeout,
            upload_min_rate: config.upload_min_rate,
            upstream_timeout: config.upstream_timeout,
            connections: ConnectionLimits {
                max_connections: config.max_connections,
                per_address: config.max_connections_per_address,
                header_timeout: config.header_timeout,
                shutdown_grace: config.shutdown_grace,
            },
            static_dir: config.static_dir.clone(),
            base_path: config.base_path.clone(),
            connect_src: config.connect_src.clone(),
            relay: config.relay(),
            redis: config.redis.clone(),
            access: config.access,
            data_dir: config.data_dir.clone(),
            tasks_per_day: config.tasks_per_day,
            user_header: config.user_header.clone(),
            allowed_origins: config.allow_origin.clone(),
            token_lifetime: config.token_lifetime,
            uploads,
            keep,
            library: config.library_flag()?,
            share_links: config.share_links,
        })
    }
}

impl Gateway {
    /// Task `task_id` of `kind` as the service reads it now: one status
    /// read of the gateway's own (a callback confirmed, a held upload's
    /// task nobody else follows). The service's answer must be the task.
    pub async fn read_task(
        &self,
        kind: media_gen_api::TaskKind,
        task_id: &str,
    ) -> Result<media_gen_api::AnyTask, Refusal> {
        let upstream = self.upstream.as_ref().ok_or(Refusal::NoUpstream)?;
        let url = format!("{}{}", upstream.base, kind.status_path(task_id));
        let answer = self
            .http
            .call(
                axum::http::Method::GET,
                &url,
                &upstream.authorization,
                None,
                self.upstream_timeout,
                forward::MAX_ANSWER_BYTES,
            )
            .await
            .map_err(|_| Refusal::BadGateway)?;
        media_gen_api::decode_task(kind, answer.status.as_u16(), &answer.body)
            .map_err(|_| Refusal::BadGateway)
    }

    /// A gateway with `settings`, the relay started for them, the shared
    /// budgets connected and the access rule read.
    pub fn new(
        settings: &Settings,
        relay: Option<Arc<relay::Relay>>,
        shared_budgets: Option<access::shared_budgets::SharedBudgets>,
        redis: Option<Arc<redis_link::RedisLink>>,
        access: Arc<access::Access>,
        uploads: Option<Arc<uploads::Uploads>>,
        library: Option<Arc<library::Library>>,
    ) -> Gateway {
        let kept = settings
            .keep
            .clone()
            .zip(uploads.clone())
            .map(|(keep, uploads)| {
                let upstream = settings
                    .upstream
                    .as_ref()
                    .map(|upstream| upstream.base.as_str());
                Arc::new(kept::Kept::new(keep, uploads, upstream))
            });
        let sharing = library
            .clone()
            .filter(|_| settings.share_links)
            .zip(kept.clone())
            .map(|(library, kept)| Arc::new(sharing::Sharing { library, kept }));
        Gateway(Arc::new(Shared {
            upstream: settings.upstream.clone(),
            admission: Arc::new(access::admission::Admission::new(
                access,
                client_address::ClientAddresses {
                    trusted: settings.trusted_proxies.clone(),
                    header: settings.client_address_header,
                },
                Budgets::new(settings.requests_per_minute, settings.tasks_per_hour),
                shared_budgets,
            )),
            http: upstream::UpstreamClient::new(),
            upstream_timeout: settings.upstream_timeout,
            relay,
            redis,
            readiness: std::sync::Mutex::new(None),
            kept,
            sharing,
            uploads,
            library,
        }))
    }
}

/// Anything the gateway does not serve.
async fn not_found() -> axum::response::Response {
    Refusal::NotFound.into_response()
}

/// The gateway's routes and layers: `/v1` forwarded or refused, the
/// relay, the built app (all under `--base-path`); health and metrics at
/// the root; security headers on every answer, a request id, a log line.
/// Fails when the app's folder cannot be read.
pub fn router(gateway: Gateway, settings: &Settings) -> std::io::Result<Router> {
    let operations = Router::new()
        .route("/healthz", get(health::alive))
        .route("/readyz", get(health::ready))
        .route("/metrics", get(observe::render))
        .with_state(gateway.clone());
    let app = Router::new()
        .route("/v1", any(forward::handle))
        .route("/v1/{*rest}", any(forward::handle))
        .route(
            media_gen_api::relay::CAPABILITIES_PATH,
            get(capabilities::capabilities),
        )
        .merge(relay::routes())
        .route(
            media_gen_api::relay::SESSION_PATH,
            post(access::sign_in::sign_in).delete(access::sign_in::sign_out),
        )
        .route("/tokens", post(access::sign_in::page_token))
        .merge(uploads::routes())
        .merge(kept::routes())
        .merge(sharing::routes())
        .merge(library::routes::routes())
        .with_state(gateway);
    let app = match &settings.static_dir {
        Some(dir) => app.merge(static_files::router(
            dir,
            &settings.base_path,
            &settings.connect_src,
        )?),
        None => app.fallback(not_found),
    };
    let app = match cors(&settings.allowed_origins) {
        Some(cors) => app.layer(cors),
        None => app,
    };
    if settings.base_path.is_root() {
        return Ok(layered(operations.merge(app), settings));
    }
    // Under a base path the app's routes see their paths without it (so
    // do its log lines and metrics); the rest is the operator's or nothing.
    let operations = layered(operations.fallback(not_found), settings);
    let app = layered(app, settings);
    let base = settings.base_path.clone();
    let dispatch = tower::service_fn(move |mut request: axum::extract::Request| {
        let under_base = base.strip(request.uri().path()).and_then(|rest| {
            let query = request.uri().query().map(|query| format!("?{query}"));
            format!("{rest}{}", query.unwrap_or_default())
                .parse::<axum::http::Uri>()
                .ok()
        });
        let (app, operations) = (app.clone(), operations.clone());
        async move {
            match under_base {
                Some(uri) => {
                    *request.uri_mut() = uri;
                    tower::ServiceExt::oneshot(app, request).await
                }
                None => tower::ServiceExt::oneshot(operations, request).await,
            }
        }
    });
    Ok(Router::new().fallback_service(dispatch))
}

/// Other sites' pages allowed to call (`--allow-origin`): their preflights
/// answered, the relay's header and `Retry-After` readable; no cookies
/// (they send a page token).
fn cors(origins: &[String]) -> Option<tower_http::cors::CorsLayer> {
    if origins.is_empty() {
        return None;
    }
    let origins: Vec<HeaderValue> = origins
        .iter()
        .filter_map(|origin| HeaderValue::from_str(origin).ok())
        .collect();
    Some(
        tower_http::cors::CorsLayer::new()
            .allow_origin(origins)
            .allow_methods([
                axum::http::Method::GET,
                axum::http::Method::POST,
                axum::http::Method::HEAD,
                axum::http::Method::PATCH,
                axum::http::Method::DELETE,
            ])
            .allow_headers([
                header::AUTHORIZATION,
                header::CONTENT_TYPE,
                HeaderName::from_static("tus-resumable"),
                HeaderName::from_static("upload-length"),
                HeaderName::from_static("upload-offset"),
                HeaderName::from_static("upload-metadata"),
            ])
            .expose_headers([
                HeaderName::from_static(media_gen_api::relay::RELAY_HEADER),
                header::RETRY_AFTER,
                header::LOCATION,
                HeaderName::from_static("tus-resumable"),
                HeaderName::from_static("upload-offset"),
                HeaderName::from_static("upload-length"),
                HeaderName::from_static("upload-expires"),
            ])
            .max_age(Duration::from_secs(600)),
    )
}

/// Every answer's layers: body time limits (between pieces, and in all),
/// metrics, security headers, the
/// log line and the request id.
fn layered(routes: Router, settings: &Settings) -> Router {
    let request_id = HeaderName::from_static("x-request-id");
    let trace = TraceLayer::new_for_http()
        .make_span_with(|request: &axum::http::Request<_>| {
            let id = request
                .headers()
                .get("x-request-id")
                .and_then(|id| id.to_str().ok())
                .unwrap_or_default();
            // Method and path only: no header (a token, a cookie), no query
            // (a page's capabilities) and no callback secret is logged.
            let path = observe::logged_path(request.uri().path());
            tracing::info_span!("request", id, method = %request.method(), path = %path)
        })
        .on_response(DefaultOnResponse::new().level(tracing::Level::INFO));
    let deadlines = body_deadline::BodyDeadlines {
        whole: settings.body_timeout,
        upload_min_rate: settings.upload_min_rate,
    };
    routes
        .layer(RequestBodyTimeoutLayer::new(settings.body_timeout))
        .layer(axum::middleware::from_fn_with_state(
            deadlines,
            body_deadline::bound,
        ))
        .layer(axum::middleware::from_fn(observe::count))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(trace)
        .layer(PropagateRequestIdLayer::new(request_id.clone()))
        .layer(SetRequestIdLayer::new(
            request_id,
            observe::RequestIds::default(),
        ))
}

/// Serve `settings` on a free loopback port in the background (tests and
/// benchmarks); returns its base URL.
pub async fn spawn_local(settings: Settings) -> std::io::Result<String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base_url = format!("http://{}", listener.local_addr()?);
    // Read the app's folder and the access rule now, so a bad one fails
    // here and not in the task.
    drop(router(
        Gateway::new(
            &settings,
            None,
            None,
            None,
            access_of(&settings, None, None).await?,
            None,
            None,
        ),
        &settings,
    )?);
    tokio::spawn(async move {
        if let Err(error) = serve(listener, &settings, std::future::pending()).await {
            tracing::error!(%error, "the gateway stopped");
        }
    });
    Ok(base_url)
}

/// Serve on `listener` until `shutdown` completes; idle visitors' budgets
/// are forgotten every minute, and the metrics' samples folded into their
/// histograms every few seconds. Fails at once when the app's folder cannot
/// be read.
pub async fn serve(
    listener: tokio::net::TcpListener,
    settings: &Settings,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    observe::metrics();
    // One connection for the budgets and the relay, made in the background:
    // the gateway serves whether or not Redis answers yet.
    let redis = match &settings.redis {
        Some(url) => Some(
            redis_link::RedisLink::start(url)
                .await
                .map_err(|error| std::io::Error::other(format!("--redis: {error}")))?,
        ),
        None => None,
    };
    let relay = settings
        .relay
        .clone()
        .map(|relay| Arc::new(relay::Relay::start(relay, redis.clone())));
    let shared_budgets = redis.clone().map(|link| {
        access::shared_budgets::SharedBudgets::new(
            link,
            settings.requests_per_minute,
            settings.tasks_per_hour,
        )
    });
    let library = library_of(settings).await?;
    if let (Some(library), Some(relay)) = (&library, &relay) {
        library.tell_pages_with(Arc::new(library_news::RelayedNews(Arc::clone(relay))));
    }
    let access = access_of(settings, redis.clone(), library.clone()).await?;
    let uploads = match &settings.uploads {
        Some(upload_settings) => Some(Arc::new(
            uploads::Uploads::open(upload_settings.clone(), redis.clone()).await?,
        )),
        None => None,
    };
    let gateway = Gateway::new(
        settings,
        relay,
        shared_budgets,
        redis,
        access.clone(),
        uploads.clone(),
        library.clone(),
    );
    let app = router(gateway.clone(), settings)?;
    let keys_upkeep = tokio::spawn(access::upkeep(access));
    let library_upkeep = library.map(|library| tokio::spawn(library::upkeep(library)));
    let sweeping = uploads.map(|uploads| tokio::spawn(uploads::sweep(uploads)));
    let watching_holds = tokio::spawn(hold_reads::watch(gateway.clone()));
    let watching_forgotten = tokio::spawn(forgetting::watch(gateway.clone()));
    let idle_budgets = {
        let gateway = gateway.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(60));
            loop {
                every.tick().await;
                gateway.admission.forget_idle();
            }
        })
    };
    let upkeep = tokio::spawn(observe::upkeep());
    server::serve(
        listener,
        app,
        settings.connections,
        gateway.admission.client_addresses.clone(),
        shutdown,
    )
    .await;
    idle_budgets.abort();
    upkeep.abort();
    keys_upkeep.abort();
    if let Some(library_upkeep) = library_upkeep {
        library_upkeep.abort();
    }
    if let Some(sweeping) = sweeping {
        sweeping.abort();
    }
    watching_holds.abort();
    watching_forgotten.abort();
    gateway.admission.access.keep_usage().await;
    Ok(())
}

/// The access rule of `settings`, its keys read (from the library, or
/// the Redis of `redis`, when given).
async fn access_of(
    settings: &Settings,
    redis: Option<Arc<redis_link::RedisLink>>,
    library: Option<Arc<library::Library>>,
) -> std::io::Result<Arc<access::Access>> {
    access::Access::new(
        &access_settings(settings),
        redis,
        library.map(|library| library as Arc<dyn access::database::PeopleDatabase>),
    )
    .await
    .map(Arc::new)
    .map_err(std::io::Error::other)
}

/// Where `settings` keep the library, if anywhere.
fn library_at(settings: &Settings) -> Option<library::LibraryAt> {
    settings.library.resolve(
        settings.access.names_people(),
        settings.data_dir.as_deref(),
        settings.redis.is_some(),
    )
}

/// The library of `settings`, open and migrated, if one is kept.
async fn library_of(settings: &Settings) -> std::io::Result<Option<Arc<library::Library>>> {
    let Some(at) = library_at(settings) else {
        return Ok(None);
    };
    let library = library::Library::open(&at)
        .await
        .map_err(|error| std::io::Error::other(error.to_string()))?;
    tracing::info!(library = %library.describe(), "each person's library is kept");
    Ok(Some(Arc::new(library)))
}

/// What the access rule is made of, out of `settings`.
fn access_settings(settings: &Settings) -> access::AccessSettings {
    access::AccessSettings {
        mode: settings.access,
        data_dir: settings.data_dir.clone(),
        redis: settings.redis.is_some(),
        library: library_at(settings).is_some(),
        tasks_per_day: settings.tasks_per_day,
        user_header: settings.user_header.clone(),
        trusted: settings.trusted_proxies.clone(),
        allowed_origins: settings.allowed_origins.clone(),
        token_lifetime: settings.token_lifetime,
    }
}

impl axum::extract::FromRef<Gateway> for Arc<access::admission::Admission> {
    fn from_ref(gateway: &Gateway) -> Self {
        Arc::clone(&gateway.admission)
    }
}

impl axum::extract::FromRef<Gateway> for library::routes::KeptLibrary {
    fn from_ref(gateway: &Gateway) -> Self {
        library::routes::KeptLibrary(gateway.library.clone())
    }
}

impl axum::extract::FromRef<Gateway> for relay::RelayState {
    fn from_ref(gateway: &Gateway) -> Self {
        relay::RelayState {
            relay: gateway.relay.clone(),
            news: Arc::new(gateway.clone()),
            library: gateway.library.is_some(),
        }
    }
}

impl axum::extract::FromRef<Gateway> for uploads::TakenUploads {
    fn from_ref(gateway: &Gateway) -> Self {
        uploads::TakenUploads(gateway.uploads.clone())
    }
}

impl axum::extract::FromRef<Gateway> for sharing::SharingState {
    fn from_ref(gateway: &Gateway) -> Self {
        sharing::SharingState(gateway.sharing.clone())
    }
}
