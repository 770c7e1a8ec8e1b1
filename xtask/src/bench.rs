//! `cargo xtask bench`: release builds, then the benchmark binary's table.

use std::process::ExitCode;

use anyhow::{bail, Result};

use crate::cmd::{self, command};
use crate::phases::Phases;

/// Run the command.
pub fn run(args: &[String]) -> Result<ExitCode> {
    if let Some(extra) = args.first() {
        bail!("`cargo xtask bench` takes no arguments (got `{extra}`)");
    }
    let mut phases = Phases::default();
    phases.run("build (release)", || {
        cmd::run(command("cargo").args([
            "build",
            "--release",
            "--package",
            "media-gen-sandbox",
            "--package",
            "media-gen-bench",
        ]))
    })?;
    phases.run("measure", || {
        cmd::run(command("cargo").args([
            "run",
            "--quiet",
            "--release",
            "--package",
            "media-gen-bench",
        ]))
    })?;
    let tarball = phases.run("npm package", crate::npm::build_package)?;
    println!("\nnpm package ({}), gzipped:", tarball.display());
    for (file, size) in crate::npm::gzipped_sizes(&crate::project::root())? {
        println!("  {file:<20} {:>8.1} KB", size as f64 / 1024.0);
    }
    println!("\n{}", phases.table());
    Ok(ExitCode::SUCCESS)
}
