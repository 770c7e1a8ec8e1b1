//! The service answers at `upstream` and takes the token: its language
//! list, read once.

use axum::http::{Method, StatusCode};
use media_gen_api::TARGET_LANGUAGES_PATH;

use super::{Line, PART_TIMEOUT};
use crate::config::TOKEN_VAR;
use crate::config_file::Loaded;
use crate::upstream::{CallError, UpstreamClient};

const PART: &str = "upstream";

/// Read the language list with the token.
pub(super) async fn check(loaded: &Loaded, token_var: Option<String>) -> Line {
    let token_at = match &loaded.config.token_file {
        Some(_) => loaded.where_set("token-file"),
        None => TOKEN_VAR.to_owned(),
    };
    let upstream = match loaded.config.upstream(token_var) {
        Ok(Some(upstream)) => upstream,
        Ok(None) => {
            return Line::skipped(
                PART,
                "no upstream: the gateway serves the app but forwards no call",
            )
        }
        Err(error) => {
            return Line::failed(
                PART,
                error.to_string(),
                format!("put the service's token in a file named by token-file, or in {TOKEN_VAR}"),
            )
        }
    };
    let shown = upstream.shown();
    let url = format!("{}{TARGET_LANGUAGES_PATH}", upstream.base);
    let where_set = loaded.where_set("upstream");
    let answer = UpstreamClient::new()
        .call(
            Method::GET,
            &url,
            &upstream.authorization,
            None,
            PART_TIMEOUT,
            crate::forward::MAX_ANSWER_BYTES,
        )
        .await;
    match answer {
        Ok(answer) if answer.status.is_success() => {
            let languages = serde_json::from_slice::<serde_json::Value>(&answer.body)
                .ok()
                .and_then(|body| body.get("data")?.as_array().map(Vec::len));
            match languages {
                Some(count) => Line::ok(
                    PART,
                    format!("{shown} answers and takes the token ({count} languages listed)"),
                ),
                None => Line::failed(
                    PART,
                    format!("{shown} answered {TARGET_LANGUAGES_PATH} without a language list"),
                    format!("{where_set} should be the service's base URL, without /v1"),
                ),
            }
        }
        Ok(answer) if matches!(answer.status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN) => {
            Line::failed(
                PART,
                format!("{shown} refuses the token ({})", answer.status),
                format!("the token in {token_at} is not one the service takes: put the service's own token there"),
            )
        }
        Ok(answer) => Line::failed(
            PART,
            format!("{shown} answered {} to {TARGET_LANGUAGES_PATH}", answer.status),
            format!("{where_set} should be the service's base URL, without /v1"),
        ),
        Err(CallError::Timeout) => Line::failed(
            PART,
            format!("{shown} did not answer within {} s", PART_TIMEOUT.as_secs()),
            "check this machine reaches it: DNS, a firewall, an outbound proxy",
        ),
        Err(CallError::Failed) => Line::failed(
            PART,
            format!("cannot reach {shown}"),
            format!("check {where_set} and that this machine reaches it (DNS, a firewall)"),
        ),
    }
}
