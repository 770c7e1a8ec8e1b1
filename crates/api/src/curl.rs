//! A request as a cURL command line, for "copy as cURL": the exact request,
//! to run in a terminal or paste into a bug report.
//!
//! Arguments are quoted for POSIX shells (sh, bash, zsh). fish and Windows
//! shells read quotes differently.

/// The environment variable the masked form of the token reads.
pub const TOKEN_VARIABLE: &str = "MEDIA_GEN_TOKEN";

/// How the API token appears in the command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CurlToken<'a> {
    /// `-H "Authorization: Bearer $MEDIA_GEN_TOKEN"`: in double quotes, so the
    /// shell puts the token in once that environment variable is set, and the
    /// copied text never shows it.
    Masked,
    /// `-H 'Authorization: Bearer TOKEN'` with the real token.
    Included(&'a str),
    /// No `Authorization` header.
    None,
}

/// Between the options: a line continuation, then an indent.
const CONTINUATION: &str = " \\\n  ";

/// The request as a cURL command, one option per line:
///
/// ```text
/// curl -X POST 'https://host/v1/image_generate' \
///   -H "Authorization: Bearer $MEDIA_GEN_TOKEN" \
///   -H 'Content-Type: application/json' \
///   --data-raw '{"prompt":"it'\''s"}'
/// ```
///
/// `-X` is left out for a `GET` without a body, and the JSON content type when
/// there is no body. Every argument from the caller is single-quoted, so
/// nothing in it is expanded by the shell; a method that is a plain word is
/// written bare. A URL starting with `-` goes after `--url`, so curl cannot
/// read it as an option.
pub fn curl_command(
    method: &str,
    url: &str,
    token: CurlToken<'_>,
    json_body: Option<&str>,
) -> String {
    let mut first = "curl".to_owned();
    if method != "GET" || json_body.is_some() {
        first.push_str(" -X ");
        first.push_str(&word(method));
    }
    if url.starts_with('-') {
        first.push_str(" --url");
    }
    first.push(' ');
    first.push_str(&shell_quote(url));

    let mut lines = vec![first];
    match token {
        CurlToken::Masked => lines.push(format!("-H \"Authorization: Bearer ${TOKEN_VARIABLE}\"")),
        CurlToken::Included(token) => lines.push(format!(
            "-H {}",
            shell_quote(&format!("Authorization: Bearer {token}"))
        )),
        CurlToken::None => {}
    }
    if let Some(body) = json_body {
        lines.push("-H 'Content-Type: application/json'".to_owned());
        lines.push(format!("--data-raw {}", shell_quote(body)));
    }
    lines.join(CONTINUATION)
}

