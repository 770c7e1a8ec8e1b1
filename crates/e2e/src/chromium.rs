//! A headless Chromium and the ChromeDriver that started it: one process
//! group, stopped together, with a temporary folder of its own.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use tokio::process::{Child, Command};

use crate::free_port;

/// Chromium switches for a headless run as root on a closed network: no
/// sandbox (root), no GPU, and no background connections that would be refused.
/// The benchmarks read the JS heap: exact figures, and `gc()` before a sample.
/// Nothing a test does not look at: no spare renderer kept warm, no
/// translation, hints, casting, extensions, crash reports or field trials
/// (together a tenth less CPU over the suite). Hidden tabs are still
/// throttled as a person's are.
const CHROME_ARGS: &[&str] = &[
    "--disable-features=Translate,OptimizationHints,MediaRouter,SpareRendererForSitePerProcess",
    "--disable-extensions",
    "--disable-hang-monitor",
    "--disable-breakpad",
    "--disable-field-trial-config",
    "--metrics-recording-only",
    "--password-store=basic",
    "--enable-precise-memory-info",
    "--js-flags=--expose-gc",
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,800",
];

/// A running ChromeDriver with its Chromium; both stopped when this is
/// dropped, and the temporary files they made removed.
pub(crate) struct Chromium {
    driver: Child,
    /// ChromeDriver's and Chromium's `TMPDIR` (the profile, scoped
    /// folders: a stopped driver leaves them behind), `XDG_CONFIG_HOME`
    /// (crash reports) and `XDG_CACHE_HOME` (the profile's cache).
    temporary: tempfile::TempDir,
}

impl Drop for Chromium {
    fn drop(&mut self) {
        // ChromeDriver leads a process group of its own, which the
        // Chromium it started is in: all stopped at once, so none writes
        // to the temporary folder after it is removed (`temporary`, dropped
        // after this).
        let group = self
            .driver
            .id()
            .and_then(|id| rustix::process::Pid::from_raw(id as i32));
        if let Some(group) = group {
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
        }
    }
}

impl Chromium {
    /// Start ChromeDriver (`CHROMEDRIVER`) on a free port and open a
    /// headless Chromium session (`CHROMIUM`, when set, names the browser):
    /// the Chromium and the WebDriver client driving it.
    pub async fn start() -> (Chromium, Client) {
        let program = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".to_owned());
        let port = free_port();
        let temporary = tempfile::Builder::new()
            .prefix("media-gen-browser-")
            .tempdir()
            .expect("make the browser's temporary folder");
        // Chromium makes a Unix socket at
        // `<folder>/.org.chromium.Chromium.XXXXXX/SingletonSocket` and exits
        // at start when that is longer than a socket's 107 bytes.
        let longest = 107 - "/.org.chromium.Chromium.XXXXXX/SingletonSocket".len();
        assert!(
            temporary.path().as_os_str().len() <= longest,
            "the browser's temporary folder {} is too long for Chromium's socket below it \
             (at most {longest} bytes): set TMPDIR to a shorter one, such as /tmp",
            temporary.path().display()
        );
        let driver = Command::new(&program)
            .arg(format!("--port={port}"))
            .env("TMPDIR", temporary.path())
            // Its crash reports too (`chromium/Crash Reports/`), which
            // Debian's Chromium keeps for 30 days in the user's home.
            .env("XDG_CONFIG_HOME", temporary.path())
            // A profile under XDG_CONFIG_HOME keeps its cache at the same
            // place under XDG_CACHE_HOME, `~/.cache` unless set: 28 MB left
            // there per browser, never removed, until this said where.
            .env("XDG_CACHE_HOME", temporary.path())
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start ChromeDriver `{program}`: {error}"));

        let mut options = serde_json::json!({ "args": CHROME_ARGS });
        // The browser to drive (`cargo xtask test` gives Chromium's
        // headless shell); ChromeDriver's own choice when unset.
        if let Ok(binary) = std::env::var("CHROMIUM") {
            options["binary"] = binary.into();
        }
        let capabilities = serde_json::json!({ "goog:chromeOptions": options });
        let serde_json::Value::Object(capabilities) = capabilities else {
            unreachable!("a JSON object literal")
        };
        let webdriver = format!("http://127.0.0.1:{port}");
        let mut last_error = String::new();
        // ChromeDriver needs a moment before it accepts sessions.
        for _ in 0..100 {
            match ClientBuilder::new(HttpConnector::new())
                .capabilities(capabilities.clone())
                .connect(&webdriver)
                .await
            {
                Ok(client) => return (Chromium { driver, temporary }, client),
                // ChromeDriver answered, and Chromium did not start: trying
                // again starts (and crashes) it again, so say why now.
                Err(error @ fantoccini::error::NewSessionError::SessionNotCreated(_)) => {
                    panic!("ChromeDriver {program} could not start Chromium: {error}")
                }
                Err(error) => last_error = error.to_string(),
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("no WebDriver session from {program}: {last_error}");
    }

    /// A watcher that stops this ChromeDriver and its Chromium, and removes
    /// their folder, once this process has ended, however it ended (a
    /// Chromium shared between tests is never dropped): it looks once a
    /// second. Stopped itself when the handle is dropped.
    pub(crate) fn stop_when_this_process_ends(&self) -> tokio::process::Child {
        let group = self.driver.id().expect("ChromeDriver runs");
        let script = format!(
            "while kill -0 {me} 2>/dev/null; do sleep 1; done; kill -KILL -{group}; rm -rf \"$0\"",
            me = std::process::id(),
        );
        Command::new("sh")
            .arg("-c")
            .arg(script)
            .arg(self.temporary.path())
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("start the browser's watcher")
    }

    /// The folder ChromeDriver and Chromium keep their temporary files in.
    pub(crate) fn temporary_dir(&self) -> &Path {
        self.temporary.path()
    }
}
