//! `media-gen-gateway keys add | list | revoke`: the owner's commands over
//! the keys under `--data-dir` or in `--redis`, run without the gateway
//! (running ones see a change within a second). `keys add` prints the key
//! alone on standard output, so a script can capture it; everything else
//! goes to standard error.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use crate::access::forgotten::Removed;
use crate::access::key_file::KeyFile;
use crate::access::key_store::KeyStore;
use crate::access::keys::KeyError;
use crate::access::now_seconds;
use crate::access::person_usage::PersonUsage;
use crate::access::shared::usage as shared_usage;
use crate::access::usage::{self, Usage};
use crate::redis_link::RedisLink;

/// What to do with the keys.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum KeysAction {
    /// Give NAME a new key, printed once (only its hash is kept).
    Add {
        /// The person's name (letters, digits and -._@+), as logs and
        /// `keys list` show it.
        name: String,
        /// Tasks they may create per day (UTC); default: the gateway's
        /// --tasks-per-day.
        #[arg(long, value_name = "N")]
        tasks_per_day: Option<u32>,
    },
    /// Every key: its name, when it was made, its last use, today's tasks.
    List,
    /// Take NAME's key back: their calls are refused within a second.
    Revoke {
        /// The person's name.
        name: String,
        /// Forget them too: every request, task, figure and record of use
        /// of theirs, their uploads and kept copies (in --upload-dir or
        /// --upload-store; running gateways delete theirs within a
        /// second), the freed space overwritten. Prints what was removed,
        /// in counts.
        #[arg(long)]
        forget: bool,
    },
}

/// Where the commands find the keys: the library's database when one is
/// kept (keys kept before in `keys.json` or Redis are moved in first),
/// else the Redis of `--redis`, else `keys.json` under `--data-dir`.
#[derive(Debug, Clone, Default)]
pub struct KeysAt {
    /// The library (`--library`, or the SQLite file under `--data-dir`).
    pub library: Option<crate::library::LibraryAt>,
    /// `--data-dir`.
    pub data_dir: Option<PathBuf>,
    /// `--redis`.
    pub redis: Option<String>,
    /// `--upload-dir` and `--upload-store`: where a person forgotten has
    /// uploads and kept copies.
    pub uploads: Option<(Option<PathBuf>, Option<String>)>,
}

impl KeysAt {
    /// Keys under `dir` alone, as a gateway without `--redis` keeps them.
    pub fn dir(dir: &std::path::Path) -> KeysAt {
        KeysAt {
            library: Some(crate::library::LibraryAt::in_dir(dir)),
            data_dir: Some(dir.to_owned()),
            redis: None,
            uploads: None,
        }
    }

    /// Keys in the Redis at `url` alone, as gateways sharing it without a
    /// library keep them.
    pub fn redis(url: impl Into<String>) -> KeysAt {
        KeysAt {
            redis: Some(url.into()),
            ..KeysAt::default()
        }
    }

    /// Whether they name anywhere.
    pub fn is_nowhere(&self) -> bool {
        self.library.is_none() && self.data_dir.is_none() && self.redis.is_none()
    }
}

