//! Installing what the project needs, at the versions it needs.
//!
//! Every check reads the tool's version, not only its presence, so a wrong
//! version is replaced; a second run finds everything in place and installs
//! nothing. Nothing is fetched from outside the package registries (crates.io,
//! the npm registry and Debian's archive). Where a tool cannot be installed here, the error
//! says exactly what to install by hand.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::cmd::{self, command, first_line};
use crate::project;

/// The Trunk release the project builds with (0.22 needs a newer rustc).
pub use crate::project::TRUNK_VERSION;
/// The Rust target of the browser code.
pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// The wasm-opt the app is built with: binaryen from the npm registry,
/// installed into `target/tools`. Older ones break the app: Debian 12's
/// binaryen 108 writes wasm-bindgen's externref table export onto the function
/// table (the app fails at start with "WebAssembly.Table.set(): Argument 1 is
/// invalid"), and 116, the newest on crates.io, cannot read `table.fill`,
/// which wasm-bindgen emits for calls that borrow JavaScript values.
pub const WASM_OPT: u32 = 132;
/// The npm package that carries that wasm-opt.
const BINARYEN_PACKAGE: &str = "binaryen@132.0.0";

/// The first word of a `--version` line that starts with a digit:
/// `trunk 0.21.14` → `0.21.14`, `wasm-opt version 108 (…)` → `108`.
pub fn version_word(line: &str) -> Option<&str> {
    line.split_whitespace()
        .find(|word| word.starts_with(|c: char| c.is_ascii_digit()))
}

/// The leading number of a version: `156.0.8078.79` → 156.
pub fn major(version: &str) -> Option<u32> {
    version.split('.').next()?.parse().ok()
}

/// The version `program --version` reports, if it runs.
fn installed_version(program: &str) -> Option<String> {
    first_line(program, &["--version"]).and_then(|line| version_word(&line).map(str::to_owned))
}

/// Where `program` is on PATH (cargo's bin folder included).
fn find_on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    cmd::tool_dirs()
        .into_iter()
        .chain(std::env::split_paths(&path))
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// Everything the release build of the app needs (`dist.rs`): the wasm
/// target, the wasm-bindgen CLI, wasm-opt and esbuild. Not Trunk: only `cargo xtask
/// serve` runs it.
pub fn ensure_build_tools() -> Result<()> {
    ensure_wasm_target()?;
    let wasm_bindgen = project::wasm_bindgen_version(&project::root())?;
    ensure_wasm_bindgen_cli(&wasm_bindgen)?;
    ensure_wasm_opt()?;
    ensure_esbuild()
}

/// Where Debian puts Chromium's headless shell, the browser the tests
/// drive (`webdriver.json` names it for the browser tests' runner).
pub const HEADLESS_SHELL: &str = "/usr/bin/chromium-headless-shell";

/// The browser the tests drive and the driver that starts it.
pub struct BrowserTools {
    /// ChromeDriver.
    pub chromedriver: PathBuf,
    /// Chromium's headless shell: the same engine as the full browser
    /// without its windows, as Playwright runs headless. The end-to-end
    /// suite took 170 s of the machine's CPU with it against 261 s with
    /// the full browser, the same 125 tests passing.
    pub shell: PathBuf,
}

