//! `media-gen-gateway check` against real parts: a sandbox, Redis,
//! PostgreSQL and S3 (`s3s-fs`) that answer give every line ok, and so does
//! the public address through each of the deployment guide's nginx blocks;
//! then each part is stopped or misconfigured in turn, and only its own
//! line fails, with what to do, while the others still run.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use media_gen_e2e::s3::{S3Server, BUCKET};
use media_gen_e2e::{start_sandbox, test_folder, unused_port, Nginx, Redis, GATEWAY_TOKEN};
use media_gen_gateway::check::{run, Line, Verdict};
use media_gen_gateway::config_file::load;

/// `check` with `flags`, the store's settings from `s3` (its secret
/// replaced by `secret` when given).
async fn check(flags: &[String], s3: &S3Server, secret: Option<&str>) -> Vec<Line> {
    let args = std::iter::once("media-gen-gateway".to_owned())
        .chain(std::iter::once("check".to_owned()))
        .chain(flags.iter().cloned());
    let loaded = load(args).unwrap_or_else(|error| panic!("{error:?}"));
    let environment: Vec<(String, String)> = s3
        .environment()
        .iter()
        .map(|(name, value)| {
            let value = match (*name, secret) {
                ("AWS_SECRET_ACCESS_KEY", Some(secret)) => secret,
                _ => value,
            };
            ((*name).to_owned(), value.to_owned())
        })
        .collect();
    let env = move |var: &str| {
        environment
            .iter()
            .find(|(name, _)| name == var)
            .map(|(_, value)| value.clone())
    };
    run(&loaded, &env).await
}

/// The flags with `key`'s value replaced.
fn with(flags: &[String], key: &str, value: &str) -> Vec<String> {
    let mut flags = flags.to_vec();
    let at = flags.iter().position(|flag| flag == key).unwrap() + 1;
    flags[at] = value.to_owned();
    flags
}

/// Every line ok but `failing`'s, which fails saying `what` with a hint
/// saying `hint`.
fn only_fails(lines: &[Line], failing: &str, what: &str, hint: &str, case: &str) {
    let report = media_gen_gateway::check::report(lines).0;
    for line in lines {
        match (&line.verdict, line.part == failing) {
            (Verdict::Ok(_), false) => {}
            (
                Verdict::Failed {
                    what: said,
                    hint: told,
                },
                true,
            ) => {
                assert!(said.contains(what), "{case}: {said}\n{report}");
                assert!(told.contains(hint), "{case}: {told}\n{report}");
            }
            _ => panic!("{case}: {} is not as expected\n{report}", line.part),
        }
    }
    assert!(
        lines.iter().any(|line| line.part == failing),
        "{case}: no {failing} line\n{report}"
    );
}

fn private_folder(path: &Path) {
    std::fs::create_dir_all(path).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o700)).unwrap();
}

