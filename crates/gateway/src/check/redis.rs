//! The Redis the gateways share answers a `PING`.

use super::{Line, PART_TIMEOUT};
use crate::config_file::Loaded;
use media_gen_api::url_parts::without_password;

const PART: &str = "redis";

/// Connect and ping, within [`PART_TIMEOUT`].
pub(super) async fn check(loaded: &Loaded) -> Line {
    let Some(url) = &loaded.config.redis else {
        return Line::skipped(PART, "no redis: budgets and keys are this gateway's own");
    };
    let shown = without_password(url);
    let where_set = loaded.where_set("redis");
    let client = match redis::Client::open(url.as_str()) {
        Ok(client) => client,
        Err(error) => {
            return Line::failed(
                PART,
                format!("{shown} is not a Redis address: {error}"),
                format!("give {where_set} as redis://host:6379/"),
            )
        }
    };
    let ping = async {
        let mut connection = client.get_multiplexed_async_connection().await?;
        redis::cmd("PING")
            .query_async::<String>(&mut connection)
            .await
    };
    match tokio::time::timeout(PART_TIMEOUT, ping).await {
        Ok(Ok(_)) => Line::ok(PART, format!("{shown} answers")),
        Ok(Err(error)) => Line::failed(
            PART,
            format!("{shown} does not answer: {}", error),
            format!("start Redis there, or correct {where_set} (and its password)"),
        ),
        Err(_) => Line::failed(
            PART,
            format!("{shown} did not answer within {} s", PART_TIMEOUT.as_secs()),
            format!("check {where_set} and that this machine reaches it"),
        ),
    }
}