impl BrowserTools {
    /// The variables that name them to a test: `CHROMEDRIVER`, and
    /// `CHROMIUM`, the browser it starts.
    pub fn env(&self) -> [(&'static str, &Path); 2] {
        [
            ("CHROMEDRIVER", &self.chromedriver),
            ("CHROMIUM", &self.shell),
        ]
    }
}

/// The tools for browser tests: the wasm target, the wasm-bindgen test
/// runner, Chromium's headless shell and a matching ChromeDriver.
pub fn ensure_browser_test_tools() -> Result<BrowserTools> {
    ensure_wasm_target()?;
    let wasm_bindgen = project::wasm_bindgen_version(&project::root())?;
    ensure_wasm_bindgen_cli(&wasm_bindgen)?;
    ensure_chromium()
}

/// The wasm32 target's standard library, added with rustup when missing.
pub fn ensure_wasm_target() -> Result<()> {
    let installed = first_line("rustup", &["--version"]).is_some();
    if !installed {
        let libdir = first_line(
            "rustc",
            &["--print", "target-libdir", "--target", WASM_TARGET],
        );
        if libdir.is_some_and(|dir| std::path::Path::new(&dir).is_dir()) {
            return Ok(());
        }
        bail!("the Rust target {WASM_TARGET} is missing and rustup is not available: install the target's standard library for your toolchain by hand");
    }
    let output = command("rustup")
        .args(["target", "list", "--installed"])
        .output()?;
    if String::from_utf8_lossy(&output.stdout)
        .lines()
        .any(|line| line.trim() == WASM_TARGET)
    {
        println!("ok: Rust target {WASM_TARGET}");
        return Ok(());
    }
    cmd::run(command("rustup").args(["target", "add", WASM_TARGET]))
}

fn ensure_wasm_bindgen_cli(version: &str) -> Result<()> {
    let cli = installed_version("wasm-bindgen");
    let runner = installed_version("wasm-bindgen-test-runner");
    if cli.as_deref() == Some(version) && runner.as_deref() == Some(version) {
        println!("ok: wasm-bindgen-cli {version}");
        return Ok(());
    }
    println!(
        "wasm-bindgen-cli: need {version}, found {} (test runner: {})",
        cli.as_deref().unwrap_or("none"),
        runner.as_deref().unwrap_or("none")
    );
    // No TLS: the test runner talks to ChromeDriver over plain http on
    // loopback, and nothing else it does goes out (measured on 2 cores,
    // yardstick 4.08 s: 176 s to build with TLS, 153 s without).
    let without_tls = |locked| {
        let mut install = cargo_install("wasm-bindgen-cli", version, locked);
        install.arg("--no-default-features");
        install
    };
    if cmd::run(&mut without_tls(true)).is_err() {
        // The CLI's own lockfile can name a yanked or missing crate; the
        // registry's current compatible releases work.
        println!("retrying without --locked");
        cmd::run(&mut without_tls(false))?;
    }
    Ok(())
}

/// Build tools are optimised for a quick build, not a quick run: `cargo
/// install` would use each crate's own release profile, and Trunk's (fat
/// LTO, one codegen unit) took 10 min 58 s on a 2-core machine, 4 min 00 s
/// so; the wasm-bindgen CLI 3 min 48 s, 1 min 31 s so. At optimisation
/// level 1 the CLI builds in 103.6 s instead of 113.9 s (195 s of CPU
/// instead of 216 s; yardstick 4.20 s) and binds the browser tests' 27 MB
/// module in 1.96 s instead of 1.69 s, the app in 0.31 s instead of 0.28 s:
/// a fresh run (CI's every run) gains more than a warm one loses.
const QUICK_BUILD: [(&str, &str); 3] = [
    ("CARGO_PROFILE_RELEASE_LTO", "off"),
    ("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16"),
    ("CARGO_PROFILE_RELEASE_OPT_LEVEL", "1"),
];

/// `cargo install` of `krate` at exactly `version` into its own folder
/// ([`cmd::cargo_tool_root`]), built quickly ([`QUICK_BUILD`]).
fn cargo_install(krate: &str, version: &str, locked: bool) -> std::process::Command {
    let mut install = command("cargo");
    install
        .args([
            "install",
            krate,
            "--version",
            &format!("={version}"),
            "--root",
        ])
        .arg(cmd::cargo_tool_root(krate, version));
    if locked {
        install.arg("--locked");
    }
    install.envs(QUICK_BUILD);
    install
}

/// Trunk at [`TRUNK_VERSION`], for `trunk serve` while developing.
pub fn ensure_trunk() -> Result<()> {
    match installed_version("trunk") {
        Some(found) if found == TRUNK_VERSION => {
            println!("ok: trunk {TRUNK_VERSION}");
            return Ok(());
        }
        found => println!(
            "trunk: need {TRUNK_VERSION}, found {}",
            found.as_deref().unwrap_or("none")
        ),
    }
    // Without its update check and TLS (Trunk.toml has it build offline
    // with the tools on PATH, and `trunk serve` proxies to the gateway over
    // plain http), at optimisation level 1 ([`QUICK_BUILD`]): Trunk only
    // starts the compiler and the tools, and the app it builds is the same,
    // byte for byte.
    // Measured on 2 cores, yardstick 4.08 s: 474.5 s to build as before,
    // 430.3 s without the features, 327.6 s so at level 1.
    let mut install = cargo_install("trunk", TRUNK_VERSION, true);
    install.arg("--no-default-features");
    cmd::run(&mut install)
}

fn ensure_wasm_opt() -> Result<()> {
    ensure_npm_tool(&NpmTool {
        program: "wasm-opt",
        package: BINARYEN_PACKAGE,
        version: &WASM_OPT.to_string(),
        version_of: |version| major(version).map(|major| major.to_string()),
    })
}

/// The JavaScript minifier the app's own scripts (wasm-bindgen's glue and
/// the chunks' loader) are shrunk with: they are served as written, with no
/// bundler after them.
pub const ESBUILD: &str = "0.28.2";
/// The npm package that carries that esbuild.
const ESBUILD_PACKAGE: &str = "esbuild@0.28.2";

fn ensure_esbuild() -> Result<()> {
    ensure_npm_tool(&NpmTool {
        program: "esbuild",
        package: ESBUILD_PACKAGE,
        version: ESBUILD,
        version_of: |version| Some(version.to_owned()),
    })
}

/// A program the project installs from the npm registry into
/// `target/tools`, at one version.
struct NpmTool<'a> {
    /// Its name in `node_modules/.bin`.
    program: &'a str,
    /// The package and version npm installs.
    package: &'a str,
    /// The version it must report, as `version_of` reads it.
    version: &'a str,
    /// The part of its `--version` word that must equal `version`.
    version_of: fn(&str) -> Option<String>,
}

