//! `cargo xtask test`: install what is missing, lint, run every suite, summarise.

use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use anyhow::{bail, Result};

use crate::cmd::{self, command};
use crate::libtest::{self, Counts};
use crate::phases::{seconds, Phases};
use crate::tools::{self, WASM_TARGET};

/// What one suite did.
struct Report {
    name: &'static str,
    counts: Counts,
    took: Duration,
    verdict: Verdict,
}

#[derive(PartialEq)]
enum Verdict {
    Passed,
    Failed(String),
}

/// One test suite: a cargo test command whose `test result:` lines are counted.
struct Suite {
    name: &'static str,
    command: Command,
}

fn suites(chromedriver: &std::path::Path) -> Vec<Suite> {
    let cargo_test = |args: &[&str]| {
        let mut test = command("cargo");
        test.arg("test").args(args);
        test
    };
    let mut browser = cargo_test(&["--package", "media-gen", "--target", WASM_TARGET, "--tests"]);
    browser.env("CHROMEDRIVER", chromedriver);
    vec![
        Suite {
            name: "native",
            command: cargo_test(&["--workspace", "--exclude", "media-gen-sandbox"]),
        },
        Suite {
            name: "sandbox",
            command: cargo_test(&["--package", "media-gen-sandbox"]),
        },
        Suite {
            name: "browser",
            command: browser,
        },
    ]
}

fn lint() -> Result<()> {
    cmd::run(command("cargo").args(["fmt", "--all", "--", "--check"]))?;
    cmd::run(command("cargo").args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))?;
    cmd::run(command("cargo").args([
        "clippy",
        "--package",
        "media-gen",
        "--package",
        "media-gen-api",
        "--target",
        WASM_TARGET,
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))
}

fn run_suite(suite: &mut Suite, phases: &mut Phases) -> Report {
    let started = Instant::now();
    let outcome = phases.run(suite.name, || {
        let (status, output) = cmd::run_capturing(&mut suite.command)?;
        let counts = libtest::counts(&output);
        if !status.success() || counts.failed > 0 {
            bail!("{} failed ({status})", suite.name);
        }
        if counts.passed == 0 {
            bail!("{} ran no test", suite.name);
        }
        Ok(counts)
    });
    let took = started.elapsed();
    match outcome {
        Ok(counts) => Report {
            name: suite.name,
            counts,
            took,
            verdict: Verdict::Passed,
        },
        Err(error) => {
            // Count what the run printed even when it failed, for the summary.
            Report {
                name: suite.name,
                counts: Counts::default(),
                took,
                verdict: Verdict::Failed(format!("{error:#}")),
            }
        }
    }
}

fn summary(lint: &Result<()>, reports: &[Report]) -> String {
    let mut table = String::from("suite      passed  failed  ignored     time  result\n");
    let lint_result = match lint {
        Ok(()) => "ok".to_owned(),
        Err(error) => format!("FAILED: {error:#}"),
    };
    table.push_str(&format!(
        "{:<9} {:>7} {:>7} {:>8} {:>8}  {lint_result}\n",
        "lint", "-", "-", "-", ""
    ));
    for report in reports {
        let result = match &report.verdict {
            Verdict::Passed => "ok".to_owned(),
            Verdict::Failed(why) => format!("FAILED: {why}"),
        };
        table.push_str(&format!(
            "{:<9} {:>7} {:>7} {:>8} {:>8}  {result}\n",
            report.name,
            report.counts.passed,
            report.counts.failed,
            report.counts.ignored,
            seconds(report.took)
        ));
    }
    table
}

/// Run the command; the exit code is non-zero if any check or suite failed.
pub fn run(args: &[String]) -> Result<ExitCode> {
    if let Some(extra) = args.first() {
        bail!("`cargo xtask test` takes no arguments (got `{extra}`)");
    }
    let mut phases = Phases::default();
    phases.run("tools for the app", tools::ensure_build_tools)?;
    let chromedriver = phases.run("tools for browser tests", tools::ensure_browser_test_tools)?;

    let lint = phases.run("lint", lint);
    let mut reports = Vec::new();
    for mut suite in suites(&chromedriver) {
        reports.push(run_suite(&mut suite, &mut phases));
    }

    println!("\nTiming per phase\n{}", phases.table());
    println!("Tests per suite\n{}", summary(&lint, &reports));
    let all_passed = lint.is_ok() && reports.iter().all(|r| r.verdict == Verdict::Passed);
    if all_passed {
        let total: u32 = reports.iter().map(|r| r.counts.passed).sum();
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
