//! What earlier builds left in the test builds' folders, removed once a
//! run's builds are done.
//!
//! Why: cargo never removes a build's files when a later build of the same
//! crate is made under another hash (a dependency or a feature changed, a
//! single package was tested on its own), and rustc keeps an incremental
//! cache per such build. Over a day of work a developer's `target/debug`
//! grew to 67 GB, of which the run itself used under 3: the disk filled and
//! a build failed far from the cause ("No space left on device" in a
//! linker).
//!
//! Two rules, each decided here from names, sizes and ages alone (the
//! folder is read by the caller):
//! - **The workspace's own crates' files** (`deps/<crate>-<hash>` with its
//!   `.rlib`, `.rmeta`, `.d`, `.wasm`, …) that no unit of this run's build
//!   is made of. A dependency's files stay: its hash changes only with its
//!   features, and builds outside the run (`cargo xtask`'s own) use them.
//! - **Incremental caches** over [`INCREMENTAL_BUDGET`] in all: the least
//!   recently written go first. The one a crate builds with next is among
//!   the newest; one removed costs its crate a whole compilation once.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// How much the incremental caches of one build folder may hold: the
/// workspace's caches as a run's builds leave them, twice over.
pub const INCREMENTAL_BUDGET: u64 = 4_000_000_000;

/// The crate names (`-` as `_`) whose files are swept when stale: the
/// workspace's targets, but not xtask's program, which is running (its own
/// build is not this run's).
pub fn swept_crates(workspace_targets: impl IntoIterator<Item = String>) -> HashSet<String> {
    workspace_targets
        .into_iter()
        .map(|name| name.replace('-', "_"))
        .filter(|name| name != "xtask")
        .collect()
}

/// The unit a file in `deps/` belongs to, `(crate, hash)`: `libfoo-<hash>.rlib`,
/// `foo-<hash>.d` and the executable `foo-<hash>` are all `("foo", hash)`,
/// when `foo` is one of `crates`. `None` for anything else.
pub fn unit_of<'a>(file_name: &'a str, crates: &HashSet<String>) -> Option<(&'a str, &'a str)> {
    let stem = match file_name.rsplit_once('.') {
        Some((stem, extension)) if !extension.is_empty() => stem,
        _ => file_name,
    };
    let (name, hash) = stem.rsplit_once('-')?;
    if hash.len() != 16 || !hash.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return None;
    }
    if crates.contains(name) {
        return Some((name, hash));
    }
    let name = name.strip_prefix("lib")?;
    crates.contains(name).then_some((name, hash))
}

/// The files of `deps/` (by name) to remove: those of `crates`' units
/// that none of `current` (the files this run's build is made of) belongs
/// to.
pub fn stale_files<'a>(
    names: &'a [String],
    current: &[PathBuf],
    crates: &HashSet<String>,
) -> Vec<&'a str> {
    let current: HashSet<(&str, &str)> = current
        .iter()
        .filter_map(|path| path.file_name()?.to_str())
        .filter_map(|name| unit_of(name, crates))
        .collect();
    names
        .iter()
        .map(String::as_str)
        .filter(|name| unit_of(name, crates).is_some_and(|unit| !current.contains(&unit)))
        .collect()
}

/// An incremental cache folder: its name, what it holds, when last written.
#[derive(Debug, Clone)]
pub struct Cache {
    /// The folder's name under `incremental/`.
    pub name: String,
    /// Bytes under it.
    pub bytes: u64,
    /// When it was last written (a compilation adds a session folder).
    pub written: SystemTime,
}

/// The caches to remove so that the rest hold at most `budget`: the rest
/// are the most recently written, and every older one goes.
pub fn caches_over_budget(mut caches: Vec<Cache>, budget: u64) -> Vec<Cache> {
    caches.sort_by_key(|cache| std::cmp::Reverse(cache.written));
    let mut held = 0u64;
    caches
        .into_iter()
        .filter(|cache| {
            held = held.saturating_add(cache.bytes);
            held > budget
        })
        .collect()
}

/// What a sweep removed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Swept {
    /// Files of earlier builds.
    pub files: usize,
    /// Incremental cache folders.
    pub caches: usize,
    /// Bytes freed by both.
    pub bytes: u64,
}

impl Swept {
    /// One line for the run's output.
    pub fn describe(&self, folder: &Path) -> String {
        format!(
            "{}: removed {} files of earlier builds and {} incremental caches, {:.1} MB",
            folder.display(),
            self.files,
            self.caches,
            self.bytes as f64 / 1e6
        )
    }
}