fn ensure_npm_tool(tool: &NpmTool) -> Result<()> {
    let NpmTool {
        program,
        package,
        version: wanted,
        version_of,
    } = *tool;
    let installed = cmd::project_bin_dir().join(program);
    let version = || installed_version(&installed.to_string_lossy()).and_then(|v| version_of(&v));
    let found = version();
    if found.as_deref() == Some(wanted) {
        println!("ok: {program} {wanted} (from npm)");
        return Ok(());
    }
    println!(
        "{program}: need {wanted} in {}, found {found:?}",
        installed.display()
    );
    if find_on_path("npm").is_none() {
        apt_install(
            &["nodejs", "npm"],
            &format!("installing {program} from the npm registry"),
        )?;
    }
    let dir = cmd::project_tools_dir();
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let dir_arg = dir.to_string_lossy().into_owned();
    cmd::run(command("npm").args([
        "install",
        "--prefix",
        &dir_arg,
        "--no-audit",
        "--no-fund",
        package,
    ]))?;
    match version() {
        Some(version) if version == wanted => Ok(()),
        other => bail!("npm installed {package}, but its {program} reports {other:?}"),
    }
}

/// The major versions of Chromium's programs, the browser's, its headless
/// shell's and ChromeDriver's, when all three answer and agree.
fn chromium_major() -> Option<u32> {
    let majors = ["chromium", HEADLESS_SHELL, "chromedriver"]
        .map(|program| installed_version(program).and_then(|v| major(&v)));
    let first = majors[0]?;
    majors
        .iter()
        .all(|major| *major == Some(first))
        .then_some(first)
}

fn ensure_chromium() -> Result<BrowserTools> {
    match chromium_major() {
        Some(major) => println!("ok: chromium, its headless shell and chromedriver {major}"),
        None => {
            println!("chromium: the browser, its headless shell and ChromeDriver must all be there, at the same major version");
            apt_install(CHROMIUM_PACKAGES, "browser tests (headless Chromium)")?;
            if chromium_major().is_none() {
                bail!("Chromium, its headless shell and ChromeDriver still do not match: install matching `chromium`, `chromium-headless-shell` and `chromium-driver` by hand");
            }
        }
    }
    Ok(BrowserTools {
        chromedriver: find_on_path("chromedriver")
            .context("chromedriver runs but is not found on PATH")?,
        shell: PathBuf::from(HEADLESS_SHELL),
    })
}

/// Chromium's packages, installed again together when their versions
/// differ (the driver needs the full browser's package).
const CHROMIUM_PACKAGES: &[&str] = &["chromium", "chromium-driver", "chromium-headless-shell"];

/// Debian's nginx, for the end-to-end test of the deployment's topology
/// (nginx in front of the gateway). Returns its path.
pub fn ensure_nginx() -> Result<PathBuf> {
    // The password file of the auth proxy's test is made with openssl.
    ensure_debian_program(
        "openssl",
        "/usr/bin/openssl",
        "the password file of the end-to-end test behind an auth proxy",
    )?;
    ensure_debian_program(
        "nginx",
        "/usr/sbin/nginx",
        "the end-to-end test behind nginx",
    )
}

