//! The release build of the app into `dist/`.

use anyhow::Result;

use crate::cmd::{self, command};

/// `trunk build --release`: the app with the size-first profile and wasm-opt,
/// into `dist/` (Trunk runs offline with the tools `tools` installed).
pub fn build_release_app() -> Result<()> {
    cmd::run(command("trunk").args(["build", "--release"]))
}
