//! `--config gateway.toml`: one file whose keys are the flags' own names
//! (`upload-dir = "/var/lib/media-gen/uploads"`), read before the
//! environment and the command line, which override it in that order.
//!
//! The file is turned into the flags it stands for and parsed by the same
//! parser as the command line, so a value means the same wherever it is
//! written; each key is first parsed alone, so a wrong one is named with
//! its line.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::parser::ValueSource;
use clap::{ArgAction, ArgMatches, CommandFactory};

use crate::config::Config;

/// The flag naming the file, and its environment variable.
pub const CONFIG_FLAG: &str = "config";

/// Arguments clap owns that no file sets.
pub(crate) const NOT_IN_A_FILE: &[&str] = &[CONFIG_FLAG, "help", "version"];

/// Why the file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// It could not be read.
    #[error("cannot read {path}: {error}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        error: std::io::Error,
    },
    /// It is not TOML.
    #[error("{path} is not TOML: {why}")]
    Syntax {
        /// The file.
        path: String,
        /// What the TOML reader said (with its line).
        why: String,
    },
    /// A key names no flag.
    #[error("{path}:{line}: unknown key {key:?}{nearest}")]
    Unknown {
        /// The file.
        path: String,
        /// Its line.
        line: usize,
        /// The key.
        key: String,
        /// `; did you mean "…"?`, when one is near.
        nearest: String,
    },
    /// A key's value is not one its flag takes.
    #[error("{path}:{line}: {key} = {value}: {why}")]
    Value {
        /// The file.
        path: String,
        /// Its line.
        line: usize,
        /// The key.
        key: String,
        /// The value as written.
        value: String,
        /// What the key accepts.
        why: String,
    },
}

/// One key of the file, as flags.
#[derive(Debug, Clone)]
struct Entry {
    /// The flag's argument's id.
    id: String,
    line: usize,
    args: Vec<OsString>,
}

/// Where a value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The flag's default.
    Default,
    /// The file, at this line.
    File {
        /// The file.
        path: String,
        /// The key's line.
        line: usize,
    },
    /// This environment variable.
    Environment(String),
    /// The command line.
    Flag,
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Default => f.write_str("default"),
            Source::File { path, line } => write!(f, "file {path}:{line}"),
            Source::Environment(var) => write!(f, "environment {var}"),
            Source::Flag => f.write_str("flag"),
        }
    }
}

/// The configuration, and where each of its values came from.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The flags, the file's values taken in.
    pub config: Config,
    /// Every argument's matches (their raw values, for `config`).
    pub matches: ArgMatches,
    /// Each key the file set and nothing overrode: its source.
    from_file: BTreeMap<String, Source>,
    /// The file, if one was given.
    pub file: Option<PathBuf>,
}

impl Loaded {
    /// Where the value of the flag named `long` came from, if it has one.
    pub fn source(&self, long: &str) -> Option<Source> {
        let arg = arg_of(long)?;
        let id = arg.get_id().as_str();
        if let Some(source) = self.from_file.get(id) {
            return Some(source.clone());
        }
        match self.matches.value_source(id)? {
            ValueSource::DefaultValue => Some(Source::Default),
            ValueSource::EnvVariable => Some(Source::Environment(
                arg.get_env()
                    .map_or_else(String::new, |var| var.to_string_lossy().into_owned()),
            )),
            _ => Some(Source::Flag),
        }
    }

    /// Where to correct the flag named `long`: its key and line in the
    /// file (`redis in gateway.toml:7`), its variable, or the flag.
    pub fn where_set(&self, long: &str) -> String {
        match self.source(long) {
            Some(Source::File { path, line }) => format!("{long} in {path}:{line}"),
            Some(Source::Environment(var)) => var,
            _ => format!("--{long}"),
        }
    }
}

/// Why loading failed: clap's own error (help, version, a wrong flag),
/// printed by clap, or the file's.
#[derive(Debug)]
pub enum LoadError {
    /// The command line; `exit()` prints it as clap does.
    Flags(clap::Error),
    /// The file.
    File(FileError),
}

/// The argument whose long name is `long`.
fn arg_of(long: &str) -> Option<clap::Arg> {
    Config::command()
        .get_arguments()
        .find(|arg| arg.get_long() == Some(long))
        .cloned()
}

