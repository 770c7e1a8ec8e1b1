//! `--fetch-inputs`: the sandbox fetches each media a submission names, as
//! the service must before it can work, and a task whose input is missing,
//! too large or not an image (or video) fails with a message naming the
//! field and the rule. Each fetch is bounded in bytes (the contract's
//! 20 MB for images, [`MAX_VIDEO_BYTES`] for videos) and time
//! ([`FETCH_TIME`]), and what was fetched is recorded with its SHA-256
//! (`GET /sandbox/fetched`), so a test can prove the service got exactly
//! the bytes the person picked.

use std::sync::Mutex;
use std::time::Duration;

use axum::extract::State;
use axum::Json;
use media_gen_api::media_inputs::{InputKind, MediaInput};
use media_gen_api::media_type::{check_media, SNIFF_BYTES};
use media_gen_api::Envelope;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::state::AppState;

/// The longest a fetch may take.
pub const FETCH_TIME: Duration = Duration::from_secs(30);
/// The largest video fetched.
pub const MAX_VIDEO_BYTES: u64 = 2 << 30;

/// One input fetched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fetched {
    /// Its URL.
    pub url: String,
    /// Its bytes' SHA-256, in hex.
    pub sha256: String,
    /// How many bytes it had.
    pub bytes: u64,
    /// Its type, as its first bytes say.
    pub mime: String,
}

/// Every input fetched since start (the last thousand).
#[derive(Debug, Default)]
pub struct FetchLog(Mutex<Vec<Fetched>>);

impl FetchLog {
    fn record(&self, fetched: Fetched) {
        let mut log = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if log.len() >= 1_000 {
            log.remove(0);
        }
        log.push(fetched);
    }

    /// What was fetched, oldest first.
    pub fn all(&self) -> Vec<Fetched> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

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
    let mut response = app
        .http
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
