//! Every part of the benchmark once, at its smallest size, in `cargo xtask
//! test`: a part that no longer runs (a renamed page, a gateway flag that
//! changed, a cap it now meets) is caught the day it breaks rather than at
//! the next `cargo xtask bench`, weeks later. Its figures are not looked
//! at: few samples, debug builds.
//!
//! It runs the benchmark's program the test build made (`target/debug`,
//! built for its command line's test, beside the sandbox and gateway it
//! starts), so no release build of the benchmark is needed; two lanes at
//! once, as the parts mostly wait on servers, browsers and sleeps.

use std::ffi::OsString;
use std::path::Path;
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};

use crate::bench_parts::PARTS;
use crate::cmd::command;
use crate::deadline;
use crate::phases::{Lane, Phases};

/// The parts in each lane, each lane's in this order: the browser's parts
/// spread over both (Chromium's start is most of their time), so the lanes
/// end together (measured on 2 shared cores: about 12 s and 13 s; the
/// parts one after another, 25 s). A part named in neither (a new one)
/// runs in the second.
const LANES: [&[&str]; 2] = [
    &["library", "load", "board", "kept", "polling"],
    &[
        "uploads",
        "sharing",
        "batch",
        "sizes",
        "relay",
        "gateway",
        "throughput",
        "sign_ins",
    ],
];

/// How long one part may run at its smallest size before it is stopped
/// as hung: each takes under 4 s on 2 cores.
const PART_LIMIT: Duration = Duration::from_secs(3 * 60);

/// How the parts went.
pub struct Outcome {
    /// Parts that ran to their end.
    pub passed: u32,
    /// Parts that failed, each with why.
    pub failures: Vec<String>,
    /// The phase's wall time.
    pub took: Duration,
}

/// Run every part of the benchmark at its smallest size as the phase
/// `name` of `phases`, with `env` (the browser's and servers' programs,
/// the scratch folder), two lanes at once.
pub fn run(phases: &mut Phases, name: &str, env: &[(&str, OsString)]) -> Outcome {
    let program = crate::sandbox::binary("debug", "media-gen-bench");
    let started = Instant::now();
    let [first, second] = lanes();
    let ran = first.len() + second.len();
    // Both lanes' failures, each a part's.
    let failures = Mutex::new(Vec::new());
    let run_lane = |parts: Vec<&'static str>| {
        let (program, failures) = (program.clone(), &failures);
        move |lane: &mut Lane| -> Result<()> {
            let mut failed = 0;
            for part in parts {
                // Every part runs, whichever failed before it.
                if let Err(error) = lane.run(part, || run_part(&program, part, env)) {
                    failed += 1;
                    if let Ok(mut failures) = failures.lock() {
                        failures.push(format!("{error:#}"));
                    }
                }
            }
            if failed > 0 {
                bail!("{failed} bench parts failed");
            }
            Ok(())
        }
    };
    // Each part's failure is in `failures`; a lane that failed otherwise
    // (it panicked, say) is one too, so the run cannot pass without it.
    let (one, two) = phases.run_lanes(name, run_lane(first), run_lane(second));
    let mut failures = failures.into_inner().unwrap_or_default();
    if failures.is_empty() {
        failures.extend(
            [one, two]
                .into_iter()
                .filter_map(Result::err)
                .map(|error| format!("a bench lane failed: {error:#}")),
        );
    }
    Outcome {
        passed: u32::try_from(ran.saturating_sub(failures.len())).unwrap_or(u32::MAX),
        failures,
        took: started.elapsed(),
    }
}

/// The parts of [`PARTS`] for each lane, as [`LANES`] places them.
fn lanes() -> [Vec<&'static str>; 2] {
    let mut lanes = [Vec::new(), Vec::new()];
    for (index, lane) in LANES.iter().enumerate() {
        lanes[index].extend(lane.iter().filter(|part| PARTS.contains(part)));
    }
    lanes[1].extend(
        PARTS
            .iter()
            .filter(|part| !LANES.iter().any(|lane| lane.contains(part))),
    );
    lanes
}

/// Run `media-gen-bench --smoke PART` at `program` with `env`; print what
/// it printed as one block when it ends (the other lane's parts print
/// too). An error names the part and says why it failed.
fn run_part(program: &Path, part: &str, env: &[(&str, OsString)]) -> Result<()> {
    if !program.is_file() {
        bail!(
            "bench part `{part}`: {} is missing (the test build makes it)",
            program.display()
        );
    }
    let mut run: Command = command(&program.to_string_lossy());
    run.args(["--smoke", part]);
    for (name, value) in env {
        run.env(name, value);
    }
    let ended = match deadline::output_within(&mut run, PART_LIMIT) {
        Ok(ended) => ended,
        Err(error) => bail!("bench part `{part}` could not start: {error}"),
    };
    let (stdout, stderr) = (ended.stdout, ended.stderr);
    let Some(status) = ended.status else {
        println!(
            "--- bench part {part} printed:\n{}",
            format!("{stdout}{stderr}").trim_end()
        );
        bail!(
            "bench part `{part}` was stopped after {}: it hung",
            deadline::said(PART_LIMIT)
        );
    };
    if !status.success() {
        // A passing part's figures mean nothing and are not shown; a
        // failing one's output is, as one block.
        println!(
            "--- bench part {part} printed:\n{}",
            format!("{stdout}{stderr}").trim_end()
        );
        bail!(
            "bench part `{part}` failed: {}",
            why_failed(&stderr, &status.to_string())
        );
    }
    Ok(())
}

/// Why a part failed, from what it wrote to stderr: the benchmark's own
/// error (`media-gen-bench: …`), else a panic's message (the end-to-end
/// helpers it uses panic), else its exit `status`.
fn why_failed(stderr: &str, status: &str) -> String {
    let lines: Vec<&str> = stderr.lines().collect();
    if let Some(error) = lines
        .iter()
        .rev()
        .find_map(|line| line.strip_prefix("media-gen-bench: "))
    {
        return error.trim().to_owned();
    }
    if let Some((at, panicked)) = lines
        .iter()
        .enumerate()
        .find_map(|(at, line)| Some((at, &line[line.find("panicked at")?..])))
    {
        let message = lines.get(at + 1).map_or("", |line| line.trim());
        return format!("{} {message}", panicked.trim()).trim().to_owned();
    }
    status.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_runs_once_in_one_lane() {
        let [first, second] = lanes();
        let mut all: Vec<&str> = first.iter().chain(&second).copied().collect();
        all.sort_unstable();
        let mut parts = PARTS.to_vec();
        parts.sort_unstable();
        assert_eq!(all, parts);
    }

    #[test]
    fn a_failure_is_told_by_the_benchmarks_error_else_a_panic_else_the_status() {
        let stderr = "chromedriver: noise\nmedia-gen-bench: stream 32 (from 127.0.0.1): \
                      Connection reset by peer (os error 104)\n";
        assert_eq!(
            why_failed(stderr, "exit status: 1"),
            "stream 32 (from 127.0.0.1): Connection reset by peer (os error 104)"
        );
        let panic = "thread 'main' (4538) panicked at crates/e2e/src/lib.rs:712:9:\n\
                     cannot start nginx: No such file\nnote: run with RUST_BACKTRACE=1\n";
        assert_eq!(
            why_failed(panic, "exit status: 101"),
            "panicked at crates/e2e/src/lib.rs:712:9: cannot start nginx: No such file"
        );
        assert_eq!(why_failed("", "signal: 9 (SIGKILL)"), "signal: 9 (SIGKILL)");
    }
}
