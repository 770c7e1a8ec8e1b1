//! The library's database is where access keeps its keys and each
//! person's use ([`PeopleDatabase`]), wherever a library is kept.

use std::collections::HashMap;

use crate::access::database::{DatabaseError, PeopleDatabase};
use crate::access::keys::{KeyError, KeyRecord};
use crate::access::person_usage::PersonUsage;

use super::Library;

#[async_trait::async_trait]
impl PeopleDatabase for Library {
    fn describe(&self) -> String {
        Library::describe(self)
    }

    async fn keys(&self) -> Result<Vec<KeyRecord>, KeyError> {
        Library::keys(self).await
    }

    async fn add_key(&self, record: &KeyRecord) -> Result<(), KeyError> {
        Library::add_key(self, record).await
    }

    async fn revoke_key(&self, name: &str) -> Result<(), KeyError> {
        Library::revoke_key(self, name).await
    }

    async fn move_keys_in(
        &self,
        source: &str,
        keys: &[KeyRecord],
        now: u64,
    ) -> Result<Option<usize>, KeyError> {
        Library::move_keys_in(self, source, keys, now).await
    }

    async fn keep_use(&self, people: &[(String, PersonUsage)]) -> Result<(), DatabaseError> {
        Ok(Library::keep_use(self, people).await?)
    }

    async fn use_of_everyone(&self) -> Result<HashMap<String, PersonUsage>, DatabaseError> {
        Ok(Library::use_of_everyone(self).await?)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;
    use crate::access::person_usage::DAY;
    use crate::access::usage::Usage;

    #[tokio::test]
    async fn in_a_library_the_day_is_kept_in_its_database_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let at = crate::LibraryAt::in_dir(dir.path());
        let library = Arc::new(crate::Library::open(&at).await.unwrap());
        let usage = Usage::in_library(Arc::clone(&library) as Arc<dyn PeopleDatabase>, None).await;
        let noon = 20_000 * DAY + DAY / 2;
        assert_eq!(usage.take_tasks("ada", 3, 5, noon).await, Ok(2));
        usage.seen("grace", 77);
        usage.keep().await;
        // A restart counts on from what was kept.
        let again = Usage::in_library(Arc::clone(&library) as Arc<dyn PeopleDatabase>, None).await;
        assert_eq!(again.tasks_on("ada", noon + 1).await, 3);
        assert_eq!(
            again.take_tasks("ada", 3, 5, noon + 2).await,
            Err(Duration::from_secs(DAY / 2 - 2))
        );
        // A gateway's older count does not take back a newer one.
        usage.keep().await;
        let everyone = Library::use_of_everyone(&library).await.unwrap();
        assert_eq!(everyone["grace"].last_used, 77);
        assert_eq!(everyone["ada"].tasks_on(noon), 3);
        assert!(
            !dir.path().join("usage.json").exists(),
            "no file beside the database"
        );
    }
}