/// `program` on PATH or at `debian` (where Debian's package puts it), else
/// the Debian package of the same name installed for `purpose`.
fn ensure_debian_program(program: &str, debian: &str, purpose: &str) -> Result<PathBuf> {
    let found = || {
        find_on_path(program).or_else(|| {
            let debian = PathBuf::from(debian);
            debian.is_file().then_some(debian)
        })
    };
    if let Some(path) = found() {
        println!("ok: {program} at {}", path.display());
        return Ok(path);
    }
    apt_install(&[program], purpose)?;
    found().with_context(|| format!("{program} was installed but is not found"))
}

/// Debian's redis-server, for the end-to-end tests of gateways that share
/// the relay through Redis (installed with apt when missing). Returns its path.
pub fn ensure_redis() -> Result<PathBuf> {
    ensure_debian_program(
        "redis-server",
        "/usr/bin/redis-server",
        "the end-to-end tests of the shared relay",
    )
}

/// The folder of Debian's PostgreSQL programs (`initdb`, `postgres`),
/// for the tests of the library: the newest version's under
/// `/usr/lib/postgresql` (installed with apt when missing). The tests find
/// it in `PG_BIN`.
pub fn ensure_postgres() -> Result<PathBuf> {
    let newest = media_gen_launch::postgres::installed_bin_dir;
    if let Some(bin) = newest() {
        println!("ok: PostgreSQL at {}", bin.display());
        return Ok(bin);
    }
    apt_install(&["postgresql"], "the tests of the library in PostgreSQL")?;
    newest().context("postgresql was installed but /usr/lib/postgresql/*/bin/initdb is not found")
}

/// The Debian packages `cargo xtask test` runs, each with the program that
/// shows it is there, where Debian puts that program, and what it is for.
const TEST_PACKAGES: &[(&str, &str, &str, &str)] = &[
    ("chromium", "chromium", "/usr/bin/chromium", "browser tests"),
    (
        "chromium-driver",
        "chromedriver",
        "/usr/bin/chromedriver",
        "browser tests",
    ),
    (
        "chromium-headless-shell",
        "chromium-headless-shell",
        HEADLESS_SHELL,
        "browser tests",
    ),
    (
        "openssl",
        "openssl",
        "/usr/bin/openssl",
        "the password file of the test behind an auth proxy",
    ),
    (
        "nginx",
        "nginx",
        "/usr/sbin/nginx",
        "the tests behind nginx",
    ),
    (
        "redis-server",
        "redis-server",
        "/usr/bin/redis-server",
        "the tests of gateways sharing Redis",
    ),
    (
        "postgresql",
        "pg_ctlcluster",
        "/usr/bin/pg_ctlcluster",
        "the tests of the library in PostgreSQL",
    ),
];

/// The packages of [`TEST_PACKAGES`] to install: those whose program is
/// found neither on PATH nor where Debian puts it (`found`), and both of
/// Chromium's when the browser and its driver differ (`chromium_matches`).
fn missing_packages(
    found: impl Fn(&str, &str) -> bool,
    chromium_matches: bool,
) -> Vec<&'static str> {
    TEST_PACKAGES
        .iter()
        .filter(|(package, program, debian, _)| {
            !found(program, debian) || (package.starts_with("chromium") && !chromium_matches)
        })
        .map(|(package, ..)| *package)
        .collect()
}

/// Every Debian package the tests run, installed at once when any is
/// missing: one `apt-get update` and one `apt-get install` on a new
/// machine, instead of one of each per package.
pub fn ensure_test_packages() -> Result<()> {
    let found = |program: &str, debian: &str| {
        find_on_path(program).is_some() || PathBuf::from(debian).is_file()
    };
    let missing = missing_packages(found, chromium_major().is_some());
    if missing.is_empty() {
        println!("ok: the Debian packages the tests run are there");
        return Ok(());
    }
    let purposes: Vec<&str> = TEST_PACKAGES
        .iter()
        .filter(|(package, ..)| missing.contains(package))
        .map(|(.., purpose)| *purpose)
        .collect();
    apt_install(&missing, &purposes.join(", "))
}

fn is_root() -> bool {
    first_line("id", &["-u"]).as_deref() == Some("0")
}

