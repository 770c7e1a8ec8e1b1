//! `cargo xtask test`: install what is missing, lint, run every suite, summarise.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use anyhow::{bail, Result};

use crate::cmd::{self, command};
use crate::disk;
use crate::dist;
use crate::libtest::{self, Counts};
use crate::npm;
use crate::phases::{seconds, Phases};
use crate::run_record::{self, RunKind};
use crate::sandbox;
use crate::scratch::Scratch;
use crate::stamp::{self, Stamp};
use crate::tools::{self, WASM_TARGET};

/// What the release app is built from (from the project's root): the app
/// and the crates it depends on (its Cargo.toml's edges), not the servers
/// or the tests.
const APP_INPUTS: &[&str] = &[
    "src",
    "crates/api",
    "crates/client",
    "crates/ui",
    "index.html",
    "style",
    "assets",
    "Trunk.toml",
    "Cargo.toml",
    "Cargo.lock",
    ".cargo/config.toml",
    "xtask/src/dist.rs",
];

/// What the npm package, its checks and its Vite pages are made from: the
/// two modules' crates and what they depend on, the package's own files
/// (`crates/widgets/npm`), the pages it is checked with.
const NPM_INPUTS: &[&str] = &[
    "crates/api",
    "crates/client",
    "crates/ui",
    "crates/js",
    "crates/widgets",
    "crates/e2e/pages",
    "examples",
    "Cargo.toml",
    "Cargo.lock",
    ".cargo/config.toml",
    "xtask/src/npm.rs",
];

/// The versions of the compiler and tools the builds depend on.
fn tool_versions() -> Vec<String> {
    let version = |program: &str| {
        command(program)
            .arg("--version")
            .output()
            .map(|output| String::from_utf8_lossy(&output.stdout).into_owned())
            .unwrap_or_default()
    };
    vec![
        version("rustc"),
        version("trunk"),
        version("wasm-bindgen"),
        version("wasm-opt"),
        version("node"),
    ]
}

/// The variable that hands the sandbox's address to the browser tests.
const SANDBOX_URL_VAR: &str = "MEDIA_GEN_SANDBOX_URL";

/// One test suite: a `cargo test` command whose `test result:` lines are counted.
struct Suite {
    name: &'static str,
    command: Command,
    /// Whether it tests the release build in `dist/`.
    needs_release_build: bool,
}

/// What one suite did.
struct Report {
    name: &'static str,
    counts: Counts,
    took: Duration,
    /// `None` when the suite passed, else why not.
    failure: Option<String>,
}

/// `cargo test` with `args`, running every test binary even after one
/// fails, so a run reports all its failures at once.
fn cargo_test(args: &[&str]) -> Command {
    let mut test = command("cargo");
    test.args(["test", "--no-fail-fast"]).args(args);
    test
}

/// What the end-to-end tests run besides the browser: Debian's nginx and
/// redis-server, and s3s-fs.
struct Servers {
    nginx: PathBuf,
    redis: PathBuf,
    s3s_fs: PathBuf,
}

fn suites(chromedriver: &Path, servers: &Servers, sandbox_url: &str) -> Vec<Suite> {
    let mut browser = cargo_test(&["--package", "media-gen", "--target", WASM_TARGET, "--tests"]);
    // Read at compile time by the browser tests (they cannot read the environment).
    browser
        .env("CHROMEDRIVER", chromedriver)
        .env(SANDBOX_URL_VAR, sandbox_url);
    // The end-to-end tests are `#[ignore]`d for plain `cargo test`, which has
    // neither the release build nor ChromeDriver; here they have both.
    // Two at a time: each test runs its own Chromium.
    let mut e2e = cargo_test(&[
        "--package",
        "media-gen-e2e",
        "--",
        "--ignored",
        "--test-threads=2",
    ]);
    e2e.env("CHROMEDRIVER", chromedriver)
        .env("NGINX", &servers.nginx)
        .env("REDIS_SERVER", &servers.redis)
        .env("S3S_FS", &servers.s3s_fs)
        .env(
            "MEDIA_GEN_NPM_SCRATCH",
            npm::npm_dir(&crate::project::root()).join("scratch"),
        );
    let native_args = [
        "--workspace",
        "--exclude",
        "media-gen-sandbox",
        "--exclude",
        "media-gen-e2e",
    ];
    let native = cargo_test(&native_args);
    // The size ceilings of the release app and the npm package (ignored in
    // plain `cargo test`); the native suite's packages and features, so
    // nothing is built again.
    let mut sizes = cargo_test(&native_args);
    sizes.args(["--", "--ignored", "sizes::"]);
    let suite = |name, command, needs_release_build| Suite {
        name,
        command,
        needs_release_build,
    };
    vec![
        suite("native", native, false),
        suite(
            "sandbox",
            cargo_test(&["--package", "media-gen-sandbox"]),
            false,
        ),
        suite("browser", browser, false),
        suite("sizes", sizes, true),
        suite("e2e", e2e, true),
    ]
}

