//! The test run's own temporary folder: every suite, the sandbox and what
//! they start (ChromeDriver, Chromium, nginx, Redis) write their
//! temporary files under it, and it is removed when the run ends.
//!
//! Why: a browser killed at a test's end leaves its profile and scoped
//! folders in the temporary folder, and a test stopped by a failure leaves
//! its own; over many runs they filled the disk. One folder per run, removed
//! at its end (and a run's left by one that was killed, at the next start),
//! keeps a run's disk use to the run.
//!
//! It sits in the system's temporary folder under a short name, not in
//! `target/`: Chromium puts a Unix socket a few folders below `TMPDIR`, and
//! a socket's path may not exceed 107 bytes (Chromium exits at start when
//! it would).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// What each run's folder is named, before its process id.
const PREFIX: &str = "media-gen-test-";

/// The longest a run's folder may be, so that the socket Chromium makes
/// below an e2e browser's own folder in it
/// (`/media-gen-browser-XXXXXX/.org.chromium.Chromium.XXXXXX/SingletonSocket`,
/// 72 bytes) stays within a socket path's 107.
pub const LONGEST: usize = 107 - 72;

/// A run's temporary folder; removed with what it holds when dropped.
pub struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    /// Make this run's folder in `parent` (the system's temporary folder),
    /// first removing the folders of runs that no longer run.
    pub fn create(parent: &Path) -> Result<Scratch> {
        remove_left_behind(parent, is_running);
        let dir = parent.join(format!("{PREFIX}{}", std::process::id()));
        if dir.as_os_str().len() > LONGEST {
            bail!(
                "the temporary folder {} is too long for Chromium's socket below it \
                 (at most {LONGEST} bytes): set TMPDIR to a shorter one, such as /tmp",
                dir.display()
            );
        }
        std::fs::create_dir_all(&dir).with_context(|| format!("make {}", dir.display()))?;
        Ok(Scratch { dir })
    }

    /// Make this run's folder in the first of `parents` where it leaves
    /// room for Chromium's socket (the system's temporary folder, then
    /// `/tmp` when `TMPDIR` is a long one).
    pub fn create_in_first(parents: &[&Path]) -> Result<Scratch> {
        let mut refusal = None;
        for parent in parents {
            match Scratch::create(parent) {
                Ok(scratch) => return Ok(scratch),
                Err(error) => refusal = Some(error),
            }
        }
        Err(refusal
            .unwrap_or_else(|| anyhow::anyhow!("no folder to make the run's temporary folder in")))
    }

    /// The variables that keep what a suite and the browsers it starts
    /// write in this folder: temporary files (`TMPDIR`), Chromium's crash
    /// reports (`XDG_CONFIG_HOME`) and its profiles' caches
    /// (`XDG_CACHE_HOME`: a profile under `XDG_CONFIG_HOME` keeps its cache
    /// at the same place under it, `~/.cache` unless set, where 40 MB a run
    /// were left).
    pub fn env(&self) -> [(&'static str, &Path); 3] {
        [
            ("TMPDIR", &self.dir),
            ("XDG_CONFIG_HOME", &self.dir),
            ("XDG_CACHE_HOME", &self.dir),
        ]
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let held = crate::files::bytes_under(&self.dir);
        match std::fs::remove_dir_all(&self.dir) {
            Ok(()) => println!(
                "removed the run's temporary files: {:.1} MB",
                held as f64 / 1e6
            ),
            Err(error) => eprintln!(
                "could not remove the run's temporary files in {}: {error}",
                self.dir.display()
            ),
        }
    }
}

/// Whether the process `pid` runs (Linux: it has a folder in `/proc`).
fn is_running(pid: u32) -> bool {
    Path::new("/proc").join(pid.to_string()).exists()
}

