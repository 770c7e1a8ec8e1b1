//! The deployment's topology: Debian's nginx in front of the gateway, with
//! the server block of `docs/deploy/nginx.conf`, the sandbox behind. The
//! gateway's per-visitor budgets see each visitor's own address (nginx
//! passes it; the gateway believes only nginx), not nginx's, and a visitor
//! cannot forge another's.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use media_gen_e2e::{dist_dir, start_site_configured, workspace_root, Browser};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpSocket;
use tokio::process::{Child, Command};

/// Requests per minute each visitor may make in this test.
const BUDGET: u32 = 3;

/// nginx on a free loopback port with the deployment guide's server block,
/// in front of the gateway at `gateway`; stopped when dropped.
struct Nginx {
    _process: Child,
    _dir: PathBuf,
    address: SocketAddr,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .expect("a free loopback port")
}

/// The guide's block with this test's addresses: the gateway's, and a plain
/// loopback listener instead of TLS on 443.
fn server_block(guide: &str, gateway: &str, port: u16) -> String {
    guide
        .lines()
        .filter(|line| !line.trim_start().starts_with("ssl_certificate"))
        .map(|line| match line.trim() {
            "server 127.0.0.1:8080;" => format!("    server {gateway};"),
            "listen 443 ssl;" => format!("    listen 127.0.0.1:{port};"),
            _ => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl Nginx {
    async fn start(gateway: &str) -> Nginx {
        let program = std::env::var("NGINX").unwrap_or_else(|_| "/usr/sbin/nginx".to_owned());
        let dir = std::env::temp_dir().join(format!("media-gen-nginx-{}", free_port()));
        std::fs::create_dir_all(dir.join("temp")).expect("nginx's folder");
        let guide = std::fs::read_to_string(workspace_root().join("docs/deploy/nginx.conf"))
            .expect("docs/deploy/nginx.conf");
        let port = free_port();
        let conf = format!(
            "daemon off;\nworker_processes 1;\npid {dir}/nginx.pid;\nerror_log {dir}/error.log;\n\
             events {{ worker_connections 512; }}\n\
             http {{\n  access_log off;\n  client_body_temp_path {dir}/temp/body;\n  proxy_temp_path {dir}/temp/proxy;\n  \
             fastcgi_temp_path {dir}/temp/fastcgi;\n  uwsgi_temp_path {dir}/temp/uwsgi;\n  scgi_temp_path {dir}/temp/scgi;\n{block}\n}}\n",
            dir = dir.display(),
            block = server_block(&guide, gateway, port),
        );
        let conf_path = dir.join("nginx.conf");
        std::fs::write(&conf_path, conf).expect("write nginx.conf");
        // Workers may run as another user: let them into the temp folders.
        let _ = Command::new("chmod")
            .args(["-R", "a+rwx"])
            .arg(&dir)
            .status()
            .await;
        let process = Command::new(&program)
            .arg("-p")
            .arg(&dir)
            .arg("-e")
            .arg(dir.join("error.log"))
            .arg("-c")
            .arg(&conf_path)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start nginx `{program}`: {error}"));
        let address: SocketAddr = format!("127.0.0.1:{port}").parse().expect("an address");
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(address).await.is_ok() {
                return Nginx {
                    _process: process,
                    _dir: dir,
                    address,
                };
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let log = std::fs::read_to_string(dir.join("error.log")).unwrap_or_default();
        panic!("nginx did not listen on {address}: {log}");
    }
}

/// `GET path` to `to`, sent from the loopback address `from` (Linux answers
/// on all of 127.0.0.0/8), with `extra` header lines; returns the status.
async fn get_from(from: &str, to: SocketAddr, path: &str, extra: &str) -> u16 {
    let socket = TcpSocket::new_v4().expect("a socket");
    socket
        .bind(format!("{from}:0").parse().expect("an address"))
        .expect("bind the visitor's address");
    let mut stream = socket.connect(to).await.expect("connect to nginx");
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: media.example.com\r\n{extra}Connection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.expect("read");
    String::from_utf8_lossy(&answer)
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}

#[tokio::test]
#[ignore = "needs the release build, nginx and ChromeDriver: run through `cargo xtask test`"]
async fn behind_nginx_each_visitor_has_their_own_budget() {
    let site = start_site_configured(dist_dir(), 100, |settings| {
        settings.requests_per_minute = std::num::NonZeroU32::new(BUDGET).expect("non-zero");
        settings.trusted_proxies = vec!["127.0.0.1/32".parse().expect("a network")];
    })
    .await;
    let gateway = site.base_url.trim_start_matches("http://").to_owned();
    let nginx = Nginx::start(&gateway).await;
    let languages = "/v1/video_translate/target_languages";

    // Visitor A spends the budget; a forged X-Forwarded-For buys nothing.
    for _ in 0..BUDGET {
        assert_eq!(
            get_from("127.0.0.2", nginx.address, languages, "").await,
            200
        );
    }
    assert_eq!(
        get_from("127.0.0.2", nginx.address, languages, "").await,
        429
    );
    assert_eq!(
        get_from(
            "127.0.0.2",
            nginx.address,
            languages,
            "X-Forwarded-For: 198.51.100.9\r\n"
        )
        .await,
        429
    );
    // Visitor B, through the same nginx, still has theirs.
    assert_eq!(
        get_from("127.0.0.3", nginx.address, languages, "").await,
        200
    );

    // The app through nginx, as a visitor opens it.
    let browser = Browser::start().await;
    let base = format!("http://{}", nginx.address);
    browser.open_app_page(&base, "/", "Tasks").await;
    let status = browser
        .run_async(&format!("return (await fetch('{languages}')).status;"))
        .await;
    assert_eq!(status, 200);
    browser.close().await;
}
