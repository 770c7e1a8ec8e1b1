//! `cargo xtask test`: install what is missing, lint, run every suite, summarise.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::cmd::{self, command};
use crate::deadline;
use crate::disk;
use crate::dist;
use crate::libtest::{self, Counts};
use crate::npm;
use crate::phases::{seconds, Lane, Phases};
use crate::run_record::{self, RunKind};
use crate::sandbox;
use crate::scratch::Scratch;
use crate::stale_builds;
use crate::stamp::{self, Stamp};
use crate::test_binaries::{self, TestBinary};
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
    "crates/samples",
    "crates/test-service",
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
        version("wasm-bindgen"),
        version("wasm-opt"),
        version("node"),
    ]
}

/// The variable that hands the sandbox's address to the browser tests.
const SANDBOX_URL_VAR: &str = "MEDIA_GEN_SANDBOX_URL";

/// One test suite: the test binaries it runs, one after another, and the
/// `test result:` lines they print, counted.
struct Suite {
    name: &'static str,
    /// A command per binary.
    runs: Vec<Command>,
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

impl Report {
    /// A suite that could not run, and why.
    fn not_run(name: &'static str, why: String) -> Report {
        Report {
            name,
            counts: Counts::default(),
            took: Duration::ZERO,
            failure: Some(why),
        }
    }
}

/// What the tests run besides the browser: Debian's nginx, redis-server
/// and PostgreSQL (their S3 server is a library in their own process).
struct Servers {
    nginx: PathBuf,
    redis: PathBuf,
    /// The folder of PostgreSQL's programs.
    postgres: PathBuf,
}

/// How many end-to-end tests run at once: each drives a page of its own,
/// and most of a test's time is spent waiting on the page or the sandbox.
/// Four since the headless shell left a core's third idle at three: the
/// tests' phase 145.1 → 122.7 s, as long as the other lane's suites.
const E2E_THREADS: &str = "--test-threads=4";

/// The package of the end-to-end tests and the sandbox's, run as suites of
/// their own.
const E2E_PACKAGE: &str = "media-gen-e2e";
const SANDBOX_PACKAGE: &str = "media-gen-sandbox";
/// The app's browser tests (`tests/browser/`): one module, one page.
const BROWSER_TESTS: &str = "browser";

/// The workspace's native test binaries and the browser tests' module,
/// built (each once, in one `cargo test --no-run` per target), and what
/// clippy found in the workspace's code as the native ones built.
struct TestBuilds {
    native: Vec<TestBinary>,
    browser: Vec<TestBinary>,
    findings: Vec<String>,
    /// What each build is made of, for the sweep of its folder: the
    /// native build's, then the browser build's.
    made_of: [BuildFiles; 2],
    /// The sandbox whose address the browser tests were built with,
    /// running until they end.
    _sandbox: sandbox::Sandbox,
}

/// A build's folder under `target/`, the files its units are made of,
/// and the workspace's crates among them that a sweep may remove.
struct BuildFiles {
    folder: PathBuf,
    artifacts: Vec<PathBuf>,
    crates: std::collections::HashSet<String>,
}

impl BuildFiles {
    fn of(built: &test_binaries::Built, folder: &str) -> BuildFiles {
        BuildFiles {
            folder: crate::project::target_dir().join(folder),
            artifacts: built.artifacts.clone(),
            crates: stale_builds::swept_crates(built.own_targets.iter().cloned()),
        }
    }

