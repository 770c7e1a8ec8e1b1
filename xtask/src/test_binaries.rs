//! Test binaries built once by cargo and then run by xtask itself, so that
//! suites can run side by side: `cargo test` holds the build folder's lock
//! until its last test ends, and a second one waits for it.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{bail, Context, Result};
use serde::Deserialize;

use crate::cmd::{self, command};

/// One test binary cargo built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestBinary {
    /// The package it tests (`media-gen-gateway`).
    pub package: String,
    /// The target it was built from (`browser` for `tests/browser/`, the
    /// crate's name for its unit tests).
    pub target: String,
    /// The program: a native executable, or a `.wasm` module for the
    /// browser runner.
    pub program: PathBuf,
    /// The package's folder: cargo runs each test binary there.
    pub dir: PathBuf,
}

impl TestBinary {
    /// A command that runs this binary as `cargo test` would: from its
    /// package's folder, through `runner` when the binary needs one (the
    /// wasm-bindgen test runner for a `.wasm`), with `args` after it.
    pub fn command(&self, runner: Option<&str>, args: &[&str]) -> Command {
        let mut run = match runner {
            Some(runner) => {
                let mut run = command(runner);
                run.arg(&self.program);
                run
            }
            None => command(&self.program.to_string_lossy()),
        };
        run.current_dir(&self.dir)
            .env("CARGO_MANIFEST_DIR", &self.dir)
            .env("CARGO_PKG_NAME", &self.package)
            .args(args);
        run
    }
}

/// The lines of cargo's `--message-format=json` this reads.
#[derive(Deserialize)]
struct Message {
    reason: String,
    /// A compiler's diagnostic (`reason` `compiler-message`).
    #[serde(default)]
    message: Option<Diagnostic>,
    #[serde(default)]
    executable: Option<PathBuf>,
    /// Every file the artifact's unit is made of (`.rlib`, `.rmeta`, …).
    #[serde(default)]
    filenames: Vec<PathBuf>,
    /// `path+file://…` for the workspace's own packages.
    #[serde(default)]
    package_id: Option<String>,
    #[serde(default)]
    manifest_path: Option<PathBuf>,
    #[serde(default)]
    profile: Option<Profile>,
    #[serde(default)]
    target: Option<Target>,
}

/// The target an artifact was built from.
#[derive(Deserialize)]
struct Target {
    name: String,
}

/// A diagnostic as rustc (or clippy) reports it.
#[derive(Deserialize)]
struct Diagnostic {
    level: String,
    #[serde(default)]
    rendered: Option<String>,
}

#[derive(Deserialize)]
struct Profile {
    test: bool,
}

/// What a build made and said.
#[derive(Debug, Default)]
pub struct Built {
    /// The test binaries, in the order cargo reported them.
    pub binaries: Vec<TestBinary>,
    /// The warnings and errors the compiler gave about the workspace's own
    /// code, rendered (dependencies' lints are capped by cargo).
    pub findings: Vec<String>,
    /// Every file of every unit the build is made of, built now or earlier
    /// and still current: what a sweep of the build's folder keeps.
    pub artifacts: Vec<PathBuf>,
    /// The names of the workspace's targets among those units (`e2e`,
    /// `media_gen_api`, `media-gen-gateway`).
    pub own_targets: std::collections::BTreeSet<String>,
}

/// `cargo <args>` with `--message-format=json` (and `env` set), clippy's
/// driver compiling the workspace's crates: the same compilation with
/// clippy's lints, so the build that makes the test binaries is also the
/// lint's check and nothing is checked once and compiled again. Returns the
/// test binaries it built and what the compiler said, each diagnostic
/// printed once the build ends.
pub fn build(args: &[&str], env: &[(&str, &str)]) -> Result<Built> {
    let mut cargo = command("cargo");
    cargo
        .args(args)
        .arg("--message-format=json")
        .envs(env.iter().copied());
    cargo.env("RUSTC_WORKSPACE_WRAPPER", clippy_driver()?);
    let (status, output) = cmd::run_capturing_quietly(&mut cargo)?;
    let built = read(&output)?;
    for finding in &built.findings {
        eprint!("{finding}");
    }
    if !status.success() {
        bail!("building the tests failed ({status})");
    }
    Ok(built)
}

