//! Uploads over HTTP, as a tus client and the service meet them: made,
//! written in pieces, resumed after a connection cut mid-body at the offset
//! `HEAD` gives, served with its type, `Range` and safe headers; refused by
//! their first bytes (a page named `.png`, an SVG, an image over 20 MB) and
//! deleted; expired (410, bytes swept); within the folder's quota and each
//! owner's budgets; another person's upload left alone.

use std::path::Path;
use std::time::Duration;

use media_gen_gateway::access::AccessMode;
use media_gen_gateway::uploads::UploadSettings;
use reqwest::{Response, StatusCode};
use serde_json::Value;

use crate::support::{settings, start_gateway_at};

/// A PNG of `length` bytes: the signature, then filler.
fn png(length: usize) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    bytes.extend((0..length.saturating_sub(bytes.len())).map(|n| (n % 251) as u8));
    bytes.truncate(length);
    bytes
}

/// A gateway taking uploads into `dir`, `change`d; its base URL.
async fn gateway(dir: &Path, change: impl FnOnce(&mut UploadSettings)) -> String {
    start_gateway_at(settings(None), |settings, base| {
        let mut uploads = UploadSettings::new(dir.to_owned(), base.to_owned());
        change(&mut uploads);
        settings.uploads = Some(uploads);
    })
    .await
}

fn tus(request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
    request.header("tus-resumable", "1.0.0")
}

/// `POST /uploads/` for a file of `length` bytes named `name`.
async fn create(base: &str, length: u64, name: &str) -> Response {
    use base64::Engine;
    let name = base64::engine::general_purpose::STANDARD.encode(name);
    tus(reqwest::Client::new().post(format!("{base}/uploads/")))
        .header("upload-length", length)
        .header(
            "upload-metadata",
            format!("filename {name},filetype aW1hZ2UvcG5n"),
        )
        .send()
        .await
        .unwrap()
}

/// The new upload's address.
async fn created(base: &str, length: u64, name: &str) -> String {
    let answer = create(base, length, name).await;
    assert_eq!(
        answer.status(),
        StatusCode::CREATED,
        "{:?}",
        answer.text().await
    );
    answer.headers()["location"].to_str().unwrap().to_owned()
}

async fn patch(upload: &str, offset: u64, bytes: Vec<u8>) -> Response {
    tus(reqwest::Client::new().patch(upload))
        .header("upload-offset", offset)
        .header("content-type", "application/offset+octet-stream")
        .body(bytes)
        .send()
        .await
        .unwrap()
}

