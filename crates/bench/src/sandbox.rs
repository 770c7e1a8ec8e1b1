//! The workspace's servers in their own processes (release builds next to
//! the benchmark), so their memory can be read from /proc: the sandbox,
//! and the gateway in front of it.

use std::path::PathBuf;
use std::process::Stdio;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// The token a sandbox started without `--token` accepts.
pub const DEMO_TOKEN: &str = "demo-token";

/// A running server process; killed when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:<port>`
    pub base_url: String,
}

/// The sandbox is the server most parts start.
pub type Sandbox = Server;

fn binary(name: &str) -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let path = exe.with_file_name(name);
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "{} is missing: build it with `cargo build --release -p {name}`",
            path.display()
        ))
    }
}

impl Server {
    /// Start the release build of `name` with `args` and `env`; wait for the
    /// line `{name} listening on http://…` it prints once it listens.
    async fn launch(name: &str, args: &[&str], env: &[(&str, &str)]) -> Result<Server, String> {
        let mut child = Command::new(binary(name)?)
            .args(args)
            .envs(env.iter().copied())
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("cannot start {name}: {e}"))?;
        let stdout = child.stdout.take().ok_or("no output")?;
        let mut lines = BufReader::new(stdout).lines();
        let banner = format!("{name} listening on ");
        while let Some(line) = lines.next_line().await.map_err(|e| e.to_string())? {
            if let Some(rest) = line.strip_prefix(&banner) {
                let address = rest.split_whitespace().next().unwrap_or_default();
                let base_url = address.trim_end_matches('/').to_owned();
                // Keep reading its output in the background so it never blocks.
                tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
                return Ok(Server { child, base_url });
            }
        }
        Err(format!("{name} stopped before listening"))
    }

    /// Start the release sandbox with `args` on a free port; wait until it listens.
    pub async fn start(args: &[&str]) -> Result<Server, String> {
        let mut all = vec!["--port", "0"];
        all.extend_from_slice(args);
        Server::launch("media-gen-sandbox", &all, &[]).await
    }

    /// Start the release gateway on a free port in front of `upstream` (a
    /// sandbox started without `--token`), with budgets out of the way of a
    /// load test, on one thread.
    pub async fn gateway(upstream: &str) -> Result<Server, String> {
        let args = [
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            upstream,
            "--requests-per-minute",
            "4000000000",
            "--tasks-per-hour",
            "4000000000",
            "--max-connections",
            "4096",
            // One thread, as nginx gets one worker: on two cores shared with
            // the load generator, the comparison is one core each.
            "--worker-threads",
            "1",
        ];
        Server::launch(
            "media-gen-gateway",
            &args,
            &[("MEDIA_GEN_TOKEN", DEMO_TOKEN)],
        )
        .await
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

/// `POST url` with the demo token and the JSON `body`; the JSON answer.
pub async fn post_json(
    client: &reqwest::Client,
    url: &str,
    body: &serde_json::Value,
) -> Result<serde_json::Value, String> {
    client
        .post(url)
        .bearer_auth(DEMO_TOKEN)
        .json(body)
        .send()
        .await
        .map_err(|e| e.to_string())?
        .json()
        .await
        .map_err(|e| e.to_string())
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
