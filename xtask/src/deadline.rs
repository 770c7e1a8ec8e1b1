//! A program run to its end or stopped at a deadline, with everything it
//! started: a suite or a bench part that hangs (a page that never answers,
//! a server that never stops) fails the run with its name after a while,
//! instead of holding it until CI gives up on the whole run.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a program's output is still read once it has ended: what it
/// started in process groups of their own may hold its pipes open (what
/// it wrote itself is read by then).
const DRAIN: Duration = Duration::from_secs(2);

/// How a program run by [`output_within`] ended.
#[derive(Debug)]
pub struct Ended {
    /// Its exit status; `None` when it was stopped at the deadline.
    pub status: Option<ExitStatus>,
    /// What it wrote to stdout.
    pub stdout: String,
    /// What it wrote to stderr.
    pub stderr: String,
}

/// Run `command` in a process group of its own, capturing its output,
/// until it exits or `limit` passes; then stop the whole group (the
/// program and every process it started in it).
pub fn output_within(command: &mut Command, limit: Duration) -> std::io::Result<Ended> {
    command
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn()?;
    let stdout = read_in_background(child.stdout.take());
    let stderr = read_in_background(child.stderr.take());
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if Instant::now() >= deadline {
            let group = rustix::process::Pid::from_raw(child.id() as i32);
            if let Some(group) = group {
                let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
            }
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Ok(Ended {
        status,
        stdout: stdout.drained(),
        stderr: stderr.drained(),
    })
}

/// A pipe read by a thread of its own into `read`; `ended` hears when it
/// closed.
struct Reading {
    read: Arc<Mutex<Vec<u8>>>,
    ended: mpsc::Receiver<()>,
}

impl Reading {
    /// What was read, once the pipe closed or [`DRAIN`] passed.
    fn drained(self) -> String {
        let _ = self.ended.recv_timeout(DRAIN);
        let read = self
            .read
            .lock()
            .map(|read| read.clone())
            .unwrap_or_default();
        String::from_utf8_lossy(&read).into_owned()
    }
}

/// A thread reading `pipe` to its end.
fn read_in_background(mut pipe: Option<impl Read + Send + 'static>) -> Reading {
    let (tell, ended) = mpsc::channel();
    let read = Arc::new(Mutex::new(Vec::new()));
    let into = Arc::clone(&read);
    std::thread::spawn(move || {
        let mut chunk = [0u8; 64 * 1024];
        while let Some(pipe) = pipe.as_mut() {
            match pipe.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if let Ok(mut read) = into.lock() {
                        read.extend_from_slice(&chunk[..n]);
                    }
                }
            }
        }
        let _ = tell.send(());
    });
    Reading { read, ended }
}

/// `limit` as a person says it: `90 s`, `20 min`.
pub fn said(limit: Duration) -> String {
    match limit.as_secs() {
        seconds if seconds >= 60 && seconds % 60 == 0 => format!("{} min", seconds / 60),
        seconds => format!("{seconds} s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_that_ends_in_time_gives_its_status_and_both_outputs() {
        let ended = output_within(
            Command::new("sh").args(["-c", "echo out; echo err >&2; exit 3"]),
            Duration::from_secs(30),
        )
        .unwrap();
        assert_eq!(ended.status.and_then(|status| status.code()), Some(3));
        assert_eq!(ended.stdout, "out\n");
        assert_eq!(ended.stderr, "err\n");
    }

    #[test]
    fn a_program_past_its_deadline_is_stopped_with_what_it_started() {
        let started = Instant::now();
        // The shell and the sleep it starts both hold the pipes: both must
        // stop for the output to end.
        let ended = output_within(
            Command::new("sh").args(["-c", "echo before; sleep 60 & wait"]),
            Duration::from_millis(300),
        )
        .unwrap();
        assert!(ended.status.is_none(), "{ended:?}");
        assert_eq!(ended.stdout, "before\n");
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "stopped at once, not after the sleep: {:?}",
            started.elapsed()
        );
    }

    #[test]
    fn limits_are_said_in_minutes_when_whole() {
        assert_eq!(said(Duration::from_secs(20 * 60)), "20 min");
        assert_eq!(said(Duration::from_secs(90)), "90 s");
    }
}
