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
//! Two rules, each a function of names, sizes and times ([`stale_files`],
//! [`caches_over_budget`]); [`sweep`] reads a folder and removes what they
//! say:
//! - **Files no unit of this run's builds is made of** (`deps/<crate>-<hash>`
//!   with its `.rlib`, `.rmeta`, `.d`, `.wasm`, …; the hash is the unit's):
//!   the workspace's own crates' at once, a dependency's once unread for
//!   [`UNREAD_FOR`], since builds outside the run use them (`cargo xtask`'s
//!   own, a developer's `cargo test -p …`, which unifies features its own
//!   way).
//!   A program's unit is current when cargo named its copy beside `deps/`
//!   (`target/debug/media-gen-gateway`), a hard link to the unit's file.
//! - **Incremental caches** over [`INCREMENTAL_BUDGET`] in all: the least
//!   recently written go first. The one a crate builds with next is among
//!   the newest; one removed costs its crate a whole compilation once.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How much the incremental caches of one build folder may hold. A run
/// that compiled the end-to-end tests and xtask again left 1.8 GB in
/// `target/debug/incremental`.
pub const INCREMENTAL_BUDGET: u64 = 4_000_000_000;

/// What xtask's own program is built from in the workspace: itself and
/// the one project crate it may depend on (`layers.rs` holds it to that).
/// `cargo xtask` builds them on its own, with other hashes than the test
/// build's: swept, they were compiled again at the next command.
const XTASKS_OWN: &[&str] = &["xtask", "media_gen_launch"];

/// The crate names (`-` as `_`) whose files are swept when stale: the
/// workspace's targets, but not those xtask's own program is built from
/// (their files go by the dependencies' rule).
pub fn swept_crates(workspace_targets: impl IntoIterator<Item = String>) -> HashSet<String> {
    workspace_targets
        .into_iter()
        .map(|name| name.replace('-', "_"))
        .filter(|name| !XTASKS_OWN.contains(&name.as_str()))
        .collect()
}

/// A file in `deps/`: its name and when it was last read.
#[derive(Debug, Clone)]
pub struct DepFile {
    /// `libserde-<hash>.rlib`, `e2e-<hash>`, `e2e-<hash>.d`, …
    pub name: String,
    /// When it was last read (a link reads an `.rlib`; the file system
    /// notes it at most once a day).
    pub read: SystemTime,
}

/// How long a dependency's file no build of the run is made of may go
/// unread before it is removed: a week of the builds a developer runs by
/// hand (`cargo test -p …` unifies features its own way).
pub const UNREAD_FOR: Duration = Duration::from_secs(7 * 24 * 60 * 60);

/// The unit a file in `deps/` belongs to, `(crate, hash)`: `libfoo-<hash>.rlib`,
/// `foo-<hash>.d` and the executable `foo-<hash>` all have the hash cargo
/// gave their unit, and `foo` or `libfoo` as the name. `None` for a file
/// not named so.
pub fn unit_of(file_name: &str) -> Option<(&str, &str)> {
    let stem = match file_name.rsplit_once('.') {
        Some((stem, extension)) if !extension.is_empty() => stem,
        _ => file_name,
    };
    let (name, hash) = stem.rsplit_once('-')?;
    let hashed = hash.len() == 16 && hash.bytes().all(|byte| byte.is_ascii_hexdigit());
    (hashed && !name.is_empty()).then_some((name, hash))
}

/// Whether the unit named `name` (`foo` or `libfoo`) is one of `crates`.
fn is_ours(name: &str, crates: &HashSet<String>) -> bool {
    crates.contains(name)
        || name
            .strip_prefix("lib")
            .is_some_and(|name| crates.contains(name))
}

/// The files of `deps/` (by name) to remove at `now`: those of units
/// none of `current` (the files this run's builds are made of) belongs to,
/// when they are `crates`' (the workspace's), or unread for [`UNREAD_FOR`]
/// (a dependency's).
pub fn stale_files<'a>(
    files: &'a [DepFile],
    current: &[PathBuf],
    crates: &HashSet<String>,
    now: SystemTime,
) -> Vec<&'a str> {
    let current: HashSet<&str> = current
        .iter()
        .filter_map(|path| path.file_name()?.to_str())
        .filter_map(|name| Some(unit_of(name)?.1))
        .collect();
    files
        .iter()
        .filter(|file| {
            let Some((name, hash)) = unit_of(&file.name) else {
                return false;
            };
            let unread = now
                .duration_since(file.read)
                .is_ok_and(|unread| unread > UNREAD_FOR);
            !current.contains(hash) && (is_ours(name, crates) || unread)
        })
        .map(|file| file.name.as_str())
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
    use std::os::unix::fs::MetadataExt;
    let mut swept = Swept::default();
    let deps = profile.join("deps");
    // Cargo names a program by the copy it puts beside `deps/`
    // (`target/debug/media-gen-gateway`), a hard link to the unit's own
    // file there: the same file, so that unit is current too.
    let linked: HashSet<(u64, u64)> = current
        .iter()
        .filter_map(|path| std::fs::metadata(path).ok())
        .map(|meta| (meta.dev(), meta.ino()))
        .collect();
    let mut current = current.to_vec();
    let files: Vec<DepFile> = entries(&deps, |entry, meta| {
        if linked.contains(&(meta.dev(), meta.ino())) {
            current.push(entry.path());
        }
        Some(DepFile {
            read: meta.accessed().ok()?,
            name: entry.file_name().into_string().ok()?,
        })
    });
    for name in stale_files(&files, &current, crates, SystemTime::now()) {
        let path = deps.join(name);
        let bytes = std::fs::symlink_metadata(&path).map_or(0, |meta| meta.len());
        if std::fs::remove_file(&path).is_ok() {
            swept.files += 1;
            swept.bytes += bytes;
        }
    }
    let incremental = profile.join("incremental");
    let caches: Vec<Cache> = entries(&incremental, |entry, meta| {
        Some(Cache {
            name: entry.file_name().into_string().ok()?,
            bytes: crate::files::bytes_under(&entry.path()),
            written: meta.modified().ok()?,
        })
    });
    for cache in caches_over_budget(caches, INCREMENTAL_BUDGET) {
        if std::fs::remove_dir_all(incremental.join(&cache.name)).is_ok() {
            swept.caches += 1;
            swept.bytes += cache.bytes;
        }
    }
    swept
}

