//! Uploads (`cargo xtask bench uploads`): throughput of one large upload
//! on loopback through the gateway into a folder and into S3 (`s3s-fs`),
//! beside nginx writing the same request body to disk; the gateway's
//! memory while a 1 GiB upload streams through it (budget: at most 32 MiB
//! over idle); and the bytes sent again after a connection cut at half
//! way (budget: at most one of the app's 4 MiB chunks); and in headless
//! Chromium, the time from a photo dropped on the app's start frame to its
//! preview on the page.

use std::time::{Duration, Instant};

use media_gen_e2e::s3::S3Server;
use media_gen_e2e::tus::cut_after;
use media_gen_e2e::{start_gateway_at, Browser, Nginx};

use crate::report::Report;
use crate::sandbox::Server;
use crate::size::Size;

const MIB: u64 = 1 << 20;
/// The upload timed for throughput.
const TIMED: u64 = 256 * MIB;
/// The upload memory is watched over.
const LARGE: u64 = 1024 * MIB;
/// The upload cut at half way.
const CUT: u64 = 64 * MIB;
/// The app's chunk: what a cut may cost at most.
const CHUNK: u64 = 4 * MIB;

/// How big the uploads are: the constants above in full; a few MiB each
/// in a smoke run (the same requests, the cut too).
struct Lengths {
    timed: u64,
    large: u64,
    cut: u64,
    drops: usize,
}

impl Lengths {
    fn of(size: Size) -> Lengths {
        match size {
            Size::Full => Lengths {
                timed: TIMED,
                large: LARGE,
                cut: CUT,
                drops: DROPS,
            },
            Size::Smoke => Lengths {
                timed: 2 * MIB,
                large: 4 * MIB,
                cut: 4 * MIB,
                drops: 1,
            },
        }
    }
}

/// `1 GiB`, `256 MiB`: as the figures' names say a length.
fn amount(bytes: u64) -> String {
    const GIB: u64 = 1024 * MIB;
    if bytes >= GIB && bytes.is_multiple_of(GIB) {
        format!("{} GiB", bytes / GIB)
    } else {
        format!("{} MiB", bytes / MIB)
    }
}

/// A body of `length` bytes that reads as a video (an ISO BMFF `ftyp`
/// box, then filler), made as it is sent: the benchmark holds 1 MiB.
fn video_body(length: u64) -> reqwest::Body {
    let mut first = vec![0u8; MIB as usize];
    first[..12].copy_from_slice(b"\0\0\0\x18ftypmp42");
    let filler = bytes::Bytes::from(vec![7u8; MIB as usize]);
    let first = bytes::Bytes::from(first);
    let chunks = (0..length.div_ceil(MIB)).map(move |index| {
        let size = (length - index * MIB).min(MIB) as usize;
        let chunk = if index == 0 {
            first.clone()
        } else {
            filler.clone()
        };
        Ok::<_, std::io::Error>(chunk.slice(..size))
    });
    reqwest::Body::wrap_stream(futures::stream::iter(chunks))
}

/// A new upload of `length` bytes at `base`: its address.
async fn create(client: &reqwest::Client, base: &str, length: u64) -> Result<String, String> {
    let made = client
        .post(format!("{base}/uploads/"))
        .header("tus-resumable", "1.0.0")
        .header("upload-length", length)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if made.status() != 201 {
        return Err(format!("{base}: making an upload: HTTP {}", made.status()));
    }
    made.headers()["location"]
        .to_str()
        .map(str::to_owned)
        .map_err(|e| e.to_string())
}

/// Send `length` bytes to `upload` from `offset`, declaring `length`.
async fn patch(
    client: &reqwest::Client,
    upload: &str,
    offset: u64,
    body: reqwest::Body,
) -> Result<(), String> {
    let sent = client
        .patch(upload)
        .header("tus-resumable", "1.0.0")
        .header("upload-offset", offset)
        .header("content-type", "application/offset+octet-stream")
        .body(body)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    match sent.status().as_u16() {
        204 => Ok(()),
        status => Err(format!("{upload}: HTTP {status}: {:?}", sent.text().await)),
    }
}

/// MiB/s of one upload of `length` bytes through the gateway at `base`.
async fn through_gateway(base: &str, length: u64) -> Result<f64, String> {
    let client = reqwest::Client::new();
    let upload = create(&client, base, length).await?;
    let started = Instant::now();
    patch(&client, &upload, 0, video_body(length)).await?;
    Ok(length as f64 / MIB as f64 / started.elapsed().as_secs_f64())
}

