//! `--fetch-inputs`: the sandbox fetches each media a submission names, as
//! the service must before it can work, and a task whose input is missing,
//! too large or not an image (or video) fails with a message naming the
//! field and the rule. Each fetch is bounded in bytes (the contract's
//! 20 MB for images, [`MAX_VIDEO_BYTES`] for videos) and time
//! ([`FETCH_TIME`]), and what was fetched is recorded with its SHA-256
//! (`GET /sandbox/fetched`), so a test can prove the service got exactly
//! the bytes the person picked.
//!
//! Only public addresses are fetched unless `--fetch-private`: a URL whose
//! host is, or resolves to, a loopback, link-local, private or otherwise
//! non-global address fails like any other input that cannot be fetched,
//! so a submission cannot make the sandbox reach this machine or its
//! network.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use axum::extract::State;
use axum::Json;
use media_gen_api::media_inputs::{InputKind, MediaInput};
use media_gen_api::media_type::{check_media, SNIFF_BYTES};
use media_gen_api::reach::first_not_public;
use media_gen_api::Envelope;
use sha2::{Digest, Sha256};

use crate::fetch_log::Fetched;
use crate::state::AppState;

/// The longest a fetch may take.
pub const FETCH_TIME: Duration = Duration::from_secs(30);
/// The largest video fetched.
pub const MAX_VIDEO_BYTES: u64 = 2 << 30;

/// `GET /sandbox/fetched`.
pub async fn fetched(State(app): State<AppState>) -> Json<Envelope<Vec<Fetched>>> {
    Json(Envelope::success("ok", app.fetched.all()))
}

/// Fetch every input in turn, when `--fetch-inputs` is on: `Err` with the
/// failure message of the first that cannot be used.
pub async fn fetch_inputs(app: &AppState, inputs: &[MediaInput<'_>]) -> Result<(), String> {
    if !app.config.fetch_inputs {
        return Ok(());
    }
    for input in inputs {
        let fetched = fetch_one(app, input).await?;
        app.fetched.record(fetched);
    }
    Ok(())
}

/// Fetch one input within the bounds; what it was, or why it cannot be used.
async fn fetch_one(app: &AppState, input: &MediaInput<'_>) -> Result<Fetched, String> {
    let field = &input.field;
    let fetched = tokio::time::timeout(FETCH_TIME, read(app, input)).await;
    match fetched {
        Ok(Ok(fetched)) => Ok(fetched),
        Ok(Err(why)) => Err(format!("The input {field} could not be used: {why}")),
        Err(_) => Err(format!(
            "The input {field} could not be used: it did not arrive within {} s",
            FETCH_TIME.as_secs()
        )),
    }
}

async fn read(app: &AppState, input: &MediaInput<'_>) -> Result<Fetched, String> {
    let max = match input.kind {
        InputKind::Image => media_gen_api::validate::MAX_IMAGE_BYTES,
        InputKind::Video => MAX_VIDEO_BYTES,
    };
    let client = client_for(input.url, app.config.fetch_private).await?;
    let mut response = client
        .get(input.url)
        .send()
        .await
        .map_err(|_| "it could not be fetched (no answer from its host)".to_owned())?;
    if !response.status().is_success() {
        return Err(format!(
            "it could not be fetched (HTTP {})",
            response.status().as_u16()
        ));
    }
    let (mut hasher, mut head, mut bytes) = (Sha256::new(), Vec::new(), 0u64);
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|_| "its download broke off".to_owned())?
    {
        bytes += chunk.len() as u64;
        if bytes > max {
            return Err(format!(
                "it has more than {max} bytes, the most a file may have"
            ));
        }
        if head.len() < SNIFF_BYTES {
            head.extend(chunk.iter().take(SNIFF_BYTES - head.len()));
        }
        hasher.update(&chunk);
    }
    let media = check_media(&head, bytes, MAX_VIDEO_BYTES)
        .map_err(|refusal| refusal.to_string().trim_start_matches("file: ").to_owned())?;
    let wanted = match input.kind {
        InputKind::Image => media.is_image(),
        InputKind::Video => !media.is_image(),
    };
    if !wanted {
        return Err(format!(
            "it is {}, where {} is needed",
            media.mime(),
            match input.kind {
                InputKind::Image => "an image",
                InputKind::Video => "a video",
            }
        ));
    }
    Ok(Fetched {
        url: input.url.to_owned(),
        sha256: hasher
            .finalize()
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect(),
        bytes,
        mime: media.mime().to_owned(),
    })
}

