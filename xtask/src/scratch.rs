//! The test run's own temporary folder: every suite, the sandbox and what
//! they start (ChromeDriver, Chromium, nginx, Redis, s3s-fs) write their
//! temporary files under it, and it is removed when the run ends.
//!
//! Why: a browser killed at a test's end leaves its profile and scoped
//! folders in the temporary folder, and a test stopped by a failure leaves
//! its own; over many runs they filled the disk. One folder per run, removed
//! at its end (and a run's left by one that was killed, at the next start),
//! keeps a run's disk use to the run.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The folder holding each run's temporary folder, named by its process id.
pub fn parent(target: &Path) -> PathBuf {
    target.join("test-tmp")
}

/// A run's temporary folder; removed with what it holds when dropped.
pub struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    /// Make this run's folder under [`parent`]`(target)`, first removing
    /// the folders of runs that no longer run.
    pub fn create(target: &Path) -> Result<Scratch> {
        let parent = parent(target);
        remove_left_behind(&parent, is_running);
        let dir = parent.join(std::process::id().to_string());
        std::fs::create_dir_all(&dir).with_context(|| format!("make {}", dir.display()))?;
        Ok(Scratch { dir })
    }

    /// The folder, for `TMPDIR`.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let held = bytes_under(&self.dir);
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

/// Remove the folders under `parent` named by a process id that `running`
/// says has ended; leave anything else.
fn remove_left_behind(parent: &Path, running: impl Fn(u32) -> bool) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let pid = entry
            .file_name()
            .to_str()
            .and_then(|name| name.parse().ok());
        if pid.is_some_and(|pid| !running(pid)) {
            // A folder that cannot be removed now is tried again next run.
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The bytes the files under `dir` hold, links not followed (a browser's
/// profile links to folders elsewhere); what cannot be read counts 0.
fn bytes_under(dir: &Path) -> u64 {
    let mut bytes = 0;
    let mut folders = vec![dir.to_owned()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            match entry.metadata() {
                Ok(metadata) if metadata.is_dir() => folders.push(entry.path()),
                Ok(metadata) => bytes += metadata.len(),
                Err(_) => {}
            }
        }
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh_target(name: &str) -> PathBuf {
        let target =
            std::env::temp_dir().join(format!("xtask-scratch-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&target);
        target
    }

    #[test]
    fn a_runs_folder_and_what_it_holds_are_gone_when_it_ends() {
        let target = fresh_target("ends");
        let scratch = Scratch::create(&target).unwrap();
        let dir = scratch.dir().to_owned();
        std::fs::create_dir_all(dir.join("org.chromium.Chromium.scoped_dir.x")).unwrap();
        std::fs::write(dir.join("org.chromium.Chromium.scoped_dir.x/profile"), b"x").unwrap();
        assert!(dir.starts_with(parent(&target)));
        drop(scratch);
        assert!(!dir.exists());
        std::fs::remove_dir_all(&target).unwrap();
    }

    #[test]
    fn folders_of_ended_runs_go_and_others_stay() {
        let target = fresh_target("left");
        let parent = parent(&target);
        for name in ["11", "22", "notes"] {
            std::fs::create_dir_all(parent.join(name)).unwrap();
            std::fs::write(parent.join(name).join("file"), b"x").unwrap();
        }
        remove_left_behind(&parent, |pid| pid == 22);
        assert!(!parent.join("11").exists(), "an ended run's folder stays");
        assert!(parent.join("22").exists(), "a running run's folder went");
        assert!(
            parent.join("notes").exists(),
            "a folder not named by a run went"
        );
        std::fs::remove_dir_all(&target).unwrap();
    }

    #[test]
    fn this_process_runs_and_an_unused_id_does_not() {
        assert!(is_running(std::process::id()));
        assert!(!is_running(u32::MAX));
    }
}
