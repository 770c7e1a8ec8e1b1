//! The app's own scripts shrunk before they are served: wasm-bindgen's glue
//! and the chunks' loader are written for people to read (one import a
//! line, comments, long names), and no bundler comes after them in the
//! app's release build.

use std::io::Write;
use std::process::Stdio;

use anyhow::{bail, Context, Result};

use crate::cmd::command;

/// `text`, an ES module (`what` names it in errors), minified by esbuild:
/// its exports keep their names, so the modules still import each other.
pub fn module(text: &str, what: &str) -> Result<String> {
    let mut child = command("esbuild")
        .args(["--minify", "--format=esm", "--log-level=error"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("starting esbuild (`cargo xtask dist` installs it)")?;
    let mut stdin = child.stdin.take().context("esbuild's input")?;
    let input = text.to_owned();
    // Written from another thread: esbuild may fill its output before it
    // has read all its input.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().context("running esbuild")?;
    writer
        .join()
        .map_err(|_| anyhow::anyhow!("writing {what} to esbuild"))?
        .with_context(|| format!("writing {what} to esbuild"))?;
    if !output.status.success() {
        bail!(
            "esbuild could not minify {what}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    String::from_utf8(output.stdout).with_context(|| format!("esbuild's {what} is not UTF-8"))
}