/// Install Debian packages, as root or through password-less sudo.
fn apt_install(packages: &[&str], purpose: &str) -> Result<()> {
    let list = packages.join(" ");
    let by_hand = format!("install by hand, then run the command again: `sudo apt-get install -y {list}` on Debian or Ubuntu, or your system's packages for {list}");
    if find_on_path("apt-get").is_none() {
        bail!("{purpose} needs {list}, and this machine has no apt-get: {by_hand}");
    }
    let sudo = if is_root() {
        false
    } else if command("sudo")
        .args(["-n", "true"])
        .output()
        .is_ok_and(|o| o.status.success())
    {
        true
    } else {
        bail!("{purpose} needs {list}, and installing it needs root: {by_hand}");
    };
    let apt = |args: &[&str]| {
        let mut apt = if sudo {
            command("sudo")
        } else {
            command("apt-get")
        };
        if sudo {
            apt.arg("apt-get");
        }
        apt.args(args).env("DEBIAN_FRONTEND", "noninteractive");
        cmd::run(&mut apt)
    };
    apt(&["update", "-q"])?;
    let mut install = vec!["install", "-y", "-q", "--no-install-recommends"];
    install.extend_from_slice(packages);
    apt(&install).with_context(|| by_hand.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_missing_packages_are_asked_for_together() {
        let none = |_: &str, _: &str| false;
        assert_eq!(
            missing_packages(none, false),
            [
                "chromium",
                "chromium-driver",
                "chromium-headless-shell",
                "openssl",
                "nginx",
                "redis-server",
                "postgresql"
            ]
        );
        let all = |_: &str, _: &str| true;
        assert!(missing_packages(all, true).is_empty());
        assert_eq!(
            missing_packages(all, false),
            CHROMIUM_PACKAGES,
            "a browser and a driver that differ are installed again together"
        );
        let no_redis = |program: &str, _: &str| program != "redis-server";
        assert_eq!(missing_packages(no_redis, true), ["redis-server"]);
    }

    #[test]
    fn the_browser_tests_runner_starts_the_headless_shell_xtask_installs() {
        let file = project::root().join("webdriver.json");
        let capabilities: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(
            capabilities["goog:chromeOptions"]["binary"],
            HEADLESS_SHELL,
            "{}",
            file.display()
        );
        assert!(TEST_PACKAGES.iter().any(|(package, _, debian, _)| *package
            == "chromium-headless-shell"
            && *debian == HEADLESS_SHELL));
    }

    #[test]
    fn reads_the_version_out_of_each_tools_banner() {
        assert_eq!(version_word("trunk 0.21.14"), Some("0.21.14"));
        assert_eq!(version_word("wasm-bindgen 0.2.130"), Some("0.2.130"));
        assert_eq!(version_word("wasm-opt version 108"), Some("108"));
        assert_eq!(
            version_word("Chromium 156.0.8078.79 built on Debian GNU/Linux 12 (bookworm)"),
            Some("156.0.8078.79")
        );
        assert_eq!(
            version_word("ChromeDriver 156.0.8078.79 (a21ce95c)"),
            Some("156.0.8078.79")
        );
        assert_eq!(version_word("no version here"), None);
    }

    #[test]
    fn cargo_tools_go_to_a_folder_of_their_own_built_quickly() {
        let install = cargo_install("trunk", TRUNK_VERSION, true);
        let args: Vec<String> = install
            .get_args()
            .map(|arg| arg.to_string_lossy().into_owned())
            .collect();
        let root = cmd::cargo_tool_root("trunk", TRUNK_VERSION);
        assert_eq!(
            args,
            [
                "install",
                "trunk",
                "--version",
                "=0.21.14",
                "--root",
                &root.to_string_lossy(),
                "--locked"
            ]
        );
        // Never over a person's own copy: no --force, not cargo's bin folder.
        assert!(!root.starts_with(cmd::cargo_bin_dir()));
        assert!(root.ends_with("media-gen/tools/trunk-0.21.14"), "{root:?}");
        let mut envs: Vec<(String, String)> = install
            .get_envs()
            .filter_map(|(name, value)| {
                let (name, value) = (name.to_string_lossy(), value?.to_string_lossy());
                Some((name.into_owned(), value.into_owned()))
            })
            .filter(|(name, _)| name.starts_with("CARGO_PROFILE"))
            .collect();
        envs.sort();
        let expected = [
            ("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16"),
            ("CARGO_PROFILE_RELEASE_LTO", "off"),
            ("CARGO_PROFILE_RELEASE_OPT_LEVEL", "1"),
        ];
        assert_eq!(
            envs,
            expected.map(|(name, value)| (name.to_owned(), value.to_owned()))
        );
        // And the folder comes first on the PATH the project's commands get.
        assert!(cmd::tool_dirs().contains(&root.join("bin")));
    }

    #[test]
    fn major_versions_compare_numerically() {
        assert_eq!(major("156.0.8078.79"), Some(156));
        assert_eq!(major("108"), Some(108));
        assert!(major("116").unwrap() < WASM_OPT);
        assert_eq!(major("x.1"), None);
    }
}