    /// Remove what earlier builds left in the folder (see `stale_builds`).
    fn sweep(&self) {
        let swept = stale_builds::sweep(&self.folder, &self.artifacts, &self.crates);
        println!("{}", swept.describe(&self.folder));
    }
}

/// The release lane: the tools for the app, then the release app and the
/// npm package, each done again only when its inputs changed since it last
/// succeeded. Gives the npm package's scratch folder (the end-to-end
/// tests' pages install it there).
fn release_lane(lane: &mut Lane) -> Result<PathBuf> {
    let root = crate::project::root();
    lane.run("tools for the app", tools::ensure_build_tools)?;
    let app = lane.run("build the app (release)", || {
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
    let package = lane.run("npm package", || {
        let stamp = Stamp::of("npm-package", NPM_INPUTS, &tool_versions())?;
        let scratch = npm::npm_dir(&root).join("scratch");
        stamp::unless_current(&stamp, &scratch.join("vite-default/dist"), || {
            npm::install_and_check_types(&npm::build_package()?).map(drop)
        })?;
        Ok(scratch)
    });
    match (app, package) {
        (Ok(()), Ok(scratch)) => {
            // The demo: the two above put together, in a moment.
            lane.run("the demo", || crate::demo::assemble().map(drop))?;
            Ok(scratch)
        }
        (Err(error), _) => Err(error.context("the release build failed")),
        (_, Err(error)) => Err(error.context("the npm package failed")),
    }
}

/// The test lane: the lint, the native test build, the browser tests'
/// sandbox (the test build's program) and the browser test build. Gives
/// the lint's outcome and what the builds made; a failed build is
/// reported with the suites, not a reason to stop.
fn test_lane(lane: &mut Lane) -> Result<(Result<()>, Result<TestBuilds>)> {
    let lint = lane.run("lint", lint);
    let built = lane
        .run("build the tests + lint", build_native_tests)
        .and_then(|native| {
            // Short tasks and quick callback retries, so lifecycle tests
            // take moments.
            let sandbox = lane.run("sandbox for browser tests", || {
                sandbox::launch(
                    &sandbox::binary("debug", "media-gen-sandbox"),
                    &[
                        "--task-ms",
                        "300",
                        "--task-spread",
                        "0.2",
                        "--callback-retry-ms",
                        "20",
                    ],
                )
                .inspect(|sandbox| println!("sandbox for the browser tests: {}", sandbox.base_url))
            })?;
            let browser = lane.run("build the browser tests + lint", || {
                build_browser_tests(&sandbox.base_url)
            })?;
            Ok(TestBuilds {
                made_of: [
                    BuildFiles::of(&native, "debug"),
                    BuildFiles::of(&browser, &format!("{WASM_TARGET}/debug")),
                ],
                native: native.binaries,
                browser: browser.binaries,
                findings: native
                    .findings
                    .into_iter()
                    .chain(browser.findings)
                    .collect(),
                _sandbox: sandbox,
            })
        });
    Ok((lint, built))
}

/// Build every native test binary the suites run. The build is also the
/// lint's native check: clippy's driver compiles the workspace's crates,
/// so they are not checked once and compiled again (the dependencies,
/// checked and then built, were most of a fresh lint). The benchmark's
/// program is among them: its command line's test makes cargo build it
/// (the bench smoke phase runs it, with no release build of its own), as
/// the sandbox's tests make it build the sandbox the browser tests use
/// (each with the workspace's features: a build of one package alone
/// would compile its dependencies again with its own, and this build
/// again after it).
fn build_native_tests() -> Result<test_binaries::Built> {
    test_binaries::build(&["test", "--no-run", "--workspace", "--all-targets"], &[])
}

/// Build the browser tests' module, and with it lint every crate that runs
/// in the browser. The browser tests read the sandbox's address at compile
/// time (they cannot read the environment).
fn build_browser_tests(sandbox_url: &str) -> Result<test_binaries::Built> {
    // Every crate that runs in the browser, each target, with the
    // widgets' file controls on (their other build leaves code out and adds
    // none): the same build that makes the browser tests' module.
    let mut wasm = test_binaries::build(
        &[
            "test",
            "--no-run",
            "--target",
            WASM_TARGET,
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
            "--features",
            "media-gen-widgets/uploads",
        ],
        &[(SANDBOX_URL_VAR, sandbox_url)],
    )?;
    wasm.binaries
        .retain(|binary| binary.package == "media-gen" && binary.target == BROWSER_TESTS);
    Ok(wasm)
}

fn suites(built: &TestBuilds, browsers: &tools::BrowserTools, servers: &Servers) -> Vec<Suite> {
    // Commands for the native binaries of the packages `of` picks, with `args`.
    let runs = |of: &dyn Fn(&str) -> bool, args: &[&str]| -> Vec<Command> {
        built
            .native
            .iter()
            .filter(|binary| of(&binary.package))
            .map(|binary| binary.command(None, args))
            .collect()
    };
    let native = |package: &str| package != E2E_PACKAGE && package != SANDBOX_PACKAGE;
    // Every test of the end-to-end crate: those `#[ignore]`d for plain
    // `cargo test` (which has neither the release build nor ChromeDriver)
    // and those that need neither.
    let mut e2e = runs(
        &|package| package == E2E_PACKAGE,
        &["--include-ignored", E2E_THREADS],
    );
    for run in &mut e2e {
        run.envs(browsers.env())
            .env("NGINX", &servers.nginx)
            .env("REDIS_SERVER", &servers.redis)
            .env("PG_BIN", &servers.postgres)
            .env(
                "MEDIA_GEN_NPM_SCRATCH",
                npm::npm_dir(&crate::project::root()).join("scratch"),
            );
    }
    // One page runs every browser test, one after another: well over the
    // runner's 20 s default.
    let browser = built
        .browser
        .iter()
        .map(|binary| {
            let mut run = binary.command(Some("wasm-bindgen-test-runner"), &[]);
            run.env("CHROMEDRIVER", &browsers.chromedriver)
                .env("WASM_BINDGEN_TEST_TIMEOUT", "600");
            run
        })
        .collect();
    let suite = |name, runs, needs_release_build| Suite {
        name,
        runs,
        needs_release_build,
    };
    vec![
        suite("e2e", e2e, true),
        suite("browser", browser, false),
        suite(
            "native",
            runs(&native, &[])
                .into_iter()
                .map(|mut run| {
                    run.env("PG_BIN", &servers.postgres);
                    run
                })
                .collect(),
            false,
        ),
        suite(
            "sandbox",
            runs(&|package| package == SANDBOX_PACKAGE, &[]),
            false,
        ),
        // The size ceilings of the release app and the npm package (ignored
        // in plain `cargo test`).
        suite("sizes", runs(&native, &["--ignored", "sizes::"]), true),
    ]
}

fn lint() -> Result<()> {
    cmd::run(command("cargo").args(["fmt", "--all", "--", "--check"]))?;
    // The workspace's code, native and for the browser, is linted as its
    // tests build (see `build_native_tests` and `build_browser_tests`), all
    // but xtask's own program, which is running.
    cmd::run(command("cargo").args([
        "clippy",
        "--package",
        "xtask",
        "--bins",
        "--",
        "-D",
        "warnings",
    ]))?;
    crate::layers::check()?;
    crate::styles::check()
}

/// Run `suite`'s binaries one after another, each to its end (a run
/// reports all its failures at once); print what they printed as one block
/// when the suite ends, so suites running side by side do not mix lines.
fn run_suite(suite: &mut Suite) -> Report {
    println!("\n--> {} started", suite.name);
    let (report, printed) = run_suite_quietly(suite, SUITE_LIMIT);
    let outcome = if report.failure.is_none() {
        "done"
    } else {
        "FAILED"
    };
    // The copy was counted; a closed terminal loses only the echo.
    let _ = writeln!(
        std::io::stdout().lock(),
        "\n==> {}\n{printed}<== {}: {outcome} in {}",
        suite.name,
        suite.name,
        seconds(report.took)
    );
    report
}

/// Run `suite`'s binaries, each stopped as hung after `limit`: its report,
/// and what they printed.
fn run_suite_quietly(suite: &mut Suite, limit: Duration) -> (Report, String) {
    let started = Instant::now();
    let mut counts = Counts::default();
    let mut printed = String::new();
    let mut failures = Vec::new();
    for run in &mut suite.runs {
        let program = run.get_program().to_string_lossy().into_owned();
        match deadline::output_within(run, limit) {
            Ok(ended) => {
                let these = libtest::counts(&ended.stdout);
                match ended.status {
                    None => failures.push(format!(
                        "{program} was stopped after {}: it hung",
                        deadline::said(limit)
                    )),
                    Some(status) if !status.success() || these.failed > 0 => {
                        failures.push(format!("{program} ({status})"))
                    }
                    Some(_) => {}
                }
                counts += these;
                printed.push_str(&ended.stdout);
                printed.push_str(&ended.stderr);
            }
            Err(error) => failures.push(format!("could not run {program}: {error}")),
        }
    }
    let failure = if !failures.is_empty() {
        Some(format!("{} failed: {}", suite.name, failures.join(", ")))
    } else if counts.passed == 0 {
        Some(format!("{} ran no test", suite.name))
    } else {
        None
    };
    let report = Report {
        name: suite.name,
        counts,
        took: started.elapsed(),
        failure,
    };
    (report, printed)
}

/// How long one test binary may run before it is stopped as hung: the
/// longest, the end-to-end suite, takes about two minutes on 2 cores.
const SUITE_LIMIT: Duration = Duration::from_secs(20 * 60);

/// The suites that run side by side: the end-to-end suite (browsers,
/// servers, mostly waiting on pages) beside all the others in turn.
const LANES: [&[&str]; 2] = [&["e2e"], &["browser", "native", "sandbox", "sizes"]];

/// Run every suite, the lanes of [`LANES`] at once; reports in the order
/// `suites` gives.
fn run_suites(suites: Vec<Suite>) -> Vec<Report> {
    let names: Vec<&'static str> = suites.iter().map(|suite| suite.name).collect();
    let mut lanes: Vec<Vec<Suite>> = LANES.iter().map(|_| Vec::new()).collect();
    for suite in suites {
        let lane = LANES
            .iter()
            .position(|lane| lane.contains(&suite.name))
            .unwrap_or(LANES.len() - 1);
        lanes[lane].push(suite);
    }
    let mut reports: Vec<Report> = std::thread::scope(|scope| {
        let running: Vec<_> = lanes
            .into_iter()
            .map(|lane| {
                scope.spawn(move || {
                    lane.into_iter()
                        .map(|mut suite| run_suite(&mut suite))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        running
            .into_iter()
            .flat_map(|lane| lane.join().unwrap_or_default())
            .collect()
    });
    reports.sort_by_key(|report| names.iter().position(|name| *name == report.name));
    reports
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

/// Every part of the benchmark once at its smallest size, as a phase of
/// its own (see `bench_smoke.rs`), with the browser and the servers the
/// suites have and in their scratch folder; its report as a suite's, each
/// part counted as one test. The parts that load the app need its release
/// build (`dist/`, the npm package's pages).
fn bench_parts(
    phases: &mut Phases,
    release_build: &Result<PathBuf>,
    browsers: &tools::BrowserTools,
    servers: &Servers,
    scratch: &Scratch,
) -> Report {
    const NAME: &str = "bench";
    if let Err(error) = release_build {
        return Report::not_run(NAME, format!("not run: {error:#}"));
    }
    let mut env: Vec<(&str, std::ffi::OsString)> = browsers
        .env()
        .map(|(name, path)| (name, path.as_os_str().to_owned()))
        .into();
    env.extend([
        ("NGINX", servers.nginx.clone().into()),
        ("REDIS_SERVER", servers.redis.clone().into()),
        ("PG_BIN", servers.postgres.clone().into()),
    ]);
    env.extend(
        scratch
            .env()
            .map(|(name, folder)| (name, folder.as_os_str().to_owned())),
    );
    let outcome = crate::bench_smoke::run(phases, "bench smoke (two lanes at once)", &env);
    let failed = outcome.failures.len();
    Report {
        name: NAME,
        counts: Counts {
            passed: outcome.passed,
            failed: u32::try_from(failed).unwrap_or(u32::MAX),
            ignored: 0,
        },
        took: outcome.took,
        failure: (failed > 0).then(|| format!("{NAME} failed: {}", outcome.failures.join("; "))),
    }
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
    // Before the lanes: each lane needs one of them, and only one program
    // may install Debian's packages at a time.
    phases.run("Debian's packages", tools::ensure_test_packages)?;
    phases.run("the wasm32 target", tools::ensure_wasm_target)?;
    // The app's release build and npm package (mostly single-threaded
    // links and wasm-opt) beside the lint and the test builds, which use
    // every core they get: different build folders, so neither waits for
    // the other's lock.
    let (release_build, test_side) =
        phases.run_lanes("builds (two lanes at once)", release_lane, test_lane);
    let (lint, built) = test_side?;
    let browsers = phases.run("tools for browser tests", tools::ensure_browser_test_tools)?;
    let nginx = phases.run("nginx for the deployment test", tools::ensure_nginx)?;
    let redis = phases.run("redis for the shared relay's test", tools::ensure_redis)?;
    let postgres = phases.run("PostgreSQL for the library's tests", tools::ensure_postgres)?;
    let servers = Servers {
        nginx,
        redis,
        postgres,
    };
    let lint = match &built {
        Ok(built) if !built.findings.is_empty() => lint.and(Err(anyhow::anyhow!(
            "clippy found {} problems in the test builds (printed above them)",
            built.findings.len()
        ))),
        _ => lint,
    };
    if let Ok(built) = &built {
        // After both lanes: nothing builds in these folders any more.
        phases.run("stale builds removed", || {
            built.made_of.iter().for_each(BuildFiles::sweep);
            Ok(())
        })?;
    }
    let reports = match built {
        Ok(built) => {
            let mut ready = Vec::new();
            let mut reports = Vec::new();
            for mut suite in suites(&built, &browsers, &servers) {
                match &release_build {
                    Err(error) if suite.needs_release_build => {
                        reports.push(Report::not_run(suite.name, format!("not run: {error:#}")))
                    }
                    _ => {
                        for run in &mut suite.runs {
                            run.envs(scratch.env());
                        }
                        ready.push(suite);
                    }
                }
            }
            let mut ran = Vec::new();
            // Each suite's failure is in its report; the phase says one failed.
            let _ = phases.run("tests (two lanes at once)", || {
                ran = run_suites(ready);
                match ran.iter().filter(|report| report.failure.is_some()).count() {
                    0 => Ok(()),
                    failed => anyhow::bail!("{failed} suites failed"),
                }
            });
            reports.extend(ran);
            reports.push(bench_parts(
                &mut phases,
                &release_build,
                &browsers,
                &servers,
                &scratch,
            ));
            reports
        }
        Err(error) => vec![Report::not_run("build", format!("{error:#}"))],
    };

    drop(scratch);
    let all_passed = lint.is_ok() && reports.iter().all(|report| report.failure.is_none());
    if all_passed {
        run_record::save(kind, phases.total(), phases.total_busy());
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
    use super::{run_suite_quietly, Suite, APP_INPUTS, NPM_INPUTS};
    use std::process::Command;
    use std::time::Duration;

    #[test]
    fn a_suite_that_hangs_is_stopped_and_failed_with_what_it_printed_counted() {
        let hung = "echo 'test result: ok. 2 passed; 0 failed; 0 ignored;'; sleep 60";
        let mut suite = Suite {
            name: "hung",
            runs: vec![{
                let mut run = Command::new("sh");
                run.args(["-c", hung]);
                run
            }],
            needs_release_build: false,
        };
        let (report, printed) = run_suite_quietly(&mut suite, Duration::from_millis(300));
        assert!(
            printed.starts_with("test result: ok. 2 passed"),
            "{printed}"
        );
        let failure = report.failure.expect("a hung suite fails");
        assert!(
            failure.contains("sh was stopped after 0 s: it hung"),
            "{failure}"
        );
        assert_eq!(report.counts.passed, 2);
    }

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
