//! A local stand-in of the Media Generation Service.
//!
//! It answers the interface document's endpoints under `/v1` with bearer
//! authentication, serves the built app at `/`, and offers a few helpers for
//! the app and tests under `/sandbox`. Every contract rule comes from
//! `media-gen-api`; nothing here re-implements one.

mod auth;
pub mod config;
mod demo;
pub mod error;
pub mod languages;
mod static_files;

use std::net::SocketAddr;

use axum::routing::get;
use axum::{middleware, Router};
use media_gen_api::TARGET_LANGUAGES_PATH;
use tokio::net::TcpListener;
use tower_http::trace::TraceLayer;

pub use config::{Config, DEMO_TOKEN};
pub use error::ApiError;

/// The whole HTTP surface for `config`.
pub fn router(config: &Config) -> Router {
    let tokens = auth::Tokens::new(&config.tokens);
    let api = Router::new()
        .route(TARGET_LANGUAGES_PATH, get(languages::target_languages))
        // route_layer: unknown paths reach the fallback (404) without an auth check.
        .route_layer(middleware::from_fn_with_state(tokens, auth::require_bearer))
        .fallback(|| async { ApiError::NotFound });

    let demo = (!config.private)
        .then(|| config.tokens.first().cloned())
        .flatten()
        .map(|token| demo::DemoSettings { token });
    let sandbox = Router::new()
        .route("/sandbox/demo", get(demo::demo_settings))
        .with_state(demo);

    let mut app = Router::new().merge(api).merge(sandbox);
    if let Some(dir) = &config.static_dir {
        app = app.fallback_service(static_files::service(dir));
    }
    // TraceLayer's default spans record method and URI only, never headers,
    // so tokens stay out of the logs.
    app.layer(TraceLayer::new_for_http())
}

/// Bind the configured address, then serve until Ctrl+C.
pub async fn run(config: Config) -> std::io::Result<()> {
    if let Some(dir) = &config.static_dir {
        if !dir.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("--static {}: no such folder", dir.display()),
            ));
        }
    }
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

/// What a person needs to start: where to go, and the token.
fn banner(config: &Config, address: SocketAddr) -> String {
    let mut lines = vec![format!("media-gen-sandbox listening on http://{address}/")];
    if config.static_dir.is_some() {
        lines.push(format!(
            "  App:           http://{address}/  (set up with the token below)"
        ));
    }
    lines.push(format!("  API base URL:  http://{address}"));
    if let Some(token) = config.tokens.first().filter(|_| !config.private) {
        lines.push(format!("  Token:         {token}"));
    }
    lines.push("  Press Ctrl+C to stop.".to_owned());
    lines.join("\n")
}

/// Serve `config`'s router on an already bound listener until Ctrl+C.
pub async fn serve(listener: TcpListener, config: &Config) -> std::io::Result<()> {
    axum::serve(listener, router(config))
        .with_graceful_shutdown(async {
            // If the signal cannot be installed, run until the process is killed.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
        .await
}
