//! `cargo xtask start`: build the app and serve it with the sandbox.

use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use crate::cmd::{self, command};
use crate::dist;
use crate::npm;
use crate::phases::Phases;
use crate::project;
use crate::tools;

/// What `start` was asked for; sandbox defaults apply where unset.
#[derive(Debug, Default, PartialEq)]
struct Options {
    port: Option<u16>,
    tokens: Vec<String>,
}

fn parse(args: &[String]) -> Result<Options> {
    let mut options = Options::default();
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let mut value = || args.next().with_context(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--port" => {
                let port = value()?;
                let port = port
                    .parse()
                    .with_context(|| format!("--port: `{port}` is not a port number"))?;
                options.port = Some(port);
            }
            "--token" => options.tokens.push(value()?.clone()),
            other => {
                bail!("`cargo xtask start`: unknown option `{other}` (known: --port N, --token T)")
            }
        }
    }
    Ok(options)
}

/// Run the command; returns once the sandbox stops (Ctrl+C).
pub fn run(args: &[String]) -> Result<ExitCode> {
    let options = parse(args)?;
    let mut phases = Phases::default();
    phases.run("tools", tools::ensure_build_tools)?;
    phases.run("build the app (release)", dist::build_release_app)?;
    phases.run("widgets example (npm package)", || {
        npm::build_package()?;
        npm::place_example(&project::root().join("dist"))?;
        println!("widgets example: /embed/ on the app's address");
        Ok(())
    })?;
    phases.run("build the sandbox (release)", || {
        cmd::run(command("cargo").args(["build", "--release", "--package", "media-gen-sandbox"]))
    })?;
    println!("\n{}", phases.table());

    // The sandbox prints the app's address and the token once it listens.
    let mut sandbox = command("cargo");
    sandbox.args([
        "run",
        "--quiet",
        "--release",
        "--package",
        "media-gen-sandbox",
        "--",
    ]);
    sandbox.args(["--host", "127.0.0.1", "--static", "dist"]);
    if let Some(port) = options.port {
        sandbox.args(["--port", &port.to_string()]);
    }
    for token in &options.tokens {
        sandbox.args(["--token", token]);
    }
    cmd::run(&mut sandbox)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn no_options_leave_the_sandbox_defaults() {
        assert_eq!(parse(&[]).unwrap(), Options::default());
    }

    #[test]
    fn takes_port_and_tokens() {
        let options = parse(&args(&["--port", "9000", "--token", "a", "--token", "b"])).unwrap();
        assert_eq!(
            options,
            Options {
                port: Some(9000),
                tokens: args(&["a", "b"])
            }
        );
    }

    #[test]
    fn bad_options_are_explained() {
        let message = |list: &[&str]| format!("{:#}", parse(&args(list)).unwrap_err());
        assert!(message(&["--port", "eighty"]).contains("not a port number"));
        assert!(message(&["--port"]).contains("needs a value"));
        assert!(message(&["--verbose"]).contains("unknown option"));
    }
}
