//! `cargo xtask bench`: release builds of the app, the npm package, the
//! sandbox and the benchmark, then the benchmark binary's table.

use std::process::ExitCode;

use anyhow::Result;

use crate::cmd::{self, command};
use crate::phases::Phases;

/// Run the command.
pub fn run(parts: &[String]) -> Result<ExitCode> {
    let mut phases = Phases::default();
    phases.run("tools", crate::tools::ensure_build_tools)?;
    // What people download: the app and the npm package, as released.
    phases.run("build the app (release)", crate::dist::build_release_app)?;
    let tarball = phases.run("npm package", crate::npm::build_package)?;
    // Installed as a developer would, and the Vite pages the sizes count
    // (the client entry, the widgets, `@fal-ai/client` beside them) built.
    phases.run("install and build the Vite pages", || {
        crate::npm::install_and_check_types(&tarball)
    })?;
    phases.run("build (release)", || {
        cmd::build_release(&["media-gen-sandbox", "media-gen-gateway", "media-gen-bench"])
    })?;
    let browsers = phases.run(
        "tools for the browser",
        crate::tools::ensure_browser_test_tools,
    )?;
    let nginx = phases.run(
        "nginx (the gateway's comparison)",
        crate::tools::ensure_nginx,
    )?;
    let redis = phases.run(
        "redis (the relay shared by two gateways)",
        crate::tools::ensure_redis,
    )?;
    let postgres = phases.run(
        "PostgreSQL (the library shared by gateways)",
        crate::tools::ensure_postgres,
    )?;
    phases.run("measure", || {
        cmd::run(
            command("cargo")
                // The full browser, as every figure before was measured
                // (the tests drive the headless shell).
                .env("CHROMEDRIVER", &browsers.chromedriver)
                .env("NGINX", &nginx)
                .env("REDIS_SERVER", &redis)
                .env("PG_BIN", &postgres)
                .args([
                    "run",
                    "--quiet",
                    "--release",
                    "--package",
                    "media-gen-bench",
                    "--",
                ])
                .args(parts),
        )
    })?;
    println!("\n{}", phases.table());
    Ok(ExitCode::SUCCESS)
}
