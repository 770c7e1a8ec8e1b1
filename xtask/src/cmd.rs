//! Running other programs: with cargo's bin folder on PATH, echoed, checked.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};

use anyhow::{bail, Context, Result};

use crate::project;

/// Where `cargo install` puts programs.
pub fn cargo_bin_dir() -> PathBuf {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")))
        .unwrap_or_else(|| PathBuf::from(".cargo"))
        .join("bin")
}

/// Where the project installs tools of its own (binaryen from npm).
pub fn project_tools_dir() -> PathBuf {
    project::target_dir().join("tools")
}

/// Where the project keeps a tool it builds with `cargo install`: a folder
/// per tool and version under the user's cache (`$XDG_CACHE_HOME`, else
/// `~/.cache`), so every clone on the machine shares it and a version is
/// built once; never cargo's own bin folder, where a person's own `trunk`
/// or `wasm-bindgen` of another version may live.
pub fn cargo_tool_root(tool: &str, version: &str) -> PathBuf {
    cache_dir().join("tools").join(format!("{tool}-{version}"))
}

/// The project's folder in the user's cache (`$XDG_CACHE_HOME`, else
/// `~/.cache`): `media-gen/`, shared by every clone on the machine.
pub fn cache_dir() -> PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .unwrap_or_else(|| project_tools_dir().join("cache"))
        .join("media-gen")
}

/// The project's cargo-installed tools: (crate, version), Trunk's (for
/// `cargo xtask serve`) and the wasm-bindgen CLI's at the version
/// `Cargo.lock` pins (its test runner runs the browser tests).
pub fn cargo_tools() -> Vec<(&'static str, String)> {
    let mut tools = vec![("trunk", crate::project::TRUNK_VERSION.to_owned())];
    if let Ok(version) = project::wasm_bindgen_version(&project::root()) {
        tools.push(("wasm-bindgen-cli", version));
    }
    tools
}

/// The folders searched before PATH: the project's own tools (binaryen
/// from npm, then the cargo-installed ones, each at its version), then
/// cargo's bin folder (for `cargo` itself), so the versions the project
/// needs win over any other copy.
pub fn tool_dirs() -> Vec<PathBuf> {
    // Worked out once: every command xtask runs gets this PATH, and the
    // versions come from Cargo.lock and Trunk.toml.
    static DIRS: std::sync::OnceLock<Vec<PathBuf>> = std::sync::OnceLock::new();
    DIRS.get_or_init(|| {
        std::iter::once(project_bin_dir())
            .chain(
                cargo_tools()
                    .into_iter()
                    .map(|(tool, version)| cargo_tool_root(tool, &version).join("bin")),
            )
            .chain(std::iter::once(cargo_bin_dir()))
            .collect()
    })
    .clone()
}

/// Where the programs of the project's own tools are.
pub fn project_bin_dir() -> PathBuf {
    project_tools_dir().join("node_modules").join(".bin")
}

/// PATH with [`tool_dirs`] first.
fn path_with_tools() -> OsString {
    let current = std::env::var_os("PATH").unwrap_or_default();
    let paths = tool_dirs()
        .into_iter()
        .chain(std::env::split_paths(&current));
    std::env::join_paths(paths).unwrap_or(current)
}

/// A command for `program`, run from the workspace root with the tool PATH.
pub fn command(program: &str) -> Command {
    let mut command = Command::new(program);
    command
        .current_dir(project::root())
        .env("PATH", path_with_tools());
    command
}

fn describe(command: &Command) -> String {
    std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|part| part.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `cargo build --release` of the workspace's `packages`.
pub fn build_release(packages: &[&str]) -> Result<()> {
    let mut cargo = command("cargo");
    cargo.args(["build", "--release"]);
    for package in packages {
        cargo.args(["--package", package]);
    }
    run(&mut cargo)
}

/// Run `command` with inherited output; fail unless it exits 0.
pub fn run(command: &mut Command) -> Result<()> {
    let shown = describe(command);
    println!("$ {shown}");
    let status = command
        .status()
        .with_context(|| format!("could not start `{shown}`"))?;
    if !status.success() {
        bail!("`{shown}` failed ({status})");
    }
    Ok(())
}

/// Run `command`, echoing its stdout line by line while keeping a copy;
/// stderr goes straight through. Returns the exit status and the stdout text.
pub fn run_capturing(command: &mut Command) -> Result<(ExitStatus, String)> {
    let shown = describe(command);
    println!("$ {shown}");
    let mut child = command
        .stdout(Stdio::piped())
        .spawn()
        .with_context(|| format!("could not start `{shown}`"))?;
    let mut captured = String::new();
    if let Some(stdout) = child.stdout.take() {
        let mut out = std::io::stdout().lock();
        for line in BufReader::new(stdout).lines() {
            let line = line.unwrap_or_default();
            // The copy matters more than the echo; ignore a closed terminal.
            let _ = writeln!(out, "{line}");
            captured.push_str(&line);
            captured.push('\n');
        }
    }
    let status = child
        .wait()
        .with_context(|| format!("waiting for `{shown}`"))?;
    Ok((status, captured))
}

/// Run `command` and keep its stdout without echoing it (stderr goes
/// straight through). Returns the exit status and the stdout text.
pub fn run_capturing_quietly(command: &mut Command) -> Result<(ExitStatus, String)> {
    let shown = describe(command);
    let output = command
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("could not run `{shown}`"))?;
    Ok((
        output.status,
        String::from_utf8_lossy(&output.stdout).into_owned(),
    ))
}

/// The first line a program prints for `args` (stdout, else stderr), or
/// `None` when it cannot be run or fails. Used for version checks.
pub fn first_line(program: &str, args: &[&str]) -> Option<String> {
    let output = command(program).args(args).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = if output.stdout.is_empty() {
        output.stderr
    } else {
        output.stdout
    };
    String::from_utf8_lossy(&text)
        .lines()
        .next()
        .map(|line| line.trim().to_owned())
}