/// Where the upload stands (`Upload-Offset`), or its status.
async fn offset(upload: &str) -> Result<u64, StatusCode> {
    let answer = tus(reqwest::Client::new().head(upload))
        .send()
        .await
        .unwrap();
    if answer.status() != StatusCode::OK {
        return Err(answer.status());
    }
    Ok(answer.headers()["upload-offset"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap())
}

/// A `PATCH` from `offset` announcing `length` bytes whose connection is
/// cut after `sent`, as a train entering a tunnel cuts it.
async fn cut_after(upload: &str, offset: u64, length: u64, sent: &[u8]) {
    use tokio::io::AsyncWriteExt;
    let url = url::Url::parse(upload).unwrap();
    let address = format!("{}:{}", url.host_str().unwrap(), url.port().unwrap());
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let head = format!(
        "PATCH {} HTTP/1.1\r\nHost: gateway\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: {offset}\r\n\
         Content-Type: application/offset+octet-stream\r\nContent-Length: {length}\r\n\r\n",
        url.path()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(sent).await.unwrap();
    stream.flush().await.unwrap();
    drop(stream);
}

/// The refusal's message.
async fn message(answer: Response) -> String {
    let said: Value = answer.json().await.unwrap();
    said["msg"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_file_is_written_in_pieces_resumed_after_a_cut_and_served_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let base = gateway(dir.path(), |_| {}).await;
    let file = png(300_000);

    // What the server speaks.
    let options = reqwest::Client::new()
        .request(reqwest::Method::OPTIONS, format!("{base}/uploads/"))
        .send()
        .await
        .unwrap();
    assert_eq!(options.status(), StatusCode::NO_CONTENT);
    assert_eq!(options.headers()["tus-version"], "1.0.0");
    assert!(options.headers()["tus-extension"]
        .to_str()
        .unwrap()
        .contains("creation-with-upload"));

    let answer = create(&base, file.len() as u64, "my cat.jpeg").await;
    assert_eq!(answer.status(), StatusCode::CREATED);
    assert!(answer.headers().contains_key("upload-expires"));
    let upload = answer.headers()["location"].to_str().unwrap().to_owned();
    let id = upload.rsplit('/').next().unwrap().to_owned();
    assert!(
        upload.starts_with(&format!("{base}/uploads/")) && id.len() == 32,
        "{upload}"
    );
    assert_eq!(offset(&upload).await, Ok(0));

    // A first piece; then a body cut after 50,000 more bytes: the server
    // keeps what arrived and HEAD says where to go on from.
    assert_eq!(
        patch(&upload, 0, file[..100_000].to_vec()).await.status(),
        204
    );
    cut_after(
        &upload,
        100_000,
        file.len() as u64 - 100_000,
        &file[100_000..150_000],
    )
    .await;
    let at = async {
        for _ in 0..250 {
            let at = offset(&upload).await.unwrap();
            if at >= 150_000 {
                return at;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        offset(&upload).await.unwrap()
    }
    .await;
    assert_eq!(at, 150_000, "the bytes before the cut are kept");
    // From the wrong offset: refused, the right one named.
    // (423 while the cut call still finishes writing, as any tus client
    // is told to ask again.)
    let mut wrong = patch(&upload, 100_000, file[100_000..].to_vec()).await;
    for _ in 0..100 {
        if wrong.status() != StatusCode::LOCKED {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        wrong = patch(&upload, 100_000, file[100_000..].to_vec()).await;
    }
    assert_eq!(wrong.status(), StatusCode::CONFLICT);
    assert!(message(wrong).await.contains("the upload is at 150000"));
    let last = patch(&upload, at, file[at as usize..].to_vec()).await;
    assert_eq!(last.status(), 204);
    assert_eq!(
        last.headers()["upload-offset"],
        file.len().to_string().as_str()
    );

    // Served whole, with its type from its bytes and safe headers.
    let served = reqwest::get(&upload).await.unwrap();
    assert_eq!(served.status(), 200);
    let headers = served.headers().clone();
    assert_eq!(headers["content-type"], "image/png");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert_eq!(
        headers["cache-control"], "no-cache",
        "a kept copy is checked again: the upload may be gone"
    );
    assert_eq!(
        headers["content-security-policy"],
        "sandbox; default-src 'none'"
    );
    assert_eq!(
        headers["content-disposition"],
        "inline; filename=\"my-cat.png\""
    );
    assert_eq!(served.bytes().await.unwrap().as_ref(), file.as_slice());
    // A range, as video fetchers ask; and under a name of the client's.
    let range = reqwest::Client::new()
        .get(format!("{upload}/photo.png"))
        .header("range", "bytes=10-19")
        .send()
        .await
        .unwrap();
    assert_eq!(range.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(range.bytes().await.unwrap().as_ref(), &file[10..20]);
    // /capabilities says where uploads go.
    let said: Value = reqwest::get(format!("{base}/capabilities"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(said["data"]["uploads"]["path"], "/uploads/");
    assert_eq!(said["data"]["uploads"]["max_image_bytes"], 20 * 1024 * 1024);
}

#[tokio::test]
async fn files_are_judged_by_their_first_bytes_and_a_refused_one_is_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let base = gateway(dir.path(), |_| {}).await;
    let page = b"<!DOCTYPE html><html><script>alert(1)</script></html>".repeat(3);
    let svg = b"<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>".to_vec();
    for (bytes, name) in [(page, "cat.png"), (svg, "drawing.svg")] {
        let upload = created(&base, bytes.len() as u64, name).await;
        let refused = patch(&upload, 0, bytes).await;
        assert_eq!(
            refused.status(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{name}"
        );
        assert!(
            message(refused)
                .await
                .starts_with("file: not an image (JPEG, PNG"),
            "{name}"
        );
        assert_eq!(
            offset(&upload).await,
            Err(StatusCode::NOT_FOUND),
            "{name} deleted"
        );
    }
    // An image over 20 MB: refused on its first bytes, not after 21 MB.
    let big = 21_000_000;
    let upload = created(&base, big, "huge.png").await;
    let refused = patch(&upload, 0, png(4_096)).await;
    assert_eq!(refused.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert!(message(refused)
        .await
        .contains("image files may have at most 20971520 bytes"));
    // Declared past every bound: refused before a byte is sent.
    let too_long = create(&base, 3 << 30, "film.mp4").await;
    assert_eq!(too_long.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert!(message(too_long)
        .await
        .starts_with("Upload-Length: at most"));
    // Without the tus version, or the length: named.
    let no_version = reqwest::Client::new()
        .post(format!("{base}/uploads/"))
        .header("upload-length", 10)
        .send()
        .await
        .unwrap();
    assert_eq!(no_version.status(), StatusCode::PRECONDITION_FAILED);
    let no_length = tus(reqwest::Client::new().post(format!("{base}/uploads/")))
        .send()
        .await
        .unwrap();
    assert_eq!(no_length.status(), StatusCode::BAD_REQUEST);
    assert!(message(no_length).await.starts_with("upload-length:"));
    // Nothing is left of the refused files.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[tokio::test]
async fn an_upload_expires_answers_410_and_its_bytes_are_swept() {
    let dir = tempfile::tempdir().unwrap();
    let base = gateway(dir.path(), |uploads| uploads.ttl = Duration::from_secs(1)).await;
    let file = png(1_000);
    let upload = created(&base, 1_000, "a.png").await;
    assert_eq!(patch(&upload, 0, file).await.status(), 204);
    assert_eq!(reqwest::get(&upload).await.unwrap().status(), 200);
    tokio::time::sleep(Duration::from_millis(2_300)).await;
    let gone = reqwest::get(&upload).await.unwrap();
    assert_eq!(gone.status(), StatusCode::GONE);
    assert!(message(gone).await.contains("expired"));
    let id = upload.rsplit('/').next().unwrap();
    let part = dir.path().join(format!("{id}.part"));
    // The sweeper's next round deletes them.
    for _ in 0..100 {
        if !part.exists() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(!part.exists(), "the bytes are deleted");
    // A cancelled upload (tus termination) is gone at once.
    let cancelled = created(&base, 1_000, "b.png").await;
    let ended = tus(reqwest::Client::new().delete(&cancelled))
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status(), StatusCode::NO_CONTENT);
    assert_eq!(offset(&cancelled).await, Err(StatusCode::NOT_FOUND));
}

#[tokio::test]
async fn the_folders_quota_and_each_owners_budgets_hold() {
    let dir = tempfile::tempdir().unwrap();
    let base = gateway(dir.path(), |uploads| {
        uploads.quota = 5_000;
        uploads.bytes_per_day = 3_000;
        uploads.in_flight = 2;
    })
    .await;
    let full = create(&base, 6_000, "a.png").await;
    assert_eq!(full.status(), StatusCode::INSUFFICIENT_STORAGE);
    assert!(message(full)
        .await
        .contains("The upload storage is full: 0 of its 5000 bytes are in use"));
    // One finished, two under way: a third under way is refused.
    let first = created(&base, 1_000, "a.png").await;
    assert_eq!(patch(&first, 0, png(1_000)).await.status(), 204);
    created(&base, 1_000, "b.png").await;
    let third = created(&base, 500, "c.png").await;
    let refused = create(&base, 100, "d.png").await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.headers().contains_key("retry-after"));
    assert!(message(refused).await.contains("2 uploads under way"));
    // One cancelled: room under way, but 2,500 of the day's 3,000 bytes
    // are spent.
    let ended = tus(reqwest::Client::new().delete(&third))
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status(), StatusCode::NO_CONTENT);
    let over = create(&base, 600, "e.png").await;
    assert_eq!(over.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(message(over)
        .await
        .contains("3000 bytes of uploads of today are used"));
    assert_eq!(
        create(&base, 500, "f.png").await.status(),
        StatusCode::CREATED
    );
}

#[tokio::test]
async fn with_keys_an_upload_needs_a_person_and_is_theirs_alone() {
    let dir = tempfile::tempdir().unwrap();
    let keys = media_gen_gateway::access::key_file::KeyFile::new(dir.path());
    let (ada, grace) = (
        keys.add("ada", None, 0).unwrap(),
        keys.add("grace", None, 0).unwrap(),
    );
    let uploads = dir.path().join("uploads");
    let base = start_gateway_at(settings(None), |settings, base| {
        settings.access = AccessMode::Keys;
        settings.data_dir = Some(dir.path().to_owned());
        settings.uploads = Some(UploadSettings::new(uploads.clone(), base.to_owned()));
    })
    .await;
    let anonymous = create(&base, 1_000, "a.png").await;
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let made = tus(reqwest::Client::new().post(format!("{base}/uploads/")))
        .bearer_auth(&ada)
        .header("upload-length", 1_000)
        .send()
        .await
        .unwrap();
    assert_eq!(made.status(), StatusCode::CREATED);
    let upload = made.headers()["location"].to_str().unwrap().to_owned();
    let write = |key: String| {
        tus(reqwest::Client::new().patch(&upload))
            .bearer_auth(key)
            .header("upload-offset", 0)
            .header("content-type", "application/offset+octet-stream")
            .body(png(1_000))
            .send()
    };
    assert_eq!(write(grace).await.unwrap().status(), StatusCode::FORBIDDEN);
    assert_eq!(write(ada).await.unwrap().status(), StatusCode::NO_CONTENT);
    // Served to anyone holding its address: the service fetches it so.
    assert_eq!(reqwest::get(&upload).await.unwrap().status(), 200);
}

#[tokio::test]
async fn uploads_made_at_once_are_counted_one_by_one() {
    let dir = tempfile::tempdir().unwrap();
    let base = gateway(dir.path(), |uploads| uploads.in_flight = 2).await;
    // Five at once, as a page dropping five files makes them.
    let made = futures_util::future::join_all((0..5).map(|n| {
        let base = base.clone();
        async move { create(&base, 1_000, &format!("{n}.png")).await.status() }
    }))
    .await;
    let created = made
        .iter()
        .filter(|status| **status == StatusCode::CREATED)
        .count();
    let refused = made
        .iter()
        .filter(|status| **status == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!((created, refused), (2, 3), "{made:?}");
}

#[tokio::test]
async fn bytes_sent_to_a_complete_upload_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let base = gateway(dir.path(), |_| {}).await;
    let upload = created(&base, 1_000, "a.png").await;
    let done = patch(&upload, 0, png(1_000)).await;
    assert_eq!(done.status(), 204);
    let expires = done.headers()["upload-expires"].clone();
    // A client that lost the answer sends the end again: told it is all in.
    let again = patch(&upload, 1_000, Vec::new()).await;
    assert_eq!(again.status(), 204);
    assert_eq!(again.headers()["upload-offset"], "1000");
    assert_eq!(again.headers()["upload-expires"], expires);
    let wrong = patch(&upload, 10, png(10)).await;
    assert_eq!(wrong.status(), StatusCode::CONFLICT);
    assert_eq!(
        reqwest::get(&upload)
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap()
            .len(),
        1_000
    );
}

/// A mebibyte.
const MIB: u64 = 1 << 20;

#[tokio::test]
async fn declared_lengths_with_no_byte_sent_do_not_fill_the_quota() {
    let dir = tempfile::tempdir().unwrap();
    let base = gateway(dir.path(), |uploads| {
        uploads.quota = 20 << 30;
        uploads.in_flight = 100;
        uploads.bytes_per_day = 100 << 30;
    })
    .await;
    // Ten uploads declaring 2 GiB each, no byte sent: 20 GiB declared, the
    // whole quota, but only a piece each reserved.
    for n in 0..10 {
        created(&base, 2 << 30, &format!("{n}.mp4")).await;
    }
    // Another visitor's 10 MB still goes in.
    let file = png(10_000_000);
    let upload = created(&base, file.len() as u64, "b.png").await;
    assert_eq!(patch(&upload, 0, file).await.status(), 204);
    assert_eq!(offset(&upload).await, Ok(10_000_000));
}

#[tokio::test]
async fn the_quota_counts_what_arrived_and_says_what_is_used() {
    let dir = tempfile::tempdir().unwrap();
    let base = gateway(dir.path(), |uploads| {
        uploads.quota = 10 * MIB;
        uploads.in_flight = 100;
        // Long enough that a loaded machine gets from the second create to
        // the first PATCH before the second's reservation lapses.
        uploads.idle = Duration::from_secs(3);
    })
    .await;
    // Two 8 MiB uploads reserve a 4 MiB piece each: 8 of the 10 MiB.
    let first = created(&base, 8 * MIB, "a.png").await;
    created(&base, 8 * MIB, "b.png").await;
    let full = create(&base, 8 * MIB, "c.png").await;
    assert_eq!(full.status(), StatusCode::INSUFFICIENT_STORAGE);
    assert!(
        message(full)
            .await
            .contains("8388608 of its 10485760 bytes are in use"),
        "the 507 says what is really used"
    );
    // The first sends all 8 MiB at once: past 4 MiB its own next piece and
    // the second's reservation are over the quota, so it is stopped there,
    // keeping what arrived.
    let stopped = patch(&first, 0, png(8 * MIB as usize)).await;
    assert_eq!(stopped.status(), StatusCode::INSUFFICIENT_STORAGE);
    let kept = offset(&first).await.unwrap();
    assert!((4 * MIB..8 * MIB).contains(&kept), "{kept}");
    // Idle past --upload-idle, the uploads let their reservations go: what
    // arrived stays counted, and there is room for a new one.
    tokio::time::sleep(Duration::from_millis(4_100)).await;
    let made = create(&base, 4 * MIB, "d.png").await;
    assert_eq!(
        made.status(),
        StatusCode::CREATED,
        "{:?}",
        made.text().await
    );
}

/// Send `file` to `upload` in `piece`-byte `PATCH`es from `from`: the
/// first answer that is not 204, if any.
async fn send_in_pieces(upload: &str, file: &[u8], from: u64, piece: usize) -> Option<Response> {
    let mut offset = from as usize;
    while offset < file.len() {
        let end = (offset + piece).min(file.len());
        let answer = patch(upload, offset as u64, file[offset..end].to_vec()).await;
        if answer.status() != StatusCode::NO_CONTENT {
            return Some(answer);
        }
        offset = end;
    }
    None
}

#[tokio::test]
async fn the_quota_binds_whatever_size_the_clients_pieces_are() {
    // 1 MB, 4,000,000 bytes (below a reservation) and 4 MiB (exactly one).
    for piece in [1_000_000, 4_000_000, 4 * MIB as usize] {
        let dir = tempfile::tempdir().unwrap();
        let base = gateway(dir.path(), |uploads| {
            uploads.quota = 30_000_000;
            uploads.in_flight = 100;
            uploads.bytes_per_day = 1 << 30;
        })
        .await;
        let file = png(20_000_000);
        let first = created(&base, file.len() as u64, "a.png").await;
        assert!(
            send_in_pieces(&first, &file, 0, piece).await.is_none(),
            "{piece}: the first fits"
        );
        let second = created(&base, file.len() as u64, "b.png").await;
        let stopped = send_in_pieces(&second, &file, 0, piece)
            .await
            .unwrap_or_else(|| panic!("{piece}: the second was stored whole, over the quota"));
        assert_eq!(
            stopped.status(),
            StatusCode::INSUFFICIENT_STORAGE,
            "{piece}"
        );
        let kept = offset(&second).await.unwrap();
        assert!(
            20_000_000 + kept <= 30_000_000,
            "{piece}: {kept} bytes of the second kept beside the first's 20 MB"
        );
        // A stopped upload resumed is stopped again before its first byte.
        let again = patch(&second, kept, file[kept as usize..][..1_000].to_vec()).await;
        assert_eq!(again.status(), StatusCode::INSUFFICIENT_STORAGE, "{piece}");
        assert_eq!(
            offset(&second).await,
            Ok(kept),
            "{piece}: nothing more taken"
        );
    }
}

#[tokio::test]
async fn an_upload_trickled_below_the_floor_rate_is_ended_and_keeps_what_came() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dir = tempfile::tempdir().unwrap();
    let base = start_gateway_at(settings(None), |settings, base| {
        settings.upload_min_rate = 1_000;
        settings.uploads = Some(UploadSettings::new(dir.path().to_owned(), base.to_owned()));
    })
    .await;
    let upload = created(&base, 100_000, "a.png").await;
    let url = url::Url::parse(&upload).unwrap();
    let address = format!("{}:{}", url.host_str().unwrap(), url.port().unwrap());
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let head = format!(
        "PATCH {} HTTP/1.1\r\nHost: gateway\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n\
         Content-Type: application/offset+octet-stream\r\nContent-Length: 100000\r\n\r\n",
        url.path()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let file = png(100_000);
    // 50 bytes every 100 ms: 500 bytes a second, half the floor, and never
    // idle for the one second between pieces.
    let started = std::time::Instant::now();
    let mut answer = Vec::new();
    let mut buffer = [0u8; 1024];
    for piece in file.chunks(50) {
        tokio::select! {
            read = stream.read(&mut buffer) => {
                answer.extend_from_slice(&buffer[..read.unwrap_or(0)]);
                break;
            }
            () = tokio::time::sleep(Duration::from_millis(100)) => {
                if stream.write_all(piece).await.is_err() {
                    break;
                }
            }
        }
        assert!(started.elapsed() < Duration::from_secs(8), "never ended");
    }
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("what arrived is kept"), "{answer}");
    // What came is kept: the upload goes on from there.
    let kept = offset(&upload).await.unwrap();
    assert!(kept >= 500, "{kept}");
    let rest = file[kept as usize..].to_vec();
    assert_eq!(patch(&upload, kept, rest).await.status(), 204);
}
