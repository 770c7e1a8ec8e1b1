//! Where the access keys are kept: the key file under `--data-dir`, or
//! with `--redis` in Redis, where every gateway behind a balancer reads
//! them. The `keys` commands and the gateway both go through this.

use std::sync::Arc;

use super::key_file::KeyFile;
use super::keys::{KeyError, KeyRecord};
use super::shared::keys as shared;
use crate::redis_link::RedisLink;

/// The keys' home.
pub enum KeyStore {
    /// `keys.json` under `--data-dir`.
    File(KeyFile),
    /// The Redis of `--redis`.
    Redis(Arc<RedisLink>),
}

impl KeyStore {
    /// Every key given.
    pub async fn load(&self) -> Result<Vec<KeyRecord>, KeyError> {
        match self {
            KeyStore::File(file) => file.load(),
            KeyStore::Redis(link) => shared::load(&mut link.connection()?).await,
        }
    }

    /// Give `name` a new key (`tasks_per_day`, when given, instead of the
    /// gateway's default), made at `now`; returns the key, kept nowhere.
    pub async fn add(
        &self,
        name: &str,
        tasks_per_day: Option<u32>,
        now: u64,
    ) -> Result<String, KeyError> {
        let (key, record) = KeyRecord::issue(name, tasks_per_day, now)?;
        match self {
            KeyStore::File(file) => file.insert(record)?,
            KeyStore::Redis(link) => shared::insert(&mut link.connection()?, &record).await?,
        }
        Ok(key)
    }

    /// Take `name`'s key back.
    pub async fn revoke(&self, name: &str) -> Result<(), KeyError> {
        match self {
            KeyStore::File(file) => file.revoke(name),
            KeyStore::Redis(link) => shared::revoke(&mut link.connection()?, name).await,
        }
    }
}