/// Parse `args` (the program's name first) with the file `--config`
/// names taken in beneath the environment and the flags.
pub fn load<I, T>(args: I) -> Result<Loaded, LoadError>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let mut args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    // `check` and `config` take the serving flags: written after the
    // command (`media-gen-gateway check --config gateway.toml`), they are
    // read as written before it.
    let asks_help = args.iter().any(|arg| arg == "--help" || arg == "-h");
    if !asks_help
        && args
            .get(1)
            .is_some_and(|word| word == "check" || word == "config")
    {
        let word = args.remove(1);
        args.push(word);
    }
    let first = Config::command()
        .try_get_matches_from(&args)
        .map_err(LoadError::Flags)?;
    let Some(path) = first.get_one::<PathBuf>(CONFIG_FLAG).cloned() else {
        return finish(first, BTreeMap::new(), None);
    };
    let entries = read(&path).map_err(LoadError::File)?;
    let shown = path.display().to_string();
    let mut from_file = BTreeMap::new();
    let mut taken = Vec::new();
    for entry in entries {
        // The environment and the command line say otherwise: theirs stands.
        let overridden = matches!(
            first.value_source(&entry.id),
            Some(ValueSource::CommandLine | ValueSource::EnvVariable)
        );
        if !overridden {
            from_file.insert(
                entry.id.clone(),
                Source::File {
                    path: shown.clone(),
                    line: entry.line,
                },
            );
            taken.extend(entry.args);
        }
    }
    // The file's flags right after the program's name: before any
    // subcommand, where every flag of the file is read.
    let mut merged = Vec::with_capacity(args.len() + taken.len());
    merged.extend(args.first().cloned());
    merged.extend(taken);
    merged.extend(args.into_iter().skip(1));
    let matches = Config::command()
        .try_get_matches_from(merged)
        .map_err(LoadError::Flags)?;
    finish(matches, from_file, Some(path))
}

fn finish(
    matches: ArgMatches,
    from_file: BTreeMap<String, Source>,
    file: Option<PathBuf>,
) -> Result<Loaded, LoadError> {
    use clap::FromArgMatches;
    let config = Config::from_arg_matches(&matches).map_err(LoadError::Flags)?;
    Ok(Loaded {
        config,
        matches,
        from_file,
        file,
    })
}

/// The line (from 1) of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|byte| **byte == b'\n')
        .count()
        + 1
}

/// The file's keys as flags, each checked alone.
fn read(path: &Path) -> Result<Vec<Entry>, FileError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| FileError::Read {
        path: shown.clone(),
        error,
    })?;
    read_text(&shown, &text)
}

/// The keys of `text` (the file `shown`) as flags.
fn read_text(shown: &str, text: &str) -> Result<Vec<Entry>, FileError> {
    let table: BTreeMap<toml::Spanned<String>, toml::Spanned<toml::Value>> =
        toml::from_str(text).map_err(|error| FileError::Syntax {
            path: shown.to_owned(),
            why: error.to_string().trim_end().to_owned(),
        })?;
    let command = Config::command();
    // Each key checked alone, with no environment: a wrong variable of
    // another key is not this line's fault.
    let alone = Config::command().mut_args(|arg| arg.env(None::<&str>));
    let mut entries: Vec<Entry> = Vec::new();
    for (key, value) in table {
        let line = line_of(text, key.span().start);
        let key = key.into_inner();
        let arg = command
            .get_arguments()
            .find(|arg| arg.get_long() == Some(key.as_str()))
            .filter(|arg| !NOT_IN_A_FILE.contains(&arg.get_id().as_str()));
        if value.get_ref().is_table() {
            return Err(FileError::Value {
                path: shown.to_owned(),
                line,
                value: format!("[{key}]"),
                key,
                why: "the file has no sections: every key is a flag's name, at its top".to_owned(),
            });
        }
        let Some(arg) = arg else {
            return Err(FileError::Unknown {
                path: shown.to_owned(),
                line,
                nearest: nearest(&command, &key)
                    .map(|near| format!("; did you mean {near:?}?"))
                    .unwrap_or_default(),
                key,
            });
        };
        let written = value.get_ref().to_string();
        let wrong = |why: String| FileError::Value {
            path: shown.to_owned(),
            line,
            key: key.clone(),
            value: written.clone(),
            why,
        };
        let args = as_flags(&key, arg.get_action(), value.get_ref()).map_err(wrong)?;
        let mut alone_args = vec![OsString::from("media-gen-gateway")];
        alone_args.extend(args.iter().cloned());
        if let Err(error) = alone.clone().try_get_matches_from(alone_args) {
            return Err(wrong(why_refused(&error)));
        }
        let id = arg.get_id().to_string();
        entries.push(Entry { id, line, args });
    }
    entries.sort_by_key(|entry| entry.line);
    Ok(entries)
}

