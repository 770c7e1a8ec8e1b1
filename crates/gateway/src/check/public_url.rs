//! `public-url` reaches this gateway: the service's callbacks and its
//! fetches of uploads come that way. Before the gateway serves, the check
//! listens where it will and asks the public address for a word only this
//! run knows.

use std::time::Duration;

use axum::http::{StatusCode, Uri};
use http_body_util::BodyExt;

use super::{Line, PART_TIMEOUT};
use crate::config_file::Loaded;
use crate::upstream::UpstreamClient;
use media_gen_api::url_parts::without_password;

const PART: &str = "public-url";

/// Where under the public address the check asks: where the service's
/// callbacks go (a proxy that asks visitors for a password leaves this
/// path open to the service, as the deployment guide's does).
const PROBE_PATH: &str = "callbacks/media-gen-check";

/// The most of an answer read: the word is 32 characters.
const PROBE_ANSWER_BYTES: usize = 4096;

/// Listen on `listen`, ask `{public-url}/callbacks/media-gen-check` and
/// compare what comes back.
pub(super) async fn check(loaded: &Loaded) -> Line {
    let config = &loaded.config;
    let Some(public_url) = &config.public_url else {
        return Line::skipped(PART, "none: no relay of callbacks, no uploads");
    };
    let where_set = loaded.where_set("public-url");
    let listener =
        match tokio::net::TcpListener::bind(config.listen).await {
            Ok(listener) => listener,
            Err(error) => return Line::failed(
                PART,
                format!("cannot listen on {} to try it: {error}", config.listen),
                "stop the gateway running there, then check again (check runs before it serves)",
            ),
        };
    let word = match crate::uploads::FileId::new() {
        Some(id) => id.to_string(),
        None => return Line::failed(PART, "no random bits for a word", "try again"),
    };
    let answer = word.clone();
    let app = axum::Router::new().fallback(move || {
        let answer = answer.clone();
        async move { answer }
    });
    let serving = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let url = format!("{}/{PROBE_PATH}", public_url.trim_end_matches('/'));
    let heard = heard(&url, PART_TIMEOUT).await;
    serving.abort();
    let hint = format!(
        "the service must reach this gateway there: check {where_set}, DNS, and that the proxy \
         in front forwards {} to {}",
        config.base_path, config.listen
    );
    // Shown without a password the address may carry (a proxy's).
    let (shown, asked) = (without_password(public_url), without_password(&url));
    match heard {
        Ok((status, body)) if status.is_success() && body == word => {
            Line::ok(PART, format!("{shown} reaches this gateway"))
        }
        Ok((status, _)) => Line::failed(
            PART,
            format!("{asked} answers ({status}), but not from this gateway"),
            hint,
        ),
        Err(why) => Line::failed(PART, format!("{asked}: {why}"), hint),
    }
}

/// The status and body of `GET url`, or why there are none.
async fn heard(url: &str, deadline: Duration) -> Result<(StatusCode, String), String> {
    let uri: Uri = url.parse().map_err(|_| "not an address".to_owned())?;
    let answer = UpstreamClient::new()
        .get_streamed(uri, deadline)
        .await
        .map_err(|error| match error {
            crate::upstream::CallError::Timeout => {
                format!("no answer within {} s", deadline.as_secs())
            }
            crate::upstream::CallError::Failed => "cannot connect".to_owned(),
        })?;
    let status = answer.status();
    // The word is a few bytes: anything much longer is not this gateway.
    let body = http_body_util::Limited::new(answer.into_body(), PROBE_ANSWER_BYTES);
    let body = tokio::time::timeout(deadline, body.collect())
        .await
        .map_err(|_| "the answer did not end".to_owned())?
        .map_err(|error| error.to_string())?
        .to_bytes();
    Ok((status, String::from_utf8_lossy(&body).into_owned()))
}
