//! The gateway's settings from one file (`--config`): the deployment
//! guide's example read as written, an unknown key and a wrong value
//! refused with their line, the file beneath the environment beneath the
//! flags, and `config` showing where each value came from and no secret.

use std::path::{Path, PathBuf};
use std::process::Output;

use tokio::process::Command;

/// The gateway binary with no `MEDIA_GEN_*` or `AWS_*` variable of the
/// machine's, and `vars` set.
async fn gateway(args: &[&str], vars: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_media-gen-gateway"));
    for (name, _) in std::env::vars() {
        if name.starts_with("MEDIA_GEN_") || name.starts_with("AWS_") {
            command.env_remove(name);
        }
    }
    command
        .args(args)
        .envs(vars.iter().copied())
        .output()
        .await
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn docs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs")
}

fn written(dir: &tempfile::TempDir, text: &str) -> String {
    let path = dir.path().join("gateway.toml");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// The line of `config`'s output for `key`.
fn line_of<'a>(shown: &'a str, key: &str) -> &'a str {
    shown
        .lines()
        .find(|line| line.starts_with(&format!("{key} = ")))
        .unwrap_or_else(|| panic!("no line for {key} in\n{shown}"))
}

#[tokio::test]
async fn the_deploy_guides_example_file_is_the_one_it_shows_and_is_read_as_written() {
    let example_path = docs().join("deploy/gateway.toml");
    let example = std::fs::read_to_string(&example_path).unwrap();
    let guide = std::fs::read_to_string(docs().join("deploy.md")).unwrap();
    let shown = guide
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("deploy.md shows a ```toml block");
    assert_eq!(
        shown, example,
        "deploy.md shows docs/deploy/gateway.toml as it is"
    );
    let path = example_path.display().to_string();
    let output = gateway(&["config", "--config", &path], &[]).await;
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    let keys: Vec<&str> = example
        .lines()
        .filter(|line| !line.starts_with('#') && line.contains(" = "))
        .map(|line| line.split(" = ").next().unwrap())
        .collect();
    assert!(keys.len() >= 10, "{keys:?}");
    for key in keys {
        let line = line_of(&out, key);
        assert!(line.contains(&format!("# file {path}:")), "{line}");
    }
    assert!(line_of(&out, "access").starts_with("access = \"keys\""));
    assert!(line_of(&out, "trusted-proxy").starts_with("trusted-proxy = [\"127.0.0.1/32\"]"));
    assert!(line_of(&out, "requests-per-minute").ends_with("# default"));
}

#[tokio::test]
async fn an_unknown_key_or_a_wrong_value_stops_the_start_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    for (file, said) in [
        (
            "listen = \"127.0.0.1:0\"\n\nuplod-dir = \"/tmp/u\"\n",
            ":3: unknown key \"uplod-dir\"; did you mean \"upload-dir\"?",
        ),
        (
            "# who\naccess = \"everyone\"\n",
            ":2: access = \"everyone\": takes one of: open, keys, proxy",
        ),
        (
            "keep-quota = \"plenty\"\n",
            ":1: keep-quota = \"plenty\": \"plenty\" is not a size such as 20GiB",
        ),
        (
            "log-format = \"xml\"\n",
            ":1: log-format = \"xml\": takes one of: text, json",
        ),
    ] {
        let path = written(&dir, file);
        for args in [vec!["--config", &path], vec!["check", "--config", &path]] {
            let output = gateway(&args, &[]).await;
            assert_eq!(output.status.code(), Some(2), "{args:?} {file}");
            let error = text(&output.stderr);
            assert!(
                error.contains(&format!("{path}{said}")),
                "{args:?}: {error}"
            );
            assert!(output.stdout.is_empty(), "nothing served or checked");
        }
    }
}