/// A client that fetches `url`. With `any_address` (`--fetch-private`) it
/// connects wherever the host resolves. Otherwise the host is resolved here,
/// every address it resolves to must be public, and the client connects only
/// to those checked addresses (see [`client`]), so a second DNS answer
/// cannot send it elsewhere.
async fn client_for(url: &str, any_address: bool) -> Result<reqwest::Client, String> {
    if any_address {
        return client(None);
    }
    let parsed =
        url::Url::parse(url).map_err(|_| "it could not be fetched (not a URL)".to_owned())?;
    match parsed.host() {
        Some(url::Host::Ipv4(ip)) => {
            check_public(None, &[IpAddr::V4(ip)]).and_then(|()| client(None))
        }
        Some(url::Host::Ipv6(ip)) => {
            check_public(None, &[IpAddr::V6(ip)]).and_then(|()| client(None))
        }
        Some(url::Host::Domain(domain)) => {
            // The URL's own port is used whatever this one is.
            let port = parsed.port_or_known_default().unwrap_or(0);
            let addresses: Vec<SocketAddr> = tokio::net::lookup_host((domain, port))
                .await
                .map(Iterator::collect)
                .unwrap_or_default();
            let ips: Vec<IpAddr> = addresses.iter().map(SocketAddr::ip).collect();
            check_public(Some(domain), &ips)?;
            client(Some((domain, &addresses)))
        }
        None => Err("it could not be fetched (its URL names no host)".to_owned()),
    }
}

/// A client for one fetch: with `pinned`, the host name it connects to only
/// at the addresses given, its own lookup replaced by them. Redirects are
/// not followed and no proxy is used, as either would connect to an
/// address not checked.
fn client(pinned: Option<(&str, &[SocketAddr])>) -> Result<reqwest::Client, String> {
    let builder = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy();
    let builder = match pinned {
        Some((domain, addresses)) => builder.resolve_to_addrs(domain, addresses),
        None => builder,
    };
    builder
        .build()
        .map_err(|_| "it could not be fetched (no HTTP client could be made)".to_owned())
}

/// `Ok` when every one of `addresses` is public: those the host name
/// `domain` resolves to, or the URL's own address when `domain` is `None`.
/// Otherwise the failure, naming the first address that is not and the rule.
pub fn check_public(domain: Option<&str>, addresses: &[IpAddr]) -> Result<(), String> {
    if addresses.is_empty() {
        let host = domain.unwrap_or("its host");
        return Err(format!(
            "it could not be fetched ({host} resolves to no address)"
        ));
    }
    let Some((ip, reach)) = first_not_public(addresses) else {
        return Ok(());
    };
    let named = match domain {
        Some(domain) => format!("{domain} resolves to {ip}, which"),
        None => format!("the address {ip}"),
    };
    Err(format!(
        "it could not be fetched ({named} is {reach}, not public: the sandbox fetches \
         only public addresses unless started with --fetch-private)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pinned client connects to the address checked, never looking the
    /// name up again: `pinned.invalid` resolves nowhere, yet is fetched.
    #[tokio::test]
    async fn a_pinned_client_connects_only_to_the_checked_address() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a free loopback port");
        let address = listener.local_addr().expect("its address");
        let app = axum::Router::new().route("/", axum::routing::get(|| async { "pinned" }));
        tokio::spawn(async move { axum::serve(listener, app).await });

        let url = format!("http://pinned.invalid:{}/", address.port());
        let pinned = client(Some(("pinned.invalid", &[address]))).expect("a client");
        let answer = pinned.get(&url).send().await.expect("an answer");
        assert_eq!(answer.text().await.expect("a body"), "pinned");
        let unpinned = client(None).expect("a client");
        assert!(unpinned.get(&url).send().await.is_err());
    }
}