/// Sweep the build folder `profile` (`target/debug`,
/// `target/wasm32-unknown-unknown/debug`) of what `current` (this run's
/// build's files) does not need: see the module's rules. What cannot be
/// read or removed is left (the next run tries again).
pub fn sweep(profile: &Path, current: &[PathBuf], crates: &HashSet<String>) -> Swept {
    let mut swept = Swept::default();
    let deps = profile.join("deps");
    let names: Vec<String> = std::fs::read_dir(&deps)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().into_string().ok())
        .collect();
    for name in stale_files(&names, current, crates) {
        let path = deps.join(name);
        let bytes = std::fs::symlink_metadata(&path).map_or(0, |meta| meta.len());
        if std::fs::remove_file(&path).is_ok() {
            swept.files += 1;
            swept.bytes += bytes;
        }
    }
    let incremental = profile.join("incremental");
    let caches: Vec<Cache> = std::fs::read_dir(&incremental)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let written = entry.metadata().ok()?.modified().ok()?;
            Some(Cache {
                name: entry.file_name().into_string().ok()?,
                bytes: crate::files::bytes_under(&entry.path()),
                written,
            })
        })
        .collect();
    for cache in caches_over_budget(caches, INCREMENTAL_BUDGET) {
        if std::fs::remove_dir_all(incremental.join(&cache.name)).is_ok() {
            swept.caches += 1;
            swept.bytes += cache.bytes;
        }
    }
    swept
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn crates() -> HashSet<String> {
        swept_crates(["media-gen-api", "e2e", "media_gen", "xtask"].map(String::from))
    }

    const H1: &str = "0123456789abcdef";
    const H2: &str = "fedcba9876543210";

    #[test]
    fn a_file_belongs_to_its_crates_unit_whatever_its_kind() {
        let crates = crates();
        for name in [
            format!("libmedia_gen_api-{H1}.rlib"),
            format!("libmedia_gen_api-{H1}.rmeta"),
            format!("media_gen_api-{H1}.d"),
            format!("media_gen_api-{H1}"),
        ] {
            assert_eq!(
                unit_of(&name, &crates),
                Some(("media_gen_api", H1)),
                "{name}"
            );
        }
        assert_eq!(
            unit_of(&format!("e2e-{H2}.wasm"), &crates),
            Some(("e2e", H2))
        );
        // `media_gen` is not `media_gen_api`'s prefix match: whole names only.
        assert_eq!(
            unit_of(&format!("libmedia_gen-{H1}.rlib"), &crates),
            Some(("media_gen", H1))
        );
    }

    #[test]
    fn dependencies_xtask_and_other_names_belong_to_no_swept_unit() {
        let crates = crates();
        for name in [
            format!("libserde-{H1}.rlib"),
            format!("xtask-{H1}"),
            format!("libxtask-{H1}.rmeta"),
            "media_gen_api".to_owned(),
            "libmedia_gen_api-123.rlib".to_owned(),
            format!("libmedia_gen_api-{}.rlib", "g".repeat(16)),
            "e2e-.d".to_owned(),
        ] {
            assert_eq!(unit_of(&name, &crates), None, "{name}");
        }
    }

    #[test]
    fn only_the_workspaces_files_no_current_unit_is_made_of_are_stale() {
        let crates = crates();
        let names: Vec<String> = [
            format!("libmedia_gen_api-{H1}.rlib"),
            format!("libmedia_gen_api-{H1}.rmeta"),
            format!("media_gen_api-{H1}.d"),
            format!("libmedia_gen_api-{H2}.rlib"),
            format!("media_gen_api-{H2}.d"),
            format!("e2e-{H2}"),
            format!("e2e-{H2}.d"),
            format!("libserde-{H2}.rlib"),
            format!("xtask-{H2}"),
        ]
        .into();
        let current = [
            PathBuf::from(format!("/t/debug/deps/libmedia_gen_api-{H1}.rlib")),
            PathBuf::from(format!("/t/debug/deps/libmedia_gen_api-{H1}.rmeta")),
        ];
        let stale = stale_files(&names, &current, &crates);
        assert_eq!(
            stale,
            [
                format!("libmedia_gen_api-{H2}.rlib"),
                format!("media_gen_api-{H2}.d"),
                format!("e2e-{H2}"),
                format!("e2e-{H2}.d"),
            ]
        );
    }

    #[test]
    fn the_least_recently_written_caches_go_until_the_rest_fit() {
        let at = |seconds| SystemTime::UNIX_EPOCH + Duration::from_secs(seconds);
        let cache = |name: &str, bytes, written| Cache {
            name: name.to_owned(),
            bytes,
            written: at(written),
        };
        let caches = vec![
            cache("old", 3, 10),
            cache("newest", 4, 40),
            cache("middle", 2, 30),
            cache("older", 1, 20),
        ];
        let names = |gone: Vec<Cache>| gone.into_iter().map(|cache| cache.name).collect::<Vec<_>>();
        assert_eq!(
            names(caches_over_budget(caches.clone(), 6)),
            ["older", "old"]
        );
        assert_eq!(
            names(caches_over_budget(caches.clone(), 10)),
            Vec::<String>::new()
        );
        assert_eq!(
            names(caches_over_budget(caches.clone(), 4)),
            ["middle", "older", "old"]
        );
        // The rest are the newest that fit: none, when the newest does not.
        assert_eq!(names(caches_over_budget(caches, 3)).len(), 4);
    }

    #[test]
    fn a_sweep_removes_stale_files_and_old_caches_from_a_folder_and_keeps_the_rest() {
        let profile = std::env::temp_dir().join(format!("stale-builds-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let deps = profile.join("deps");
        std::fs::create_dir_all(&deps).unwrap();
        for name in [
            format!("libmedia_gen_api-{H1}.rlib"),
            format!("libmedia_gen_api-{H2}.rlib"),
            format!("libserde-{H2}.rlib"),
        ] {
            std::fs::write(deps.join(name), b"12345").unwrap();
        }
        let current = [deps.join(format!("libmedia_gen_api-{H1}.rlib"))];
        let swept = sweep(&profile, &current, &crates());
        assert_eq!(
            swept,
            Swept {
                files: 1,
                caches: 0,
                bytes: 5
            }
        );
        assert!(deps.join(format!("libmedia_gen_api-{H1}.rlib")).exists());
        assert!(!deps.join(format!("libmedia_gen_api-{H2}.rlib")).exists());
        assert!(deps.join(format!("libserde-{H2}.rlib")).exists());
        assert!(swept
            .describe(&profile)
            .ends_with("removed 1 files of earlier builds and 0 incremental caches, 0.0 MB"));
        std::fs::remove_dir_all(&profile).unwrap();
    }
}
