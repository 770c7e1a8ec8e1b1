//! A copy of the built app with an empty page beside it, served by a
//! gateway in front of a sandbox, as deployed: the pages the browser
//! benchmarks load.

use std::path::{Path, PathBuf};

use crate::sandbox::{Sandbox, DEMO_TOKEN};

/// The copied app, the gateway serving it and the sandbox behind; they go
/// away when dropped (the gateway with the benchmark's runtime).
pub struct StagedApp {
    dir: PathBuf,
    /// The gateway's address: where the pages are.
    gateway_url: String,
    /// The sandbox answering the calls the gateway forwards.
    pub sandbox: Sandbox,
}

impl StagedApp {
    /// Copy the release build in `dist` to a scratch folder, add `empty.html`
    /// (the baseline page), and serve it with a gateway in front of a
    /// sandbox started with `args`.
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
        let sandbox = Sandbox::start(args).await?;
        let settings = media_gen_gateway::Settings::for_tests(
            &sandbox.base_url,
            DEMO_TOKEN,
            Some(dir.clone()),
        );
        let gateway_url = media_gen_gateway::spawn_local(settings)
            .await
            .map_err(|e| e.to_string())?;
        Ok(StagedApp {
            dir,
            gateway_url,
            sandbox,
        })
    }

    /// The address of `path` on the gateway.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.gateway_url)
    }
}

impl Drop for StagedApp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
