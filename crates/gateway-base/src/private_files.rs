//! Files and folders the gateway creates for itself under `--data-dir` and
//! `--upload-dir` (the access keys, people's use, uploads and their
//! records): only its own user may read them, whatever the process umask,
//! since they hold key hashes, people's names and people's files. The mode
//! is given when each is created, so none is ever readable by others, not
//! even for a moment. A folder that exists already (an operator's) keeps
//! its mode; the files written into it are still private.

use std::fs::{DirBuilder, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// The mode of each file the gateway creates: read and write for its user.
pub const FILE_MODE: u32 = 0o600;
/// The mode of each folder the gateway creates: its user's alone.
pub const FOLDER_MODE: u32 = 0o700;

/// Make `dir` and its missing parents, each made [`FOLDER_MODE`]; those
/// that exist keep their mode.
pub fn create_dir_all(dir: &Path) -> io::Result<()> {
    DirBuilder::new()
        .recursive(true)
        .mode(FOLDER_MODE)
        .create(dir)
}

/// Options that create a missing file [`FILE_MODE`] (set read, write,
/// create as needed).
pub fn open_options() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.mode(FILE_MODE);
    options
}

/// Put `bytes` at `path` in one step: a temporary file beside it, flushed,
/// renamed over it, and the folder flushed so the rename itself lasts. The
/// temporary file is new, made [`FILE_MODE`] before any byte is written,
/// and named for this process and this write, so two writes at once never
/// share one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let folder = path.parent().unwrap_or(Path::new("."));
    let temporary = folder.join(format!(
        ".{}.{}.{}.tmp",
        path.file_name()
            .and_then(|name| name.to_str())
            .unwrap_or("file"),
        std::process::id(),
        WRITES.fetch_add(1, Ordering::Relaxed)
    ));
    // A leftover of a crashed process of the same id would keep its mode
    // if opened again: it goes, and the file is made anew.
    match std::fs::remove_file(&temporary) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => return Err(error),
        _ => {}
    }
    {
        let mut file = open_options()
            .write(true)
            .create_new(true)
            .open(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
    }
    std::fs::rename(&temporary, path)?;
    File::open(folder)?.sync_all()
}

/// The permission bits of `path` (0 when it cannot be read): what the
/// tests of every part read back.
pub fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).map_or(0, |meta| meta.permissions().mode() & 0o777)
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    #[test]
    fn folders_made_are_private_and_existing_ones_are_left_as_they_are() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let nested = dir.path().join("data").join("uploads");
        create_dir_all(&nested).unwrap();
        assert_eq!(mode_of(&nested), 0o700);
        assert_eq!(mode_of(nested.parent().unwrap()), 0o700);
        create_dir_all(dir.path()).unwrap();
        assert_eq!(mode_of(dir.path()), 0o755, "the operator's folder");
    }

    #[test]
    fn files_written_atomically_are_private_even_over_a_public_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("usage.json");
        std::fs::write(&path, "old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        write_atomically(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(mode_of(&path), 0o600);
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file is left");
    }
}
