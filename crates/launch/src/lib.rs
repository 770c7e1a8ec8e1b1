//! Starting this workspace's servers as processes: the sandbox and the
//! gateway each print `{name} listening on http://{address}` as their first
//! line once they listen; [`Server::launch`] starts one, waits for that
//! line, and keeps reading its output so it never blocks on a full pipe.
//! Used by `cargo xtask` (the browser tests' sandbox, `start`) and by the
//! benchmarks. The standard library only.

pub mod postgres;

use std::io::{self, BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A running server; killed (and waited for) when dropped.
#[derive(Debug)]
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:<port>`
    pub base_url: String,
}

/// The address in a server's first line, when `line` is that line
/// (`{name} listening on http://127.0.0.1:8080 (upstream: ...)`).
pub fn listening_address(name: &str, line: &str) -> Option<String> {
    let rest = line.strip_prefix(name)?.strip_prefix(" listening on ")?;
    let address = rest.split_whitespace().next()?.trim_end_matches('/');
    address.starts_with("http://").then(|| address.to_owned())
}

impl Server {
    /// Start `program` with `args` and `env` (its logs quiet unless `env`
    /// says otherwise); wait for its first line and read where it listens.
    pub fn launch(program: &Path, args: &[&str], env: &[(&str, &str)]) -> io::Result<Server> {
        let name = program
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut child = Command::new(program)
            .args(args)
            .env("RUST_LOG", "warn")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|error| {
                io::Error::new(
                    error.kind(),
                    format!("cannot start {}: {error}", program.display()),
                )
            })?;
        let Some(stdout) = child.stdout.take() else {
            let _ = child.kill();
            return Err(io::Error::other(format!("{name}: no output to read")));
        };
        let mut lines = BufReader::new(stdout).lines();
        for line in lines.by_ref() {
            if let Some(base_url) = listening_address(&name, &line.unwrap_or_default()) {
                // Keep draining its output so it never blocks on a full pipe.
                std::thread::spawn(move || lines.for_each(drop));
                return Ok(Server { child, base_url });
            }
        }
        let _ = child.kill();
        let _ = child.wait();
        Err(io::Error::other(format!("{name} stopped before listening")))
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The process's resident memory in MiB (Linux; `None` elsewhere).
    pub fn resident_mib(&self) -> Option<f64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        let kib: f64 = status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))?
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kib / 1024.0)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_line_says_where() {
        assert_eq!(
            listening_address(
                "media-gen-gateway",
                "media-gen-gateway listening on http://127.0.0.1:8080 (upstream: none)"
            )
            .as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(
            listening_address(
                "media-gen-sandbox",
                "media-gen-sandbox listening on http://127.0.0.1:4000/"
            )
            .as_deref(),
            Some("http://127.0.0.1:4000")
        );
        assert_eq!(listening_address("media-gen-sandbox", "starting"), None);
        assert_eq!(
            listening_address(
                "media-gen-sandbox",
                "media-gen-gateway listening on http://x"
            ),
            None
        );
    }

    #[test]
    fn a_program_that_never_listens_is_an_error() {
        let error = Server::launch(Path::new("/bin/true"), &[], &[]).unwrap_err();
        assert!(
            error.to_string().contains("stopped before listening"),
            "{error}"
        );
        let error = Server::launch(Path::new("/no/such/program"), &[], &[]).unwrap_err();
        assert!(error.to_string().contains("cannot start"), "{error}");
    }
}
