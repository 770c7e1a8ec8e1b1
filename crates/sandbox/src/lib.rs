//! A local stand-in of the Media Generation Service.
//!
//! It answers the interface document's seven endpoints under `/v1` with
//! bearer authentication, runs each task through `PENDING`, `GENERATING` and
//! `SUCCEEDED` or `FAILED`, serves real media for the results, sends
//! callbacks and injects faults on demand. Pages are served by the gateway
//! (`crates/gateway`), which forwards the documented calls here as it would
//! to the real service. Every contract rule comes from `media-gen-api`;
//! nothing here re-implements one.

mod auth;
mod body;
pub mod callbacks;
pub mod config;
pub mod counters;
pub mod error;
pub mod faults;
pub mod fetch_inputs;
pub mod fetch_log;
pub mod inbox;
mod media;
pub mod routes;
mod state;
pub mod stats;

use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderName, HeaderValue, Method};
use axum::routing::{any, get, post};
use axum::{middleware, Router};
use media_gen_api::TARGET_LANGUAGES_PATH;
use tokio::net::TcpListener;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tracing::Level;

pub use body::MAX_BODY_BYTES;
pub use config::{Config, DEMO_TOKEN};
pub use error::{codes, ApiError, Refusal};
pub use media_gen_api::service::Faults;
pub use state::AppState;

/// The `/v1` endpoints: bearer auth inside, fault injection around it.
fn api(app: &AppState) -> Router<AppState> {
    let tokens = auth::Tokens::new(&app.config.tokens);
    Router::new()
        .route("/v1/image_to_video", post(routes::image_to_video::submit))
        .route(
            "/v1/image_to_video/{task_id}",
            get(routes::image_to_video::status),
        )
        .route("/v1/video_translate", post(routes::video_translate::submit))
        .route(
            TARGET_LANGUAGES_PATH,
            get(routes::languages::target_languages),
        )
        .route(
            "/v1/video_translate/{task_id}",
            get(routes::video_translate::status),
        )
        .route("/v1/image_generate", post(routes::image_generate::submit))
        .route(
            "/v1/image_generate/{task_id}",
            get(routes::image_generate::status),
        )
        // route_layer: unknown paths reach the fallback (404) without an auth check.
        .route_layer(middleware::from_fn_with_state(tokens, auth::require_bearer))
        .route_layer(middleware::from_fn_with_state(app.clone(), faults::inject))
        // Unknown API paths get the error envelope, never the app's index.html.
        .route("/v1/{*rest}", any(not_found))
        .route_layer(middleware::from_fn_with_state(app.clone(), stats::count))
        .method_not_allowed_fallback(|| async { ApiError(Refusal::MethodNotAllowed) })
}

async fn not_found() -> ApiError {
    ApiError(Refusal::no_endpoint())
}

/// `/sandbox/*`: helpers for the app and for tests.
fn sandbox(app: &AppState) -> Router<AppState> {
    let tokens = auth::Tokens::new(&app.config.tokens);
    let faults = Router::new()
        .route(
            "/sandbox/faults",
            get(faults::get_faults).put(faults::put_faults),
        )
        .route_layer(middleware::from_fn_with_state(
            tokens.clone(),
            auth::require_bearer,
        ));
    let callback_urls = Router::new()
        .route(
            "/sandbox/tasks/{kind}/{task_id}/callback_url",
            get(callbacks::callback_url_of),
        )
        .route_layer(middleware::from_fn_with_state(tokens, auth::require_bearer));
    Router::new()
        .route("/sandbox/stats", get(stats::stats))
        .route("/sandbox/fetched", get(fetch_inputs::fetched))
        .route(
            media_gen_api::relay::CAPABILITIES_PATH,
            get(inbox::capabilities),
        )
        .route(
            "/sandbox/inbox/{name}",
            post(inbox::receive).get(inbox::list),
        )
        .merge(media_routes(app))
        .merge(faults)
        .merge(callback_urls)
        .route("/sandbox/{*rest}", any(not_found))
}

