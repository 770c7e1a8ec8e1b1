//! Helpers for end-to-end tests: the gateway serving the release build of
//! the app in front of the sandbox, and headless Chromium driven through
//! ChromeDriver.
//!
//! The tests need `dist/` (built by `cargo xtask start` or `test`) and ChromeDriver
//! (`CHROMEDRIVER`, else `chromedriver` on PATH); `cargo xtask test` provides
//! both and runs them with `--ignored`.

use std::net::TcpListener as StdListener;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use fantoccini::elements::Element;
use fantoccini::{Client, Locator};
use media_gen_sandbox::Config;
use tokio::process::{Child, Command};

mod chromium;
pub mod s3;
mod shared;
pub mod tus;

/// How long a page may take to show what a test waits for.
pub const PAGE_TIMEOUT: Duration = Duration::from_secs(20);

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/e2e is two folders below the root")
        .to_owned()
}

/// A copy of the release build in a test folder of its own (`what` names
/// it), without the files whose path inside the build `left_out` names;
/// where each left-out file goes in the copy, to put it back.
pub fn build_copy(
    what: &str,
    left_out: impl Fn(&str) -> bool,
) -> (tempfile::TempDir, Vec<PathBuf>) {
    folder_copy(&dist_dir(), what, |_| true, left_out)
}

/// A copy of the folder `from` in a test folder of its own (`what` names
/// it), of the files and folders `wanted` names by their path inside it,
/// without the files `left_out` names; where each left-out file goes in
/// the copy, to put it back.
pub fn folder_copy(
    from: &Path,
    what: &str,
    wanted: impl Fn(&str) -> bool,
    left_out: impl Fn(&str) -> bool,
) -> (tempfile::TempDir, Vec<PathBuf>) {
    let copy = test_folder(what);
    let mut missing = Vec::new();
    let mut folders = vec![from.to_owned()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("read the folder") {
            let path = entry.expect("an entry").path();
            let relative = path.strip_prefix(from).expect("inside the folder");
            let to = copy.path().join(relative);
            if !wanted(&relative.to_string_lossy()) {
                continue;
            } else if path.is_dir() {
                folders.push(path);
            } else if left_out(&relative.to_string_lossy()) {
                missing.push(to);
            } else {
                std::fs::create_dir_all(to.parent().expect("a parent")).expect("make a folder");
                std::fs::copy(&path, &to).expect("copy a file");
            }
        }
    }
    (copy, missing)
}

/// Whether the release build's file `name` is one of the app's chunks (a
/// page's, `split-…`, or code pages share, `chunk-…`, as
/// `xtask/src/split.rs` names them), which no page fetches before its
/// first control.
pub fn is_app_chunk(name: &str) -> bool {
    name.ends_with(".wasm") && (name.starts_with("split-") || name.starts_with("chunk-"))
}

/// The release build of the app, checked to exist.
pub fn dist_dir() -> PathBuf {
    let dist = workspace_root().join("dist");
    assert!(
        dist.join("index.html").is_file(),
        "{} has no built app: run `cargo xtask test` (or `start`), which builds it",
        dist.display()
    );
    dist
}

/// Where screenshots go, for a person to look at after a run.
pub fn screenshot_dir() -> PathBuf {
    workspace_root().join("target").join("e2e-screenshots")
}

fn free_port() -> u16 {
    StdListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .expect("a free loopback port")
}

/// A folder of a test's own in the temporary folder, named for `what`;
/// removed with what it holds when dropped, a failed test's too. (0700: not
/// for a folder nginx's workers read.)
pub fn test_folder(what: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("media-gen-{what}-"))
        .tempdir()
        .expect("make a test's folder")
}

/// The folder `cargo xtask npm` installed the packed widgets into, next to
/// their test page (`MEDIA_GEN_NPM_SCRATCH`, set by `cargo xtask test`).
pub fn npm_scratch_dir() -> PathBuf {
    let dir = std::env::var_os("MEDIA_GEN_NPM_SCRATCH")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target").join("npm").join("scratch"));
    assert!(
        dir.join("node_modules/@media-gen/widgets/index.js")
            .is_file(),
        "{} has no installed package: run `cargo xtask npm` first (`cargo xtask test` does)",
        dir.display()
    );
    dir
}

/// axe-core's browser script, installed next to the packed widgets.
pub fn axe_core_script() -> PathBuf {
    npm_scratch_dir()
        .join("node_modules")
        .join("axe-core")
        .join("axe.min.js")
}

/// The deployment's topology on loopback: the sandbox standing in for the
/// service, with a token only the gateway knows, and the gateway in front
/// serving the pages and forwarding the documented calls. Browsers talk to
/// the gateway; the sandbox's own address serves media and its test
/// endpoints (`/sandbox/stats`, `/sandbox/faults`).
#[derive(Debug, Clone)]
pub struct Site {
    /// The gateway: the address people open.
    pub base_url: String,
    /// The sandbox behind it.
    pub sandbox_url: String,
}

impl Site {
    /// A result or sample file of the sandbox: `image/1K/16x9.png`.
    pub fn media(&self, path: &str) -> String {
        format!("{}/sandbox/media/{path}", self.sandbox_url)
    }
}

/// The gateway's token for the sandbox in these tests.
pub const GATEWAY_TOKEN: &str = "e2e-gateway-only-token";

