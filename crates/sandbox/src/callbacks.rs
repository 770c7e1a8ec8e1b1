//! Completion callbacks: one POST per task when it ends, retried when the
//! receiver fails, and by default only to loopback addresses.

use std::net::IpAddr;
use std::time::{Duration, Instant};

use media_gen_api::envelope::MSG_OK;
use media_gen_api::validate::{is_http_url, parse_url};
use media_gen_api::{Callback, SUCCESS_CODE};

use crate::render::render;
use crate::state::AppState;
use crate::store::Task;

/// Attempts per callback: the first and two retries.
pub const ATTEMPTS: u32 = 3;

/// Whether the sandbox may call `url` back. Without `any_host`, only
/// `localhost` and loopback IP literals pass, and no name is looked up, so
/// the sandbox cannot be used to reach other machines.
pub fn allowed(url: &str, any_host: bool) -> Result<(), String> {
    // The URL rule itself is the contract's; only the host guard is the sandbox's.
    let parsed = parse_url(url)
        .filter(|_| is_http_url(url))
        .ok_or_else(|| "callback_url: must be an absolute http or https URL".to_owned())?;
    if any_host {
        return Ok(());
    }
    let loopback = match parsed.host() {
        Some(url::Host::Domain(domain)) => domain.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        None => false,
    };
    if loopback {
        Ok(())
    } else {
        Err("callback_url: this sandbox calls back only to loopback addresses (localhost, 127.0.0.1, ::1); \
             start it with --callbacks-to-any-host to allow others"
            .to_owned())
    }
}

/// The callback body for `task` as it ends.
pub fn body(task: &Task) -> Callback {
    Callback {
        code: SUCCESS_CODE,
        msg: MSG_OK.to_owned(),
        task: render(task, task.schedule.ends),
    }
}

/// The longest `Retry-After` a callback's receiver is obeyed for.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

/// The wait a receiver asked for in `Retry-After` (whole seconds), at most
/// [`MAX_RETRY_AFTER`].
fn asked_wait(response: &reqwest::Response) -> Option<Duration> {
    let seconds: u64 = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some(Duration::from_secs(seconds).min(MAX_RETRY_AFTER))
}

/// POST `callback` to `url` until a 2xx answer, at most [`ATTEMPTS`] times,
/// waiting `first_wait`, then twice that, between attempts, or as long as
/// the receiver's `Retry-After` asks when that is longer. Returns whether
/// the receiver took it.
pub async fn deliver(
    client: &reqwest::Client,
    url: &str,
    callback: &Callback,
    first_wait: Duration,
) -> bool {
    let mut wait = first_wait;
    for attempt in 1..=ATTEMPTS {
        let mut asked = None;
        match client.post(url).json(callback).send().await {
            Ok(response) if response.status().is_success() => return true,
            Ok(response) => {
                asked = asked_wait(&response);
                tracing::info!(url, attempt, status = %response.status(), "callback refused")
            }
            Err(error) => tracing::info!(url, attempt, %error, "callback failed"),
        }
        if attempt < ATTEMPTS {
            tokio::time::sleep(wait.max(asked.unwrap_or_default())).await;
            wait *= 2;
        }
    }
    false
}

/// Send `task`'s callback to `url` when it ends, in the background.
pub fn schedule(app: &AppState, task: Task, url: String) {
    let app = app.clone();
    tokio::spawn(async move {
        let wait = task.schedule.ends.saturating_duration_since(Instant::now());
        tokio::time::sleep(wait).await;
        let first_wait = Duration::from_millis(app.config.callback_retry_ms);
        deliver(&app.http, &url, &body(&task), first_wait).await;
    });
}

/// `GET /sandbox/tasks/{kind}/{task_id}/callback_url` (bearer token): the
/// callback address a task was submitted with, or `null`, so a test can
/// call back as the service does (a relaying gateway's address holds a
/// secret only the service is given).
pub async fn callback_url_of(
    axum::extract::State(app): axum::extract::State<AppState>,
    axum::extract::Path((kind, task_id)): axum::extract::Path<(String, String)>,
) -> Result<axum::Json<media_gen_api::Envelope<Option<String>>>, crate::error::ApiError> {
    let kind: media_gen_api::TaskKind = kind
        .parse()
        .map_err(|_| crate::error::ApiError::NotFound(format!("kind: no task kind `{kind}`")))?;
    let task = app.task(kind, &task_id)?;
    Ok(axum::Json(media_gen_api::Envelope::success(
        MSG_OK,
        task.callback_url,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_only_unless_widened() {
        for ok in [
            "http://localhost:9000/hook",
            "http://127.0.0.1/x",
            "http://127.8.9.1/x",
            "http://[::1]:80/x",
            "https://LOCALHOST/x",
        ] {
            assert!(allowed(ok, false).is_ok(), "{ok}");
        }
        for refused in [
            "http://example.com/hook",
            "http://10.0.0.1/x",
            "http://169.254.169.254/latest",
            "http://localhost.example.com/x",
            "http://[::2]/x",
        ] {
            assert!(allowed(refused, false).is_err(), "{refused}");
            assert!(allowed(refused, true).is_ok(), "{refused}");
        }
        assert!(allowed("ftp://localhost/x", true).is_err());
    }
}