/// Result files. Pages that isolate themselves (`Cross-Origin-Embedder-Policy:
/// require-corp`) load cross-origin images and videos only when the response
/// says it may be embedded anywhere, as a media host's should.
fn media_routes(app: &AppState) -> Router<AppState> {
    Router::new()
        .route("/sandbox/media/video/{file}", get(media::video))
        .route("/sandbox/media/image/{quality}/{file}", get(media::image))
        .route(
            "/sandbox/media/image/{quality}/{ratio}/thumbnail.png",
            get(media::image_thumbnail),
        )
        .route(
            "/sandbox/media/translated/{language}/{file}",
            get(media::translated),
        )
        .route_layer(middleware::from_fn_with_state(
            app.clone(),
            stats::count_media,
        ))
        .layer(SetResponseHeaderLayer::overriding(
            HeaderName::from_static("cross-origin-resource-policy"),
            HeaderValue::from_static("cross-origin"),
        ))
}

/// CORS for browser pages on other origins: any origin unless `--allow-origin`
/// lists some (`*` is any); `Authorization` allowed, so preflights for
/// bearer calls pass.
fn cors(config: &Config) -> CorsLayer {
    let any = config.allowed_origins.iter().any(|origin| origin == "*");
    let origins = if any || config.allowed_origins.is_empty() {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(
            config
                .allowed_origins
                .iter()
                .filter_map(|origin| HeaderValue::from_str(origin).ok()),
        )
    };
    CorsLayer::new()
        .allow_origin(origins)
        .allow_methods([Method::GET, Method::POST, Method::PUT])
        .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE])
        .expose_headers([HeaderName::from_static("retry-after")])
        .max_age(Duration::from_secs(600))
}

/// The whole HTTP surface for `config`.
pub fn router(config: &Config) -> Router {
    let app = AppState::new(config.clone());
    let router = Router::new()
        .merge(api(&app))
        .merge(sandbox(&app))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .fallback(not_found);
    // One log line per request: method, path, status, latency. Headers (and
    // so tokens) are never recorded.
    let trace = TraceLayer::new_for_http()
        .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
        .on_request(())
        .on_response(DefaultOnResponse::new().level(Level::INFO));
    router.with_state(app).layer(cors(config)).layer(trace)
}

/// Bind the configured address, then serve until Ctrl+C.
pub async fn run(config: Config) -> std::io::Result<()> {
    config
        .faults
        .check()
        .map_err(|message| std::io::Error::new(std::io::ErrorKind::InvalidInput, message))?;
    let address = SocketAddr::new(config.host, config.port);
    let listener = TcpListener::bind(address).await.map_err(|error| {
        std::io::Error::new(
            error.kind(),
            format!("cannot listen on {address}: {error} (is another server using the port? try --port)"),
        )
    })?;
    println!("{}", banner(&config, listener.local_addr()?));
    serve(listener, &config).await
}

/// What a person needs to start: where the API is, and the token.
fn banner(config: &Config, address: SocketAddr) -> String {
    let mut lines = vec![format!("media-gen-sandbox listening on http://{address}/")];
    lines.push(format!("  API base URL:  http://{address}"));
    if let Some(token) = config.tokens.first().filter(|_| !config.private) {
        lines.push(format!("  Token:         {token}"));
    }
    lines.push("  Press Ctrl+C to stop.".to_owned());
    lines.join("\n")
}

/// Serve `config` in the background of the current Tokio runtime on a free
/// loopback port (its host and port are ignored); returns its base URL,
/// `http://127.0.0.1:<port>`. The sandbox tests and the end-to-end tests
/// start theirs this way; a separate process goes through
/// `media-gen-launch` instead.
pub async fn spawn_local(config: Config) -> std::io::Result<String> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let base_url = format!("http://{}", listener.local_addr()?);
    tokio::spawn(async move {
        if let Err(error) = serve(listener, &config).await {
            tracing::error!(%error, "the sandbox stopped");
        }
    });
    Ok(base_url)
}

/// Serve `config`'s router on an already bound listener until Ctrl+C.
/// Result URLs use `--public-url`, else the listener's address.
pub async fn serve(listener: TcpListener, config: &Config) -> std::io::Result<()> {
    let mut config = config.clone();
    if config.public_url.is_none() {
        let address = listener.local_addr()?;
        // An address for any interface is not one a browser can open.
        let host = if address.ip().is_unspecified() {
            "localhost".to_owned()
        } else {
            address.ip().to_string()
        };
        let host = if address.is_ipv6() && host != "localhost" {
            format!("[{host}]")
        } else {
            host
        };
        config.public_url = Some(format!("http://{host}:{}", address.port()));
    }
    axum::serve(listener, router(&config))
        .with_graceful_shutdown(async {
            // If the signal cannot be installed, run until the process is killed.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
        .await
}