/// Inject `faults` (the fields of the sandbox's `/sandbox/faults`, such as
/// `{ "http_429": 1.0, "limit": 1 }`) into the sandbox at `sandbox_url`.
pub async fn inject_faults(sandbox_url: &str, faults: &serde_json::Value) {
    let answer = reqwest::Client::new()
        .put(format!("{sandbox_url}/sandbox/faults"))
        .bearer_auth(GATEWAY_TOKEN)
        .json(faults)
        .send()
        .await
        .expect("the sandbox's faults");
    assert!(answer.status().is_success(), "faults: {}", answer.status());
}

/// The callback address the sandbox at `sandbox_url` was given for task
/// `task_id` of `kind` (`image_generate`): what the service calls back. A
/// relaying gateway puts a secret in it that no page sees.
pub async fn callback_url_of(sandbox_url: &str, kind: &str, task_id: &str) -> Option<String> {
    let url = format!("{sandbox_url}/sandbox/tasks/{kind}/{task_id}/callback_url");
    let answer = reqwest::Client::new()
        .get(url)
        .bearer_auth(GATEWAY_TOKEN)
        .send()
        .await
        .expect("ask the sandbox");
    assert_eq!(answer.status(), 200, "the sandbox knows task {task_id}");
    let body: serde_json::Value = answer.json().await.expect("JSON");
    body["data"].as_str().map(str::to_owned)
}

/// A sandbox in this process (tasks of about `task_ms`) that takes only the
/// gateways' token and calls back as the service does; its base URL.
pub async fn start_sandbox(task_ms: u64) -> String {
    media_gen_sandbox::spawn_local(sandbox_config(task_ms))
        .await
        .expect("bind a free loopback port")
}

/// The settings of [`start_sandbox`]'s sandbox, for a test that changes
/// some before starting one.
pub fn sandbox_config(task_ms: u64) -> Config {
    Config {
        tokens: vec![GATEWAY_TOKEN.to_owned()],
        task_ms,
        ..Config::for_tests()
    }
}

/// A sandbox as [`start_sandbox`] that fetches each submission's inputs as
/// the service does (`--fetch-inputs`), from loopback too, where the tests'
/// gateway serves uploads (`--fetch-private`); its base URL.
pub async fn start_fetching_sandbox(task_ms: u64) -> String {
    media_gen_sandbox::spawn_local(Config {
        fetch_inputs: true,
        fetch_private: true,
        ..sandbox_config(task_ms)
    })
    .await
    .expect("bind a free loopback port")
}

/// A gateway as [`start_gateway`] whose settings `configure` changes
/// knowing the gateway's own base URL (its `--public-url`); that URL.
pub async fn start_gateway_at(
    sandbox_url: &str,
    static_dir: Option<PathBuf>,
    configure: impl FnOnce(&mut media_gen_gateway::Settings, &str),
) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a free loopback port");
    let base_url = format!("http://{}", listener.local_addr().expect("an address"));
    start_gateway_on(listener, sandbox_url, static_dir, |settings| {
        configure(settings, &base_url);
    });
    base_url
}

/// A gateway as [`start_gateway`] on `listener` (bound ahead, when another
/// server must know its address first), running until the test ends.
pub fn start_gateway_on(
    listener: tokio::net::TcpListener,
    sandbox_url: &str,
    static_dir: Option<PathBuf>,
    configure: impl FnOnce(&mut media_gen_gateway::Settings),
) {
    let mut settings =
        media_gen_gateway::Settings::for_tests(sandbox_url, GATEWAY_TOKEN, static_dir);
    configure(&mut settings);
    tokio::spawn(async move {
        if let Err(error) =
            media_gen_gateway::serve(listener, &settings, std::future::pending()).await
        {
            eprintln!("the gateway stopped: {error}");
        }
    });
}

/// Start a sandbox (tasks of about `task_ms`) and a gateway in front of it
/// serving `static_dir`; the pages may read the sandbox's address too.
pub async fn start_site_serving(static_dir: PathBuf, task_ms: u64) -> Site {
    start_site_configured(static_dir, task_ms, |_| {}).await
}

/// [`start_site_serving`], with the gateway's settings changed by `configure`
/// (budgets, trusted proxies) before it starts.
pub async fn start_site_configured(
    static_dir: PathBuf,
    task_ms: u64,
    configure: impl FnOnce(&mut media_gen_gateway::Settings),
) -> Site {
    let sandbox_url = start_sandbox(task_ms).await;
    let base_url = start_gateway(&sandbox_url, Some(static_dir), configure).await;
    Site {
        base_url,
        sandbox_url,
    }
}

/// A gateway in front of `sandbox_url` (a sandbox of these tests), serving
/// `static_dir` if given, its settings changed by `configure`; its base URL.
pub async fn start_gateway(
    sandbox_url: &str,
    static_dir: Option<PathBuf>,
    configure: impl FnOnce(&mut media_gen_gateway::Settings),
) -> String {
    let mut settings =
        media_gen_gateway::Settings::for_tests(sandbox_url, GATEWAY_TOKEN, static_dir);
    configure(&mut settings);
    media_gen_gateway::spawn_local(settings)
        .await
        .expect("the gateway serves the folder")
}

/// A sandbox (tasks of about `task_ms`) that calls back, and a gateway in
/// front of it relaying the callbacks (`--public-url` is its own loopback
/// address, a heartbeat every `heartbeat`), serving `static_dir` if given.
pub async fn start_relay_site(
    static_dir: Option<PathBuf>,
    task_ms: u64,
    heartbeat: Duration,
) -> Site {
    let sandbox_url = start_sandbox(task_ms).await;
    let base_url = start_relay_gateway(&sandbox_url, static_dir, None, heartbeat).await;
    Site {
        base_url,
        sandbox_url,
    }
}

