//! The deployment's topology: Debian's nginx in front of the gateway, with
//! the server block of `docs/deploy/nginx.conf`, the sandbox behind. The
//! gateway's per-visitor budgets see each visitor's own address (nginx
//! passes it; the gateway believes only nginx), not nginx's, and a visitor
//! cannot forge another's. Two gateways on one Redis behind the same
//! block: a page follows relayed tasks while each gateway stops in turn,
//! and sees every completion once, none read. One gateway restarting
//! behind it: the page gives its stream up on nginx's 502, opens it again
//! once the gateway is back, and reads nothing.

use std::net::SocketAddr;
use std::time::Duration;

use crate::common::{heard_not_read, png, upload};
use media_gen_e2e::{
    dist_dir, npm_scratch_dir, start_sandbox, start_site_configured, workspace_root, Browser,
    Nginx, Redis, RelayGateway, RelayOptions,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpSocket;

/// Requests per minute each visitor may make in this test.
const BUDGET: u32 = 3;

/// The guide's upstream line for its one gateway.
const GUIDE_GATEWAY: &str = "server 127.0.0.1:8080 max_fails=0;";

/// The guide's block (`docs/deploy/nginx.conf`) with this test's
/// addresses: the gateways', and a plain loopback listener instead of TLS
/// on 443.
pub(crate) fn server_block(gateways: &[String], port: u16) -> String {
    guide_block("docs/deploy/nginx.conf", gateways, port)
}

/// Two gateways behind the guide's block, both started with the options
/// `options` makes from the site's address (their `--public-url`) and
/// ready: nginx, the site's address, and the gateways.
pub(crate) async fn two_gateways(
    options: impl FnOnce(&str) -> RelayOptions,
) -> (Nginx, String, RelayGateway, RelayGateway) {
    let listeners = [
        tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
        tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
    ];
    let addresses: Vec<String> = listeners
        .iter()
        .map(|listener| listener.local_addr().unwrap().to_string())
        .collect();
    let nginx = Nginx::start(|port| server_block(&addresses, port)).await;
    let site = format!("http://{}", nginx.address);
    let options = options(&site);
    let [first, second] = listeners;
    let one = RelayGateway::start_on(first, options.clone());
    let two = RelayGateway::start_on(second, options);
    one.ready().await;
    two.ready().await;
    (nginx, site, one, two)
}

/// The block of the guide file `guide` with this test's addresses.
pub(crate) fn guide_block(guide: &str, gateways: &[String], port: u16) -> String {
    let guide =
        std::fs::read_to_string(workspace_root().join(guide)).unwrap_or_else(|_| panic!("{guide}"));
    assert!(
        guide.contains(GUIDE_GATEWAY) && guide.contains("listen 443 ssl;"),
        "the guide's block changed: keep this test in step"
    );
    guide
        .lines()
        .filter(|line| !line.trim_start().starts_with("ssl_certificate"))
        .map(|line| match line.trim() {
            GUIDE_GATEWAY => gateways
                .iter()
                .map(|gateway| format!("    server {gateway} max_fails=0;"))
                .collect::<Vec<_>>()
                .join("\n"),
            "listen 443 ssl;" => format!("    listen 127.0.0.1:{port};"),
            // The access log in nginx's own folder (`Nginx::start`'s).
            "access_log /var/log/nginx/media-gen.access.log media_gen;" => format!(
                "    access_log {} media_gen;",
                nginx_access_log(port).display()
            ),
            _ => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where the guide's access log goes for the nginx listening on `port`:
/// in the folder [`Nginx::start`] gives it, removed with it.
fn nginx_access_log(port: u16) -> std::path::PathBuf {
    std::env::temp_dir()
        .join(format!("media-gen-nginx-{port}"))
        .join("access.log")
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
    let nginx = Nginx::start(|port| server_block(&[gateway], port)).await;
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

#[tokio::test]
#[ignore = "needs nginx: run through `cargo xtask test`"]
async fn behind_nginx_a_visitor_cannot_choose_their_address() {
    let sandbox = start_sandbox(100).await;
    let gateway = media_gen_e2e::start_gateway(&sandbox, None, |settings| {
        settings.requests_per_minute = std::num::NonZeroU32::new(BUDGET).expect("non-zero");
        settings.trusted_proxies = vec!["127.0.0.1/32".parse().expect("a network")];
    })
    .await;
    let address = gateway.trim_start_matches("http://").to_owned();
    let nginx = Nginx::start(|port| server_block(&[address], port)).await;
    let languages = "/v1/video_translate/target_languages";
    for _ in 0..BUDGET {
        assert_eq!(
            get_from("127.0.0.4", nginx.address, languages, "").await,
            200
        );
    }
    // Each forwarding header a visitor may write, each time naming a new
    // address: still the same visitor, still over budget.
    for n in 1..=4 {
        for forged in [
            format!("Forwarded: for=198.18.0.{n}\r\n"),
            format!("Forwarded: for=\"[2001:db8::{n}]\"\r\n"),
            format!("X-Forwarded-For: 198.18.1.{n}\r\n"),
            format!("X-Real-IP: 198.18.2.{n}\r\n"),
        ] {
            assert_eq!(
                get_from("127.0.0.4", nginx.address, languages, &forged).await,
                429,
                "{forged}"
            );
        }
    }
    // Another visitor through the same nginx still has their budget.
    assert_eq!(
        get_from("127.0.0.5", nginx.address, languages, "").await,
        200
    );
}

#[tokio::test]
#[ignore = "needs nginx: run through `cargo xtask test`"]
async fn the_guides_access_log_keeps_no_token_and_no_whole_upload_address() {
    let sandbox = start_sandbox(100).await;
    let gateway = media_gen_e2e::start_gateway(&sandbox, None, |settings| {
        settings.trusted_proxies = vec!["127.0.0.1/32".parse().expect("a network")];
    })
    .await;
    let address = gateway.trim_start_matches("http://").to_owned();
    for guide in [
        "docs/deploy/nginx.conf",
        "docs/deploy/nginx-sub-path.conf",
        "docs/deploy/nginx-auth-basic.conf",
    ] {
        let nginx = Nginx::start(|port| {
            guide_block(guide, std::slice::from_ref(&address), port)
                .replace("/etc/nginx/media-gen.htpasswd", "/dev/null")
        })
        .await;
        let id = "0123456789abcdef0123456789abcdef";
        for path in [
            "/events?relays=aaaabbbbccccddddaaaabbbbccccdddd&token=mgt_the-page-token".to_owned(),
            format!("/uploads/{id}"),
            format!("/media/uploads/{id}/holiday.png?x=1"),
        ] {
            get_from("127.0.0.6", nginx.address, &path, "").await;
        }
        let port = nginx.address.port();
        let mut log = String::new();
        for _ in 0..50 {
            log = std::fs::read_to_string(nginx_access_log(port)).unwrap_or_default();
            if log.lines().count() >= 3 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(log.lines().count(), 3, "{guide}: {log}");
        assert!(
            !log.contains("mgt_") && !log.contains("relays="),
            "{guide}: {log}"
        );
        assert!(!log.contains(&id[8..]), "{guide}: {log}");
        assert!(log.contains("GET /events?... "), "{guide}: {log}");
        assert!(log.contains("/uploads/01234567... "), "{guide}: {log}");
        assert!(
            log.contains("/media/uploads/01234567.../holiday.png "),
            "{guide}: {log}"
        );
    }
}

#[tokio::test]
#[ignore = "needs the release build, nginx and ChromeDriver: run through `cargo xtask test`"]
async fn the_guide_keeps_readiness_and_metrics_from_visitors() {
    let site = start_site_configured(dist_dir(), 100, |settings| {
        settings.trusted_proxies = vec!["127.0.0.1/32".parse().expect("a network")];
    })
    .await;
    let gateway = site.base_url.trim_start_matches("http://").to_owned();
    let nginx = Nginx::start(|port| server_block(&[gateway], port)).await;
    // A visitor (another address than the allowed one) gets neither.
    for path in ["/readyz", "/metrics"] {
        assert_eq!(
            get_from("127.0.0.2", nginx.address, path, "").await,
            403,
            "{path}"
        );
        assert_eq!(
            get_from("127.0.0.1", nginx.address, path, "").await,
            200,
            "{path}"
        );
    }
    // Everything else is served to visitors as before.
    assert_eq!(
        get_from("127.0.0.2", nginx.address, "/healthz", "").await,
        200
    );
    assert_eq!(
        get_from(
            "127.0.0.2",
            nginx.address,
            "/v1/video_translate/target_languages",
            ""
        )
        .await,
        200
    );
}

#[tokio::test]
#[ignore = "needs nginx: run through `cargo xtask test`"]
async fn a_stopped_nginx_leaves_no_worker_listening() {
    let nginx = Nginx::start(|port| {
        format!("  server {{\n    listen 127.0.0.1:{port};\n    return 204;\n  }}")
    })
    .await;
    let address = nginx.address;
    assert!(tokio::net::TcpStream::connect(address).await.is_ok());
    drop(nginx);
    // Killing only the master would leave its worker holding the socket.
    assert!(
        tokio::net::TcpStream::connect(address).await.is_err(),
        "something still listens on {address} after nginx was stopped"
    );
}

#[tokio::test]
#[ignore = "needs nginx, redis-server, the release build and ChromeDriver: run through `cargo xtask test`"]
async fn two_gateways_on_one_redis_behind_nginx_lose_no_completion_when_one_stops() {
    let redis = Redis::start().await;
    // Tasks of three seconds end while the page's stream is between
    // gateways: what it missed comes back through Redis when it reconnects.
    let sandbox = start_sandbox(3_000).await;
    // The gateways' addresses first: nginx's block names them, and their
    // public URL (where the sandbox calls back) is nginx's.
    let listeners = [
        tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port"),
        tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port"),
    ];
    let addresses: Vec<String> = listeners
        .iter()
        .map(|listener| listener.local_addr().expect("an address").to_string())
        .collect();
    let nginx = Nginx::start(|port| server_block(&addresses, port)).await;
    let public_url = format!("http://{}", nginx.address);
    let [first, second] = listeners;
    let options = RelayOptions {
        static_dir: Some(dist_dir()),
        redis: Some(redis.url.clone()),
        public_url: Some(public_url.clone()),
        ..RelayOptions::new(&sandbox)
    };
    let mut a = RelayGateway::start_on(first, options.clone());
    let mut b = RelayGateway::start_on(second, options);
    a.ready().await;
    b.ready().await;

    let browser = Browser::start().await;
    browser
        .open_app_page(&public_url, "/new/image-generate", "Image generation")
        .await;
    browser
        .type_into("#prompt", "A lighthouse in a storm")
        .await;
    browser.type_into("#count", "4").await;
    browser.submit_form().await;
    browser
        .wait_until(
            "four rows live",
            "document.querySelectorAll('li.task-row .task-row__live').length === 4",
        )
        .await;

    // Each gateway stops in turn while the tasks run, so the page's stream
    // loses its gateway at least once and reconnects through nginx.
    a.stop().await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    a.restart().await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    b.stop().await;

    browser
        .wait_until(
            "all four ended",
            "document.querySelectorAll(\"li.task-row[data-status='SUCCEEDED']\").length === 4",
        )
        .await;
    assert_eq!(
        browser
            .eval("document.querySelectorAll('li.task-row').length")
            .await,
        4,
        "each task shown once"
    );
    heard_not_read(&browser, &sandbox, 4).await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs nginx, redis-server, the release build and ChromeDriver: run through `cargo xtask test`"]
async fn a_gateway_restarting_behind_nginx_costs_the_page_no_reads() {
    let redis = Redis::start().await;
    // Tasks outlast the restart: they end once the gateway is back.
    let sandbox = start_sandbox(10_000).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let address = listener.local_addr().expect("an address").to_string();
    let nginx = Nginx::start(|port| server_block(&[address], port)).await;
    let public_url = format!("http://{}", nginx.address);
    let mut gateway = RelayGateway::start_on(
        listener,
        RelayOptions {
            static_dir: Some(dist_dir()),
            redis: Some(redis.url.clone()),
            public_url: Some(public_url.clone()),
            ..RelayOptions::new(&sandbox)
        },
    );
    gateway.ready().await;

    let browser = Browser::start().await;
    browser
        .open_app_page(&public_url, "/new/image-generate", "Image generation")
        .await;
    browser.type_into("#prompt", "A harbour at dawn").await;
    browser.type_into("#count", "2").await;
    browser.submit_form().await;
    let live = "document.querySelectorAll('li.task-row .task-row__live').length";
    browser
        .wait_until("two rows live", &format!("{live} === 2"))
        .await;

    // The only gateway goes away: the page's stream drops, and its
    // reconnection gets nginx's 502, so the browser gives the stream up
    // and the rows stop saying Live.
    gateway.stop().await;
    browser
        .wait_until(
            "no row live while the gateway is away",
            &format!("{live} === 0"),
        )
        .await;
    // Back before the page's first read is due: the page opens its stream
    // again, and hears both ends there.
    gateway.restart().await;
    browser
        .wait_until("both rows live again", &format!("{live} === 2"))
        .await;
    browser
        .wait_until(
            "both ended",
            "document.querySelectorAll(\"li.task-row[data-status='SUCCEEDED']\").length === 2",
        )
        .await;
    // The stream was opened again.
    heard_not_read(&browser, &sandbox, 2).await;
    browser.close().await;
}

/// `from` copied into `to`, folders and all.
fn copy_folder(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for entry in std::fs::read_dir(from).expect("a folder to copy") {
        let path = entry.expect("an entry").path();
        let target = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_folder(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy a file");
        }
    }
}

#[test]
fn the_guide_shows_the_sub_path_block_it_runs() {
    let guide =
        std::fs::read_to_string(workspace_root().join("docs/deploy.md")).expect("the guide");
    let conf = std::fs::read_to_string(workspace_root().join("docs/deploy/nginx-sub-path.conf"))
        .expect("the block");
    let shown = guide
        .split("```nginx\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("an nginx block in docs/deploy.md");
    assert!(shown.contains("location /media/ {"));
    let lines = |text: &str| -> Vec<String> {
        text.lines()
            .map(|line| line.trim().to_owned())
            .filter(|line| !line.is_empty())
            .collect()
    };
    let (shown, conf) = (lines(shown), lines(&conf));
    assert!(
        conf.windows(shown.len())
            .any(|window| window == shown.as_slice()),
        "docs/deploy.md's block is not the one docs/deploy/nginx-sub-path.conf has"
    );
}

#[tokio::test]
#[ignore = "needs nginx, the release build, the npm package and ChromeDriver: run through `cargo xtask test`"]
async fn the_app_under_a_path_behind_nginx() {
    // The app as built, with the widgets' example page beside it.
    let site = std::env::temp_dir().join(format!("media-gen-sub-path-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&site);
    copy_folder(&dist_dir(), &site);
    copy_folder(&npm_scratch_dir().join("embed"), &site.join("embed"));

    let sandbox = start_sandbox(1_500).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let address = listener.local_addr().expect("an address").to_string();
    let nginx =
        Nginx::start(|port| guide_block("docs/deploy/nginx-sub-path.conf", &[address], port)).await;
    let origin = format!("http://{}", nginx.address);
    let gateway = RelayGateway::start_on(
        listener,
        RelayOptions {
            static_dir: Some(site.clone()),
            public_url: Some(format!("{origin}/media")),
            base_path: "/media/",
            // Beside the site's folder, not in it.
            uploads: Some(media_gen_gateway::uploads::UploadSettings::new(
                site.with_extension("uploads"),
                String::new(),
            )),
            ..RelayOptions::new(&sandbox)
        },
    );
    gateway.ready().await;
    // Uploads under the path, larger than the block's 1 MiB elsewhere.
    let file = png(3_000_000);
    let upload = upload(&format!("{origin}/media"), file.clone()).await;
    assert!(
        upload.starts_with(&format!("{origin}/media/uploads/")),
        "{upload}"
    );
    let served = reqwest::get(&upload).await.expect("nginx");
    assert_eq!(served.bytes().await.expect("the file").len(), file.len());
    // Beside it, the site's other things: nothing of the gateway's.
    assert_eq!(get_from("127.0.0.2", nginx.address, "/", "").await, 404);
    assert_eq!(
        get_from(
            "127.0.0.2",
            nginx.address,
            "/v1/video_translate/target_languages",
            ""
        )
        .await,
        404
    );

    let browser = Browser::start().await;
    browser.open_app_page(&origin, "/media/", "Tasks").await;
    browser.watch_for_errors().await;
    // A link of the header, clicked: the address bar stays under the path.
    browser
        .click("#main-nav a[href='/media/new/image-generate']")
        .await;
    browser.wait_for_address("/media/new/image-generate").await;
    browser.wait_for_text("main h1", "Image generation").await;
    browser
        .type_into("#prompt", "A lighthouse under a path")
        .await;
    browser.submit_form().await;
    browser.wait_for_address("/media/").await;
    // Followed over the relay's stream under the path, never read.
    browser
        .wait_until(
            "the task ended",
            "document.querySelector(\"li.task-row[data-status='SUCCEEDED']\") !== null",
        )
        .await;
    heard_not_read(&browser, &sandbox, 1).await;
    // Its page, a reload there (a deep link), and Back.
    browser.click("li.task-row a.open").await;
    let task_address = browser.address().await;
    assert!(
        task_address.starts_with("/media/tasks/image_generate/"),
        "{task_address}"
    );
    browser.wait_for_text("main h1", "Image generation").await;
    browser.assert_still_working("a submit under /media/").await;
    browser.reload().await;
    browser.wait_for_text("main h1", "Image generation").await;
    assert_eq!(browser.address().await, task_address);
    browser.find("#task-id").await;
    // "Skip to content" stays on this page (a bare `#main` would be read
    // against the base: the board).
    let skip = browser.find("a.skip-link").await;
    skip.send_keys("\u{E007}").await.expect("press Enter");
    browser
        .wait_until("the address names #main", "location.hash === '#main'")
        .await;
    assert_eq!(browser.address().await, task_address);
    // Back: off `#main`, then to the board.
    browser.client.back().await.expect("Back");
    browser
        .wait_until("the address is the page's", "location.hash === ''")
        .await;
    assert_eq!(browser.address().await, task_address);
    browser.client.back().await.expect("Back");
    browser.wait_for_address("/media/").await;
    browser.wait_for_text("main h1", "Tasks").await;
    // An address in another spelling is put right, under the path.
    browser
        .open(&format!("{origin}/media/new/image_generate"))
        .await;
    browser.wait_for_address("/media/new/image-generate").await;
    browser.watch_for_errors().await;
    // Everything the browser asked for was under the path.
    let elsewhere = browser
        .eval(&format!(
            "performance.getEntriesByType('resource').map((entry) => entry.name)
               .filter((name) => !name.startsWith('{origin}/media/'))"
        ))
        .await;
    assert_eq!(elsewhere, serde_json::json!([]), "requests outside /media/");
    browser.assert_still_working("the app under /media/").await;

    // The widgets' example page under the path: a submit and its result.
    browser.open(&format!("{origin}/media/embed/")).await;
    let form = "document.querySelector('#submit').shadowRoot";
    browser
        .wait_until(
            "the example's form",
            &format!("{form}?.querySelector('#prompt')"),
        )
        .await;
    browser
        .run_async(&format!(
            "const field = {form}.querySelector('#prompt');
             field.value = 'From the example under a path';
             field.dispatchEvent(new Event('input', {{ bubbles: true }}));"
        ))
        .await;
    browser
        .wait_until(
            "submit enabled",
            &format!("!{form}.querySelector('#submit').disabled"),
        )
        .await;
    browser
        .run_async(&format!("{form}.querySelector('#submit').click();"))
        .await;
    browser
        .wait_until(
            "the status widget's image",
            "document.querySelector('#status').shadowRoot?.querySelector('.gallery img')",
        )
        .await;
    browser.close().await;
    let _ = std::fs::remove_dir_all(&site);
    let _ = std::fs::remove_dir_all(site.with_extension("uploads"));
}

#[tokio::test]
#[ignore = "needs nginx and openssl: run through `cargo xtask test`"]
async fn an_auth_proxy_in_front_names_the_person() {
    // The password file, made as the guide says.
    let dir = std::env::temp_dir().join(format!("media-gen-htpasswd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let hashed = std::process::Command::new("openssl")
        .args(["passwd", "-apr1", "open sesame"])
        .output()
        .expect("openssl");
    let hashed = String::from_utf8_lossy(&hashed.stdout).trim().to_owned();
    let passwords = dir.join("media-gen.htpasswd");
    std::fs::write(&passwords, format!("ada:{hashed}\n")).expect("the password file");

    let sandbox = start_sandbox(100).await;
    let gateway = media_gen_e2e::start_gateway(&sandbox, None, |settings| {
        settings.access = media_gen_gateway::access::AccessMode::Proxy;
        settings.trusted_proxies = vec!["127.0.0.1/32".parse().expect("a network")];
    })
    .await;
    let address = gateway.trim_start_matches("http://").to_owned();
    let nginx = Nginx::start(|port| {
        guide_block(
            "docs/deploy/nginx-auth-basic.conf",
            std::slice::from_ref(&address),
            port,
        )
        .replace(
            "/etc/nginx/media-gen.htpasswd",
            &passwords.to_string_lossy(),
        )
    })
    .await;
    let site = format!("http://{}", nginx.address);
    let client = reqwest::Client::new();
    let capabilities = format!("{site}/capabilities");
    let languages = format!("{site}/v1/video_translate/target_languages");

    // No password, a wrong one: nginx refuses, nothing reaches the gateway.
    assert_eq!(
        client.get(&languages).send().await.expect("nginx").status(),
        401
    );
    let wrong = client
        .get(&languages)
        .basic_auth("ada", Some("guess"))
        .send();
    assert_eq!(wrong.await.expect("nginx").status(), 401);
    // The right one: the gateway serves ada, whatever name the visitor sends.
    let right = client
        .get(&capabilities)
        .basic_auth("ada", Some("open sesame"))
        .header("X-Forwarded-User", "root")
        .send()
        .await
        .expect("nginx");
    assert_eq!(right.status(), 200);
    let said: serde_json::Value = right.json().await.expect("JSON");
    assert_eq!(said["data"]["access"]["person"]["name"], "ada", "{said}");
    let call = client
        .get(&languages)
        .basic_auth("ada", Some("open sesame"))
        .send();
    assert_eq!(call.await.expect("nginx").status(), 200);

    // Straight to the gateway from another address, naming someone: nothing.
    let gateway_address: SocketAddr = address.parse().expect("an address");
    assert_eq!(
        get_from(
            "127.0.0.2",
            gateway_address,
            "/v1/video_translate/target_languages",
            "X-Forwarded-User: ada\r\n"
        )
        .await,
        401
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
#[ignore = "needs nginx: run through `cargo xtask test`"]
async fn an_upload_larger_than_nginxs_body_limit_goes_through_its_uploads_block() {
    let sandbox = media_gen_e2e::start_fetching_sandbox(100).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let gateway = listener.local_addr().unwrap().to_string();
    let nginx = Nginx::start(|port| server_block(&[gateway], port)).await;
    let site = format!("http://{}", nginx.address);
    // The gateway's own (nginx forwards uploads, reads none).
    let upload_dir = media_gen_e2e::test_folder("nginx-uploads");
    media_gen_e2e::start_gateway_on(listener, &sandbox, None, |settings| {
        settings.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
        settings.uploads = Some(media_gen_gateway::uploads::UploadSettings::new(
            upload_dir.path().to_owned(),
            site.clone(),
        ));
    });
    // 3 MB in one PATCH: over the 1 MiB the guide allows elsewhere.
    let file = png(3_000_000);
    let upload = upload(&site, file.clone()).await;
    assert!(
        upload.starts_with(&site),
        "served at nginx's address: {upload}"
    );
    let served = reqwest::get(&upload).await.unwrap();
    assert_eq!(served.headers()["content-type"], "image/png");
    assert_eq!(served.bytes().await.unwrap().len(), file.len());
}
