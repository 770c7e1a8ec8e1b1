//! The database of record for the access keys and each person's use,
//! where one is kept: access asks through [`PeopleDatabase`], and the
//! library's database answers (it implements this), so access knows
//! nothing of the library.

use std::collections::HashMap;

use crate::keys::{KeyError, KeyRecord};
use crate::person_usage::PersonUsage;

/// Why the database could not do what was asked.
pub type DatabaseError = Box<dyn std::error::Error + Send + Sync>;

/// What access keeps in a database: the keys, and each person's use.
#[async_trait::async_trait]
pub trait PeopleDatabase: Send + Sync {
    /// Where it is, for the log (never a password).
    fn describe(&self) -> String;
    /// Every key given.
    async fn keys(&self) -> Result<Vec<KeyRecord>, KeyError>;
    /// Keep a new key's `record`.
    async fn add_key(&self, record: &KeyRecord) -> Result<(), KeyError>;
    /// Take `name`'s key back.
    async fn revoke_key(&self, name: &str) -> Result<(), KeyError>;
    /// Move `keys` in from `source` (`keys.json`, a Redis), unless keys
    /// were moved from there before; how many were added, or `None` when
    /// moved before.
    async fn move_keys_in(
        &self,
        source: &str,
        keys: &[KeyRecord],
        now: u64,
    ) -> Result<Option<usize>, KeyError>;
    /// Keep what each of `people` used.
    async fn keep_use(&self, people: &[(String, PersonUsage)]) -> Result<(), DatabaseError>;
    /// What everyone used, as kept.
    async fn use_of_everyone(&self) -> Result<HashMap<String, PersonUsage>, DatabaseError>;
}