#[tokio::test]
#[ignore = "needs redis-server, PostgreSQL, nginx and s3s-fs: run through `cargo xtask test`"]
async fn check_passes_against_parts_that_answer_and_names_each_that_does_not() {
    let sandbox = start_sandbox(100).await;
    let mut redis = Redis::start().await;
    let postgres = tokio::task::spawn_blocking(media_gen_launch::postgres::Postgres::start)
        .await
        .unwrap()
        .unwrap();
    let library = postgres.database("library").unwrap();
    let s3 = S3Server::start().await;
    let folder = test_folder("check");
    let root = folder.path();
    let data = root.join("data");
    let app = root.join("dist");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::write(app.join("index.html"), "<!doctype html>").unwrap();
    let token = root.join("token");
    std::fs::write(&token, format!("{GATEWAY_TOKEN}\n")).unwrap();
    let wrong_token = root.join("wrong-token");
    std::fs::write(&wrong_token, "not-the-token").unwrap();
    let listen = format!("127.0.0.1:{}", unused_port());
    let flags: Vec<String> = [
        "--listen",
        &listen,
        "--upstream",
        &sandbox,
        "--token-file",
        token.to_str().unwrap(),
        "--access",
        "keys",
        "--library",
        &library,
        "--redis",
        &redis.url,
        "--data-dir",
        data.to_str().unwrap(),
        "--static",
        app.to_str().unwrap(),
        "--upload-store",
        &format!("s3://{BUCKET}/uploads"),
        "--public-url",
        &format!("http://{listen}"),
    ]
    .iter()
    .map(|flag| (*flag).to_owned())
    .collect();

    let lines = check(&flags, &s3, None).await;
    let report = media_gen_gateway::check::report(&lines);
    assert!(report.1, "all ok:\n{}", report.0);
    assert_eq!(
        lines
            .iter()
            .map(|line| line.part.as_str())
            .collect::<Vec<_>>(),
        [
            "settings",
            "upstream",
            "redis",
            "library",
            "store",
            "data-dir",
            "static",
            "public-url"
        ],
        "{}",
        report.0
    );
    assert!(
        s3.objects("uploads").is_empty(),
        "the store's test object is deleted"
    );
    assert!(report.0.contains("its schema is current") || report.0.contains("applies"));

    // The public address through each of the guide's nginx blocks: the
    // service's way to this gateway (callbacks, uploads) passes the proxy.
    for (guide, base_path) in [
        ("docs/deploy/nginx.conf", "/"),
        ("docs/deploy/nginx-auth-basic.conf", "/"),
        ("docs/deploy/nginx-sub-path.conf", "/media/"),
    ] {
        let nginx = Nginx::start(|port| {
            crate::behind_nginx::guide_block(guide, std::slice::from_ref(&listen), port)
                .replace("/etc/nginx/media-gen.htpasswd", "/dev/null")
        })
        .await;
        let public = format!("http://{}{base_path}", nginx.address);
        let mut through = with(&flags, "--public-url", &public);
        through.extend(["--base-path".to_owned(), base_path.to_owned()]);
        let lines = check(&through, &s3, None).await;
        let report = media_gen_gateway::check::report(&lines);
        assert!(report.1, "through {guide}:\n{}", report.0);
    }

    // Each part wrong in turn; the others still answer.
    let token_flag = format!("{}", wrong_token.display());
    only_fails(
        &check(&with(&flags, "--token-file", &token_flag), &s3, None).await,
        "upstream",
        "refuses the token",
        "token",
        "the wrong token",
    );
    only_fails(
        &check(
            &with(
                &flags,
                "--upstream",
                &format!("http://127.0.0.1:{}", unused_port()),
            ),
            &s3,
            None,
        )
        .await,
        "upstream",
        "cannot reach",
        "--upstream",
        "the service stopped",
    );
    let library_wrong = library.replace("/library", "/no_such_database");
    only_fails(
        &check(&with(&flags, "--library", &library_wrong), &s3, None).await,
        "library",
        "no_such_database",
        "the database exists",
        "a database that is not there",
    );
    only_fails(
        &check(&flags, &s3, Some("not-the-secret")).await,
        "store",
        "s3://media/uploads",
        "AWS_SECRET_ACCESS_KEY",
        "the store's wrong secret",
    );
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();
    only_fails(
        &check(&flags, &s3, None).await,
        "data-dir",
        "open to others (mode 755)",
        "chmod 700",
        "a data folder others may read",
    );
    private_folder(&data);
    let elsewhere = format!("{sandbox}/");
    only_fails(
        &check(&with(&flags, "--public-url", &elsewhere), &s3, None).await,
        "public-url",
        "not from this gateway",
        "forwards / to",
        "a public address that reaches another server",
    );
    redis.kill().await;
    only_fails(
        &check(&flags, &s3, None).await,
        "redis",
        "does not answer",
        "start Redis there",
        "Redis stopped",
    );
    redis.restart().await;
    drop(postgres);
    only_fails(
        &check(&flags, &s3, None).await,
        "library",
        "PostgreSQL",
        "the database exists",
        "PostgreSQL stopped",
    );
}
