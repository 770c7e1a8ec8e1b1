//! A sandbox process on an ephemeral loopback port: for the browser tests
//! (the test build's, which builds the program for the sandbox's own
//! tests) and behind the gateway of `cargo xtask start` (release).

use std::path::PathBuf;

use anyhow::{Context, Result};
use media_gen_launch::Server;

use crate::project;

/// A running sandbox; stopped when dropped.
pub type Sandbox = Server;

/// A binary of this workspace built with `profile` (`debug`, `release`).
pub fn binary(profile: &str, name: &str) -> PathBuf {
    project::target_dir().join(profile).join(name)
}

/// Start the sandbox binary at `program` with `args` on a free loopback
/// port, and wait until it listens.
pub fn launch(program: &std::path::Path, args: &[&str]) -> Result<Sandbox> {
    let mut all = vec!["--host", "127.0.0.1", "--port", "0"];
    all.extend_from_slice(args);
    Server::launch(program, &all, &[]).context("could not start the sandbox")
}