#[tokio::test]
async fn the_environment_overrides_the_file_and_a_flag_overrides_both() {
    let dir = tempfile::tempdir().unwrap();
    let path = written(
        &dir,
        "requests-per-minute = 30\ntasks-per-hour = 7\nlog-format = \"json\"\n\
         connect-src = [\"https://file.example\"]\n",
    );
    let output = gateway(
        &[
            "config",
            "--config",
            &path,
            "--log-format",
            "text",
            "--connect-src",
            "https://flag.example",
        ],
        &[
            ("MEDIA_GEN_TASKS_PER_HOUR", "9"),
            ("MEDIA_GEN_LOG_FORMAT", "json"),
        ],
    )
    .await;
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    for (key, value, source) in [
        ("requests-per-minute", "30", format!("file {path}:1")),
        (
            "tasks-per-hour",
            "9",
            "environment MEDIA_GEN_TASKS_PER_HOUR".to_owned(),
        ),
        ("log-format", "\"text\"", "flag".to_owned()),
        (
            "connect-src",
            "[\"https://flag.example\"]",
            "flag".to_owned(),
        ),
        ("max-connections", "512", "default".to_owned()),
    ] {
        let line = line_of(&out, key);
        assert!(line.starts_with(&format!("{key} = {value} ")), "{line}");
        assert!(line.ends_with(&format!("# {source}")), "{line}");
    }
    // The file's config named by the environment, a flag still over it.
    let output = gateway(
        &["config", "--requests-per-minute", "45"],
        &[("MEDIA_GEN_CONFIG", &path)],
    )
    .await;
    let out = text(&output.stdout);
    assert!(line_of(&out, "requests-per-minute").ends_with("# flag"));
    assert!(line_of(&out, "tasks-per-hour").starts_with("tasks-per-hour = 7 "));
}

#[tokio::test]
async fn config_shows_where_secrets_come_from_never_the_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let path = written(
        &dir,
        "upstream = \"https://svcuser:upstream-secret@service.example.com\"\n\
         library = \"postgres://gw:library-secret@db.internal/media?password=query-secret\"\n\
         redis = \"redis://:redis-secret@10.0.0.2:6379/\"\n\
         upload-store = \"s3://media/uploads\"\npublic-url = \"https://gw.example\"\n",
    );
    let output = gateway(
        &["config", "--config", &path],
        &[
            ("MEDIA_GEN_TOKEN", "token-secret"),
            ("AWS_ACCESS_KEY_ID", "key-id-secret"),
            ("AWS_SECRET_ACCESS_KEY", "access-secret"),
            ("AWS_ENDPOINT_URL", "http://127.0.0.1:9000"),
        ],
    )
    .await;
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    for secret in [
        "upstream-secret",
        "library-secret",
        "query-secret",
        "redis-secret",
        "token-secret",
        "key-id-secret",
        "access-secret",
    ] {
        assert!(!out.contains(secret), "{secret} shown in\n{out}");
    }
    assert!(line_of(&out, "library").contains("postgres://gw:…@db.internal/media"));
    assert!(
        out.contains("the service's token: … (environment MEDIA_GEN_TOKEN)"),
        "{out}"
    );
    assert!(
        out.contains("AWS_ENDPOINT_URL: http://127.0.0.1:9000"),
        "{out}"
    );
    assert!(out.contains("AWS_SECRET_ACCESS_KEY: …"), "{out}");
}

#[tokio::test]
async fn check_exits_non_zero_when_a_part_fails_so_a_start_stops_there() {
    let dir = tempfile::tempdir().unwrap();
    let nothing = gateway(&["check"], &[]).await;
    assert!(nothing.status.success(), "{}", text(&nothing.stdout));
    assert!(text(&nothing.stdout).contains("skip    upstream"));
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let path = written(&dir, &format!("redis = \"redis://127.0.0.1:{port}/\"\n"));
    let output = gateway(&["check", "--config", &path], &[]).await;
    assert_eq!(output.status.code(), Some(1));
    let out = text(&output.stdout);
    assert!(out.contains("FAILED  redis"), "{out}");
    assert!(
        out.contains(&format!(
            "→ start Redis there, or correct redis in {path}:1"
        )),
        "{out}"
    );
    // Settings the gateway would refuse at start fail their own line.
    let refused = gateway(
        &["check", "--upload-dir", dir.path().to_str().unwrap()],
        &[],
    )
    .await;
    assert_eq!(refused.status.code(), Some(1));
    let out = text(&refused.stdout);
    assert!(
        out.contains(
            "FAILED  settings    uploads (--upload-dir, --upload-store) need --public-url"
        ),
        "{out}"
    );
}