/// nginx writing a `PUT`'s body into a file of `root` (its WebDAV module).
fn nginx_block(port: u16, root: &std::path::Path) -> String {
    format!(
        "  server {{\n    listen 127.0.0.1:{port};\n    client_max_body_size 0;\n    \
         location / {{\n      root {};\n      dav_methods PUT;\n    }}\n  }}",
        root.display()
    )
}

/// MiB/s of nginx writing `length` bytes of body to disk.
async fn through_nginx(length: u64) -> Result<f64, String> {
    let root = std::env::temp_dir().join(format!("media-gen-bench-put-{}", std::process::id()));
    std::fs::create_dir_all(&root).map_err(|e| e.to_string())?;
    // nginx's worker may run as another user.
    let _ = std::process::Command::new("chmod")
        .arg("a+rwx")
        .arg(&root)
        .status();
    let nginx = Nginx::start(|port| nginx_block(port, &root)).await;
    let client = reqwest::Client::new();
    let started = Instant::now();
    let answer = client
        .put(format!("http://{}/upload.mp4", nginx.address))
        .body(video_body(length))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let took = started.elapsed();
    let _ = std::fs::remove_dir_all(&root);
    if !answer.status().is_success() {
        return Err(format!("nginx: HTTP {}", answer.status()));
    }
    Ok(length as f64 / MIB as f64 / took.as_secs_f64())
}

