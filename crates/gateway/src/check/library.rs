//! The library's database answers, and its schema is this gateway's or
//! older (the gateway brings it up to date when it starts). Nothing in it
//! is changed; an SQLite file not there yet is made, as the gateway would.

use super::{Line, PART_TIMEOUT};
use crate::access::AccessMode;
use crate::config_file::Loaded;
use crate::library::{schema_state, LibraryAt};

const PART: &str = "library";

/// Read the applied changes, changing nothing.
pub(super) async fn check(loaded: &Loaded) -> Line {
    let config = &loaded.config;
    let where_set = loaded.where_set("library");
    let flag = match config.library_flag() {
        Ok(flag) => flag,
        Err(error) => return Line::failed(PART, error.to_string(), format!("correct {where_set}")),
    };
    let Some(at) = flag.resolve(
        config.access.names_people(),
        config.data_dir.as_deref(),
        config.redis.is_some(),
    ) else {
        return Line::skipped(
            PART,
            match config.access {
                AccessMode::Open => "none: access open keeps no library",
                _ => "none kept (library off, or redis without a library)",
            },
        );
    };
    let hint = match &at {
        LibraryAt::Postgres(_) => format!(
            "check {where_set}: the database exists, and its user may connect and create tables"
        ),
        LibraryAt::Sqlite(path) => format!(
            "the gateway's user must be able to create and write {}",
            path.display()
        ),
    };
    match tokio::time::timeout(PART_TIMEOUT, schema_state(&at)).await {
        Ok(Ok(state)) if state.to_apply.is_empty() => Line::ok(
            PART,
            format!(
                "{} answers; its schema is current (version {})",
                state.at, state.version
            ),
        ),
        Ok(Ok(state)) => Line::ok(
            PART,
            format!(
                "{} answers; at start the gateway applies {}",
                state.at,
                state.to_apply.join(", ")
            ),
        ),
        Ok(Err(error @ crate::library::database::DbError::Newer { .. })) => Line::failed(
            PART,
            error.to_string(),
            "deploy the gateway that wrote it, or a newer one",
        ),
        Ok(Err(error)) => Line::failed(PART, error.to_string(), hint),
        Err(_) => Line::failed(
            PART,
            format!("no answer within {} s", PART_TIMEOUT.as_secs()),
            hint,
        ),
    }
}