/// What `read` makes of each entry of `folder` that it can read: none when
/// the folder cannot be read.
fn entries<T>(
    folder: &Path,
    mut read: impl FnMut(&std::fs::DirEntry, &std::fs::Metadata) -> Option<T>,
) -> Vec<T> {
    std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|entry| read(&entry, &entry.metadata().ok()?))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn crates() -> HashSet<String> {
        swept_crates(
            [
                "media-gen-api",
                "e2e",
                "media_gen",
                "xtask",
                "media-gen-launch",
            ]
            .map(String::from),
        )
    }

    const H1: &str = "0123456789abcdef";
    const H2: &str = "fedcba9876543210";
    const H3: &str = "00000000ffffffff";

    #[test]
    fn a_file_belongs_to_its_units_hash_whatever_its_kind() {
        for name in [
            format!("libmedia_gen_api-{H1}.rlib"),
            format!("libmedia_gen_api-{H1}.rmeta"),
            format!("libmedia_gen_api-{H1}.d"),
        ] {
            assert_eq!(unit_of(&name), Some(("libmedia_gen_api", H1)), "{name}");
        }
        assert_eq!(
            unit_of(&format!("media_gen_api-{H1}")),
            Some(("media_gen_api", H1))
        );
        assert_eq!(unit_of(&format!("e2e-{H2}.wasm")), Some(("e2e", H2)));
        assert_eq!(unit_of(&format!("serde-{H2}.d")), Some(("serde", H2)));
        for name in [
            "media_gen_api".to_owned(),
            "libmedia_gen_api-123.rlib".to_owned(),
            format!("libmedia_gen_api-{}.rlib", "g".repeat(16)),
            "e2e-.d".to_owned(),
            format!("-{H1}"),
        ] {
            assert_eq!(unit_of(&name), None, "{name}");
        }
    }

    #[test]
    fn whole_names_are_ours_with_or_without_lib_and_xtask_is_not() {
        let crates = crates();
        assert!(is_ours("media_gen_api", &crates));
        assert!(is_ours("libmedia_gen_api", &crates));
        assert!(is_ours("libmedia_gen", &crates));
        assert!(!is_ours("media_gen_ap", &crates));
        assert!(!is_ours("libserde", &crates));
        assert!(!is_ours("xtask", &crates));
        assert!(
            !is_ours("libmedia_gen_launch", &crates),
            "xtask is built from it"
        );
    }

    #[test]
    fn ours_go_when_no_current_unit_is_made_of_them_and_dependencies_once_unread_a_week() {
        let crates = crates();
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(100 * 24 * 60 * 60);
        let today = now - Duration::from_secs(60);
        let long_ago = now - UNREAD_FOR - Duration::from_secs(1);
        let file = |name: String, read| DepFile { name, read };
        let files = [
            file(format!("libmedia_gen_api-{H1}.rlib"), long_ago),
            file(format!("libmedia_gen_api-{H1}.rmeta"), long_ago),
            file(format!("media_gen_api-{H1}.d"), long_ago),
            file(format!("libmedia_gen_api-{H2}.rlib"), today),
            file(format!("media_gen_api-{H2}.d"), today),
            file(format!("e2e-{H2}"), today),
            file(format!("libserde-{H1}.rlib"), long_ago),
            file(format!("libserde-{H2}.rlib"), today),
            file(format!("libtokio-{H3}.rlib"), long_ago),
            file(format!("xtask-{H3}"), today),
            file("notes.txt".to_owned(), long_ago),
        ];
        let current = [
            PathBuf::from(format!("/t/debug/deps/libmedia_gen_api-{H1}.rlib")),
            PathBuf::from(format!("/t/debug/deps/libmedia_gen_api-{H1}.rmeta")),
        ];
        let stale = stale_files(&files, &current, &crates, now);
        assert_eq!(
            stale,
            [
                format!("libmedia_gen_api-{H2}.rlib"),
                format!("media_gen_api-{H2}.d"),
                format!("e2e-{H2}"),
                format!("libtokio-{H3}.rlib"),
            ],
            "a current unit's files stay however old, even its .d; a dependency \
             read today stays; xtask's program is a dependency's case"
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
        // A program: cargo names the copy beside `deps/`, a hard link.
        let program = deps.join(format!("e2e-{H3}"));
        std::fs::write(&program, b"exe").unwrap();
        std::fs::write(deps.join(format!("e2e-{H3}.d")), b"d").unwrap();
        std::fs::hard_link(&program, profile.join("e2e")).unwrap();
        let current = [
            deps.join(format!("libmedia_gen_api-{H1}.rlib")),
            profile.join("e2e"),
        ];
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
        assert!(program.exists() && deps.join(format!("e2e-{H3}.d")).exists());
        assert!(swept
            .describe(&profile)
            .ends_with("removed 1 files of earlier builds and 0 incremental caches, 0.0 MB"));
        std::fs::remove_dir_all(&profile).unwrap();
    }
}
