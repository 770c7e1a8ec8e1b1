//! Results kept (`cargo xtask bench kept`): the time from a status read
//! that finds a task `SUCCEEDED` to its 50 MB video served whole from the
//! gateway's copy, on loopback, into a folder and into S3 (`s3s-fs`); and
//! the gateway's memory over idle while it keeps the copy (budget: at most
//! 32 MiB, as for uploads: the file streams, never whole in memory). The
//! service is a stand-in in this process that answers the status read and
//! serves the video as it is sent.

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::response::IntoResponse;
use axum::routing::get;
use media_gen_e2e::s3::S3Server;

use crate::report::Report;
use crate::sandbox::Server;
use crate::size::Size;

const MIB: u64 = 1 << 20;
/// The video kept (a smoke run: a couple of MiB).
const VIDEO: u64 = 50 * MIB;

/// A video of `length` bytes (an ISO BMFF `ftyp` box, then filler, whole
/// MiB) made as it is sent.
fn video_body(length: u64) -> Body {
    let mut first = vec![0u8; MIB as usize];
    first[..24].copy_from_slice(b"\0\0\0\x18ftypmp42\0\0\0\0mp42isom");
    let first = bytes::Bytes::from(first);
    let rest = bytes::Bytes::from(vec![7u8; MIB as usize]);
    let chunks = (0..length / MIB)
        .map(move |n| Ok::<_, std::io::Error>(if n == 0 { first.clone() } else { rest.clone() }));
    Body::from_stream(futures::stream::iter(chunks))
}

/// A stand-in service: every image-to-video task has `SUCCEEDED` with
/// its video of `length` bytes at `/media/{id}.mp4`; its base URL.
async fn start_service(length: u64) -> Result<String, String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let base = format!(
        "http://{}",
        listener.local_addr().map_err(|e| e.to_string())?
    );
    let media = base.clone();
    let app = axum::Router::new()
        .route(
            "/v1/image_to_video/{id}",
            get(
                move |axum::extract::Path(id): axum::extract::Path<String>| {
                    let media = media.clone();
                    async move {
                        axum::Json(serde_json::json!({ "code": 0, "msg": "success", "data": {
                            "task_id": id, "status": "SUCCEEDED",
                            "video_url": format!("{media}/media/{id}.mp4"), "thumbnail_url": "",
                        }}))
                    }
                },
            ),
        )
        .route(
            "/media/{name}",
            get(move || async move {
                (
                    [
                        ("content-type", "video/mp4"),
                        ("content-length", &length.to_string()[..]),
                    ],
                    video_body(length),
                )
                    .into_response()
            }),
        );
    tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(base)
}

/// Seconds from the read that finds task `id` succeeded to its kept copy
/// (of `length` bytes) read whole from the gateway at `gateway`, and the
/// most the gateway's memory grew over idle meanwhile (sampled every 20 ms).
async fn keep_one(gateway: &Server, id: &str, length: u64) -> Result<(f64, f64), String> {
    let idle = gateway
        .resident_mib()
        .ok_or("no memory figure (needs /proc)")?;
    let client = reqwest::Client::new();
    let started = Instant::now();
    let reading = tokio::spawn({
        let client = client.clone();
        let url = format!("{}/v1/image_to_video/{id}", gateway.base_url);
        async move {
            let mut kept = None;
            for _ in 0..100 {
                let read: serde_json::Value = client
                    .get(&url)
                    .send()
                    .await
                    .map_err(|e| e.to_string())?
                    .json()
                    .await
                    .map_err(|e| e.to_string())?;
                kept = read["data"]["kept"]["video_url"]
                    .as_str()
                    .map(str::to_owned);
                if kept.is_some() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            let kept = kept.ok_or("the video was not kept")?;
            let bytes = client
                .get(&kept)
                .send()
                .await
                .map_err(|e| e.to_string())?
                .bytes()
                .await
                .map_err(|e| e.to_string())?;
            if bytes.len() as u64 != length {
                return Err(format!("the copy has {} bytes", bytes.len()));
            }
            Ok::<_, String>(())
        }
    });
    let mut most = idle;
    while !reading.is_finished() {
        most = most.max(gateway.resident_mib().unwrap_or(idle));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    reading.await.map_err(|e| e.to_string())??;
    Ok((started.elapsed().as_secs_f64(), most - idle))
}

/// Run the results-kept benchmark into `report`.
pub async fn measure(report: &mut Report, size: Size) -> Result<(), String> {
    let length = size.pick(VIDEO, 2 * MIB);
    println!(
        "Results kept: a {} MB video on loopback, into a folder and into S3",
        length / MIB
    );
    let service = start_service(length).await?;
    let folder = std::env::temp_dir().join(format!("media-gen-bench-kept-{}", std::process::id()));
    let folder_arg = folder.display().to_string();
    let to_disk = ["--upload-dir", folder_arg.as_str(), "--uploads-open"];
    let on_disk = Server::relaying_gateway_with(&service, &to_disk).await?;
    let (seconds, memory) = keep_one(&on_disk, "disk-1", length).await?;
    report.add(
        "50 MB result: succeeded to served from the copy (disk)",
        seconds,
        "s",
    );
    report.add_with_budget(
        "gateway memory over idle, keeping 50 MB (disk)",
        memory,
        "MiB",
        32.0,
    );

    let s3 = S3Server::start().await;
    let env = s3.environment();
    let mut to_s3 = to_disk.to_vec();
    to_s3.extend_from_slice(&["--upload-store", "s3://media/kept"]);
    let in_s3 = Server::relaying_gateway_env(&service, &to_s3, &env).await?;
    let (seconds, memory) = keep_one(&in_s3, "s3-1", length).await?;
    report.add(
        "50 MB result: succeeded to served from the copy (S3)",
        seconds,
        "s",
    );
    report.add_with_budget(
        "gateway memory over idle, keeping 50 MB (S3)",
        memory,
        "MiB",
        32.0,
    );
    let _ = std::fs::remove_dir_all(&folder);
    Ok(())
}