/// `text` as one POSIX shell word that stands for exactly `text`: in single
/// quotes, where nothing is special, with each `'` written as `'\''` (close
/// the quotes, an escaped quote, open them again).
pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// `text` bare when it is a plain word, as methods are, else quoted.
fn word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_');
    if plain {
        text.to_owned()
    } else {
        shell_quote(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Output};

    #[test]
    fn get_with_the_masked_token() {
        assert_eq!(
            curl_command(
                "GET",
                "https://host/v1/image_generate/t-1",
                CurlToken::Masked,
                None
            ),
            "curl 'https://host/v1/image_generate/t-1' \\\n  \
             -H \"Authorization: Bearer $MEDIA_GEN_TOKEN\""
        );
    }

    #[test]
    fn post_with_quotes_newlines_and_unicode_in_the_body() {
        let body = "{\"prompt\":\"it's a \\\"cat\\\"\\n猫 👍\nnext line\"}";
        assert_eq!(
            curl_command(
                "POST",
                "https://host/v1/image_generate",
                CurlToken::Masked,
                Some(body)
            ),
            "curl -X POST 'https://host/v1/image_generate' \\\n  \
             -H \"Authorization: Bearer $MEDIA_GEN_TOKEN\" \\\n  \
             -H 'Content-Type: application/json' \\\n  \
             --data-raw '{\"prompt\":\"it'\\''s a \\\"cat\\\"\\n猫 👍\nnext line\"}'"
        );
    }

    #[test]
    fn an_included_token_is_quoted_with_its_header() {
        assert_eq!(
            curl_command(
                "GET",
                "https://host/v1/x",
                CurlToken::Included("ab'c$d"),
                None
            ),
            "curl 'https://host/v1/x' \\\n  -H 'Authorization: Bearer ab'\\''c$d'"
        );
    }

    #[test]
    fn no_token_no_authorization_header() {
        assert_eq!(
            curl_command("GET", "https://host/v1/x", CurlToken::None, None),
            "curl 'https://host/v1/x'"
        );
        assert_eq!(
            curl_command("POST", "https://host/v1/x", CurlToken::None, Some("{}")),
            "curl -X POST 'https://host/v1/x' \\\n  \
             -H 'Content-Type: application/json' \\\n  \
             --data-raw '{}'"
        );
    }

    #[test]
    fn odd_methods_and_urls_stay_single_arguments() {
        assert_eq!(
            curl_command("GET", "https://host/", CurlToken::None, Some("")),
            "curl -X GET 'https://host/' \\\n  \
             -H 'Content-Type: application/json' \\\n  \
             --data-raw ''"
        );
        assert_eq!(
            curl_command("get; rm", "-o/tmp/x", CurlToken::None, None),
            "curl -X 'get; rm' --url '-o/tmp/x'"
        );
        assert_eq!(curl_command("", "", CurlToken::None, None), "curl -X '' ''");
    }

    #[test]
    fn shell_quote_examples() {
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("plain"), "'plain'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote("''"), "''\\'''\\'''");
    }

    /// `script` run by `sh -c` with `MEDIA_GEN_TOKEN` set; `None`, with a
    /// message, where there is no `sh` to run.
    fn sh(script: &str) -> Option<Output> {
        match Command::new("sh")
            .arg("-c")
            .arg(script)
            .env(TOKEN_VARIABLE, "secret 'token' $HOME")
            .output()
        {
            Ok(output) => Some(output),
            Err(error) => {
                eprintln!("no sh to run ({error}); shell quoting not checked by a shell");
                None
            }
        }
    }

    const TRICKY: &[&str] = &[
        "",
        "plain",
        "it's",
        "'",
        "''",
        "'\\''",
        "\"double\" quotes",
        "$HOME ${HOME} $(echo no) $((1+1))",
        "`echo no`",
        "back\\slash \\n \\\\ \\",
        "line one\nline two\n\n",
        "tab\tand\r carriage",
        "* ? [a-z] ~ # ! !! & | ; < > ( ) { }",
        " leading and trailing ",
        "-n",
        "%s %d %% \\0",
        "日本語 👍 é\u{a0}\u{200b}",
    ];

    #[test]
    fn a_shell_reads_back_exactly_the_quoted_text() {
        for text in TRICKY {
            let script = format!("printf '%s\\n' {}", shell_quote(text));
            let Some(output) = sh(&script) else {
                return;
            };
            assert!(output.status.success(), "{text:?}: {output:?}");
            assert_eq!(
                String::from_utf8_lossy(&output.stdout),
                format!("{text}\n"),
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_shell_passes_curl_exactly_the_request() {
        // A shell function named curl stands in for curl and prints the
        // arguments it gets, each ended by a NUL byte, which none can hold.
        let print_arguments = "curl() { for arg in \"$@\"; do printf '%s\\000' \"$arg\"; done; }\n";
        let body = TRICKY.join("|");
        let url = "https://host/v1/image_generate?a='b'&c=$d";
        let cases = [
            (
                curl_command("POST", url, CurlToken::Masked, Some(&body)),
                vec![
                    "-X",
                    "POST",
                    url,
                    "-H",
                    "Authorization: Bearer secret 'token' $HOME",
                    "-H",
                    "Content-Type: application/json",
                    "--data-raw",
                    &body,
                ],
            ),
            (
                curl_command("GET", url, CurlToken::Included("it's `x` $y"), None),
                vec![url, "-H", "Authorization: Bearer it's `x` $y"],
            ),
            (
                curl_command("GET", "-o/tmp/x", CurlToken::None, None),
                vec!["--url", "-o/tmp/x"],
            ),
        ];
        for (command, expected) in cases {
            let Some(output) = sh(&format!("{print_arguments}{command}")) else {
                return;
            };
            assert!(output.status.success(), "{command}: {output:?}");
            let stdout = String::from_utf8_lossy(&output.stdout);
            let arguments: Vec<&str> = stdout.split_terminator('\0').collect();
            assert_eq!(arguments, expected, "{command}");
        }
    }
}
