//! `media-gen-gateway check`: everything serving will need, tried before
//! serving, one line each with what to do when it fails; the exit code says
//! whether all passed, for a deploy script or systemd's `ExecStartPre=`.
//!
//! Each part is tried whatever the others found, so one run names every
//! problem; a part the configuration does not use is said to be skipped.

mod folders;
mod library;
mod public_url;
mod redis;
mod service;
mod store;

use std::fmt::Write as _;
use std::time::Duration;

use crate::config_file::Loaded;

/// How long one part has to answer.
pub const PART_TIMEOUT: Duration = Duration::from_secs(5);

/// What was found of one part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// It works: what was tried.
    Ok(String),
    /// Not used by this configuration: why.
    Skipped(String),
    /// It does not work: what happened, and what to do.
    Failed {
        /// What happened.
        what: String,
        /// What to do.
        hint: String,
    },
}

/// One part's line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The part (`upstream`, `redis`, …).
    pub part: String,
    /// What was found.
    pub verdict: Verdict,
}

impl Line {
    pub(crate) fn ok(part: impl Into<String>, what: impl Into<String>) -> Line {
        Line {
            part: part.into(),
            verdict: Verdict::Ok(what.into()),
        }
    }

    pub(crate) fn skipped(part: impl Into<String>, why: impl Into<String>) -> Line {
        Line {
            part: part.into(),
            verdict: Verdict::Skipped(why.into()),
        }
    }

    pub(crate) fn failed(
        part: impl Into<String>,
        what: impl Into<String>,
        hint: impl Into<String>,
    ) -> Line {
        Line {
            part: part.into(),
            verdict: Verdict::Failed {
                what: what.into(),
                hint: hint.into(),
            },
        }
    }

    /// Whether it failed.
    pub fn is_failed(&self) -> bool {
        matches!(self.verdict, Verdict::Failed { .. })
    }
}

/// The variables of the environment `check` reads beyond the flags' own:
/// the token, and the store's `AWS_*`.
pub type Environment<'a> = &'a (dyn Fn(&str) -> Option<String> + Sync);

/// Try every part `loaded` names, reading the token and the store's
/// settings from `env`.
pub async fn run(loaded: &Loaded, env: Environment<'_>) -> Vec<Line> {
    let token_var = env(crate::config::TOKEN_VAR);
    let settings = settings(loaded);
    let (service, redis, library, store, public_url) = tokio::join!(
        service::check(loaded, token_var),
        redis::check(loaded),
        library::check(loaded),
        store::check(loaded, env),
        public_url::check(loaded),
    );
    let mut lines = vec![settings, service, redis, library, store];
    lines.extend(folders::check(loaded));
    lines.push(public_url);
    lines
}

/// Whether the settings hold together: what the gateway refuses at start,
/// asked of the same code, but the service's token, which the upstream
/// line tries.
fn settings(loaded: &Loaded) -> Line {
    let from = loaded.file.as_ref().map_or_else(
        || "flags and environment".to_owned(),
        |f| f.display().to_string(),
    );
    let mut config = loaded.config.clone();
    config.token_file = None;
    match crate::Settings::from_config(&config, Some("the upstream line's".to_owned())) {
        Ok(_) => Line::ok(
            "settings",
            format!("{from} read: access {}", config.access.as_str()),
        ),
        Err(error) => Line::failed(
            "settings",
            error.to_string(),
            format!("correct it in {from}, then check again"),
        ),
    }
}

/// The lines as printed, and whether every part passed.
pub fn report(lines: &[Line]) -> (String, bool) {
    let width = lines.iter().map(|line| line.part.len()).max().unwrap_or(0);
    let mut out = String::new();
    for line in lines {
        let part = &line.part;
        let _ = match &line.verdict {
            Verdict::Ok(what) => writeln!(out, "ok      {part:<width$}  {what}"),
            Verdict::Skipped(why) => writeln!(out, "skip    {part:<width$}  {why}"),
            Verdict::Failed { what, hint } => writeln!(
                out,
                "FAILED  {part:<width$}  {what}\n        {:<width$}  → {hint}",
                ""
            ),
        };
    }
    let failed = lines.iter().filter(|line| line.is_failed()).count();
    let _ = if failed == 0 {
        writeln!(out, "all {} parts ready", lines.len())
    } else {
        writeln!(out, "{failed} of {} parts failed", lines.len())
    };
    (out, failed == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_part_shows_what_to_do_beneath_it_and_fails_the_run() {
        let lines = [
            Line::ok("upstream", "answers"),
            Line::failed("redis", "no answer", "start Redis"),
            Line::skipped("library", "none kept"),
        ];
        let (out, passed) = report(&lines);
        assert!(!passed);
        assert_eq!(
            out,
            "ok      upstream  answers\n\
             FAILED  redis     no answer\n                  → start Redis\n\
             skip    library   none kept\n\
             1 of 3 parts failed\n"
        );
        assert!(report(&lines[..1]).1);
    }
}