/// The clippy driver of the toolchain that builds (`rustc --print sysroot`).
fn clippy_driver() -> Result<std::path::PathBuf> {
    let sysroot = cmd::first_line("rustc", &["--print", "sysroot"])
        .context("rustc --print sysroot did not answer")?;
    let driver = std::path::Path::new(&sysroot).join("bin/clippy-driver");
    if !driver.is_file() {
        bail!("no clippy-driver in {sysroot}/bin: install clippy (`rustup component add clippy`)");
    }
    Ok(driver)
}

/// The test binaries and the diagnostics in cargo's JSON messages `output`.
fn read(output: &str) -> Result<Built> {
    let mut built = Built::default();
    for line in output.lines().filter(|line| line.starts_with('{')) {
        let message: Message =
            serde_json::from_str(line).with_context(|| format!("reading cargo's {line}"))?;
        if message.reason == "compiler-message" {
            if let Some(diagnostic) = message.message {
                if matches!(diagnostic.level.as_str(), "warning" | "error") {
                    built.findings.push(diagnostic.rendered.unwrap_or_default());
                }
            }
            continue;
        }
        if message.reason == "compiler-artifact" {
            built.artifacts.extend(message.filenames);
            built.artifacts.extend(message.executable.clone());
            let own = message
                .package_id
                .as_deref()
                .is_some_and(|id| id.starts_with("path+file://"));
            if let (true, Some(target)) = (own, &message.target) {
                built.own_targets.insert(target.name.clone());
            }
        }
        let (Some(program), Some(manifest), Some(profile), Some(target)) = (
            message.executable,
            message.manifest_path,
            message.profile,
            message.target,
        ) else {
            continue;
        };
        if message.reason != "compiler-artifact" || !profile.test {
            continue;
        }
        let dir = manifest
            .parent()
            .context("a manifest path has a folder")?
            .to_owned();
        let package = package_name(&manifest)?;
        built.binaries.push(TestBinary {
            package,
            target: target.name,
            program,
            dir,
        });
    }
    Ok(built)
}

/// The `[package] name` of the manifest at `path`.
fn package_name(path: &std::path::Path) -> Result<String> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?;
    let manifest: toml::Table = toml::from_str(&text)?;
    manifest
        .get("package")
        .and_then(|package| package.get("name"))
        .and_then(|name| name.as_str())
        .map(str::to_owned)
        .with_context(|| format!("{} names no package", path.display()))
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn test_binaries_findings_and_artifacts_are_read_from_cargos_messages_and_nothing_else() {
        let root = crate::project::root();
        let manifest = root.join("xtask/Cargo.toml");
        let output = format!(
            concat!(
                r#"{{"reason":"compiler-artifact","package_id":"path+file:///w/xtask#0.1.0","profile":{{"test":true}},"target":{{"name":"shape"}},"manifest_path":"{m}","executable":"/t/xtask-1","filenames":["/t/xtask-1"]}}"#,
                "\n",
                r#"{{"reason":"compiler-artifact","package_id":"registry+https://github.com/rust-lang/crates.io-index#x@1.0.0","profile":{{"test":false}},"target":{{"name":"xtask"}},"manifest_path":"{m}","executable":"/t/xtask"}}"#,
                "\n",
                r#"{{"reason":"compiler-artifact","profile":{{"test":false}},"manifest_path":"{m}","executable":null,"filenames":["/t/libx-2.rlib","/t/libx-2.rmeta"]}}"#,
                "\n",
                r#"{{"reason":"compiler-message","message":{{"level":"warning","rendered":"warning: unused\n"}}}}"#,
                "\n",
                r#"{{"reason":"compiler-message","message":{{"level":"note","rendered":"note: x\n"}}}}"#,
                "\n",
                r#"{{"reason":"build-finished","success":true}}"#,
                "\n"
            ),
            m = manifest.display()
        );
        let built = read(&output).unwrap();
        assert_eq!(built.findings, ["warning: unused\n"]);
        let artifacts: Vec<_> = built
            .artifacts
            .iter()
            .map(|path| path.to_str().unwrap())
            .collect();
        assert_eq!(
            artifacts,
            [
                "/t/xtask-1",
                "/t/xtask-1",
                "/t/xtask",
                "/t/libx-2.rlib",
                "/t/libx-2.rmeta"
            ]
        );
        assert_eq!(
            built.own_targets.into_iter().collect::<Vec<_>>(),
            ["shape"],
            "only a path package's target is the workspace's"
        );
        let found = built.binaries;
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].package, "xtask");
        assert_eq!(found[0].target, "shape");
        assert_eq!(found[0].program, std::path::Path::new("/t/xtask-1"));
        assert_eq!(found[0].dir, root.join("xtask"));
    }
}
