//! The built app (`--static DIR`): the files as the build wrote them, their
//! brotli or gzip copies (written next to them at build time) to browsers
//! that accept them, long-lived caching for names that carry a content hash
//! and none for the rest, the app's routes answered with `index.html`, and
//! each page's Content-Security-Policy, worked out once at start. Under a
//! base path (`--base-path /media/`) the app's page is served with its
//! `<base href>` saying so, which every relative address in it (its
//! scripts, styles, links) and the app's router follow.

use std::collections::HashMap;
use std::io;
use std::path::Path;

use axum::body::Bytes;
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower_http::compression::CompressionLayer;
use tower_http::services::{ServeDir, ServeFile};

use crate::base_path::BasePath;
use crate::csp;

/// The `<base>` element the app's `index.html` is built with: the root.
pub const ROOT_BASE: &str = "<base href=\"/\" />";

/// The app's page for a site whose base path is `base`: `html` with its
/// `<base href>` naming it. Fails on a page built without one.
pub fn page_under(html: &str, base: &BasePath) -> Result<String, String> {
    if !html.contains(ROOT_BASE) {
        return Err(format!(
            "index.html has no `{ROOT_BASE}` to name --base-path {base} in: build the app again"
        ));
    }
    Ok(html.replacen(ROOT_BASE, &format!("<base href=\"{base}\" />"), 1))
}

/// How the app's routes are answered: the built `index.html` (and its
/// compressed copies) at the root, else that page with its base named,
/// compressed as each browser accepts.
#[derive(Clone)]
enum AppPage {
    File(ServeFile),
    Rewritten(Bytes),
}

impl AppPage {
    async fn answer(self, request: Request) -> Response {
        match self {
            AppPage::File(file) => match tower::ServiceExt::oneshot(file, request).await {
                Ok(response) => response.into_response(),
                Err(never) => match never {},
            },
            AppPage::Rewritten(page) => {
                let page = tower::service_fn(move |_: Request| {
                    let page = page.clone();
                    async move {
                        Ok::<_, std::convert::Infallible>(
                            ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], page)
                                .into_response(),
                        )
                    }
                });
                let compressed = tower::ServiceBuilder::new()
                    .layer(CompressionLayer::new())
                    .service(page);
                match tower::ServiceExt::oneshot(compressed, request).await {
                    Ok(response) => response.into_response(),
                    Err(never) => match never {},
                }
            }
        }
    }
}

/// Whether a file name carries a content hash as the build writes it
/// (`app-a4b758a2dacac90d.css`, `media-gen-app-ab50f204358884f8_bg.wasm`):
/// such a file never changes under its name.
pub fn is_hashed(name: &str) -> bool {
    name.match_indices('-').any(|(at, _)| {
        let rest = &name[at + 1..];
        rest.len() > 16
            && rest.as_bytes()[..16].iter().all(u8::is_ascii_hexdigit)
            && matches!(rest.as_bytes()[16], b'.' | b'_')
    })
}

/// Each page's policy, by the URL paths that show it.
#[derive(Debug, Clone, Default)]
struct Policies {
    by_path: HashMap<String, HeaderValue>,
    index: Option<HeaderValue>,
}

impl Policies {
    /// Read every `.html` file under `dir`.
    fn read(dir: &Path, connect: &[String]) -> io::Result<Policies> {
        let mut policies = Policies::default();
        let mut folders = vec![dir.to_owned()];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder)? {
                let path = entry?.path();
                if path.is_dir() {
                    folders.push(path);
                    continue;
                }
                if path.extension().and_then(|e| e.to_str()) != Some("html") {
                    continue;
                }
                let html = std::fs::read_to_string(&path)?;
                let policy = csp::policy(&csp::inline_script_hashes(&html), connect);
                let Ok(value) = HeaderValue::from_str(&policy) else {
                    continue;
                };
                let relative = path.strip_prefix(dir).unwrap_or(&path);
                let url = format!("/{}", relative.to_string_lossy().replace('\\', "/"));
                if let Some(folder_url) = url.strip_suffix("index.html") {
                    policies
                        .by_path
                        .insert(folder_url.to_owned(), value.clone());
                    if folder_url == "/" {
                        policies.index = Some(value.clone());
                    }
                }
                policies.by_path.insert(url, value);
            }
        }
        Ok(policies)
    }

    /// The policy for a page at `path`: its own, else the app's (a route
    /// answered with `index.html`).
    fn for_path(&self, path: &str) -> Option<&HeaderValue> {
        self.by_path.get(path).or(self.index.as_ref())
    }
}

/// The static site under `dir`, served under `base`, allowing its pages
/// requests to `connect` (origins) besides their own.
pub fn router(dir: &Path, base: &BasePath, connect: &[String]) -> io::Result<Router> {
    if !dir.join("index.html").is_file() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "--static {}: no index.html there (build the app first)",
                dir.display()
            ),
        ));
    }
    let policies = Policies::read(dir, connect)?;
    let index = if base.is_root() {
        AppPage::File(
            ServeFile::new(dir.join("index.html"))
                .precompressed_br()
                .precompressed_gzip(),
        )
    } else {
        let html = std::fs::read_to_string(dir.join("index.html"))?;
        let page = page_under(&html, base).map_err(io::Error::other)?;
        AppPage::Rewritten(Bytes::from(page))
    };
    let page = index.clone();
    let files = ServeDir::new(dir)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(tower::service_fn(move |request: Request| {
            let index = index.clone();
            async move {
                // A path with an extension named a file that is not there;
                // any other is one of the app's routes.
                let last = request.uri().path().rsplit('/').next().unwrap_or_default();
                if last.contains('.') {
                    return Ok::<_, std::convert::Infallible>(
                        (StatusCode::NOT_FOUND, "No such file").into_response(),
                    );
                }
                Ok(index.answer(request).await)
            }
        }));
    let routes = match page {
        // The page on disk names the root: never served as it is.
        AppPage::Rewritten(_) => Router::new()
            .route_service("/", app_page_service(page.clone()))
            .route_service("/index.html", app_page_service(page)),
        AppPage::File(_) => Router::new(),
    };
    Ok(routes
        .fallback_service(files)
        .layer(axum::middleware::from_fn(move |request, next| {
            headers(policies.clone(), request, next)
        })))
}

/// `page` as a service a route can hold.
fn app_page_service(
    page: AppPage,
) -> impl tower::Service<
    Request,
    Response = Response,
    Error = std::convert::Infallible,
    Future = impl Send + 'static,
> + Clone {
    tower::service_fn(move |request: Request| {
        let page = page.clone();
        async move { Ok(page.answer(request).await) }
    })
}

/// Caching, `Vary` and, for pages, the policy.
async fn headers(policies: Policies, request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    let mut response = next.run(request).await;
    let is_html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/html"));
    let name = path.rsplit('/').next().unwrap_or_default();
    let caching = if response.status().is_success() && !is_html && is_hashed(name) {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(caching));
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if is_html {
        if let Some(policy) = policies.for_path(&path) {
            headers.insert(header::CONTENT_SECURITY_POLICY, policy.clone());
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::is_hashed;

    #[test]
    fn hashed_names_are_the_builds() {
        assert!(is_hashed("app-a4b758a2dacac90d.css"));
        assert!(is_hashed("media-gen-app-ab50f204358884f8_bg.wasm"));
        assert!(is_hashed("media-gen-app-ab50f204358884f8.js"));
        assert!(!is_hashed("index.html"));
        assert!(!is_hashed("favicon.ico"));
        assert!(!is_hashed("media-gen-app.js"));
        assert!(!is_hashed("app-a4b758a2dacac90.css"));
    }
}