/// The known key nearest `key`, if one is near enough to be meant.
fn nearest(command: &clap::Command, key: &str) -> Option<String> {
    let written = key.replace('_', "-").to_ascii_lowercase();
    command
        .get_arguments()
        .filter(|arg| !NOT_IN_A_FILE.contains(&arg.get_id().as_str()))
        .filter_map(|arg| arg.get_long())
        .map(|long| (strsim::levenshtein(long, &written), long))
        .filter(|(distance, long)| *distance <= long.len().max(4) / 3)
        .min()
        .map(|(_, long)| long.to_owned())
}

/// The flags a key's value stands for: a switch present when `true`, a
/// list as the flag repeated, anything else as its text.
fn as_flags(key: &str, action: &ArgAction, value: &toml::Value) -> Result<Vec<OsString>, String> {
    let flag = OsString::from(format!("--{key}"));
    match (action, value) {
        (ArgAction::SetTrue, toml::Value::Boolean(on)) => {
            Ok(if *on { vec![flag] } else { Vec::new() })
        }
        (ArgAction::SetTrue, _) => Err("takes true or false".to_owned()),
        // `--key=value`, one argument: a value that starts with `-` is
        // not read as a flag.
        (ArgAction::Append, toml::Value::Array(items)) => {
            items.iter().map(|item| joined(&flag, item)).collect()
        }
        (_, value) => Ok(vec![joined(&flag, value)?]),
    }
}

/// `--key=value` for one value of the flag `--key`.
fn joined(flag: &OsString, value: &toml::Value) -> Result<OsString, String> {
    let mut arg = flag.clone();
    arg.push("=");
    arg.push(scalar(value)?);
    Ok(arg)
}

/// One value as its flag takes it.
fn scalar(value: &toml::Value) -> Result<OsString, String> {
    match value {
        toml::Value::String(text) => Ok(text.into()),
        toml::Value::Integer(number) => Ok(number.to_string().into()),
        toml::Value::Float(number) => Ok(number.to_string().into()),
        toml::Value::Boolean(on) => Ok(on.to_string().into()),
        toml::Value::Array(_) => Err("takes one value, not a list".to_owned()),
        toml::Value::Table(_) => Err(
            "takes a value, not a table: every key of the file is a flag's name at its top"
                .to_owned(),
        ),
        toml::Value::Datetime(_) => Err("takes a text or a number, not a date".to_owned()),
    }
}