/// How a relaying gateway of these tests runs.
#[derive(Debug, Clone)]
pub struct RelayOptions {
    /// The sandbox it forwards to.
    pub sandbox_url: String,
    /// The built app it serves, if any.
    pub static_dir: Option<PathBuf>,
    /// The Redis it shares the relay through (else memory).
    pub redis: Option<String>,
    /// Its `--public-url` (else its own address).
    pub public_url: Option<String>,
    /// Its heartbeat.
    pub heartbeat: Duration,
    /// Its `--trust-callbacks`: announce callbacks without reading.
    pub trust_callbacks: bool,
    /// Its `--base-path` (`/` at the root).
    pub base_path: &'static str,
    /// Its `--access` (with `keys`, the keys are in `redis`).
    pub access: media_gen_gateway::access::AccessMode,
    /// Its `--allow-origin`s: other sites whose pages may call.
    pub allowed_origins: Vec<String>,
    /// How it takes uploads, if it does (the public URL given here is
    /// replaced by the gateway's own).
    pub uploads: Option<media_gen_gateway::uploads::UploadSettings>,
    /// How it keeps results in the uploads' store, if it does.
    pub keep: Option<media_gen_gateway::kept::KeepSettings>,
    /// Where each person's library is kept (`--library`): a PostgreSQL
    /// URL the gateways share; none by default.
    pub library: Option<String>,
    /// Its `--data-dir`: with `keys`, the keys' file and the library's
    /// SQLite file are there.
    pub data_dir: Option<PathBuf>,
}

impl RelayOptions {
    /// A gateway in front of `sandbox_url` as most tests run it: at the
    /// root, open, its relay in memory on its own address, a 15 s
    /// heartbeat, no site, no uploads.
    pub fn new(sandbox_url: &str) -> RelayOptions {
        RelayOptions {
            sandbox_url: sandbox_url.to_owned(),
            static_dir: None,
            redis: None,
            public_url: None,
            heartbeat: Duration::from_secs(15),
            trust_callbacks: false,
            base_path: "/",
            access: media_gen_gateway::access::AccessMode::Open,
            allowed_origins: Vec::new(),
            uploads: None,
            keep: None,
            library: None,
            data_dir: None,
        }
    }
}

/// Whether the gateway at `base_url` answers `/readyz` with success within
/// `within` (asked every 200 ms).
pub async fn ready_within(base_url: &str, within: Duration) -> bool {
    let deadline = tokio::time::Instant::now() + within;
    while tokio::time::Instant::now() < deadline {
        let ready = reqwest::get(format!("{base_url}/readyz")).await;
        if ready.is_ok_and(|answer| answer.status().is_success()) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    false
}

/// A relaying gateway in this process, on its own loopback address; it can
/// be stopped (its connections closed, as a process that ends closes them)
/// and started again on the same address.
pub struct RelayGateway {
    /// `http://127.0.0.1:<port>`.
    pub base_url: String,
    address: std::net::SocketAddr,
    options: RelayOptions,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    serving: Option<tokio::task::JoinHandle<()>>,
}

impl RelayGateway {
    /// Start one with `options` on a free loopback port.
    pub async fn start(options: RelayOptions) -> RelayGateway {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind a free loopback port");
        RelayGateway::start_on(listener, options)
    }

    /// Wait until it says it is ready (`/readyz`: the service and, with
    /// Redis, Redis answer), at most 20 s.
    pub async fn ready(&self) {
        assert!(
            ready_within(&self.base_url, Duration::from_secs(20)).await,
            "{} was not ready within 20 s",
            self.base_url
        );
    }

    /// Start one with `options` on `listener` (bound ahead, when another
    /// server must know the address first).
    pub fn start_on(listener: tokio::net::TcpListener, options: RelayOptions) -> RelayGateway {
        let address = listener.local_addr().expect("a bound listener's address");
        let mut gateway = RelayGateway {
            base_url: format!("http://{address}"),
            address,
            options,
            stop: None,
            serving: None,
        };
        gateway.serve(listener);
        gateway
    }

    fn serve(&mut self, listener: tokio::net::TcpListener) {
        let options = &self.options;
        let mut settings = media_gen_gateway::Settings::for_tests(
            &options.sandbox_url,
            GATEWAY_TOKEN,
            options.static_dir.clone(),
        );
        let public_url = options
            .public_url
            .clone()
            .unwrap_or_else(|| self.base_url.clone());
        let max_connections = settings.connections.max_connections;
        settings.relay = Some(media_gen_gateway::relay::RelaySettings {
            heartbeat: options.heartbeat,
            trust_callbacks: options.trust_callbacks,
            ..media_gen_gateway::relay::RelaySettings::new(public_url.clone(), max_connections)
        });
        settings.redis = options.redis.clone();
        settings.base_path = options.base_path.parse().expect("a base path");
        settings.access = options.access;
        settings.allowed_origins = options.allowed_origins.clone();
        settings.data_dir = options.data_dir.clone();
        if let Some(url) = &options.library {
            settings.library = media_gen_gateway::library::LibraryFlag::At(
                media_gen_gateway::library::LibraryAt::Postgres(url.clone()),
            );
        }
        settings.keep = options.keep.clone();
        settings.uploads =
            options
                .uploads
                .clone()
                .map(|uploads| media_gen_gateway::uploads::UploadSettings {
                    public_url: public_url.clone(),
                    ..uploads
                });
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        self.stop = Some(stop);
        self.serving = Some(tokio::spawn(async move {
            // Only `stop()` stops it: dropping the handle leaves it running.
            let shutdown = async {
                if stopped.await.is_err() {
                    std::future::pending::<()>().await;
                }
            };
            if let Err(error) = media_gen_gateway::serve(listener, &settings, shutdown).await {
                eprintln!("the relaying gateway stopped: {error}");
            }
        }));
    }

    /// Stop it: it takes nothing more, and its open connections (event
    /// streams among them) close after the grace period.
    pub async fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(serving) = self.serving.take() {
            let _ = serving.await;
        }
    }

    /// Start it again on the same address.
    pub async fn restart(&mut self) {
        self.stop().await;
        let listener = tokio::net::TcpListener::bind(self.address)
            .await
            .expect("bind the gateway's address again");
        self.serve(listener);
        // Its Redis connection is made in the background: relayed once made.
        if self.options.redis.is_some() {
            self.ready().await;
        }
    }
}

