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

/// POST `callback` to `url` until a 2xx answer, at most [`ATTEMPTS`] times,
/// waiting `first_wait`, then twice that, between attempts. Returns whether
/// the receiver took it.
pub async fn deliver(
    client: &reqwest::Client,
    url: &str,
    callback: &Callback,
    first_wait: Duration,
) -> bool {
    let mut wait = first_wait;
    for attempt in 1..=ATTEMPTS {
        match client.post(url).json(callback).send().await {
            Ok(response) if response.status().is_success() => return true,
            Ok(response) => {
                tracing::info!(url, attempt, status = %response.status(), "callback refused")
            }
            Err(error) => tracing::info!(url, attempt, %error, "callback failed"),
        }
        if attempt < ATTEMPTS {
            tokio::time::sleep(wait).await;
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