fn lint() -> Result<()> {
    let clippy_wasm = |args: &[&str]| {
        let mut clippy = command("cargo");
        clippy.args(["clippy", "--target", WASM_TARGET]).args(args);
        clippy.args(["--", "-D", "warnings"]);
        clippy
    };
    cmd::run(command("cargo").args(["fmt", "--all", "--", "--check"]))?;
    cmd::run(command("cargo").args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))?;
    cmd::run(&mut clippy_wasm(&[
        "--package",
        "media-gen",
        "--package",
        "media-gen-ui",
        "--package",
        "media-gen-widgets",
        "--package",
        "media-gen-js",
        "--package",
        "media-gen-client",
        "--all-targets",
    ]))?;
    // The widgets' build with file controls (`npm/`'s second build of the
    // module), whose code the build above leaves out.
    cmd::run(&mut clippy_wasm(&[
        "--package",
        "media-gen-widgets",
        "--features",
        "uploads",
        "--lib",
    ]))?;
    // The contract crate's library only: its tests run natively, and their
    // property-testing dependencies do not build for wasm32.
    cmd::run(&mut clippy_wasm(&["--package", "media-gen-api", "--lib"]))?;
    crate::layers::check()?;
    crate::styles::check()
}

fn run_suite(suite: &mut Suite, phases: &mut Phases) -> Report {
    let started = Instant::now();
    let mut counts = Counts::default();
    let outcome = phases.run(suite.name, || {
        let (status, output) = cmd::run_capturing(&mut suite.command)?;
        counts = libtest::counts(&output);
        if !status.success() || counts.failed > 0 {
            bail!("{} failed ({status})", suite.name);
        }
        if counts.passed == 0 {
            bail!("{} ran no test", suite.name);
        }
        Ok(())
    });
    Report {
        name: suite.name,
        counts,
        took: started.elapsed(),
        failure: outcome.err().map(|error| format!("{error:#}")),
    }
}

fn summary(lint: &Result<()>, reports: &[Report]) -> String {
    let verdict = |failure: Option<&String>| match failure {
        None => "ok".to_owned(),
        Some(why) => format!("FAILED: {why}"),
    };
    let lint_failure = lint.as_ref().err().map(|error| format!("{error:#}"));
    let mut table = format!(
        "{:<9} {:>7} {:>7} {:>8} {:>8}  result\n",
        "suite", "passed", "failed", "ignored", "time"
    );
    table.push_str(&format!(
        "{:<9} {:>7} {:>7} {:>8} {:>8}  {}\n",
        "lint",
        "-",
        "-",
        "-",
        "",
        verdict(lint_failure.as_ref())
    ));
    for report in reports {
        table.push_str(&format!(
            "{:<9} {:>7} {:>7} {:>8} {:>8}  {}\n",
            report.name,
            report.counts.passed,
            report.counts.failed,
            report.counts.ignored,
            seconds(report.took),
            verdict(report.failure.as_ref())
        ));
    }
    table
}

