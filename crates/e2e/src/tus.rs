//! A tus `PATCH` written by hand on a connection of its own, for tests
//! and benchmarks that cut it (a phone losing its network) or pause in
//! it: reqwest sends a body whole or not at all.

use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

/// Open a connection to the upload at `upload` and send the head of a
/// `PATCH` from `offset` declaring `declared` bytes; the caller sends the
/// body (or part of it), then reads the answer or drops the connection.
pub async fn patch_by_hand(upload: &str, offset: u64, declared: u64) -> std::io::Result<TcpStream> {
    let url = url::Url::parse(upload).map_err(std::io::Error::other)?;
    let address = format!(
        "{}:{}",
        url.host_str().unwrap_or("127.0.0.1"),
        url.port_or_known_default().unwrap_or(80)
    );
    let mut stream = TcpStream::connect(address).await?;
    let head = format!(
        "PATCH {} HTTP/1.1\r\nHost: gateway\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: {offset}\r\n\
         Content-Type: application/offset+octet-stream\r\nContent-Length: {declared}\r\n\r\n",
        url.path()
    );
    stream.write_all(head.as_bytes()).await?;
    Ok(stream)
}

/// `bytes` sent to `upload` from `offset` in a `PATCH` declaring
/// `declared`, the connection then dropped.
pub async fn cut_after(
    upload: &str,
    offset: u64,
    declared: u64,
    bytes: &[u8],
) -> std::io::Result<()> {
    let mut stream = patch_by_hand(upload, offset, declared).await?;
    stream.write_all(bytes).await?;
    stream.flush().await
}