/// Remove the runs' folders in `parent` whose process `running` says has
/// ended; leave anything else.
fn remove_left_behind(parent: &Path, running: impl Fn(u32) -> bool) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = name
            .to_str()
            .and_then(|name| name.strip_prefix(PREFIX))
            .and_then(|pid| pid.parse().ok());
        if pid.is_some_and(|pid| !running(pid)) {
            // A folder that cannot be removed now is tried again next run.
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A short folder of the test's own, `/tmp/<name><pid>`.
    fn fresh_parent(name: &str) -> PathBuf {
        let parent = Path::new("/tmp").join(format!("{name}{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&parent);
        std::fs::create_dir_all(&parent).unwrap();
        parent
    }

    #[test]
    fn a_runs_folder_and_what_it_holds_are_gone_when_it_ends() {
        let parent = fresh_parent("e");
        let scratch = Scratch::create(&parent).unwrap();
        let dir = scratch.dir.to_owned();
        std::fs::create_dir_all(dir.join("org.chromium.Chromium.scoped_dir.x")).unwrap();
        std::fs::write(dir.join("org.chromium.Chromium.scoped_dir.x/profile"), b"x").unwrap();
        assert!(dir.starts_with(&parent));
        drop(scratch);
        assert!(!dir.exists());
        std::fs::remove_dir_all(&parent).unwrap();
    }

    #[test]
    fn browsers_keep_temporary_files_crash_reports_and_caches_in_the_folder() {
        let parent = fresh_parent("v");
        let scratch = Scratch::create(&parent).unwrap();
        let env = scratch.env();
        assert_eq!(
            env.map(|(name, _)| name),
            ["TMPDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"]
        );
        assert!(env.iter().all(|(_, folder)| *folder == scratch.dir));
        drop(scratch);
        std::fs::remove_dir_all(&parent).unwrap();
    }

    #[test]
    fn folders_of_ended_runs_go_and_others_stay() {
        let parent = fresh_parent("l");
        for name in ["media-gen-test-11", "media-gen-test-22", "11", "notes"] {
            std::fs::create_dir_all(parent.join(name)).unwrap();
            std::fs::write(parent.join(name).join("file"), b"x").unwrap();
        }
        remove_left_behind(&parent, |pid| pid == 22);
        assert!(
            !parent.join("media-gen-test-11").exists(),
            "an ended run's folder stays"
        );
        assert!(
            parent.join("media-gen-test-22").exists(),
            "a running run's folder went"
        );
        assert!(parent.join("11").exists(), "someone else's folder went");
        assert!(parent.join("notes").exists(), "someone else's folder went");
        std::fs::remove_dir_all(&parent).unwrap();
    }

    /// In the system's usual temporary folder the run's folder leaves room
    /// for Chromium's socket; in a long one the run stops at once and says
    /// why, instead of every browser failing to start.
    #[test]
    fn a_runs_folder_leaves_room_for_chromiums_socket() {
        let usual = Path::new("/tmp").join(format!("{PREFIX}{}", u32::MAX));
        assert!(usual.as_os_str().len() <= LONGEST, "{}", usual.display());
        let long = fresh_parent("a-temporary-folder-far-too-deep-for-a-socket");
        let Err(error) = Scratch::create(&long) else {
            panic!("a run's folder in {} was accepted", long.display());
        };
        assert!(
            error.to_string().contains("set TMPDIR to a shorter one"),
            "{error}"
        );
        std::fs::remove_dir_all(&long).unwrap();
    }

    #[test]
    fn a_long_temporary_folder_gives_way_to_the_next() {
        let long = fresh_parent("a-temporary-folder-far-too-deep-for-a-socket");
        let short = fresh_parent("s");
        let scratch = Scratch::create_in_first(&[&long, &short]).unwrap();
        assert!(scratch.dir.starts_with(&short), "{}", scratch.dir.display());
        drop(scratch);
        let Err(error) = Scratch::create_in_first(&[&long]) else {
            panic!("a run's folder in {} was accepted", long.display());
        };
        assert!(error.to_string().contains("set TMPDIR"), "{error}");
        std::fs::remove_dir_all(&long).unwrap();
        std::fs::remove_dir_all(&short).unwrap();
    }

    #[test]
    fn this_process_runs_and_an_unused_id_does_not() {
        assert!(is_running(std::process::id()));
        assert!(!is_running(u32::MAX));
    }
}
