//! A copy of the built app with an empty page beside it, served by a
//! sandbox: the pages the browser benchmarks load.

use std::path::{Path, PathBuf};

use crate::sandbox::Sandbox;

/// The copied app and the sandbox serving it; both go away when dropped.
pub struct StagedApp {
    dir: PathBuf,
    /// The sandbox serving the copy (and answering `/v1/*`).
    pub sandbox: Sandbox,
}

impl StagedApp {
    /// Copy the release build in `dist` to a scratch folder, add `empty.html`
    /// (the baseline page), and serve it with a sandbox started with `args`.
    pub async fn start(dist: &Path, name: &str, args: &[&str]) -> Result<StagedApp, String> {
        let dir = std::env::temp_dir().join(format!("media-gen-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        for entry in std::fs::read_dir(dist).map_err(|e| format!("{}: {e}", dist.display()))? {
            let path = entry.map_err(|e| e.to_string())?.path();
            if let (true, Some(file)) = (path.is_file(), path.file_name()) {
                std::fs::copy(&path, dir.join(file)).map_err(|e| e.to_string())?;
            }
        }
        std::fs::write(
            dir.join("empty.html"),
            "<!DOCTYPE html><title>empty</title>",
        )
        .map_err(|e| e.to_string())?;
        let static_dir = dir.to_string_lossy().into_owned();
        let mut all_args = vec!["--static", static_dir.as_str()];
        all_args.extend_from_slice(args);
        let sandbox = Sandbox::start(&all_args).await?;
        Ok(StagedApp { dir, sandbox })
    }

    /// The address of `path` on the sandbox.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.sandbox.base_url)
    }
}

impl Drop for StagedApp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
