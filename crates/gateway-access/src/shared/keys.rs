//! The access keys in Redis: one hash, `media-gen:keys`, from each
//! person's name to their [`KeyRecord`] as JSON. `HSETNX` gives a name one
//! key at most, `HDEL` takes it back; the gateways read them all every
//! second (a key is a handful of bytes: thousands are one small read).

use redis::aio::ConnectionManager;
use redis::AsyncCommands;

use crate::keys::{KeyError, KeyRecord};
use crate::redis_link::StoreError;

/// The hash the keys are kept in.
const KEYS: &str = "media-gen:keys";

/// Every key given.
pub async fn load(connection: &mut ConnectionManager) -> Result<Vec<KeyRecord>, KeyError> {
    let kept: Vec<String> = connection.hvals(KEYS).await.map_err(StoreError::from)?;
    kept.iter()
        .map(|json| {
            serde_json::from_str(json).map_err(|error| KeyError::Unreadable {
                path: format!("redis {KEYS}"),
                why: error.to_string(),
            })
        })
        .collect()
}

/// Keep `record`, unless its name already has a key.
pub async fn insert(
    connection: &mut ConnectionManager,
    record: &KeyRecord,
) -> Result<(), KeyError> {
    let json = serde_json::to_string(record).map_err(StoreError::from)?;
    let added: bool = connection
        .hset_nx(KEYS, &record.name, json)
        .await
        .map_err(StoreError::from)?;
    if added {
        Ok(())
    } else {
        Err(KeyError::Exists(record.name.clone()))
    }
}

/// Take `name`'s key back.
pub async fn revoke(connection: &mut ConnectionManager, name: &str) -> Result<(), KeyError> {
    let removed: u32 = connection
        .hdel(KEYS, name)
        .await
        .map_err(StoreError::from)?;
    if removed == 0 {
        Err(KeyError::Unknown(name.to_owned()))
    } else {
        Ok(())
    }
}
