//! `media-gen-gateway keys add | list | revoke`: the owner's commands over
//! the keys under `--data-dir`, run without the gateway (a running one
//! sees a change within a second). `keys add` prints the key alone on
//! standard output, so a script can capture it; everything else goes to
//! standard error.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, UNIX_EPOCH};

use super::key_file::{KeyError, KeyFile};
use super::now_seconds;
use super::usage::Usage;

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
    },
}

/// Carry out `action` on the keys under `data_dir`; the text for standard
/// output, or why it failed.
pub fn run(
    action: &KeysAction,
    data_dir: &Path,
    default_tasks_per_day: u32,
) -> Result<String, KeyError> {
    let file = KeyFile::new(data_dir);
    match action {
        KeysAction::Add {
            name,
            tasks_per_day,
        } => {
            let key = file.add(name, *tasks_per_day, now_seconds())?;
            let _ = writeln!(
                std::io::stderr(),
                "A key for {name} ({} tasks a day). Hand it over now: it is not shown again.",
                tasks_per_day.unwrap_or(default_tasks_per_day)
            );
            Ok(format!("{key}\n"))
        }
        KeysAction::List => Ok(list(&file, data_dir, default_tasks_per_day)?),
        KeysAction::Revoke { name } => {
            file.revoke(name)?;
            let _ = writeln!(
                std::io::stderr(),
                "{name}'s key is revoked: running gateways refuse it within a second."
            );
            Ok(String::new())
        }
    }
}

/// The table `keys list` prints.
fn list(file: &KeyFile, data_dir: &Path, default_tasks_per_day: u32) -> Result<String, KeyError> {
    let keys = file.load()?;
    if keys.is_empty() {
        return Ok("No keys yet: `media-gen-gateway keys add NAME` makes one.\n".to_owned());
    }
    let usage = Usage::load(&Usage::file(data_dir));
    let now = now_seconds();
    let mut table = format!(
        "{:<24} {:<20} {:<20} {}\n",
        "name", "created", "last used", "tasks today"
    );
    for key in keys {
        let used = usage.of(&key.name);
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

    #[test]
    fn add_prints_the_key_alone_list_shows_names_and_revoke_takes_it_back() {
        let dir = tempfile::tempdir().unwrap();
        let add = |name: &str, tasks| {
            run(
                &KeysAction::Add {
                    name: name.to_owned(),
                    tasks_per_day: tasks,
                },
                dir.path(),
                50,
            )
        };
        let key = add("ada", Some(5)).unwrap();
        assert!(super::super::keys::looks_like_key(key.trim()), "{key}");
        add("grace", None).unwrap();
        let listed = run(&KeysAction::List, dir.path(), 50).unwrap();
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
        run(
            &KeysAction::Revoke {
                name: "ada".to_owned(),
            },
            dir.path(),
            50,
        )
        .unwrap();
        let listed = run(&KeysAction::List, dir.path(), 50).unwrap();
        assert!(!listed.contains("ada"), "{listed}");
        let unknown = run(
            &KeysAction::Revoke {
                name: "ada".to_owned(),
            },
            dir.path(),
            50,
        );
        assert_eq!(unknown.unwrap_err().to_string(), "no key is given to ada");
    }

    #[test]
    fn times_read_as_dates() {
        assert_eq!(when(0), "1970-01-01 00:00 UTC");
        assert_eq!(when(1_795_000_000), "2026-11-18 11:06 UTC");
    }
}
