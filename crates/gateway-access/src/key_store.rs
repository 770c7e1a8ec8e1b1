//! Where the access keys are kept: the library's database wherever a
//! library is kept (the store of record); else the key file under
//! `--data-dir`, or with `--redis` in Redis, where every gateway behind a
//! balancer reads them. The `keys` commands and the gateway both go
//! through this.

use std::sync::Arc;

use super::database::PeopleDatabase;
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
    /// The library's database.
    Library(Arc<dyn PeopleDatabase>),
}

impl KeyStore {
    /// Every key given.
    pub async fn load(&self) -> Result<Vec<KeyRecord>, KeyError> {
        match self {
            KeyStore::File(file) => file.load(),
            KeyStore::Redis(link) => shared::load(&mut link.connection()?).await,
            KeyStore::Library(library) => library.keys().await,
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
            KeyStore::Library(library) => library.add_key(&record).await?,
        }
        Ok(key.reveal())
    }

    /// Take `name`'s key back.
    pub async fn revoke(&self, name: &str) -> Result<(), KeyError> {
        match self {
            KeyStore::File(file) => file.revoke(name),
            KeyStore::Redis(link) => shared::revoke(&mut link.connection()?, name).await,
            KeyStore::Library(library) => library.revoke_key(name).await,
        }
    }
}

/// Move the keys kept before in `keys.json` under `data_dir` and in the
/// Redis of `redis` into `library`, each source once; said in the log.
pub async fn move_into(
    library: &dyn PeopleDatabase,
    data_dir: Option<&std::path::Path>,
    redis: Option<&Arc<RedisLink>>,
    now: u64,
) -> Result<(), KeyError> {
    if let Some(dir) = data_dir {
        let file = KeyFile::new(dir);
        if file.path().exists() {
            let keys = file.load()?;
            let source = format!("file {}", file.path().display());
            if let Some(added) = library.move_keys_in(&source, &keys, now).await? {
                tracing::info!(
                    added,
                    from = %file.path().display(),
                    to = %library.describe(),
                    "access keys moved into the library's database; the key file is no longer read"
                );
            }
        }
    }
    if let Some(link) = redis {
        // A Redis not answering yet is moved from at the next start.
        if let Ok(keys) = async { shared::load(&mut link.connection()?).await }.await {
            if let Some(added) = library.move_keys_in("redis", &keys, now).await? {
                tracing::info!(
                    added,
                    to = %library.describe(),
                    "access keys moved from redis into the library's database; redis no longer holds the keys of record"
                );
            }
        }
    }
    Ok(())
}
