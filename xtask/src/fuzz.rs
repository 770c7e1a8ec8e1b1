//! `cargo xtask fuzz [--seconds N]`: the property tests that feed arbitrary
//! input to response decoding and request validation (`media-gen-api`) and
//! arbitrary requests to the sandbox, at many more cases than `cargo test`,
//! round after round (fresh random inputs each time) for a fixed time.
//! (cargo-fuzz needs a nightly compiler; these run on stable.)

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};

use crate::cmd::{self, command};

/// Cases per property per round.
const CASES: u32 = 5_000;

/// The property tests run: (package, test target).
const TARGETS: &[(&str, &str)] = &[
    ("media-gen-api", "properties"),
    ("media-gen-sandbox", "hostile_requests"),
];

/// Run the command.
pub fn run(budget: Duration) -> Result<ExitCode> {
    let test = |package: &str, target: &str| {
        let mut test = command("cargo");
        test.args(["test", "--release", "--package", package, "--test", target])
            .env("MEDIA_GEN_FUZZ_CASES", CASES.to_string());
        test
    };
    // Build once, outside the timed rounds.
    for (package, target) in TARGETS {
        cmd::run(test(package, target).arg("--no-run"))?;
    }
    let started = Instant::now();
    let mut rounds = 0u32;
    while rounds == 0 || started.elapsed() < budget {
        for (package, target) in TARGETS {
            let (status, output) = cmd::run_capturing(&mut test(package, target))?;
            if !status.success() {
                println!("{output}");
                bail!(
                    "{package}/{target} found a failing input in round {} (above)",
                    rounds + 1
                );
            }
        }
        rounds += 1;
    }
    println!(
        "fuzz: {rounds} rounds in {:.0} s, {CASES} cases per property per round, no failure",
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
