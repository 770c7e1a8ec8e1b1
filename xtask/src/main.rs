//! `cargo xtask`: the project's commands.
//!
//! - `start`: install missing tools, build the app, serve it with the sandbox.
//! - `test`: install missing tools, then lint and run every test suite.
//! - `bench`: release builds, then the benchmark table and the package size.
//! - `npm`: the widgets package, packed for npm.
//! - `fuzz`: arbitrary input to decoding, validation and the sandbox, for a fixed time.

mod bench;
mod cmd;
mod dist;
mod fuzz;
mod layers;
mod libtest;
mod npm;
mod phases;
mod project;
mod sandbox;
mod start;
mod test;
mod tools;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  start [--port N] [--token T]   install missing tools, build the app in release mode,
                                 and serve it with the sandbox (default 127.0.0.1:8080)
  test                           install missing tools, lint, and run every test suite
  bench [PART...]                build in release mode and print the benchmark table
                                 (also written to target/bench.json); PART: sizes, load,
                                 board, polling, throughput (all by default)
  npm                            build the widgets package and pack it (target/npm/*.tgz)
  fuzz [--seconds N]             property tests with arbitrary input, round after round
                                 for N seconds (default 60)
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("start") => start::run(&args[1..]),
        Some("test") => test::run(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
        Some("npm") => npm::run(&args[1..]),
        Some("fuzz") => fuzz::run(&args[1..]),
        Some("help" | "--help" | "-h") => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Some(other) => Err(anyhow::anyhow!("unknown command `{other}`\n\n{USAGE}")),
        None => Err(anyhow::anyhow!("no command given\n\n{USAGE}")),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("\nxtask: {error:#}");
            ExitCode::FAILURE
        }
    }
}
