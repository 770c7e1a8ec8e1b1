//! `cargo xtask fuzz [--seconds N]`: the property tests that feed arbitrary
//! input to response decoding and request validation (`media-gen-api`) and
//! arbitrary requests to the sandbox, at many more cases than `cargo test`,
//! round after round (fresh random inputs each time) for a fixed time.
//! (cargo-fuzz needs a nightly compiler; these run on stable.)

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::cmd::{self, command};

/// Cases per property per round.
const CASES: u32 = 5_000;

/// The property tests run: (package, test target).
const TARGETS: &[(&str, &str)] = &[
    ("media-gen-api", "properties"),
    ("media-gen-sandbox", "hostile_requests"),
];

fn parse(args: &[String]) -> Result<Duration> {
    match args {
        [] => Ok(Duration::from_secs(60)),
        [flag, seconds] if flag == "--seconds" => {
            let seconds: u64 = seconds
                .parse()
                .with_context(|| format!("--seconds: `{seconds}` is not a number of seconds"))?;
            Ok(Duration::from_secs(seconds))
        }
        _ => bail!("usage: cargo xtask fuzz [--seconds N] (default 60)"),
    }
}

/// Run the command.
pub fn run(args: &[String]) -> Result<ExitCode> {
    let budget = parse(args)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_default_and_flag() {
        assert_eq!(parse(&[]).unwrap(), Duration::from_secs(60));
        let args = ["--seconds".to_owned(), "5".to_owned()];
        assert_eq!(parse(&args).unwrap(), Duration::from_secs(5));
        assert!(parse(&["--seconds".to_owned(), "x".to_owned()]).is_err());
        assert!(parse(&["--fast".to_owned()]).is_err());
    }
}