/// Carry out `action` on the keys `at`; the text for standard output, or
/// why it failed.
pub async fn run(
    action: &KeysAction,
    at: &KeysAt,
    default_tasks_per_day: u32,
) -> Result<String, KeyError> {
    let redis = match &at.redis {
        Some(url) => Some(reach(url).await?),
        None => None,
    };
    let library = match &at.library {
        Some(where_) => Some(Arc::new(crate::library::Library::open(where_).await?)),
        None => None,
    };
    let store = match (&library, &redis, &at.data_dir) {
        (Some(library), _, dir) => {
            crate::access::key_store::move_into(
                library.as_ref(),
                dir.as_deref(),
                redis.as_ref(),
                now_seconds(),
            )
            .await?;
            KeyStore::Library(
                Arc::clone(library) as Arc<dyn crate::access::database::PeopleDatabase>
            )
        }
        (None, Some(link), _) => KeyStore::Redis(Arc::clone(link)),
        (None, None, Some(dir)) => KeyStore::File(KeyFile::new(dir)),
        (None, None, None) => {
            return Err(KeyError::Name(
                "no --library, --data-dir or --redis names where the keys are kept".to_owned(),
            ))
        }
    };
    match action {
        KeysAction::Add {
            name,
            tasks_per_day,
        } => {
            let key = store.add(name, *tasks_per_day, now_seconds()).await?;
            let _ = writeln!(
                std::io::stderr(),
                "A key for {name} ({} tasks a day). Hand it over now: it is not shown again.",
                tasks_per_day.unwrap_or(default_tasks_per_day)
            );
            Ok(format!("{key}\n"))
        }
        KeysAction::List => {
            let people = match (&library, &redis, &at.data_dir) {
                (Some(library), None, _) => library.use_of_everyone().await?,
                (_, Some(link), _) => {
                    shared_usage::everyone(&mut link.connection()?, now_seconds()).await?
                }
                (None, None, Some(dir)) => usage::read(&Usage::file(dir)),
                (None, None, None) => HashMap::new(),
            };
            list(&store, &people, default_tasks_per_day).await
        }
        KeysAction::Revoke { name, forget } => {
            match store.revoke(name).await {
                Ok(()) => {
                    let _ = writeln!(
                        std::io::stderr(),
                        "{name}'s key is revoked: running gateways refuse it within a second."
                    );
                }
                // A person with no key (named by an auth proxy, or revoked
                // before) can still be forgotten.
                Err(KeyError::Unknown(_)) if *forget => {}
                Err(error) => return Err(error),
            }
            if *forget {
                let removed = forget_person(name, at, library.as_deref(), redis.as_ref()).await?;
                let _ = writeln!(
                    std::io::stderr(),
                    "{name} is forgotten: {removed} removed; running gateways drop what they \
                     hold of them within a second."
                );
            }
            Ok(String::new())
        }
    }
}

/// Forget `name` wherever `at` names: the library's rows (then its freed
/// space overwritten), their use in Redis, their uploads and kept copies;
/// a mark left for running gateways. What was removed, in counts.
async fn forget_person(
    name: &str,
    at: &KeysAt,
    library: Option<&crate::library::Library>,
    redis: Option<&Arc<RedisLink>>,
) -> Result<Removed, KeyError> {
    if library.is_none() && redis.is_none() {
        return Err(KeyError::Name(
            "--forget: no library is kept here and no --redis is given (--library, or \
             --data-dir without --redis)"
                .to_owned(),
        ));
    }
    let now = now_seconds();
    let mut removed = Removed::default();
    if let Some(library) = library {
        removed = removed.and(library.forget(name, now).await?);
        library.scrub().await?;
    }
    if let Some(link) = redis {
        let use_records =
            crate::access::shared::usage::forget(&mut link.connection()?, name, now).await?;
        removed = removed.and(Removed {
            use_records,
            ..Removed::default()
        });
    }
    if let Some((dir, store)) = &at.uploads {
        let mut settings = crate::uploads::UploadSettings::new(PathBuf::new(), String::new());
        settings.dir = dir.clone();
        settings.store = store.clone();
        let files = crate::uploads::Uploads::open(settings, redis.cloned())
            .await
            .map_err(|error| KeyError::Name(format!("--forget: the uploads: {error}")))?;
        let (uploads, kept) = files
            .store
            .forget_owner(&format!("person:{name}"), now)
            .await
            .map_err(|error| KeyError::Name(format!("--forget: the uploads: {error}")))?;
        removed = removed.and(Removed {
            uploads,
            kept,
            ..Removed::default()
        });
    }
    Ok(removed)
}

/// The Redis at `url`, answering, or why not: named by its URL as the start
/// banner shows it, without the user name and password written into it,
/// since the message is printed and may be copied anywhere.
async fn reach(url: &str) -> Result<Arc<RedisLink>, KeyError> {
    let link = RedisLink::start(url).await?;
    if link.answers() {
        Ok(link)
    } else {
        Err(KeyError::RedisSilent(
            media_gen_api::url_parts::without_userinfo(url),
        ))
    }
}

