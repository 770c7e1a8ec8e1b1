//! The inboxes' messages, bounded: 1000 inboxes of 200 messages each,
//! 64 KiB a message and 8 MiB in all, kept as compact JSON text (a parsed
//! JSON value takes several times its text's size); past the total, the
//! oldest inbox's oldest messages go first.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;
use serde_json::Value;

use crate::error::{ApiError, Refusal};

/// The most inboxes kept; the oldest is dropped past this.
pub const MAX_INBOXES: usize = 1000;
/// The most messages kept per inbox; the oldest are dropped past this.
pub const MAX_MESSAGES: usize = 200;
/// The largest message kept (a callback is a few hundred bytes).
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;
/// The most bytes of messages kept in all inboxes together.
pub const MAX_TOTAL_BYTES: usize = 8 * 1024 * 1024;

/// One received message, as kept: its JSON as compact text.
#[derive(Debug, Clone)]
struct Kept {
    received_at: u128,
    body: Box<str>,
}

/// One received message, as listed.
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

/// The inboxes by name, their names oldest first (for eviction), and the
/// bytes their messages hold.
#[derive(Default)]
struct Boxes {
    by_name: HashMap<String, VecDeque<Kept>>,
    order: VecDeque<String>,
    bytes: usize,
}

impl Boxes {
    /// Drop the oldest inbox's oldest message (and the inbox once empty).
    fn drop_oldest(&mut self) {
        let Some(oldest) = self.order.front().cloned() else {
            return;
        };
        let messages = self.by_name.get_mut(&oldest);
        let dropped = messages.and_then(VecDeque::pop_front);
        if let Some(dropped) = dropped {
            self.bytes -= dropped.body.len();
        }
        if self.by_name.get(&oldest).is_none_or(VecDeque::is_empty) {
            self.by_name.remove(&oldest);
            self.order.pop_front();
        }
    }
}

impl Inbox {
    /// Bytes of messages held now.
    pub fn bytes(&self) -> usize {
        self.boxes.lock().map_or(0, |boxes| boxes.bytes)
    }

    /// Keep `body`, received now, in the inbox `name`, dropping the oldest
    /// past the bounds: how many messages that inbox holds then, or the
    /// error for a message larger than [`MAX_MESSAGE_BYTES`].
    pub(super) fn keep(&self, name: &str, body: &Value) -> Result<usize, ApiError> {
        let received_at = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or_default();
        let body: Box<str> = body.to_string().into();
        if body.len() > MAX_MESSAGE_BYTES {
            return Err(ApiError(Refusal::BodyTooLarge));
        }
        let mut guard = self
            .boxes
            .lock()
            .map_err(|_| ApiError(Refusal::ServerError))?;
        let boxes = &mut *guard;
        if !boxes.by_name.contains_key(name) {
            boxes.order.push_back(name.to_owned());
            if boxes.order.len() > MAX_INBOXES {
                if let Some(oldest) = boxes.order.pop_front() {
                    let gone = boxes.by_name.remove(&oldest).unwrap_or_default();
                    boxes.bytes -= gone.iter().map(|kept| kept.body.len()).sum::<usize>();
                }
            }
        }
        boxes.bytes += body.len();
        let messages = boxes.by_name.entry(name.to_owned()).or_default();
        messages.push_back(Kept { received_at, body });
        if messages.len() > MAX_MESSAGES {
            if let Some(dropped) = messages.pop_front() {
                boxes.bytes -= dropped.body.len();
            }
        }
        while boxes.bytes > MAX_TOTAL_BYTES && !boxes.order.is_empty() {
            boxes.drop_oldest();
        }
        Ok(boxes.by_name.get(name).map_or(0, VecDeque::len))
    }

    /// The messages of the inbox `name`, oldest first (none for an unknown
    /// name).
    pub(super) fn messages(&self, name: &str) -> Result<Vec<Message>, ApiError> {
        let guard = self
            .boxes
            .lock()
            .map_err(|_| ApiError(Refusal::ServerError))?;
        Ok(guard
            .by_name
            .get(name)
            .map(|kept| {
                kept.iter()
                    .map(|kept| Message {
                        received_at: kept.received_at,
                        body: serde_json::from_str(&kept.body).unwrap_or(Value::Null),
                    })
                    .collect()
            })
            .unwrap_or_default())
    }
}