/// A gateway in front of `sandbox_url` relaying its callbacks, its
/// `--public-url` its own loopback address, its store `redis` when given
/// (else memory), serving `static_dir` if given; its base URL. It runs
/// until the test ends (its handle dropped).
pub async fn start_relay_gateway(
    sandbox_url: &str,
    static_dir: Option<PathBuf>,
    redis: Option<&str>,
    heartbeat: Duration,
) -> String {
    let gateway = RelayGateway::start(RelayOptions {
        static_dir,
        redis: redis.map(str::to_owned),
        heartbeat,
        ..RelayOptions::new(sandbox_url)
    })
    .await;
    if redis.is_some() {
        gateway.ready().await;
    }
    gateway.base_url
}

/// Debian's redis-server (`REDIS_SERVER`, else `redis-server` on PATH) on a
/// free loopback port, keeping nothing on disk; stopped when dropped.
pub struct Redis {
    process: Child,
    port: u16,
    /// Where it keeps its data when it persists it (see [`Redis::start_persisting`]).
    dir: Option<PathBuf>,
    /// `redis://127.0.0.1:<port>/`.
    pub url: String,
}

impl Redis {
    /// Start it on a free port, keeping nothing on disk; waits until it listens.
    pub async fn start() -> Redis {
        Redis::start_on(free_port(), None).await
    }

    /// Start it keeping its data in a folder of its own (an append-only
    /// file), as a deployment's Redis does, so a restart loses nothing.
    pub async fn start_persisting() -> Redis {
        let dir = std::env::temp_dir().join(format!(
            "media-gen-redis-{}-{}",
            std::process::id(),
            free_port()
        ));
        std::fs::create_dir_all(&dir).expect("make redis's folder");
        Redis::start_on(free_port(), Some(dir)).await
    }