/// Run the command; the exit code is non-zero if any check or suite failed.
pub fn run() -> Result<ExitCode> {
    let kind = RunKind::now();
    let target = crate::project::target_dir();
    println!("{}", disk::before_run(&target, disk::needs(kind)));
    // The suites' TMPDIR: removed (with what the browsers and servers left
    // in it) when the run ends. Made first, so a run that has no folder
    // short enough for Chromium's socket stops at once.
    let scratch = Scratch::create_in_first(&[&std::env::temp_dir(), Path::new("/tmp")])?;
    let mut phases = Phases::default();
    phases.run("tools for the app", tools::ensure_build_tools)?;
    phases.run("Debian's packages", tools::ensure_test_packages)?;
    let chromedriver = phases.run("tools for browser tests", tools::ensure_browser_test_tools)?;
    let nginx = phases.run("nginx for the deployment test", tools::ensure_nginx)?;
    let redis = phases.run("redis for the shared relay's test", tools::ensure_redis)?;
    let s3s_fs = phases.run("s3s-fs for the upload store test", tools::ensure_s3s_fs)?;
    let servers = Servers {
        nginx,
        redis,
        s3s_fs,
    };

    let lint = phases.run("lint", lint);
    // Each done again only when its inputs changed since it last succeeded.
    let root = crate::project::root();
    let release_build = phases.run("build the app (release)", || {
        let stamp = Stamp::of("release-app", APP_INPUTS, &tool_versions())?;
        stamp::unless_current(
            &stamp,
            &root.join("dist/index.html"),
            dist::build_release_app,
        )
        .map(drop)
    });
    // The widgets as a JavaScript developer gets them: packed, installed with
    // npm next to their test page, declarations checked with tsc, the
    // README's examples built in a default Vite project.
    let package = phases.run("npm package", || {
        let stamp = Stamp::of("npm-package", NPM_INPUTS, &tool_versions())?;
        let scratch = npm::npm_dir(&root).join("scratch");
        stamp::unless_current(&stamp, &scratch.join("vite-default/dist"), || {
            npm::install_and_check_types(&npm::build_package()?).map(drop)
        })?;
        Ok(scratch)
    });
    let release_build = match (release_build, package) {
        (Ok(()), Ok(scratch)) => Ok(scratch),
        (Err(error), _) => Err(error.context("the release build failed")),
        (_, Err(error)) => Err(error.context("the npm package failed")),
    };
    // Short tasks and quick callback retries, so lifecycle tests take moments.
    let sandbox = phases.run("sandbox for browser tests", || {
        sandbox::start(&[
            "--task-ms",
            "300",
            "--task-spread",
            "0.2",
            "--callback-retry-ms",
            "20",
        ])
        .inspect(|sandbox| println!("sandbox for the browser tests: {}", sandbox.base_url))
    })?;
    let mut reports = Vec::new();
    for mut suite in suites(&chromedriver, &servers, &sandbox.base_url) {
        // Chromium's crash reports go under XDG_CONFIG_HOME: there too.
        suite
            .command
            .env("TMPDIR", scratch.dir())
            .env("XDG_CONFIG_HOME", scratch.dir());
        match &release_build {
            Err(error) if suite.needs_release_build => reports.push(Report {
                name: suite.name,
                counts: Counts::default(),
                took: Duration::ZERO,
                failure: Some(format!("not run: {error:#}")),
            }),
            _ => reports.push(run_suite(&mut suite, &mut phases)),
        }
    }

    drop(scratch);
    let all_passed = lint.is_ok() && reports.iter().all(|report| report.failure.is_none());
    if all_passed {
        run_record::save(kind, phases.total());
    }
    let note = run_record::total_note(kind, &run_record::load());
    println!("\nTiming per phase\n{}", phases.table_noting(&note));
    println!("Tests per suite\n{}", summary(&lint, &reports));
    println!("{}", crate::machine::describe());
    if let Some(free) = disk::free_bytes(&target) {
        println!(
            "disk: {} free where {} is",
            disk::gigabytes(free),
            target.display()
        );
    }
    if all_passed {
        let total: u32 = reports.iter().map(|report| report.counts.passed).sum();
        println!(
            "All checks passed: {total} tests in {} suites.",
            reports.len()
        );
        Ok(ExitCode::SUCCESS)
    } else {
        println!("Some checks FAILED (see above).");
        Ok(ExitCode::FAILURE)
    }
}

#[cfg(test)]
mod tests {
    use super::{APP_INPUTS, NPM_INPUTS};

    /// The workspace crates `manifest` (a Cargo.toml's text) depends on,
    /// as folders: `media-gen-ui.workspace = true` → `crates/ui`.
    fn project_dependencies(manifest: &str) -> Vec<String> {
        let manifest: toml::Table = toml::from_str(manifest).unwrap();
        ["dependencies"]
            .iter()
            .filter_map(|table| manifest.get(*table).and_then(|deps| deps.as_table()))
            .flat_map(|deps| deps.keys())
            .filter_map(|name| name.strip_prefix("media-gen-"))
            .filter(|name| *name != "launch")
            .map(|name| format!("crates/{name}"))
            .collect()
    }

    /// Every project crate a build's crates depend on, however indirectly,
    /// is among its inputs: a build is never skipped over a change it
    /// would have seen.
    fn closed(inputs: &[&str], roots: &[&str]) {
        let root = crate::project::root();
        let mut folders: Vec<String> = roots.iter().map(|r| (*r).to_owned()).collect();
        while let Some(folder) = folders.pop() {
            let manifest = std::fs::read_to_string(root.join(&folder).join("Cargo.toml")).unwrap();
            for dependency in project_dependencies(&manifest) {
                assert!(
                    inputs.contains(&dependency.as_str()),
                    "{folder} depends on {dependency}, which is not among the inputs {inputs:?}"
                );
                folders.push(dependency);
            }
        }
    }

    #[test]
    fn the_builds_inputs_hold_every_crate_they_are_made_of() {
        closed(APP_INPUTS, &["."]);
        closed(NPM_INPUTS, &["crates/widgets", "crates/js"]);
    }
}
