//! `POST` and `GET /sandbox/inbox/{name}`: a place to point `callback_url` at
//! and watch callbacks arrive. Bounded: 1000 inboxes of 200 messages each.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::{Path, State};
use axum::Json;
use media_gen_api::Envelope;
use serde::Serialize;
use serde_json::Value;

use crate::body::JsonBody;
use crate::error::ApiError;
use crate::state::AppState;

/// The most inboxes kept; the oldest is dropped past this.
pub const MAX_INBOXES: usize = 1000;
/// The most messages kept per inbox; the oldest are dropped past this.
pub const MAX_MESSAGES: usize = 200;

/// One received message.
#[derive(Debug, Clone, Serialize)]
pub struct Message {
    /// When it arrived, in Unix milliseconds.
    pub received_at: u128,
    /// The JSON body as received.
    pub body: Value,
}

/// Every inbox.
#[derive(Default)]
pub struct Inbox {
    boxes: Mutex<Boxes>,
}

/// The inboxes by name, and their names oldest first (for eviction).
#[derive(Default)]
struct Boxes {
    by_name: HashMap<String, VecDeque<Message>>,
    order: VecDeque<String>,
}

fn check_name(name: &str) -> Result<(), ApiError> {
    let ok = (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(())
    } else {
        Err(ApiError::InvalidParameter(
            "inbox name: 1 to 64 letters, digits, - or _".to_owned(),
        ))
    }
}

/// `POST /sandbox/inbox/{name}`: keep the JSON body.
pub async fn receive(
    State(app): State<AppState>,
    Path(name): Path<String>,
    JsonBody(body): JsonBody<Value>,
) -> Result<Json<Envelope<usize>>, ApiError> {
    check_name(&name)?;
    let received_at = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or_default();
    let mut guard = app.inbox.boxes.lock().map_err(|_| ApiError::ServerError)?;
    let boxes = &mut *guard;
    if !boxes.by_name.contains_key(&name) {
        boxes.order.push_back(name.clone());
        if boxes.order.len() > MAX_INBOXES {
            if let Some(oldest) = boxes.order.pop_front() {
                boxes.by_name.remove(&oldest);
            }
        }
    }
    let messages = boxes.by_name.entry(name).or_default();
    messages.push_back(Message { received_at, body });
    if messages.len() > MAX_MESSAGES {
        messages.pop_front();
    }
    Ok(Json(Envelope::success("ok", messages.len())))
}

/// `GET /sandbox/inbox/{name}`: the messages, oldest first (none for an unknown name).
pub async fn list(
    State(app): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Envelope<Vec<Message>>>, ApiError> {
    check_name(&name)?;
    let guard = app.inbox.boxes.lock().map_err(|_| ApiError::ServerError)?;
    let messages = guard
        .by_name
        .get(&name)
        .map(|m| m.iter().cloned().collect())
        .unwrap_or_default();
    Ok(Json(Envelope::success("ok", messages)))
}
