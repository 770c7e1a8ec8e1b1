//! A sandbox process on an ephemeral loopback port: for the browser tests
//! (debug build) and behind the gateway of `cargo xtask start` (release).

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Stdio};

use anyhow::{bail, Context, Result};

use crate::cmd::{self, command};
use crate::project;

/// A running sandbox; stopped when dropped.
pub struct Sandbox {
    child: Child,
    /// `http://127.0.0.1:<port>`
    pub base_url: String,
}

/// A binary of this workspace built with `profile` (`debug`, `release`).
pub fn binary(profile: &str, name: &str) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| project::root().join("target"));
    target.join(profile).join(name)
}

impl Sandbox {
    /// Build the sandbox, start it with `args` on a free port, and wait until it listens.
    pub fn start(args: &[&str]) -> Result<Sandbox> {
        cmd::run(command("cargo").args(["build", "--quiet", "--package", "media-gen-sandbox"]))?;
        Sandbox::launch(&binary("debug", "media-gen-sandbox"), args)
    }

    /// Start the sandbox binary at `program` with `args` on a free loopback
    /// port, and wait until it listens.
    pub fn launch(program: &std::path::Path, args: &[&str]) -> Result<Sandbox> {
        let mut child = command(&program.to_string_lossy())
            .args(["--host", "127.0.0.1", "--port", "0"])
            .args(args)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .spawn()
            .context("could not start the sandbox")?;
        let stdout = child.stdout.take().context("no sandbox output")?;
        let mut lines = BufReader::new(stdout).lines();
        for line in lines.by_ref() {
            let line = line.unwrap_or_default();
            if let Some(rest) = line.strip_prefix("media-gen-sandbox listening on ") {
                let base_url = rest.trim_end_matches('/').to_owned();
                // Keep draining its output so it never blocks on a full pipe.
                std::thread::spawn(move || lines.for_each(drop));
                return Ok(Sandbox { child, base_url });
            }
        }
        let _ = child.kill();
        bail!("the sandbox stopped before listening")
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
