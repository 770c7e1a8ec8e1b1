//! The access keys in a file under `--data-dir` (`keys.json`). Every change
//! is written whole to a temporary file, flushed to disk and renamed over
//! the old one, so a crash mid-write leaves the old file or the new one,
//! never half of either; writers hold an exclusive lock on `keys.lock`
//! while they read, change and write, so two `keys add` at once both land.
//! The gateway only reads it (again whenever it changes). The folder, when
//! made here, and the files are its user's alone ([`crate::private_files`]).

use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::keys::{KeyError, KeyRecord};
use crate::private_files::{self, write_atomically};

#[derive(Debug, Default, Serialize, Deserialize)]
struct Stored {
    keys: Vec<KeyRecord>,
}

/// The key file of a data folder.
#[derive(Debug, Clone)]
pub struct KeyFile {
    dir: PathBuf,
}

impl KeyFile {
    /// The keys kept under `dir`.
    pub fn new(dir: &Path) -> KeyFile {
        KeyFile {
            dir: dir.to_owned(),
        }
    }

    /// The file itself.
    pub fn path(&self) -> PathBuf {
        self.dir.join("keys.json")
    }

    /// The keys given (none while there is no file yet).
    pub fn load(&self) -> Result<Vec<KeyRecord>, KeyError> {
        let path = self.path();
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => return Err(error.into()),
        };
        serde_json::from_str::<Stored>(&text)
            .map(|stored| stored.keys)
            .map_err(|error| KeyError::Unreadable {
                path: path.display().to_string(),
                why: error.to_string(),
            })
    }

    /// Keep `record`, unless its name already has a key.
    pub fn insert(&self, record: KeyRecord) -> Result<(), KeyError> {
        self.change(|keys| {
            if keys.iter().any(|kept| kept.name == record.name) {
                return Err(KeyError::Exists(record.name.clone()));
            }
            keys.push(record);
            Ok(())
        })
    }

    /// Give `name` a new key (see [`KeyRecord::issue`]); returns the key,
    /// which is kept nowhere.
    pub fn add(
        &self,
        name: &str,
        tasks_per_day: Option<u32>,
        now: u64,
    ) -> Result<String, KeyError> {
        let (key, record) = KeyRecord::issue(name, tasks_per_day, now)?;
        self.insert(record)?;
        Ok(key.reveal())
    }

    /// Take `name`'s key back.
    pub fn revoke(&self, name: &str) -> Result<(), KeyError> {
        self.change(|keys| {
            let before = keys.len();
            keys.retain(|record| record.name != name);
            if keys.len() == before {
                Err(KeyError::Unknown(name.to_owned()))
            } else {
                Ok(())
            }
        })
    }

    /// Under the lock: read the keys, let `change` change them, write them.
    fn change(
        &self,
        change: impl FnOnce(&mut Vec<KeyRecord>) -> Result<(), KeyError>,
    ) -> Result<(), KeyError> {
        private_files::create_dir_all(&self.dir)?;
        let lock = private_files::open_options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(self.dir.join("keys.lock"))?;
        lock.lock()?;
        let mut keys = self.load()?;
        change(&mut keys)?;
        let text = serde_json::to_string_pretty(&Stored { keys })
            .map_err(|error| KeyError::Io(io::Error::other(error)))?;
        write_atomically(&self.path(), text.as_bytes())?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::keys::key_hash;
    use super::*;

    #[test]
    fn keys_are_added_listed_and_revoked_and_only_hashes_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let file = KeyFile::new(dir.path());
        assert!(file.load().unwrap().is_empty());
        let key = file.add("ada", Some(5), 1_000).unwrap();
        file.add("grace", None, 2_000).unwrap();
        let kept = std::fs::read_to_string(file.path()).unwrap();
        assert!(!kept.contains(&key), "the key itself is not kept");
        assert!(kept.contains(&key_hash(&key)));
        let keys = file.load().unwrap();
        assert_eq!(
            keys.iter()
                .map(|k| (k.name.as_str(), k.tasks_per_day))
                .collect::<Vec<_>>(),
            [("ada", Some(5)), ("grace", None)]
        );
        assert!(matches!(
            file.add("ada", None, 3_000),
            Err(KeyError::Exists(_))
        ));
        assert!(matches!(
            file.add("a b", None, 3_000),
            Err(KeyError::Name(_))
        ));
        file.revoke("ada").unwrap();
        assert!(matches!(file.revoke("ada"), Err(KeyError::Unknown(_))));
        assert_eq!(file.load().unwrap().len(), 1);
    }

    #[test]
    fn a_file_that_is_not_ours_is_named_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let file = KeyFile::new(dir.path());
        std::fs::write(file.path(), "not json").unwrap();
        let error = file.add("ada", None, 1).unwrap_err().to_string();
        assert!(error.contains("keys.json is not a key file"), "{error}");
        assert_eq!(std::fs::read_to_string(file.path()).unwrap(), "not json");
    }

    #[test]
    fn adds_at_once_from_many_threads_all_land() {
        let dir = tempfile::tempdir().unwrap();
        let threads: Vec<_> = (0..8)
            .map(|n| {
                let file = KeyFile::new(dir.path());
                std::thread::spawn(move || file.add(&format!("person{n}"), None, 1).unwrap())
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        assert_eq!(KeyFile::new(dir.path()).load().unwrap().len(), 8);
    }

    #[test]
    fn the_folder_made_and_the_files_are_private() {
        let mode = crate::private_files::mode_of;
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let file = KeyFile::new(&data);
        file.add("ada", None, 1).unwrap();
        file.add("grace", None, 2).unwrap();
        assert_eq!(mode(&data), 0o700);
        assert_eq!(mode(&file.path()), 0o600);
        assert_eq!(mode(&data.join("keys.lock")), 0o600);
    }
}
