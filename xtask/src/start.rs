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
use crate::sandbox::{self, binary};
use crate::tools;

/// The environment variable the gateway reads the service's token from.
const TOKEN_VAR: &str = "MEDIA_GEN_TOKEN";

/// What `start` was asked for.
#[derive(Debug, Default, PartialEq, clap::Args)]
pub struct Options {
    /// The gateway's port on 127.0.0.1.
    #[arg(long, value_name = "N")]
    pub port: Option<u16>,
    /// A real service instead of the sandbox (its token from MEDIA_GEN_TOKEN).
    #[arg(long, value_name = "URL")]
    pub upstream: Option<String>,
    /// Serve the app under this path (`/media/`), as a site that puts it
    /// beside other things does.
    #[arg(long, value_name = "PATH")]
    pub base_path: Option<String>,
    /// Ask for a person, as a gateway on the internet would (`keys`): a key
    /// for "you" is made and printed to sign in with.
    #[arg(long, value_name = "MODE", value_parser = ["open", "keys"])]
    pub access: Option<String>,
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

/// `cargo xtask serve`: `trunk serve` with the project's tools, Trunk
/// built first if missing (the release build does not use it).
pub fn serve() -> Result<ExitCode> {
    tools::ensure_build_tools()?;
    tools::ensure_trunk()?;
    cmd::run(command("trunk").arg("serve"))?;
    Ok(ExitCode::SUCCESS)
}

/// Run the command; returns once the gateway stops (Ctrl+C).
pub fn run(options: &Options) -> Result<ExitCode> {
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
    // `/media/` → `/media`; the root is empty.
    let prefix = options
        .base_path
        .as_deref()
        .unwrap_or_default()
        .trim_matches('/')
        .to_owned();
    let prefix = if prefix.is_empty() {
        prefix
    } else {
        format!("/{prefix}")
    };
    let site = format!("http://127.0.0.1:{port}{prefix}");
    let mut gateway = command(&binary("release", "media-gen-gateway").to_string_lossy());
    gateway.args(["--listen", &format!("127.0.0.1:{port}"), "--static", "dist"]);
    gateway.args(["--base-path", &format!("{prefix}/")]);
    let sign_in_key = match options.access.as_deref() {
        Some("keys") => {
            let data = project::root().join("target").join("start-data");
            let data_dir = data.to_string_lossy().into_owned();
            let program = binary("release", "media-gen-gateway");
            let keys = |args: &[&str]| {
                let mut keys = command(&program.to_string_lossy());
                keys.arg("keys").args(args).args(["--data-dir", &data_dir]);
                keys.output()
            };
            // A fresh key for "you" each start: the last one is not shown again.
            let _ = keys(&["revoke", "you"]);
            let made = keys(&["add", "you"]).context("make a key")?;
            if !made.status.success() {
                bail!(
                    "no key could be made: {}",
                    String::from_utf8_lossy(&made.stderr)
                );
            }
            gateway.args(["--access", "keys", "--data-dir", &data_dir]);
            Some(String::from_utf8_lossy(&made.stdout).trim().to_owned())
        }
        _ => None,
    };
    // Kept alive until the gateway stops; stopped with it.
    let _sandbox = match &options.upstream {
        Some(upstream) => {
            gateway.args(["--upstream", upstream]);
            None
        }
        None => {
            let token = fresh_token()?;
            // It fetches what a submission names, as the service does, so
            // an upload that did not arrive fails its task here too; from
            // loopback as well, where the gateway serves the uploads.
            let sandbox = sandbox::launch(
                &binary("release", "media-gen-sandbox"),
                &[
                    "--private",
                    "--token",
                    &token,
                    "--fetch-inputs",
                    "--fetch-private",
                ],
            )?;
            // The pages may read the sandbox's media (captions) too. The
            // sandbox reaches the gateway on loopback: it relays the
            // callbacks, so the app listens instead of polling.
            gateway
                .args(["--upstream", &sandbox.base_url])
                .args(["--connect-src", &sandbox.base_url])
                .args(["--public-url", &site])
                .env(TOKEN_VAR, token);
            // Files from this computer, kept under target/ and served to
            // the sandbox on loopback (open access: this machine only).
            let uploads = project::root().join("target").join("start-uploads");
            gateway
                .args(["--upload-dir", &uploads.to_string_lossy()])
                .arg("--uploads-open");
            println!(
                "sandbox (the service, on a private port): {}",
                sandbox.base_url
            );
            Some(sandbox)
        }
    };
    println!("Open {site}/ (no token in the page: the gateway adds it). Ctrl+C stops.");
    if let Some(key) = sign_in_key {
        println!("The gateway asks for a person: sign in with the access key {key}");
    }
    cmd::run(&mut gateway)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_fresh_and_hex() {
        let (a, b) = (fresh_token().unwrap(), fresh_token().unwrap());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
