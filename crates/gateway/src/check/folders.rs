//! The folders the gateway writes (`data-dir`, `upload-dir`) are writable
//! and its user's alone; the app it serves (`static`) is there.

use std::path::Path;

use super::Line;
use crate::config_file::Loaded;
use crate::private_files::{create_dir_all, mode_of, FOLDER_MODE};

/// One line per folder the configuration names.
pub(super) fn check(loaded: &Loaded) -> Vec<Line> {
    let config = &loaded.config;
    let mut lines = Vec::new();
    if let Some(dir) = &config.data_dir {
        lines.push(private(loaded, "data-dir", dir));
    }
    if let Some(dir) = &config.upload_dir {
        lines.push(private(loaded, "upload-dir", dir));
    }
    if let Some(dir) = &config.static_dir {
        lines.push(app(loaded, dir));
    }
    if lines.is_empty() {
        lines.push(Line::skipped(
            "folders",
            "none named (data-dir, upload-dir, static)",
        ));
    }
    lines
}

/// A folder the gateway keeps its own things in: made as the gateway makes
/// it when missing, then written to.
fn private(loaded: &Loaded, key: &'static str, dir: &Path) -> Line {
    let shown = dir.display();
    if let Err(error) = create_dir_all(dir) {
        return Line::failed(
            key,
            format!("{shown} cannot be made: {error}"),
            format!(
                "make it, owned by the gateway's user, or correct {}",
                loaded.where_set(key)
            ),
        );
    }
    let mode = mode_of(dir);
    // Anything beyond what the gateway gives the folders it makes.
    if mode & !FOLDER_MODE != 0 {
        return Line::failed(
            key,
            format!("{shown} is open to others (mode {mode:o}): it holds keys, uploads or people's libraries"),
            format!("chmod {FOLDER_MODE:o} {shown}"),
        );
    }
    let probe = dir.join(".media-gen-check");
    let written = b"media-gen-gateway check";
    let tried = std::fs::write(&probe, written).and_then(|()| {
        let read = std::fs::read(&probe);
        std::fs::remove_file(&probe)?;
        if read? == written {
            Ok(())
        } else {
            Err(std::io::Error::other(
                "the file read back is not the one written",
            ))
        }
    });
    match tried {
        Ok(()) => Line::ok(
            key,
            format!("{shown}: a file written, read and deleted; its user's alone (mode {mode:o})"),
        ),
        Err(error) => Line::failed(
            key,
            format!("{shown} is not writable: {error}"),
            format!("chown it to the gateway's user (mode {FOLDER_MODE:o})"),
        ),
    }
}

/// The built app: its `index.html` readable.
fn app(loaded: &Loaded, dir: &Path) -> Line {
    let index = dir.join("index.html");
    match std::fs::metadata(&index) {
        Ok(meta) if meta.is_file() => {
            Line::ok("static", format!("{}: the app is there", dir.display()))
        }
        _ => Line::failed(
            "static",
            format!(
                "{} has no index.html",
                index.parent().unwrap_or(dir).display()
            ),
            format!(
                "build the app (cargo xtask dist) and copy dist/ there, or correct {}",
                loaded.where_set("static")
            ),
        ),
    }
}
