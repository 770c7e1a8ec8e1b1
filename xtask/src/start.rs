//! `cargo xtask start`: build the app and serve it as it is deployed: the
//! gateway on 127.0.0.1:8080 serving the app and forwarding the documented
//! calls, with the service's token kept on the server. By default the
//! service is a sandbox on a private loopback port with a token made for
//! this run; with `--upstream URL` it is that service, and the token comes
//! from `MEDIA_GEN_TOKEN`.

use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use crate::cmd::{self, command};
use crate::dist;
use crate::npm;
use crate::phases::Phases;
use crate::project;
use crate::sandbox::{binary, Sandbox};
use crate::tools;

/// The environment variable the gateway reads the service's token from.
const TOKEN_VAR: &str = "MEDIA_GEN_TOKEN";

/// What `start` was asked for.
#[derive(Debug, Default, PartialEq)]
struct Options {
    /// The gateway's port (8080 unless given).
    port: Option<u16>,
    /// A real service instead of the sandbox.
    upstream: Option<String>,
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
            "--upstream" => options.upstream = Some(value()?.clone()),
            other => {
                bail!("`cargo xtask start`: unknown option `{other}` (known: --port N, --upstream URL)")
            }
        }
    }
    Ok(options)
}

/// A token for this run's sandbox, from the system's random source.
fn fresh_token() -> Result<String> {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut random| random.read_exact(&mut bytes))
        .context("read /dev/urandom for a token")?;
    Ok(bytes.iter().map(|byte| format!("{byte:02x}")).collect())
}

/// Run the command; returns once the gateway stops (Ctrl+C).
pub fn run(args: &[String]) -> Result<ExitCode> {
    let options = parse(args)?;
    if options.upstream.is_some() && std::env::var_os(TOKEN_VAR).is_none() {
        bail!("--upstream needs the service's token in {TOKEN_VAR}");
    }
    let mut phases = Phases::default();
    phases.run("tools", tools::ensure_build_tools)?;
    phases.run("build the app (release)", dist::build_release_app)?;
    phases.run("widgets example (npm package)", || {
        npm::build_package()?;
        let dist = project::root().join("dist");
        npm::place_example(&dist)?;
        dist::compress_folder(&dist.join("embed"))?;
        println!("widgets example: /embed/ on the app's address");
        Ok(())
    })?;
    phases.run("build the gateway and the sandbox (release)", || {
        cmd::build_release(&["media-gen-gateway", "media-gen-sandbox"])
    })?;
    println!("\n{}", phases.table());

    let port = options.port.unwrap_or(8080);
    let mut gateway = command(&binary("release", "media-gen-gateway").to_string_lossy());
    gateway.args(["--listen", &format!("127.0.0.1:{port}"), "--static", "dist"]);
    // Kept alive until the gateway stops; stopped with it.
    let _sandbox = match &options.upstream {
        Some(upstream) => {
            gateway.args(["--upstream", upstream]);
            None
        }
        None => {
            let token = fresh_token()?;
            let sandbox = Sandbox::launch(
                &binary("release", "media-gen-sandbox"),
                &["--private", "--token", &token],
            )?;
            // The pages may read the sandbox's media (captions) too.
            gateway
                .args(["--upstream", &sandbox.base_url])
                .args(["--connect-src", &sandbox.base_url])
                .env(TOKEN_VAR, token);
            println!(
                "sandbox (the service, on a private port): {}",
                sandbox.base_url
            );
            Some(sandbox)
        }
    };
    println!(
        "Open http://127.0.0.1:{port}/ (no token in the page: the gateway adds it). Ctrl+C stops."
    );
    cmd::run(&mut gateway)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn no_options_mean_the_sandbox_on_8080() {
        assert_eq!(parse(&[]).unwrap(), Options::default());
    }

    #[test]
    fn takes_port_and_upstream() {
        let options = parse(&args(&[
            "--port",
            "9000",
            "--upstream",
            "https://service.example",
        ]))
        .unwrap();
        assert_eq!(
            options,
            Options {
                port: Some(9000),
                upstream: Some("https://service.example".to_owned())
            }
        );
    }

    #[test]
    fn bad_options_are_explained() {
        let message = |list: &[&str]| format!("{:#}", parse(&args(list)).unwrap_err());
        assert!(message(&["--port", "eighty"]).contains("not a port number"));
        assert!(message(&["--port"]).contains("needs a value"));
        assert!(message(&["--token", "t"]).contains("unknown option"));
    }

    #[test]
    fn tokens_are_fresh_and_hex() {
        let (a, b) = (fresh_token().unwrap(), fresh_token().unwrap());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
