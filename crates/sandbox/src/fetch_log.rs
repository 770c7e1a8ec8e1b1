//! The record of the inputs `--fetch-inputs` fetched, each with its
//! SHA-256, which `GET /sandbox/fetched` lists.

use std::sync::Mutex;

use serde::{Deserialize, Serialize};

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
    /// Add `fetched`, dropping the oldest past a thousand.
    pub(crate) fn record(&self, fetched: Fetched) {
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
