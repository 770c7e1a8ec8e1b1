//! Serving the built app at `/`.

use std::path::{Path, PathBuf};

use axum::http::{StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, MethodRouter};
use tower_http::compression::{CompressionLayer, CompressionLevel};
use tower_http::services::ServeDir;

/// Files from `dir` (content types by extension, so `.wasm` is
/// `application/wasm`); any other path without a file extension gets
/// `index.html`, so the app's routes (`/settings`, `/tasks/...`) open directly.
pub fn service(dir: &Path) -> ServeDir<MethodRouter> {
    let index = dir.join("index.html");
    ServeDir::new(dir).fallback(get(move |uri: Uri| spa_index(index.clone(), uri)))
}

/// gzip or brotli for clients that accept them (`Accept-Encoding`), so the
/// app travels at about the size `cargo xtask bench sizes` reports rather
/// than three times it. Level 6: near the best ratio, a few milliseconds per
/// file (brotli's default, 11, takes seconds for the app's wasm).
pub fn compression() -> CompressionLayer {
    CompressionLayer::new().quality(CompressionLevel::Precise(6))
}

async fn spa_index(index: PathBuf, uri: Uri) -> Response {
    let last_segment = uri.path().rsplit('/').next().unwrap_or_default();
    if last_segment.contains('.') {
        return StatusCode::NOT_FOUND.into_response();
    }
    match tokio::fs::read_to_string(&index).await {
        Ok(html) => Html(html).into_response(),
        Err(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "The app is not built yet ({} is missing): run `cargo xtask start`.",
                index.display()
            ),
        )
            .into_response(),
    }
}
