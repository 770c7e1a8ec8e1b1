//! "Copy as cURL" commands, run for real: the contract's command text,
//! pasted into a shell, makes the same request the app would.

use media_gen_api::{curl_command, CurlToken, TaskKind, TOKEN_VARIABLE};
use media_gen_sandbox::DEMO_TOKEN;
use serde_json::Value;

/// Run `script` in `sh`, with the token in its variable when `token`, off
/// the runtime's thread (the sandbox answers on it).
async fn sh(script: String, token: bool) -> std::process::Output {
    tokio::task::spawn_blocking(move || {
        let mut shell = std::process::Command::new("sh");
        shell.arg("-c").arg(script);
        if token {
            shell.env(TOKEN_VARIABLE, DEMO_TOKEN);
        } else {
            shell.env_remove(TOKEN_VARIABLE);
        }
        shell.output().expect("run sh")
    })
    .await
    .expect("the shell's thread")
}

/// Run `command` in `sh` with the token in its variable; its output as JSON.
/// `None` when this machine has no curl (the test then says so and stops).
async fn run(command: String) -> Option<Value> {
    if !sh("curl --version".to_owned(), false)
        .await
        .status
        .success()
    {
        eprintln!("no curl on this machine: the commands are not run");
        return None;
    }
    let output = sh(format!("{command} --silent --show-error"), true).await;
    assert!(
        output.status.success(),
        "{command}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(serde_json::from_slice(&output.stdout).expect("a JSON answer"))
}

#[tokio::test]
async fn a_copied_submit_and_status_read_work_in_a_shell() {
    let sandbox = crate::common::start_default().await;
    // Quotes, a newline and non-ASCII text: everything a prompt may hold.
    let body = r#"{"prompt":"it's a \"fox\"\nat dawn — 夜明け","generate_count":2}"#;
    let submit = curl_command(
        "POST",
        &format!(
            "{}{}",
            sandbox.base_url,
            TaskKind::ImageGenerate.submit_path()
        ),
        CurlToken::Masked,
        Some(body),
    );
    let Some(answer) = run(submit).await else {
        return;
    };
    assert_eq!(answer["code"], 0, "{answer}");
    let ids = answer["data"]["task_ids"].as_array().expect("task ids");
    assert_eq!(ids.len(), 2);

    let id = ids[0].as_str().expect("an id");
    let read = curl_command(
        "GET",
        &format!(
            "{}{}",
            sandbox.base_url,
            TaskKind::ImageGenerate.status_path(id)
        ),
        CurlToken::Included(DEMO_TOKEN),
        None,
    );
    let task = run(read).await.expect("curl, as above");
    assert_eq!(task["data"]["task_id"], id);

    // The masked form really needs the variable: without it, no access.
    let unauthorised = curl_command(
        "GET",
        &format!(
            "{}{}",
            sandbox.base_url,
            TaskKind::ImageGenerate.status_path(id)
        ),
        CurlToken::Masked,
        None,
    );
    let output = sh(format!("{unauthorised} --silent"), false).await;
    let answer: Value = serde_json::from_slice(&output.stdout).expect("a JSON answer");
    assert_ne!(answer["code"], 0, "{answer}");
}
