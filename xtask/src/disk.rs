//! The disk a run writes to: how much is free where the builds go, said
//! before anything is built and again at the end.
//!
//! Why: a disk that fills mid-run fails it far from the cause (a linker's
//! bus error, an `rmeta` that cannot be written). Said at the start, a
//! short disk is the first thing a reader sees.

use std::path::Path;

use crate::run_record::RunKind;

/// What a first run from a fresh clone writes under `target/` at its
/// fullest, with room to spare: 7.1 GB measured (README's "Set up"), 4.3
/// GB with incremental compilation off, as CI runs it.
pub const FRESH_RUN_NEEDS: u64 = 10_000_000_000;

/// What a later run may add (the incremental caches of what changed, the
/// browsers' temporary files), with room to spare.
pub const WARM_RUN_NEEDS: u64 = 3_000_000_000;

/// What a run of `kind` may need.
pub fn needs(kind: RunKind) -> u64 {
    match kind {
        RunKind::Fresh => FRESH_RUN_NEEDS,
        RunKind::Warm => WARM_RUN_NEEDS,
    }
}

/// Bytes free for this user on the file system holding `path` (its
/// nearest existing ancestor), or `None` when it cannot be read.
pub fn free_bytes(path: &Path) -> Option<u64> {
    let existing = path.ancestors().find(|folder| folder.exists())?;
    let stats = rustix::fs::statvfs(existing).ok()?;
    Some(stats.f_bavail.saturating_mul(stats.f_frsize))
}

/// `bytes` in gigabytes with one decimal: `12.3 GB`.
pub fn gigabytes(bytes: u64) -> String {
    format!("{:.1} GB", bytes as f64 / 1e9)
}

/// The line a run prints about the disk before it starts: what is free
/// where `target` is, and a warning when that is less than `needs`.
pub fn before_run(target: &Path, needs: u64) -> String {
    match free_bytes(target) {
        None => format!(
            "disk: cannot read the free space where {} is",
            target.display()
        ),
        Some(free) if free < needs => format!(
            "WARNING: disk: {} free where {} is; this run may need {}: \
             it fails when the disk fills (free space, or `cargo clean` an old target)",
            gigabytes(free),
            target.display(),
            gigabytes(needs)
        ),
        Some(free) => format!(
            "disk: {} free where {} is (this run may need {})",
            gigabytes(free),
            target.display(),
            gigabytes(needs)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_free_space_of_a_folder_not_made_yet_is_its_parents() {
        let here = std::env::temp_dir();
        let free = free_bytes(&here).expect("the temporary folder's disk");
        assert!(free > 0);
        let not_made = here.join("not-made-yet/deeper");
        assert!(free_bytes(&not_made).is_some());
    }

    #[test]
    fn a_short_disk_is_a_warning_that_says_what_is_needed() {
        let here = std::env::temp_dir();
        let line = before_run(&here, u64::MAX);
        assert!(line.starts_with("WARNING: disk: "), "{line}");
        assert!(line.contains("may need 18446744073.7 GB"), "{line}");
        let line = before_run(&here, 0);
        assert!(
            line.starts_with("disk: ") && line.contains(" free where "),
            "{line}"
        );
    }

    #[test]
    fn gigabytes_have_one_decimal() {
        assert_eq!(gigabytes(12_345_678_901), "12.3 GB");
        assert_eq!(gigabytes(0), "0.0 GB");
    }
}
