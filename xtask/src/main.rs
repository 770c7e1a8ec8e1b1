//! `cargo xtask`: the project's commands.
//!
//! - `start`: install missing tools, build the app, serve it with the sandbox.
//! - `test`: install missing tools, then lint, run every test suite and
//!   every benchmark part once at its smallest size.
//! - `bench`: release builds, then the benchmark table and the package size.
//! - `npm`: the widgets package, packed for npm.
//! - `fuzz`: arbitrary input to decoding, validation and the sandbox, for a fixed time.

mod bench;
mod bench_smoke;
// The benchmark's part names, from the benchmark's own list.
#[path = "../../crates/bench/src/parts.rs"]
mod bench_parts;
mod cmd;
mod deadline;
mod demo;
mod disk;
mod dist;
mod files;
mod fuzz;
mod layers;
mod libtest;
mod machine;
mod machine_busy;
mod minify;
mod module_cycles;
mod npm;
mod phases;
mod project;
mod run_record;
mod sandbox;
mod scratch;
mod shape;
mod split;
mod stale_builds;
mod stamp;
mod start;
mod styles;
mod test;
mod test_binaries;
mod tools;
mod wasm;
mod yardstick;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `cargo xtask`: the project's commands.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask", bin_name = "cargo xtask")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Install missing tools, build the app in release mode and serve it
    /// through the gateway (http://127.0.0.1:8080/), in front of a sandbox
    /// or of the service at --upstream.
    Start(start::Options),
    /// Install missing tools, lint, and run every test suite.
    Test,
    /// Serve the app with `trunk serve` while developing: rebuilt on every
    /// change, on http://127.0.0.1:8081/, forwarding `/v1` to the gateway
    /// `cargo xtask start` runs on 8080. Builds Trunk first if missing.
    Serve,
    /// Build in release mode and print the benchmark table (also written to
    /// target/bench.json).
    Bench {
        /// Parts to run (all of them when none is named).
        #[arg(value_parser = bench_parts::PARTS)]
        parts: Vec<String>,
    },
    /// Build the widgets package and pack it (target/npm/*.tgz).
    Npm,
    /// Build the app in release mode into dist/ (split into its first
    /// module and chunks, with compressed copies), as the gateway serves it.
    Dist {
        /// One module, without its lazy points, to compare the two.
        #[arg(long)]
        whole: bool,
        /// The app with the service inside, for any static file server
        /// (target/demo/): no gateway, no token, sample results.
        #[arg(long, conflicts_with = "whole")]
        demo: bool,
    },
    /// Property tests with arbitrary input, round after round, for a fixed time.
    Fuzz {
        /// How long to run.
        #[arg(long, default_value_t = 60)]
        seconds: u64,
    },
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Start(options) => start::run(&options),
        Command::Test => test::run(),
        Command::Serve => start::serve(),
        Command::Bench { parts } => bench::run(&parts),
        Command::Npm => npm::run(),
        Command::Dist { whole, demo } => {
            let shape = if whole {
                dist::Shape::Whole
            } else {
                dist::Shape::Split
            };
            let built = tools::ensure_build_tools().and_then(|()| dist::build_app(shape));
            if demo {
                built
                    .and_then(|()| npm::build_package().map(drop))
                    .and_then(|()| demo::assemble())
                    .map(|folder| {
                        println!(
                            "\nThe demo is in {}: serve it with any static file server, \
                             such as `python3 -m http.server 8000 -d {}`, and open \
                             http://localhost:8000/",
                            folder.display(),
                            folder.display()
                        );
                        ExitCode::SUCCESS
                    })
            } else {
                built.map(|()| ExitCode::SUCCESS)
            }
        }
        Command::Fuzz { seconds } => fuzz::run(std::time::Duration::from_secs(seconds)),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("\nxtask: {error:#}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_parts_are_checked_before_anything_is_built() {
        assert!(parse(&["bench", "relay", "sizes"]).is_ok());
        assert!(parse(&["bench", "relays"]).is_err());
    }

    fn parse(args: &[&str]) -> Result<Command, clap::Error> {
        Cli::try_parse_from(std::iter::once("cargo xtask").chain(args.iter().copied()))
            .map(|cli| cli.command)
    }

    #[test]
    fn start_takes_port_and_upstream() {
        let Ok(Command::Start(options)) = parse(&[
            "start",
            "--port",
            "9000",
            "--upstream",
            "https://service.example",
        ]) else {
            panic!("not a start");
        };
        assert_eq!(options.port, Some(9000));
        assert_eq!(options.upstream.as_deref(), Some("https://service.example"));
        let Ok(Command::Start(plain)) = parse(&["start"]) else {
            panic!("not a start");
        };
        assert_eq!((plain.port, plain.upstream), (None, None));
    }

    #[test]
    fn bad_flags_are_explained() {
        let message = |args: &[&str]| parse(args).unwrap_err().to_string();
        assert!(message(&["start", "--port", "eighty"]).contains("--port"));
        assert!(message(&["start", "--token", "t"]).contains("--token"));
        assert!(message(&["bench", "speed"]).contains("speed"));
        assert!(message(&["fuzz", "--seconds", "x"]).contains("--seconds"));
        assert!(message(&["test", "extra"]).contains("extra"));
    }

    #[test]
    fn fuzz_runs_a_minute_unless_told() {
        assert!(matches!(
            parse(&["fuzz"]),
            Ok(Command::Fuzz { seconds: 60 })
        ));
        assert!(matches!(
            parse(&["fuzz", "--seconds", "5"]),
            Ok(Command::Fuzz { seconds: 5 })
        ));
    }

    #[test]
    fn help_lists_every_command() {
        let help = parse(&["--help"]).unwrap_err().to_string();
        for command in ["start", "test", "bench", "npm", "fuzz"] {
            assert!(help.contains(command), "{help}");
        }
    }
}
