//! How long whole green runs of `cargo xtask test` took on this machine:
//! the last fresh one (nothing built yet, as on a new clone) and the last
//! warm one, kept beside the project's tools (`~/.cache/media-gen/`, shared
//! by every clone), so each run's total line shows both against their goals;
//! with each, how busy the whole machine was over it (all cores together),
//! since a run slowed by other work on a shared machine reads as such.

use std::path::PathBuf;
use std::time::Duration;

/// A fresh run (a new clone, tools from the cache or built) may take this long.
pub const FRESH_GOAL: Duration = Duration::from_secs(20 * 60);
/// A warm run (everything built before) may take this long.
pub const WARM_GOAL: Duration = Duration::from_secs(3 * 60);

/// Which kind of run this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunKind {
    /// Nothing was built yet.
    Fresh,
    /// Built before.
    Warm,
}

impl RunKind {
    /// The kind of the run about to start: fresh when nothing was built
    /// for the browser yet (xtask itself is built by then, natively).
    pub fn now() -> RunKind {
        let target = crate::project::target_dir();
        if target.join(crate::tools::WASM_TARGET).is_dir() {
            RunKind::Warm
        } else {
            RunKind::Fresh
        }
    }

    fn name(self) -> &'static str {
        match self {
            RunKind::Fresh => "fresh",
            RunKind::Warm => "warm",
        }
    }

    fn goal(self) -> Duration {
        match self {
            RunKind::Fresh => FRESH_GOAL,
            RunKind::Warm => WARM_GOAL,
        }
    }
}

/// One green run: its wall time, and the machine's busy time over it
/// (none in a record written before that was kept, or where the system
/// did not say), in seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Run {
    pub seconds: f64,
    pub busy: Option<f64>,
}

/// The last green run of each kind.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Record {
    pub fresh: Option<Run>,
    pub warm: Option<Run>,
}

impl Record {
    /// Read from its text: a `fresh 742.1 busy 1290.4` and a `warm 171.4`
    /// line (the busy time after the wall time, where known: a record
    /// read by an older xtask, which reads two words, still reads).
    fn parse(text: &str) -> Record {
        let mut record = Record::default();
        for line in text.lines() {
            let mut words = line.split_whitespace();
            let (Some(kind), Some(seconds)) = (words.next(), words.next()) else {
                continue;
            };
            let busy = match (words.next(), words.next()) {
                (Some("busy"), Some(busy)) => busy.parse().ok(),
                _ => None,
            };
            let run = seconds.parse().ok().map(|seconds| Run { seconds, busy });
            match kind {
                "fresh" => record.fresh = run,
                "warm" => record.warm = run,
                _ => {}
            }
        }
        record
    }

    fn text(&self) -> String {
        let mut text = String::new();
        for (kind, run) in [("fresh", self.fresh), ("warm", self.warm)] {
            if let Some(run) = run {
                text.push_str(&format!("{kind} {:.1}", run.seconds));
                if let Some(busy) = run.busy {
                    text.push_str(&format!(" busy {busy:.1}"));
                }
                text.push('\n');
            }
        }
        text
    }

    fn of(&self, kind: RunKind) -> Option<Run> {
        match kind {
            RunKind::Fresh => self.fresh,
            RunKind::Warm => self.warm,
        }
    }
}

/// Where the record is kept.
fn file() -> PathBuf {
    crate::cmd::cache_dir().join("test-runs.txt")
}

/// The record kept so far (empty when there is none).
pub fn load() -> Record {
    std::fs::read_to_string(file())
        .map(|text| Record::parse(&text))
        .unwrap_or_default()
}

/// Keep `took`, with the machine `busy` that long over it, as the last
/// green run of `kind`.
pub fn save(kind: RunKind, took: Duration, busy: Option<Duration>) {
    let mut record = load();
    let run = Some(Run {
        seconds: took.as_secs_f64(),
        busy: busy.map(|busy| busy.as_secs_f64()),
    });
    match kind {
        RunKind::Fresh => record.fresh = run,
        RunKind::Warm => record.warm = run,
    }
    let path = file();
    if let Some(folder) = path.parent() {
        let _ = std::fs::create_dir_all(folder);
    }
    let _ = std::fs::write(path, record.text());
}

/// What the total line says of this run and the other kind's last one:
/// `a warm run (goal ≤ 180 s) · last green fresh run here: 742.1 s, the
/// machine busy 1290.4 s (goal ≤ 1200 s)`.
pub fn total_note(kind: RunKind, record: &Record) -> String {
    let other = match kind {
        RunKind::Fresh => RunKind::Warm,
        RunKind::Warm => RunKind::Fresh,
    };
    let last = match record.of(other) {
        Some(Run {
            seconds,
            busy: Some(busy),
        }) => format!("{seconds:.1} s, the machine busy {busy:.1} s"),
        Some(Run {
            seconds,
            busy: None,
        }) => format!("{seconds:.1} s"),
        None => "none yet".to_owned(),
    };
    format!(
        "a {} run (goal ≤ {} s) · last green {} run here: {last} (goal ≤ {} s)",
        kind.name(),
        kind.goal().as_secs(),
        other.name(),
        other.goal().as_secs()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_record_reads_what_it_writes_and_skips_the_rest() {
        let record = Record {
            fresh: Some(Run {
                seconds: 742.14,
                busy: Some(1290.44),
            }),
            warm: Some(Run {
                seconds: 171.4,
                busy: None,
            }),
        };
        assert_eq!(record.text(), "fresh 742.1 busy 1290.4\nwarm 171.4\n");
        assert_eq!(
            Record::parse(&record.text()).fresh,
            Some(Run {
                seconds: 742.1,
                busy: Some(1290.4)
            })
        );
        // A record written before the busy time was kept.
        assert_eq!(
            Record::parse("warm x\nother 3\nwarm 171.4\n").warm,
            Some(Run {
                seconds: 171.4,
                busy: None
            })
        );
        assert_eq!(
            Record::parse("warm 171.4 busy ?\n").warm.unwrap().busy,
            None
        );
        assert_eq!(Record::parse(""), Record::default());
    }

    #[test]
    fn the_total_line_names_both_kinds_against_their_goals() {
        let record = Record {
            fresh: Some(Run {
                seconds: 742.1,
                busy: None,
            }),
            warm: None,
        };
        assert_eq!(
            total_note(RunKind::Warm, &record),
            "a warm run (goal ≤ 180 s) · last green fresh run here: 742.1 s (goal ≤ 1200 s)"
        );
        let busy = Record {
            fresh: Some(Run {
                seconds: 742.1,
                busy: Some(1290.4),
            }),
            warm: None,
        };
        assert_eq!(
            total_note(RunKind::Warm, &busy),
            "a warm run (goal ≤ 180 s) · last green fresh run here: 742.1 s, \
             the machine busy 1290.4 s (goal ≤ 1200 s)"
        );
        assert_eq!(
            total_note(RunKind::Fresh, &record),
            "a fresh run (goal ≤ 1200 s) · last green warm run here: none yet (goal ≤ 180 s)"
        );
    }
}
