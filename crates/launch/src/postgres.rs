//! Debian's PostgreSQL for tests and benchmarks: a cluster of its own in
//! a temporary folder, on a free loopback port, trusting local
//! connections, without syncing to disk; stopped and removed when
//! dropped. PostgreSQL refuses to run as root, so as root its programs
//! run as the `postgres` user (`setpriv`, which replaces itself with
//! the program: the child is PostgreSQL itself). Its programs are found in
//! `PG_BIN`, else the newest `/usr/lib/postgresql/*/bin`.

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The superuser the cluster is made with.
const USER: &str = "media";

/// A running PostgreSQL.
#[derive(Debug)]
pub struct Postgres {
    child: Child,
    dir: PathBuf,
    bin: PathBuf,
    port: u16,
}

/// Where Debian's PostgreSQL programs are: `PG_BIN`, else
/// [`installed_bin_dir`].
pub fn bin_dir() -> Option<PathBuf> {
    match std::env::var_os("PG_BIN") {
        Some(dir) => Some(PathBuf::from(dir)),
        None => installed_bin_dir(),
    }
}

/// The newest version's folder of programs under `/usr/lib/postgresql`
/// (where Debian's packages put them), if one is installed.
pub fn installed_bin_dir() -> Option<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            (bin.join("postgres").is_file() && bin.join("initdb").is_file())
                .then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| out.stdout.trim_ascii() == b"0")
}

/// `program` of `bin`, run as `postgres` when this process is root.
fn as_owner(bin: &Path, program: &str) -> Command {
    let path = bin.join(program);
    if is_root() {
        let mut command = Command::new("setpriv");
        command
            .args(["--reuid=postgres", "--regid=postgres", "--init-groups"])
            .arg(path);
        command
    } else {
        Command::new(path)
    }
}

fn free_port() -> io::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

fn checked(command: &mut Command, what: &str) -> io::Result<()> {
    let out = command.stdin(Stdio::null()).output()?;
    if out.status.success() {
        Ok(())
    } else {
        Err(io::Error::other(format!(
            "{what} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )))
    }
}

impl Postgres {
    /// Make a cluster and start it; returns once it takes connections.
    pub fn start() -> io::Result<Postgres> {
        let bin = bin_dir().ok_or_else(|| {
            io::Error::other(
                "PostgreSQL is not installed: `apt-get install postgresql` (cargo xtask test does), or set PG_BIN",
            )
        })?;
        let dir = std::env::temp_dir().join(format!(
            "media-gen-pg-{}-{}",
            std::process::id(),
            free_port()?
        ));
        std::fs::create_dir_all(&dir)?;
        if is_root() {
            checked(
                Command::new("chown").args(["postgres:postgres"]).arg(&dir),
                "chown of PostgreSQL's folder",
            )?;
        }
        let data = dir.join("data");
        checked(
            as_owner(&bin, "initdb")
                .arg("-D")
                .arg(&data)
                .args(["-U", USER, "-A", "trust", "--no-sync", "-E", "UTF8"])
                .args(["--locale=C.UTF-8"]),
            "initdb",
        )?;
        let port = free_port()?;
        let child = as_owner(&bin, "postgres")
            .arg("-D")
            .arg(&data)
            .args(["-p", &port.to_string(), "-k"])
            .arg(&dir)
            .args([
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "fsync=off",
                "-c",
                "synchronous_commit=off",
                "-c",
                "full_page_writes=off",
                "-c",
                "max_connections=200",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        let postgres = Postgres {
            child,
            dir,
            bin,
            port,
        };
        postgres.wait_ready()?;
        Ok(postgres)
    }

    fn wait_ready(&self) -> io::Result<()> {
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            let ready = Command::new(self.bin.join("pg_isready"))
                .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", USER])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|status| status.success());
            if ready {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Err(io::Error::other(
            "PostgreSQL did not take connections within 30 s",
        ))
    }

    /// A new, empty database `name`; its URL.
    pub fn database(&self, name: &str) -> io::Result<String> {
        checked(
            Command::new(self.bin.join("createdb")).args([
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                USER,
                name,
            ]),
            "createdb",
        )?;
        Ok(self.url(name))
    }

    /// The URL of database `name`.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://{USER}@127.0.0.1:{}/{name}", self.port)
    }

    /// `sql` run in database `name` by `psql` (a test's setup).
    pub fn psql(&self, name: &str, sql: &str) -> io::Result<String> {
        let out = Command::new(self.bin.join("psql"))
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", USER])
            .args(["-d", name, "-v", "ON_ERROR_STOP=1", "-At", "-c", sql])
            .stdin(Stdio::null())
            .output()?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).into_owned())
        } else {
            Err(io::Error::other(format!(
                "psql: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )))
        }
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        // SIGQUIT: PostgreSQL's immediate shutdown (its backends go too).
        let _ = Command::new("kill")
            .args(["-QUIT", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
