//! A sandbox in its own process, so its memory can be read from /proc.

use std::path::PathBuf;
use std::process::Stdio;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// The token a sandbox started without `--token` accepts.
pub const DEMO_TOKEN: &str = "demo-token";

/// A running sandbox process; killed when dropped.
pub struct Sandbox {
    child: Child,
    /// `http://127.0.0.1:<port>`
    pub base_url: String,
}

fn binary() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let path = exe.with_file_name("media-gen-sandbox");
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "{} is missing: build it with `cargo build --release -p media-gen-sandbox`",
            path.display()
        ))
    }
}

impl Sandbox {
    /// Start the release sandbox with `args` on a free port; wait until it listens.
    pub async fn start(args: &[&str]) -> Result<Sandbox, String> {
        let mut child = Command::new(binary()?)
            .args(["--port", "0"])
            .args(args)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("cannot start the sandbox: {e}"))?;
        let stdout = child.stdout.take().ok_or("no sandbox output")?;
        let mut lines = BufReader::new(stdout).lines();
        while let Some(line) = lines.next_line().await.map_err(|e| e.to_string())? {
            if let Some(rest) = line.strip_prefix("media-gen-sandbox listening on ") {
                let base_url = rest.trim_end_matches('/').to_owned();
                // Keep reading its output in the background so it never blocks.
                tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
                return Ok(Sandbox { child, base_url });
            }
        }
        Err("the sandbox stopped before listening".to_owned())
    }

    /// One counter of `/sandbox/stats` (`status_reads`, `tasks_created`, ...).
    pub async fn counter(&self, client: &reqwest::Client, name: &str) -> Result<u64, String> {
        counter(client, &self.base_url, name).await
    }

    /// The process's resident memory in MiB (Linux).
    pub fn resident_mib(&self) -> Option<f64> {
        let pid = self.child.id()?;
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let kib: f64 = status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))?
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kib / 1024.0)
    }
}

/// One counter of the sandbox at `base_url`'s `/sandbox/stats`.
pub async fn counter(client: &reqwest::Client, base_url: &str, name: &str) -> Result<u64, String> {
    let stats: serde_json::Value = client
        .get(format!("{base_url}/sandbox/stats"))
        .send()
        .await
        .map_err(|e| e.to_string())?
        .json()
        .await
        .map_err(|e| e.to_string())?;
    Ok(stats["data"][name].as_u64().unwrap_or_default())
}
