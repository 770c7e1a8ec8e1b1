//! Files the builds write: a folder copied whole, a file named by a hash
//! of what it holds, and what a folder holds in all. Used by the app's
//! release build, the npm package, the split, the demo and the test run's
//! folders alike, and importing none of them.

use std::path::Path;

use anyhow::{Context, Result};
use sha2::{Digest, Sha384};

/// `from` copied into `to`, folders and all.
pub fn copy_folder(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to).with_context(|| format!("create {}", to.display()))?;
    for entry in std::fs::read_dir(from).with_context(|| format!("read {}", from.display()))? {
        let path = entry?.path();
        let target = to.join(path.file_name().unwrap_or_default());
        if path.is_dir() {
            copy_folder(&path, &target)?;
        } else {
            std::fs::copy(&path, &target).with_context(|| format!("copy {}", path.display()))?;
        }
    }
    Ok(())
}

/// The name a file gets in `dist/`: 16 hexadecimal digits of a hash of
/// `parts` after the stem, so a changed file is a new address and every
/// file can be cached for good.
pub fn hashed(stem: &str, parts: &[&[u8]]) -> String {
    let mut hasher = Sha384::new();
    for part in parts {
        hasher.update(part);
    }
    let digest = hasher.finalize();
    let hex: String = digest[..8]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    format!("{stem}-{hex}")
}

/// The bytes the files under `dir` hold, links not followed (a browser's
/// profile links to folders elsewhere); what cannot be read counts 0.
pub fn bytes_under(dir: &Path) -> u64 {
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