    /// Start it on `port`, persisting in `dir` when given.
    pub async fn start_on(port: u16, dir: Option<PathBuf>) -> Redis {
        let program = std::env::var("REDIS_SERVER").unwrap_or_else(|_| "redis-server".to_owned());
        let mut command = Command::new(&program);
        command.args(["--bind", "127.0.0.1", "--port", &port.to_string()]);
        match &dir {
            Some(dir) => command
                .args([
                    "--save",
                    "",
                    "--appendonly",
                    "yes",
                    "--appendfsync",
                    "always",
                    "--dir",
                ])
                .arg(dir),
            None => command.args(["--save", "", "--appendonly", "no"]),
        };
        let process = command
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start redis `{program}`: {error}"));
        let address = format!("127.0.0.1:{port}");
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(&address).await.is_ok() {
                return Redis {
                    process,
                    port,
                    dir,
                    url: format!("redis://{address}/"),
                };
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("redis-server did not listen on {address}");
    }

    /// Send it `signal` (`STOP`: it hangs, connections open; `CONT`: it
    /// goes on).
    pub async fn signal(&self, signal: &str) {
        let pid = self.process.id().expect("redis is running");
        let status = Command::new("kill")
            .args([format!("-{signal}"), pid.to_string()])
            .status()
            .await
            .expect("run kill");
        assert!(status.success(), "kill -{signal} {pid}");
    }

    /// Kill it (its connections drop) and wait until it is gone.
    pub async fn kill(&mut self) {
        self.process.kill().await.expect("kill redis");
    }

    /// Kill it and start it again on the same port (and folder).
    pub async fn restart(&mut self) {
        self.kill().await;
        let again = Redis::start_on(self.port, self.dir.take()).await;
        *self = again;
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// A loopback port nothing listens on now.
pub fn unused_port() -> u16 {
    free_port()
}

/// The release build of the app through a gateway in front of a sandbox.
pub async fn start_site() -> Site {
    start_site_with_task_ms(Config::for_tests().task_ms).await
}

/// A site ([`start_site`]) and a browser on its app page at `path`, whose
/// heading is `title`, connected: where most tests start.
pub async fn session(path: &str, title: &str) -> (Site, Browser) {
    let site = start_site().await;
    let browser = Browser::start().await;
    browser.open_app_page(&site.base_url, path, title).await;
    (site, browser)
}

/// How many tasks the page's device keeps (the board's storage), as a
/// JavaScript expression.
pub const STORED_TASKS: &str =
    "Object.keys(localStorage).filter((key) => key.startsWith('media-gen.task:')).length";

/// [`start_site`] with tasks of about `task_ms` milliseconds.
pub async fn start_site_with_task_ms(task_ms: u64) -> Site {
    start_site_serving(dist_dir(), task_ms).await
}

/// Debian's nginx (`NGINX`, else `/usr/sbin/nginx`) on a free loopback
/// port with one worker, with a server block of the caller's, in a folder
/// of its own; stopped when dropped.
pub struct Nginx {
    process: Child,
    program: String,
    /// Where it listens.
    pub address: std::net::SocketAddr,
    /// Its folder (configuration, temporary files, error log).
    pub dir: PathBuf,
}

impl Drop for Nginx {
    /// Stop the master and, through it, its workers. Killing the master
    /// alone (as dropping the child would) leaves the workers running and
    /// listening, one more for every test and benchmark run. Its folder
    /// goes with it; a failing test prints its error log first.
    fn drop(&mut self) {
        let _ = std::process::Command::new(&self.program)
            .env_remove("NGINX")
            .arg("-p")
            .arg(&self.dir)
            .arg("-c")
            .arg(self.dir.join("nginx.conf"))
            .args(["-s", "stop"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        for _ in 0..100 {
            if !matches!(self.process.try_wait(), Ok(None)) {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        if std::thread::panicking() {
            let log = std::fs::read_to_string(self.dir.join("error.log")).unwrap_or_default();
            eprintln!("nginx's error log:\n{log}");
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Nginx {
    /// Start nginx with the `http` block's contents that `block` writes for
    /// the port it is given; waits until it listens.
    pub async fn start(block: impl FnOnce(u16) -> String) -> Nginx {
        let program = std::env::var("NGINX").unwrap_or_else(|_| "/usr/sbin/nginx".to_owned());
        let port = free_port();
        let dir = std::env::temp_dir().join(format!("media-gen-nginx-{port}"));
        std::fs::create_dir_all(dir.join("temp")).expect("nginx's folder");
        let conf = format!(
            "daemon off;\nworker_processes 1;\npid {dir}/nginx.pid;\nerror_log {dir}/error.log;\n\
             events {{ worker_connections 1024; }}\n\
             http {{\n  access_log off;\n  client_body_temp_path {dir}/temp/body;\n  proxy_temp_path {dir}/temp/proxy;\n  \
             fastcgi_temp_path {dir}/temp/fastcgi;\n  uwsgi_temp_path {dir}/temp/uwsgi;\n  scgi_temp_path {dir}/temp/scgi;\n{block}\n}}\n",
            dir = dir.display(),
            block = block(port),
        );
        let conf_path = dir.join("nginx.conf");
        std::fs::write(&conf_path, conf).expect("write nginx.conf");
        // Workers may run as another user: let them into the temporary folders.
        let _ = Command::new("chmod")
            .args(["-R", "a+rwx"])
            .arg(&dir)
            .status()
            .await;
        let process = Command::new(&program)
            // nginx reads `NGINX` as sockets handed over by an upgrading
            // master: the variable naming its program must not reach it.
            .env_remove("NGINX")
            .arg("-p")
            .arg(&dir)
            .arg("-e")
            .arg(dir.join("error.log"))
            .arg("-c")
            .arg(&conf_path)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start nginx `{program}`: {error}"));
        let address: std::net::SocketAddr =
            format!("127.0.0.1:{port}").parse().expect("an address");
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(address).await.is_ok() {
                return Nginx {
                    process,
                    program,
                    address,
                    dir,
                };
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let log = std::fs::read_to_string(dir.join("error.log")).unwrap_or_default();
        panic!("nginx did not listen on {address}: {log}");
    }
}

/// A Chrome DevTools command sent through ChromeDriver
/// (`POST /session/{id}/goog/cdp/execute`).
#[derive(Debug)]
struct DevToolsCommand {
    cmd: &'static str,
    params: serde_json::Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for DevToolsCommand {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = serde_json::json!({ "cmd": self.cmd, "params": self.params });
        (http::Method::POST, Some(body.to_string()))
    }
}

/// A network a browser's requests go over ([`Browser::emulate_network`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Network {
    /// Added to every request, in milliseconds.
    pub latency_ms: u32,
    /// Bytes a second down and up; `None` as fast as loopback goes.
    pub throughput: Option<(u32, u32)>,
}

impl Network {
    /// Loopback as it is: no latency added, no limit.
    pub const LOOPBACK: Network = Network {
        latency_ms: 0,
        throughput: None,
    };

    /// A slow mobile connection: 1.6 Mbit/s down, 750 kbit/s up, 150 ms
    /// (what Lighthouse calls slow 4G).
    pub const SLOW_4G: Network = Network {
        latency_ms: 150,
        throughput: Some((1_600_000 / 8, 750_000 / 8)),
    };

    /// Loopback with every answer `latency_ms` late.
    pub const fn late(latency_ms: u32) -> Network {
        Network {
            latency_ms,
            throughput: None,
        }
    }

    /// The parameters of `Network.emulateNetworkConditions`.
    fn conditions(self) -> serde_json::Value {
        let (down, up) = self
            .throughput
            .map_or((-1, -1), |(down, up)| (i64::from(down), i64::from(up)));
        serde_json::json!({
            "offline": false,
            "latency": self.latency_ms,
            "downloadThroughput": down,
            "uploadThroughput": up,
        })
    }
}

/// A headless Chromium page for one test. [`Browser::start`] opens it in a
/// browser context of its own (its own cookies, storage and cache, as a
/// fresh profile's) in a Chromium shared with the tests before it:
/// starting a Chromium and its ChromeDriver cost about a second of CPU,
/// most of what a short test spent. [`Browser::start_own`] starts a
/// Chromium for this test alone, stopped when it is dropped.
pub struct Browser {
    /// The WebDriver client.
    pub client: Client,
    kept: Kept,
}

/// Where a [`Browser`]'s page lives.
enum Kept {
    /// A Chromium of its own.
    Own(Box<chromium::Chromium>),
    /// A browser context in a shared Chromium, given back when dropped.
    Shared(Box<shared::Lease>),
}

impl Browser {
    /// A page in a browser context of its own, in a Chromium shared between
    /// tests (started when none is free).
    pub async fn start() -> Browser {
        let lease = shared::Lease::take().await;
        Browser {
            client: lease.client(),
            kept: Kept::Shared(Box::new(lease)),
        }
    }

    /// Start ChromeDriver on a free port and open a headless Chromium of
    /// this test's own: for what looks at the browser's own process or
    /// files, and for measurements that must not share one.
    pub async fn start_own() -> Browser {
        let (chromium, client) = chromium::Chromium::start().await;
        Browser {
            client,
            kept: Kept::Own(Box::new(chromium)),
        }
    }

    /// Open a new tab of this browser (in the test's browser context: the
    /// same cookies and storage as its first tab), not made current.
    pub async fn new_tab(&self) -> fantoccini::wd::WindowHandle {
        match &self.kept {
            Kept::Own(_) => {
                self.client
                    .new_window(true)
                    .await
                    .expect("a new tab")
                    .handle
            }
            Kept::Shared(lease) => lease.new_tab().await,
        }
    }

    /// The folder ChromeDriver and Chromium keep their temporary files in
    /// (removed when this is dropped).
    pub fn temporary_dir(&self) -> &Path {
        match &self.kept {
            Kept::Own(chromium) => chromium.temporary_dir(),
            Kept::Shared(lease) => lease.temporary_dir(),
        }
    }

    /// Open `url` and wait for the page to load.
    pub async fn open(&self, url: &str) {
        self.client.goto(url).await.expect("open the page");
    }

    /// Wait in the page, without a WebDriver round trip per look, until
    /// `expression` (the body of a JavaScript function, `argument` in
    /// scope) returns something truthy, and return it; `None` after
    /// `within`. The page looks every 20 ms on its own timer: a look from
    /// here costs about 11 ms of ChromeDriver's and Chromium's time, and a
    /// suite's waits made at 20 looks a second were most of what its
    /// browsers spent. A page that unloads while it waits (a reload, a
    /// link out) is waited on again once the next has loaded.
    pub async fn wait_in_page(
        &self,
        expression: &str,
        argument: serde_json::Value,
        within: Duration,
    ) -> Option<serde_json::Value> {
        let waiter = format!(
            "const [argument, within] = arguments;\n\
             const done = arguments[arguments.length - 1];\n\
             const look = () => {{ try {{ return (() => {{ {expression} }})(); }} catch (_) {{ return null; }} }};\n\
             const end = Date.now() + within;\n\
             const tick = () => {{\n\
               const value = look();\n\
               if (value || Date.now() >= end) {{ done(value || null); }} else {{ setTimeout(tick, 20); }}\n\
             }};\n\
             tick();"
        );
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            // Under WebDriver's script timeout (30 s by default).
            let slice = left.min(Duration::from_secs(25)).as_millis() as u64;
            let answer = self
                .client
                .execute_async(&waiter, vec![argument.clone(), slice.into()])
                .await;
            match answer {
                Ok(serde_json::Value::Null) | Ok(serde_json::Value::Bool(false)) => {}
                Ok(value) => return Some(value),
                // The document went away under the script: look again in the next.
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
            if tokio::time::Instant::now() >= deadline {
                return None;
            }
        }
    }

    /// Wait until the first element matching `css` has exactly `text`.
    pub async fn wait_for_text(&self, css: &str, text: &str) {
        // Found again on every look: the page may replace the element (a
        // route change), and an old one reads as empty forever. Its text as
        // the page renders it (`innerText`, as WebDriver's element text),
        // white space collapsed on both sides.
        let same = self
            .wait_in_page(
                "const element = document.querySelector(argument[0]);\n\
                 const squash = (text) => text.replace(/\\s+/g, ' ').trim();\n\
                 return element !== null && squash(element.innerText) === squash(argument[1]);",
                serde_json::json!([css, text]),
                PAGE_TIMEOUT,
            )
            .await;
        if same.is_some() {
            return;
        }
        // What WebDriver reads: for the message, and the last word where its
        // reading and the page's differ.
        match self.client.find(Locator::Css(css)).await {
            Ok(element) => {
                let seen = element.text().await.unwrap_or_default();
                if seen.trim() != text {
                    panic!("`{css}` shows {seen:?}, expected {text:?}");
                }
            }
            Err(_) => panic!("no `{css}` on the page"),
        }
    }

    /// Click the first element matching `css`.
    ///
    /// The page may draw the element again between finding and clicking it
    /// (a row whose status just changed): then it is found again, as a
    /// person's click lands on what is on the screen at that moment.
    pub async fn click(&self, css: &str) {
        const REDRAWN_AT_MOST: usize = 5;
        for _ in 0..REDRAWN_AT_MOST {
            match self.find(css).await.click().await {
                Ok(_) => return,
                Err(fantoccini::error::CmdError::Standard(error))
                    if error.error == fantoccini::error::ErrorStatus::StaleElementReference => {}
                Err(error) => panic!("click `{css}`: {error}"),
            }
        }
        panic!("click `{css}`: redrawn {REDRAWN_AT_MOST} times while clicking it");
    }

    /// Wait until an element matches `css`; returns it.
    pub async fn find(&self, css: &str) -> Element {
        // Waited for in the page: WebDriver's own wait looks from here.
        self.wait_in_page(
            "return document.querySelector(argument) !== null;",
            css.into(),
            PAGE_TIMEOUT,
        )
        .await;
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|error| panic!("no `{css}` on the page: {error}"))
    }

    /// Choose the option with `value` in the `<select>` matching `css`, as a
    /// person picks it from the list.
    pub async fn choose(&self, css: &str, value: &str) {
        self.find(css)
            .await
            .select_by_value(value)
            .await
            .unwrap_or_else(|error| panic!("choose {value:?} in `{css}`: {error}"));
    }

    /// Type `text` into the field matching `css`, as keystrokes.
    pub async fn type_into(&self, css: &str, text: &str) {
        let field = self.find(css).await;
        field.clear().await.expect("clear the field");
        field.send_keys(text).await.expect("type");
    }

    /// Wait until `script` (a JavaScript expression) is true in the page.
    pub async fn wait_until(&self, what: &str, script: &str) {
        let expression = format!("return Boolean({script});");
        if self
            .wait_in_page(&expression, serde_json::Value::Null, PAGE_TIMEOUT)
            .await
            .is_none()
        {
            panic!("timed out waiting for {what} ({script})");
        }
    }

    /// The value of a JavaScript expression in the page.
    pub async fn eval(&self, script: &str) -> serde_json::Value {
        self.client
            .execute(&format!("return {script};"), vec![])
            .await
            .unwrap_or_else(|error| panic!("evaluate {script}: {error}"))
    }

    /// The strings of a JavaScript expression's array in the page (none
    /// when it is not an array; what is not a string is left out).
    pub async fn eval_strings(&self, script: &str) -> Vec<String> {
        let value = self.eval(script).await;
        let items = value.as_array().map(Vec::as_slice).unwrap_or_default();
        items
            .iter()
            .filter_map(|item| item.as_str().map(str::to_owned))
            .collect()
    }

    /// Run `script` as the body of an async function and return its value:
    /// `await` works inside, errors fail the test with their message.
    pub async fn run_async(&self, script: &str) -> serde_json::Value {
        let wrapped = format!(
            "const done = arguments[arguments.length - 1];\n\
             (async () => {{ {script} }})().then(done, (error) => done({{ __error: String(error && error.stack || error) }}));"
        );
        let value = self
            .client
            .execute_async(&wrapped, vec![])
            .await
            .unwrap_or_else(|error| panic!("run {script}: {error}"));
        if let Some(error) = value.get("__error") {
            panic!("the page threw: {error}");
        }
        value
    }

    /// The address bar's path and query: `/tasks/image_generate/ig-1`, `/new/image-generate?from=x`.
    pub async fn address(&self) -> String {
        let value = self.eval("location.pathname + location.search").await;
        value.as_str().unwrap_or_default().to_owned()
    }

    /// Wait until the address bar shows `address` (path and query).
    pub async fn wait_for_address(&self, address: &str) {
        let shown = self
            .wait_in_page(
                "return location.pathname + location.search === argument;",
                address.into(),
                PAGE_TIMEOUT,
            )
            .await;
        if shown.is_none() {
            let seen = self.address().await;
            panic!("the address bar shows {seen:?}, expected {address:?}");
        }
    }

    /// Open the app's page at `path` on `base_url`, and wait for its heading
    /// `title` and the header's word that it goes through the site's gateway.
    pub async fn open_app_page(&self, base_url: &str, path: &str, title: &str) {
        self.open(&format!("{base_url}{path}")).await;
        self.wait_for_text("main h1", title).await;
        self.wait_for_text("header .connection", "Through this site")
            .await;
    }

    /// Submit the form on the page once it is valid, and wait for the board
    /// to show the first task with `status`.
    pub async fn submit_and_wait(&self, status: &str) {
        self.submit_form().await;
        self.find(&format!("li.task-row[data-status='{status}']"))
            .await;
    }

    /// Submit the form once it is valid, and wait for the board.
    pub async fn submit_form(&self) {
        self.wait_until(
            "a valid form",
            "!document.querySelector('#submit').disabled",
        )
        .await;
        self.click("#submit").await;
        self.wait_for_text("main h1", "Tasks").await;
    }

    /// axe-core's serious and critical violations on the page as it is now,
    /// its experimental rules too (`label-content-name-mismatch`, WCAG 2.5.3,
    /// is one): "rule (impact): help: elements" each.
    pub async fn accessibility_violations(&self) -> Vec<String> {
        let loaded = self.eval("typeof window.axe === 'object'").await;
        if loaded != serde_json::Value::Bool(true) {
            let source = std::fs::read_to_string(axe_core_script())
                .expect("read axe-core (installed by `cargo xtask npm`)");
            self.client
                .execute(&format!("{source}\nreturn true;"), vec![])
                .await
                .expect("load axe-core into the page");
        }
        let violations = self
            .run_async(
                "const rules = Object.fromEntries(axe.getRules(['experimental']).map((r) => [r.ruleId, { enabled: true }]));\n\
                 const result = await axe.run(document, { rules, resultTypes: ['violations'] });\n\
                 return result.violations\n\
                   .filter((v) => v.impact === 'serious' || v.impact === 'critical')\n\
                   .map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);",
            )
            .await;
        serde_json::from_value(violations).expect("a list of texts")
    }

    /// Fail naming every serious or critical axe-core violation on the page
    /// as it is now (`what` names the page).
    pub async fn check_accessibility(&self, what: &str) {
        let violations = self.accessibility_violations().await;
        assert!(
            violations.is_empty(),
            "axe-core on {what}:\n{}",
            violations.join("\n")
        );
    }

    /// Resize the window to `width` × `height` and wait until the page has
    /// the width (a phone's 360, a desktop's 1280).
    pub async fn resize(&self, width: u32, height: u32) {
        self.client
            .set_window_size(width, height)
            .await
            .expect("resize");
        self.wait_until(
            "the new width",
            &format!("Math.abs(document.documentElement.clientWidth - {width}) < 40"),
        )
        .await;
    }

    /// How far the page is wider than the window, in CSS pixels (0 when it
    /// does not scroll sideways).
    pub async fn sideways_overflow(&self) -> i64 {
        let value = self
            .eval("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            .await;
        value.as_i64().unwrap_or(i64::MAX)
    }

    /// Make every request of this tab go over `network`, as Chrome's
    /// DevTools emulate it.
    pub async fn emulate_network(&self, network: Network) {
        self.devtools("Network.enable", serde_json::json!({})).await;
        self.devtools("Network.emulateNetworkConditions", network.conditions())
            .await;
    }

    /// Send a Chrome DevTools command (`Network.emulateNetworkConditions`,
    /// `Page.addScriptToEvaluateOnNewDocument`, ...); returns its result.
    pub async fn devtools(
        &self,
        cmd: &'static str,
        params: serde_json::Value,
    ) -> serde_json::Value {
        self.client
            .issue_cmd(DevToolsCommand { cmd, params })
            .await
            .unwrap_or_else(|error| panic!("DevTools {cmd}: {error}"))
    }

    /// Run `script` in every document this tab loads from now on, before
    /// the page's own scripts: what a page shows before its app starts can
    /// be recorded there.
    pub async fn before_every_page(&self, script: &str) {
        self.devtools(
            "Page.addScriptToEvaluateOnNewDocument",
            serde_json::json!({ "source": script }),
        )
        .await;
    }

    /// From now on, keep what the page reports as broken: `console.error`
    /// (a Rust panic's message goes there), uncaught errors (a wasm trap is
    /// one) and unhandled rejections. Holds until the next full page load.
    pub async fn watch_for_errors(&self) {
        self.eval(
            "(() => {\n\
               if (window.__pageErrors) return true;\n\
               window.__pageErrors = [];\n\
               const original = console.error.bind(console);\n\
               console.error = (...args) => { window.__pageErrors.push(args.map(String).join(' ')); original(...args); };\n\
               addEventListener('error', (event) => window.__pageErrors.push(`error: ${event.message}`));\n\
               addEventListener('unhandledrejection', (event) => window.__pageErrors.push(`rejection: ${event.reason}`));\n\
               return true;\n\
             })()",
        )
        .await;
    }

    /// The page still works after `what`: no panic banner, and nothing
    /// reported since [`Browser::watch_for_errors`]. Waits a moment first, so
    /// a handler that runs after a navigation has had its turn.
    pub async fn assert_still_working(&self, what: &str) {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let banner = self
            .eval("document.getElementById('panic-banner')?.textContent ?? null")
            .await;
        assert!(banner.is_null(), "after {what} the page shows {banner}");
        let errors = self
            .eval("window.__pageErrors ?? ['errors not watched']")
            .await;
        assert_eq!(
            errors,
            serde_json::json!([]),
            "after {what} the page reported errors"
        );
    }

    /// Reload the page, as a person pressing F5.
    pub async fn reload(&self) {
        self.client.refresh().await.expect("reload");
    }

    /// Save a screenshot as `target/e2e-screenshots/<name>.png`.
    pub async fn screenshot(&self, name: &str) {
        let png = self.client.screenshot().await.expect("a screenshot");
        let dir = screenshot_dir();
        std::fs::create_dir_all(&dir).expect("create the screenshot folder");
        std::fs::write(dir.join(format!("{name}.png")), png).expect("save the screenshot");
    }

    /// Done with this browser: a shared Chromium's context is removed and
    /// the Chromium given back; a Chromium of its own ends its session
    /// (then ChromeDriver is stopped, as on drop).
    pub async fn close(self) {
        if let Kept::Own(_) = &self.kept {
            self.client
                .clone()
                .close()
                .await
                .expect("close the session");
        }
    }
}

/// A plain static file server for `dir` on loopback, with no sandbox and
/// no gateway behind it: its base URL, and every path asked of it in order
/// (what left the page for this origin).
pub async fn serve_folder(dir: PathBuf) -> (String, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    let asked = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = std::sync::Arc::clone(&asked);
    let files = tower_http::services::ServeDir::new(dir);
    let app = axum::Router::new()
        .fallback_service(files)
        .layer(axum::middleware::from_fn(
            move |request: axum::extract::Request, next: axum::middleware::Next| {
                let log = std::sync::Arc::clone(&log);
                async move {
                    if let Ok(mut asked) = log.lock() {
                        asked.push(request.uri().path().to_owned());
                    }
                    next.run(request).await
                }
            },
        ));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let base = format!("http://{}", listener.local_addr().expect("its address"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    (base, asked)
}