/// The table `keys list` prints: the keys in `store`, each with its
/// person's use in `people`.
async fn list(
    store: &KeyStore,
    people: &HashMap<String, PersonUsage>,
    default_tasks_per_day: u32,
) -> Result<String, KeyError> {
    let mut keys = store.load().await?;
    if keys.is_empty() {
        return Ok("No keys yet: `media-gen-gateway keys add NAME` makes one.\n".to_owned());
    }
    keys.sort_by_key(|key| key.created);
    let now = now_seconds();
    let mut table = format!(
        "{:<24} {:<20} {:<20} {}\n",
        "name", "created", "last used", "tasks today"
    );
    for key in keys {
        let used = people.get(&key.name).copied().unwrap_or_default();
        let last = if used.last_used == 0 {
            "never".to_owned()
        } else {
            when(used.last_used)
        };
        table.push_str(&format!(
            "{:<24} {:<20} {:<20} {} of {}\n",
            key.name,
            when(key.created),
            last,
            used.tasks_on(now),
            key.tasks_per_day.unwrap_or(default_tasks_per_day)
        ));
    }
    Ok(table)
}

/// `2026-11-26 04:50 UTC`.
fn when(seconds: u64) -> String {
    let time = UNIX_EPOCH + Duration::from_secs(seconds);
    let text = humantime::format_rfc3339_seconds(time).to_string();
    format!("{} UTC", text.replace('T', " ").get(..16).unwrap_or(&text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn add_prints_the_key_alone_list_shows_names_and_revoke_takes_it_back() {
        let dir = tempfile::tempdir().unwrap();
        let at = KeysAt::dir(dir.path());
        let add = |name: &str, tasks| {
            let action = KeysAction::Add {
                name: name.to_owned(),
                tasks_per_day: tasks,
            };
            let at = at.clone();
            async move { run(&action, &at, 50).await }
        };
        let key = add("ada", Some(5)).await.unwrap();
        assert!(crate::access::keys::looks_like_key(key.trim()), "{key}");
        add("grace", None).await.unwrap();
        let listed = run(&KeysAction::List, &at, 50).await.unwrap();
        assert!(
            listed.contains("ada") && listed.contains("0 of 5"),
            "{listed}"
        );
        assert!(
            listed.contains("grace") && listed.contains("0 of 50"),
            "{listed}"
        );
        assert!(listed.contains("never"));
        assert!(!listed.contains(key.trim()), "the list shows no key");
        let revoke = KeysAction::Revoke {
            name: "ada".to_owned(),
            forget: false,
        };
        run(&revoke, &at, 50).await.unwrap();
        let listed = run(&KeysAction::List, &at, 50).await.unwrap();
        assert!(!listed.contains("ada"), "{listed}");
        let unknown = run(&revoke, &at, 50).await;
        assert_eq!(unknown.unwrap_err().to_string(), "no key is given to ada");
    }

    #[tokio::test]
    async fn a_silent_redis_is_named_without_its_password() {
        let url = "redis://user:hunter2@127.0.0.1:1/";
        for action in [
            KeysAction::List,
            KeysAction::Revoke {
                name: "ada".to_owned(),
                forget: false,
            },
        ] {
            let at = KeysAt::redis(url);
            let error = run(&action, &at, 50).await.unwrap_err().to_string();
            assert!(!error.contains("hunter2"), "{error}");
            assert!(!error.contains("user:"), "{error}");
            assert!(error.contains("redis://127.0.0.1:1/"), "{error}");
        }
        // What Redis itself says of a refused connection names neither.
        let refused = redis::Client::open(url)
            .unwrap()
            .get_multiplexed_async_connection()
            .await
            .unwrap_err();
        let said = crate::redis_link::StoreError::from(refused).to_string();
        assert!(
            !said.contains("hunter2") && !said.contains("user"),
            "{said}"
        );
    }

    #[test]
    fn times_read_as_dates() {
        assert_eq!(when(0), "1970-01-01 00:00 UTC");
        assert_eq!(when(1_795_000_000), "2026-11-18 11:06 UTC");
    }
}
