//! The store uploads and kept results go to takes a small object, gives it
//! back and deletes it: S3-compatible storage, or the upload folder.

use super::{Environment, Line, PART_TIMEOUT};
use crate::config_file::Loaded;
use crate::config_shown::STORE_ENVIRONMENT;
use crate::uploads::bytes::s3::S3Bytes;
use media_gen_api::url_parts::without_password;

const PART: &str = "store";

/// Write, read and delete one small object.
pub(super) async fn check(loaded: &Loaded, env: Environment<'_>) -> Line {
    let uploads = match loaded.config.uploads() {
        Ok(Some(uploads)) => uploads,
        Ok(None) => {
            return Line::skipped(
                PART,
                "no uploads taken (and so no results kept): no upload-dir or upload-store, \
                 or access open without uploads-open",
            )
        }
        Err(_) => return Line::skipped(PART, "the settings name no usable store (above)"),
    };
    match (&uploads.store, &uploads.dir) {
        (Some(url), _) => object_storage(loaded, url, env).await,
        // The upload folder's line tries it (written, read, deleted).
        (None, Some(dir)) => Line::ok(
            PART,
            format!("in the upload folder {} (its line below)", dir.display()),
        ),
        (None, None) => Line::skipped(PART, "no upload-dir or upload-store"),
    }
}

async fn object_storage(loaded: &Loaded, url: &str, env: Environment<'_>) -> Line {
    let shown = without_password(url);
    let hint = format!(
        "check {}, AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, \
         and that the bucket exists",
        loaded.where_set("upload-store")
    );
    // As the gateway reads them from its environment (`AWS_ENDPOINT_URL`
    // as `aws_endpoint_url`, …).
    let options: Vec<(String, String)> = STORE_ENVIRONMENT
        .iter()
        .filter_map(|(var, _)| Some((var.to_ascii_lowercase(), env(var)?)))
        .collect();
    let store = match S3Bytes::open(url, &options) {
        Ok(store) => store,
        Err(error) => return Line::failed(PART, error, hint),
    };
    match tokio::time::timeout(PART_TIMEOUT, store.round_trip()).await {
        Ok(Ok(())) => Line::ok(
            PART,
            format!("{shown}: an object written, read and deleted"),
        ),
        Ok(Err(error)) => Line::failed(PART, format!("{shown}: {error}"), hint),
        Err(_) => Line::failed(
            PART,
            format!("{shown} did not answer within {} s", PART_TIMEOUT.as_secs()),
            hint,
        ),
    }
}
