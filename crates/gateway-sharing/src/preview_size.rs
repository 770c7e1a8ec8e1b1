//! The size of a shared page's preview image, for its `og:image:width` and
//! `og:image:height`: chat apps draw the preview at once, in its place,
//! instead of after fetching the image. Read from the first bytes of the
//! kept copy, where PNG, JPEG, WebP and GIF say it.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, Method};
use http_body_util::BodyExt;

use crate::shown::File;
use crate::Sharing;

/// How much of the image is read: a JPEG may carry its metadata before
/// the frame that gives its size.
const HEAD_BYTES: usize = 64 * 1024;

/// The width and height of `file`, when its first bytes say them.
pub async fn of(sharing: &Sharing, file: &File) -> Option<(usize, usize)> {
    let head = Request::builder()
        .method(Method::GET)
        .header(header::RANGE, format!("bytes=0-{}", HEAD_BYTES - 1))
        .body(Body::empty())
        .ok()?;
    let read = sharing
        .kept
        .uploads
        .store
        .bytes
        .serve(&file.id, &file.record, &mime::IMAGE_STAR, head)
        .await
        .ok()?;
    let bytes = http_body_util::Limited::new(read.into_body(), HEAD_BYTES)
        .collect()
        .await
        .ok()?
        .to_bytes();
    let size = imagesize::blob_size(&bytes).ok()?;
    Some((size.width, size.height))
}