/// What clap's refusal of one key says the key accepts.
fn why_refused(error: &clap::Error) -> String {
    let possible = match error.get(ContextKind::ValidValue) {
        Some(ContextValue::Strings(values)) => Some(values.join(", ")),
        _ => None,
    };
    let source = std::error::Error::source(error).map(ToString::to_string);
    match (error.kind(), possible, source) {
        (_, Some(possible), _) => format!("takes one of: {possible}"),
        (_, None, Some(why)) => why,
        (ErrorKind::ArgumentConflict, ..) => "conflicts with another key".to_owned(),
        _ => error
            .render()
            .to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .trim_start_matches("error: ")
            .to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> String {
        read_text("gateway.toml", text).unwrap_err().to_string()
    }

    #[test]
    fn an_unknown_key_is_named_with_its_line_and_the_nearest_known_one() {
        assert_eq!(
            refused("listen = \"127.0.0.1:9000\"\nuplod-dir = \"/tmp/u\"\n"),
            "gateway.toml:2: unknown key \"uplod-dir\"; did you mean \"upload-dir\"?"
        );
        assert_eq!(
            refused("\n\nupload_quota = \"1GiB\""),
            "gateway.toml:3: unknown key \"upload_quota\"; did you mean \"upload-quota\"?"
        );
        assert_eq!(
            refused("colour = \"blue\""),
            "gateway.toml:1: unknown key \"colour\""
        );
        assert!(refused("config = \"other.toml\"").contains("unknown key \"config\""));
    }

    #[test]
    fn a_wrong_value_names_the_key_and_what_it_accepts() {
        assert_eq!(
            refused("access = \"everyone\""),
            "gateway.toml:1: access = \"everyone\": takes one of: open, keys, proxy"
        );
        let size = refused("# sizes\nupload-quota = \"lots\"");
        assert!(
            size.starts_with(
                "gateway.toml:2: upload-quota = \"lots\": \"lots\" is not a size such as 20GiB"
            ),
            "{size}"
        );
        assert_eq!(
            refused("uploads-open = \"yes\""),
            "gateway.toml:1: uploads-open = \"yes\": takes true or false"
        );
        let origin = refused("allow-origin = [\"https://a.example\", \"*\"]");
        assert!(
            origin.starts_with("gateway.toml:1: allow-origin = "),
            "{origin}"
        );
        assert!(origin.contains("name each site's origin"), "{origin}");
        assert!(refused("[uploads]\ndir = \"/x\"").contains("the file has no sections"));
        assert!(refused("listen = ").contains("is not TOML"));
    }

    /// A value each flag without a default takes.
    const SAMPLES: &[(&str, &str)] = &[
        ("data-dir", "\"/var/lib/media-gen\""),
        ("library", "\"sqlite:/var/lib/media-gen/library.sqlite3\""),
        ("allow-origin", "[\"https://app.example.com\"]"),
        ("upstream", "\"https://service.example.com\""),
        ("static", "\"/srv/media-gen/dist\""),
        ("connect-src", "[\"https://media.example.com\"]"),
        ("token-file", "\"/etc/media-gen/token\""),
        ("trusted-proxy", "[\"127.0.0.1/32\"]"),
        ("public-url", "\"https://gw.example.com\""),
        ("upload-dir", "\"/var/lib/media-gen/uploads\""),
        ("upload-store", "\"s3://media/uploads\""),
        ("keep-bytes-per-person", "\"1GiB\""),
        ("keep-from", "[\"media.internal:9000\"]"),
        ("redis", "\"redis://127.0.0.1:6379/\""),
        ("relay-max-streams", "100"),
        ("worker-threads", "2"),
    ];

    #[test]
    fn every_flag_is_a_key_of_the_same_name() {
        for arg in Config::command().get_arguments() {
            let Some(long) = arg.get_long() else { continue };
            if NOT_IN_A_FILE.contains(&arg.get_id().as_str()) {
                continue;
            }
            let sample = SAMPLES.iter().find(|(key, _)| *key == long);
            let line = match (arg.get_action(), arg.get_default_values(), sample) {
                (_, _, Some((_, value))) => format!("{long} = {value}"),
                (ArgAction::SetTrue, _, None) => format!("{long} = true"),
                (_, [default, ..], None) => format!(
                    "{long} = {}",
                    toml::Value::String(default.to_string_lossy().into_owned())
                ),
                _ => panic!("--{long} has no default: give it a sample value here"),
            };
            let entries =
                read_text("gateway.toml", &line).unwrap_or_else(|error| panic!("{line}: {error}"));
            assert_eq!(entries.len(), 1, "{line}");
            let flag = entries[0].args[0].to_string_lossy().into_owned();
            assert!(
                flag == format!("--{long}") || flag.starts_with(&format!("--{long}=")),
                "{line}: {flag}"
            );
        }
    }

    #[test]
    fn the_file_is_read_as_the_flags_would_be() {
        let entries = read_text(
            "gateway.toml",
            "listen = \"0.0.0.0:8080\"\nuploads-open = true\ntrust-callbacks = false\n\
             connect-src = [\"https://a.example\", \"https://b.example\"]\nrequests-per-minute = 30\n",
        )
        .unwrap();
        let flags: Vec<String> = entries
            .iter()
            .flat_map(|entry| entry.args.iter())
            .map(|arg| arg.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            flags,
            [
                "--listen=0.0.0.0:8080",
                "--uploads-open",
                "--connect-src=https://a.example",
                "--connect-src=https://b.example",
                "--requests-per-minute=30"
            ]
        );
        assert_eq!(
            entries.iter().map(|entry| entry.line).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5]
        );
    }
}