/// The most the gateway's memory grew over idle while an upload of
/// `length` bytes streamed through it (sampled every 50 ms).
async fn memory_while_streaming(gateway: &Server, length: u64) -> Result<f64, String> {
    let idle = gateway
        .resident_mib()
        .ok_or("no memory figure (needs /proc)")?;
    let client = reqwest::Client::new();
    let upload = create(&client, &gateway.base_url, length).await?;
    let sending = tokio::spawn({
        let client = client.clone();
        async move { patch(&client, &upload, 0, video_body(length)).await }
    });
    let mut most = idle;
    while !sending.is_finished() {
        most = most.max(gateway.resident_mib().unwrap_or(idle));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    sending.await.map_err(|e| e.to_string())??;
    Ok(most - idle)
}

/// Bytes sent again after a cut at half of an upload of `length` bytes:
/// what was sent before the cut less the offset the gateway then gives.
async fn resent_after_cut(base: &str, length: u64) -> Result<u64, String> {
    let client = reqwest::Client::new();
    let upload = create(&client, base, length).await?;
    let mut half = vec![7u8; (length / 2) as usize];
    half[..12].copy_from_slice(b"\0\0\0\x18ftypmp42");
    cut_after(&upload, 0, length, &half)
        .await
        .map_err(|e| e.to_string())?;
    // The gateway writes what arrived, then lets the upload go (423 until then).
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut offset = 0;
    while Instant::now() < deadline {
        let answer = client
            .head(&upload)
            .header("tus-resumable", "1.0.0")
            .send()
            .await
            .map_err(|e| e.to_string())?;
        offset = answer
            .headers()
            .get("upload-offset")
            .and_then(|value| value.to_str().ok()?.parse().ok())
            .unwrap_or(0);
        if offset >= length / 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(length / 2 - offset.min(length / 2))
}

/// Drops per figure (a smoke run: one).
const DROPS: usize = 5;

/// On the app's image-to-video page: a 1920×1080 photo of noise (about
/// 8 MB as PNG) dropped on the start frame; milliseconds until its
/// preview is drawn.
const DROP_TO_PREVIEW: &str = "
    const canvas = document.createElement('canvas');
    canvas.width = 1920; canvas.height = 1080;
    const context = canvas.getContext('2d');
    const pixels = context.createImageData(1920, 1080);
    crypto.getRandomValues(pixels.data.subarray(0, 65536));
    for (let i = 65536; i < pixels.data.length; i += 65536) pixels.data.copyWithin(i, 0, 65536);
    for (let i = 3; i < pixels.data.length; i += 4) pixels.data[i] = 255;
    context.putImageData(pixels, 0, 0);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
    const file = new File([blob], 'photo.png', { type: 'image/png' });
    const field = document.querySelector('#image_url').closest('.file-target');
    const data = new DataTransfer(); data.items.add(file);
    const started = performance.now();
    field.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    for (;;) {
      const preview = document.querySelector('.upload__preview');
      if (preview && preview.complete && preview.naturalWidth > 0) break;
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    return performance.now() - started;";

/// The median time from a drop to its preview in the app in `dist`, of
/// `drops` drops.
async fn drop_to_preview(
    dist: &std::path::Path,
    sandbox: &str,
    drops: usize,
) -> Result<f64, String> {
    let folder = std::env::temp_dir().join(format!("media-gen-bench-drops-{}", std::process::id()));
    let base = start_gateway_at(sandbox, Some(dist.to_owned()), |settings, base| {
        settings.uploads = Some(media_gen_gateway::uploads::UploadSettings::new(
            folder.clone(),
            base.to_owned(),
        ));
    })
    .await;
    let browser = Browser::start_own().await;
    let mut times = Vec::new();
    for _ in 0..drops {
        browser.open(&format!("{base}/new/image-to-video")).await;
        browser
            .wait_until(
                "the start frame's file control",
                "document.querySelector('#image_url')?.closest('.file-target') != null",
            )
            .await;
        let took = browser.run_async(DROP_TO_PREVIEW).await;
        times.push(took.as_f64().ok_or_else(|| format!("no time: {took}"))?);
    }
    browser.close().await;
    let _ = std::fs::remove_dir_all(&folder);
    Ok(crate::report::median(times))
}

/// Run the uploads benchmark into `report`.
pub async fn measure(
    report: &mut Report,
    dist: &std::path::Path,
    size: Size,
) -> Result<(), String> {
    let lengths = Lengths::of(size);
    println!(
        "Uploads: one {} upload on loopback; a {} one for memory",
        amount(lengths.timed),
        amount(lengths.large)
    );
    let sandbox = Server::start(&[]).await?;
    let folder =
        std::env::temp_dir().join(format!("media-gen-bench-uploads-{}", std::process::id()));
    let folder_arg = folder.display().to_string();
    let flags = [
        "--uploads-open",
        "--upload-max-video",
        "2GiB",
        "--upload-bytes-per-day",
        "100GiB",
        "--upload-quota",
        "100GiB",
    ];
    let mut to_disk = vec!["--upload-dir", folder_arg.as_str()];
    to_disk.extend_from_slice(&flags);
    let gateway = Server::relaying_gateway_with(&sandbox.base_url, &to_disk).await?;
    report.add(
        "upload through the gateway to disk",
        through_gateway(&gateway.base_url, lengths.timed).await?,
        "MiB/s",
    );
    report.add(
        "nginx writing the same body to disk",
        through_nginx(lengths.timed).await?,
        "MiB/s",
    );

    let s3 = S3Server::start().await;
    let env = s3.environment();
    let mut to_s3 = to_disk.clone();
    to_s3.extend_from_slice(&["--upload-store", "s3://media/bench"]);
    let in_s3 = Server::relaying_gateway_env(&sandbox.base_url, &to_s3, &env).await?;
    report.add(
        "upload through the gateway to S3 (s3s-fs)",
        through_gateway(&in_s3.base_url, lengths.timed).await?,
        "MiB/s",
    );

    // Memory over idle on gateways that have done nothing yet: a used
    // one keeps what its allocator took for the uploads before.
    let fresh_to_disk = Server::relaying_gateway_with(&sandbox.base_url, &to_disk).await?;
    report.add_with_budget(
        format!(
            "gateway memory over idle, {} upload to disk",
            amount(lengths.large)
        ),
        memory_while_streaming(&fresh_to_disk, lengths.large).await?,
        "MiB",
        32.0,
    );
    let fresh_to_s3 = Server::relaying_gateway_env(&sandbox.base_url, &to_s3, &env).await?;
    report.add_with_budget(
        format!(
            "gateway memory over idle, {} upload to S3",
            amount(lengths.large)
        ),
        memory_while_streaming(&fresh_to_s3, lengths.large).await?,
        "MiB",
        32.0,
    );
    report.add_with_budget(
        "bytes sent again after a cut at 50 % (disk)",
        resent_after_cut(&gateway.base_url, lengths.cut).await? as f64 / MIB as f64,
        "MiB",
        (CHUNK / MIB) as f64,
    );
    report.add_with_budget(
        "bytes sent again after a cut at 50 % (S3)",
        resent_after_cut(&in_s3.base_url, lengths.cut).await? as f64 / MIB as f64,
        "MiB",
        (CHUNK / MIB) as f64,
    );
    report.add(
        format!("drop to preview, 8 MB photo (median of {})", lengths.drops),
        drop_to_preview(dist, &sandbox.base_url, lengths.drops).await?,
        "ms",
    );
    let _ = std::fs::remove_dir_all(&folder);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_named_as_the_figures_always_named_them() {
        assert_eq!(amount(LARGE), "1 GiB");
        assert_eq!(amount(TIMED), "256 MiB");
        assert_eq!(amount(4 * MIB), "4 MiB");
    }
}
