//! Uploads behind a balancer: two gateways sharing one Redis (the
//! uploads' records, the bytes of the day) and one S3-compatible storage
//! that checks signatures (`s3s-fs`). An upload begun on one goes on on
//! the other after a cut, is served by both (whole and by `Range`), and
//! the service fetches exactly its bytes; the bytes of the day are one
//! budget across both; a cancelled upload leaves nothing in the bucket;
//! a storage refusing the gateway's signature is a 503, not a lost file.

use std::time::Duration;

use media_gen_e2e::s3::S3Server;
use media_gen_e2e::tus::{cut_after, patch_by_hand};
use media_gen_e2e::{start_fetching_sandbox, Redis, RelayGateway, RelayOptions};
use media_gen_gateway::uploads::{FileId, UploadSettings};
use reqwest::StatusCode;

use crate::common::{fetched_hash, png, sha256, submit_video_from, video_task_end};

const MIB: usize = 1 << 20;

/// A gateway taking uploads into `s3`, its records in `redis`, its
/// upload settings as `change` leaves them.
async fn gateway(
    sandbox: &str,
    redis: &Redis,
    s3: &S3Server,
    change: impl FnOnce(&mut UploadSettings),
) -> RelayGateway {
    started(options(sandbox, redis, s3, change)).await
}

/// The options of a [`gateway`].
fn options(
    sandbox: &str,
    redis: &Redis,
    s3: &S3Server,
    change: impl FnOnce(&mut UploadSettings),
) -> RelayOptions {
    let mut uploads = UploadSettings {
        dir: None,
        store: Some("s3://media/uploads".to_owned()),
        store_options: s3.options(false),
        ..UploadSettings::new(Default::default(), String::new())
    };
    change(&mut uploads);
    RelayOptions {
        redis: Some(redis.url.clone()),
        uploads: Some(uploads),
        ..RelayOptions::new(sandbox)
    }
}

/// A gateway started with `options`, once it is ready.
async fn started(options: RelayOptions) -> RelayGateway {
    let gateway = RelayGateway::start(options).await;
    gateway.ready().await;
    gateway
}

fn tus(request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
    request.header("tus-resumable", "1.0.0")
}

/// A new upload of `length` bytes at `base`: its answer.
async fn create(base: &str, length: usize) -> reqwest::Response {
    tus(reqwest::Client::new().post(format!("{base}/uploads/")))
        .header("upload-length", length)
        .header("upload-metadata", "filename cGljdHVyZS5wbmc=")
        .send()
        .await
        .unwrap()
}

/// `bytes` sent to `upload` at `offset`: the status.
async fn patch(upload: &str, offset: usize, bytes: &[u8]) -> StatusCode {
    tus(reqwest::Client::new().patch(upload))
        .header("upload-offset", offset)
        .header("content-type", "application/offset+octet-stream")
        .body(bytes.to_vec())
        .send()
        .await
        .unwrap()
        .status()
}

/// Where `upload` stands, as `HEAD` says.
async fn offset(upload: &str) -> Option<usize> {
    let answer = tus(reqwest::Client::new().head(upload))
        .send()
        .await
        .unwrap();
    answer
        .headers()
        .get("upload-offset")?
        .to_str()
        .ok()?
        .parse()
        .ok()
}

/// `url`'s path on the gateway at `base`.
fn at(base: &str, url: &str) -> String {
    let path = url::Url::parse(url).unwrap().path().to_owned();
    format!("{base}{path}")
}

#[tokio::test]
#[ignore = "needs redis-server and s3s-fs: run through `cargo xtask test`"]
async fn an_upload_begun_on_one_gateway_goes_on_on_the_other_in_s3_and_both_serve_it() {
    let sandbox = start_fetching_sandbox(300).await;
    let redis = Redis::start().await;
    let s3 = S3Server::start().await;
    let budget = |uploads: &mut UploadSettings| uploads.bytes_per_day = 40 * MIB as u64;
    let one = gateway(&sandbox, &redis, &s3, budget).await;
    let other = gateway(&sandbox, &redis, &s3, budget).await;
    // 12 MiB: two whole parts of 5 MiB and a last one.
    let file = png(12 * MIB + 12_345);

    let made = create(&one.base_url, file.len()).await;
    assert_eq!(made.status(), StatusCode::CREATED);
    let upload = made.headers()["location"].to_str().unwrap().to_owned();
    let on_other = at(&other.base_url, &upload);
    // 6 MiB on the first: a part and 1 MiB kept pending.
    assert_eq!(
        patch(&upload, 0, &file[..6 * MIB]).await,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        offset(&on_other).await,
        Some(6 * MIB),
        "the other knows where it stands"
    );
    // 3 MiB more on the other, the connection then cut: what came is kept.
    cut_after(
        &on_other,
        (6 * MIB) as u64,
        (file.len() - 6 * MIB) as u64,
        &file[6 * MIB..9 * MIB],
    )
    .await
    .unwrap();
    let mut now = offset(&upload).await;
    for _ in 0..250 {
        if now == Some(9 * MIB) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        now = offset(&upload).await;
    }
    assert_eq!(now, Some(9 * MIB), "the bytes before the cut are kept");
    // The rest on the first again (asking again while the cut call finishes).
    let mut last = patch(&upload, 9 * MIB, &file[9 * MIB..]).await;
    for _ in 0..100 {
        if last != StatusCode::LOCKED {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        last = patch(&upload, 9 * MIB, &file[9 * MIB..]).await;
    }
    assert_eq!(last, StatusCode::NO_CONTENT);

    // Served by both, whole and by range, as the bytes picked.
    for served_at in [&upload, &on_other] {
        let whole = reqwest::get(served_at.as_str()).await.unwrap();
        assert_eq!(whole.status(), StatusCode::OK);
        assert_eq!(whole.headers()["content-type"], "image/png");
        assert_eq!(whole.headers()["x-content-type-options"], "nosniff");
        assert_eq!(
            sha256(&whole.bytes().await.unwrap()),
            sha256(&file),
            "{served_at}"
        );
        let range = reqwest::Client::new()
            .get(served_at.as_str())
            .header("range", "bytes=5242870-5242899")
            .send()
            .await
            .unwrap();
        assert_eq!(range.status(), StatusCode::PARTIAL_CONTENT);
        assert_eq!(
            range.headers()["content-range"],
            format!("bytes 5242870-5242899/{}", file.len()).as_str()
        );
        assert_eq!(
            &range.bytes().await.unwrap()[..],
            &file[5_242_870..5_242_900]
        );
    }
    let past = reqwest::Client::new()
        .get(&upload)
        .header("range", format!("bytes={}-", file.len() + 10))
        .send()
        .await
        .unwrap();
    assert_eq!(past.status(), StatusCode::RANGE_NOT_SATISFIABLE);
    assert_eq!(
        s3.objects("uploads").len(),
        1,
        "one object, nothing pending"
    );

    // A task made from it through the other: the service fetched those bytes.
    let id = submit_video_from(&other.base_url, &upload, "From S3").await;
    assert_eq!(video_task_end(&one.base_url, &id).await, "SUCCEEDED");
    assert_eq!(fetched_hash(&sandbox, &upload).await, Some(sha256(&file)));

    // The bytes of the day are one budget: 12 + 12 MiB fit in 40 on
    // either alone, but not 12 more after 24 on the two together.
    let second = create(&other.base_url, 12 * MIB).await;
    assert_eq!(second.status(), StatusCode::CREATED);
    let third = create(&one.base_url, 17 * MIB).await;
    assert_eq!(third.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(third.headers().contains_key("retry-after"));

    // Cancelled on one while pending bytes are kept: nothing stays.
    let cancelled = second.headers()["location"].to_str().unwrap().to_owned();
    assert_eq!(
        patch(&cancelled, 0, &file[..2 * MIB]).await,
        StatusCode::NO_CONTENT
    );
    assert_eq!(s3.objects("uploads").len(), 2, "the pending bytes");
    let ended = tus(reqwest::Client::new().delete(at(&one.base_url, &cancelled)))
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        reqwest::get(&cancelled).await.unwrap().status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(s3.objects("uploads").len(), 1, "only the finished upload");
}

#[tokio::test]
#[ignore = "needs redis-server and s3s-fs: run through `cargo xtask test`"]
async fn a_storage_that_refuses_the_signature_is_a_503_naming_no_secret() {
    let sandbox = start_fetching_sandbox(300).await;
    let redis = Redis::start().await;
    let s3 = S3Server::start().await;
    let gateway = gateway(&sandbox, &redis, &s3, |uploads| {
        uploads.store_options = s3.options(true);
    })
    .await;
    let refused = create(&gateway.base_url, 1_000).await;
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    let said = refused.text().await.unwrap();
    assert!(!said.contains("not-the-secret"), "{said}");
    assert!(s3.objects("uploads").is_empty());
}

#[tokio::test]
#[ignore = "needs redis-server: run through `cargo xtask test`"]
async fn changes_two_gateways_make_at_once_to_one_upload_are_all_kept() {
    use media_gen_gateway::redis_link::RedisLink;
    use media_gen_gateway::uploads::record::Upload;
    use media_gen_gateway::uploads::records::redis::RedisRecords;
    let redis = Redis::start().await;
    let (one, other) = (
        std::sync::Arc::new(RedisRecords::new(
            RedisLink::start(&redis.url).await.unwrap(),
        )),
        std::sync::Arc::new(RedisRecords::new(
            RedisLink::start(&redis.url).await.unwrap(),
        )),
    );
    let id = &FileId::parse("0123456789abcdef0123456789abcdef").unwrap();
    let upload = Upload {
        complete: true,
        ..Upload::new(1, "a.png".to_owned(), "ada".to_owned(), 0, 10)
    };
    one.save(id, &upload).await.unwrap();
    // The tasks of one submit ending together, heard on two gateways.
    let mut holds = tokio::task::JoinSet::new();
    for n in 0..20 {
        let records = std::sync::Arc::clone(if n % 2 == 0 { &one } else { &other });
        let id = id.clone();
        holds.spawn(async move {
            records
                .update(&id, |upload| {
                    upload.held_by.push(format!("image_generate/t{n}"))
                })
                .await
                .unwrap()
                .is_some()
        });
    }
    assert!(holds.join_all().await.into_iter().all(|held| held));
    assert_eq!(other.get(id).await.unwrap().unwrap().held_by.len(), 20);
    assert_eq!(
        one.update(&FileId::parse(&"f".repeat(32)).unwrap(), |_| {})
            .await
            .unwrap(),
        None,
        "no upload, nothing made"
    );
}

/// One command to the Redis at `url` in its own protocol: its answer's
/// first line.
async fn redis_command(url: &str, args: &[&str]) -> String {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let address = url.trim_start_matches("redis://").trim_end_matches('/');
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let mut command = format!("*{}\r\n", args.len());
    for arg in args {
        command.push_str(&format!("${}\r\n{arg}\r\n", arg.len()));
    }
    stream.write_all(command.as_bytes()).await.unwrap();
    let mut line = String::new();
    tokio::io::BufReader::new(stream)
        .read_line(&mut line)
        .await
        .unwrap();
    line.trim_end().to_owned()
}

#[tokio::test]
#[ignore = "needs redis-server and s3s-fs: run through `cargo xtask test`"]
async fn a_writer_whose_lock_was_lost_stops_and_keeps_nothing_more() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let sandbox = start_fetching_sandbox(300).await;
    let redis = Redis::start().await;
    let s3 = S3Server::start().await;
    let gateway = gateway(&sandbox, &redis, &s3, |_| {}).await;
    let file = png(8 * MIB);
    let made = create(&gateway.base_url, file.len()).await;
    let upload = made.headers()["location"].to_str().unwrap().to_owned();
    let id = upload.rsplit('/').next().unwrap().to_owned();
    let mut stream = patch_by_hand(&upload, 0, file.len() as u64).await.unwrap();
    stream.write_all(&file[..MIB]).await.unwrap();
    // The lock taken, then lost as a failover would lose it.
    let lock = format!("media-gen:upload-writing:{id}");
    let mut held = String::new();
    for _ in 0..100 {
        held = redis_command(&redis.url, &["EXISTS", &lock]).await;
        if held == ":1" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(held, ":1", "the PATCH holds the upload's lock");
    assert_eq!(redis_command(&redis.url, &["DEL", &lock]).await, ":1");
    // Past the next renewal, more bytes come: refused, nothing more kept.
    tokio::time::sleep(Duration::from_millis(6_000)).await;
    stream.write_all(&file[MIB..2 * MIB]).await.unwrap();
    let mut answer = vec![0u8; 64];
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut answer))
        .await
        .expect("an answer")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer[..read]).into_owned();
    assert!(answer.starts_with("HTTP/1.1 423"), "{answer}");
    assert_eq!(
        offset(&upload).await,
        Some(0),
        "the record kept nothing of it"
    );
}

#[tokio::test]
#[ignore = "needs redis-server and s3s-fs: run through `cargo xtask test`"]
async fn an_upload_completed_in_storage_whose_record_was_not_saved_completes_on_resume() {
    use media_gen_gateway::redis_link::RedisLink;
    use media_gen_gateway::uploads::records::redis::RedisRecords;
    let sandbox = start_fetching_sandbox(300).await;
    let redis = Redis::start().await;
    let s3 = S3Server::start().await;
    let gateway = gateway(&sandbox, &redis, &s3, |_| {}).await;
    let records = RedisRecords::new(RedisLink::start(&redis.url).await.unwrap());
    let file = png(7 * MIB);
    let made = create(&gateway.base_url, file.len()).await;
    let upload = made.headers()["location"].to_str().unwrap().to_owned();
    let id = FileId::parse(upload.rsplit('/').next().unwrap()).unwrap();
    assert_eq!(
        patch(&upload, 0, &file[..6 * MIB]).await,
        StatusCode::NO_CONTENT
    );
    let before = records.get(&id).await.unwrap().unwrap();
    assert_eq!(
        patch(&upload, 6 * MIB, &file[6 * MIB..]).await,
        StatusCode::NO_CONTENT
    );
    // As if the record could not be saved after the storage completed it.
    records.save(&id, &before).await.unwrap();
    assert_eq!(offset(&upload).await, Some(6 * MIB));
    // The client goes on from there: told it is all in, and it is.
    assert_eq!(
        patch(&upload, 6 * MIB, &file[6 * MIB..]).await,
        StatusCode::NO_CONTENT
    );
    assert_eq!(offset(&upload).await, Some(file.len()));
    let served = reqwest::get(&upload).await.unwrap().bytes().await.unwrap();
    assert_eq!(sha256(&served), sha256(&file));
}

#[tokio::test]
#[ignore = "needs redis-server and s3s-fs: run through `cargo xtask test`"]
async fn an_upload_held_by_a_task_made_on_one_gateway_is_let_go_when_another_sees_it_end() {
    let sandbox = start_fetching_sandbox(2_500).await;
    let redis = Redis::start().await;
    let s3 = S3Server::start().await;
    let short_lived = |uploads: &mut UploadSettings| uploads.ttl = Duration::from_secs(1);
    let one = gateway(&sandbox, &redis, &s3, short_lived).await;
    let other = gateway(&sandbox, &redis, &s3, short_lived).await;
    let file = png(3_000);
    let made = create(&one.base_url, file.len()).await;
    let upload = made.headers()["location"].to_str().unwrap().to_owned();
    assert_eq!(patch(&upload, 0, &file).await, StatusCode::NO_CONTENT);
    // Made through the first gateway...
    let id = submit_video_from(&one.base_url, &upload, "Held").await;
    // ...held past its TTL while the task runs...
    tokio::time::sleep(Duration::from_millis(2_000)).await;
    assert_eq!(
        reqwest::get(&upload).await.unwrap().status(),
        StatusCode::OK,
        "held"
    );
    // ...and let go when the other reads the task's end: gone a TTL later.
    assert_eq!(video_task_end(&other.base_url, &id).await, "SUCCEEDED");
    let mut status = StatusCode::OK;
    for _ in 0..60 {
        status = reqwest::get(&upload).await.unwrap().status();
        if status == StatusCode::GONE {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(status, StatusCode::GONE, "let go, then expired");
}

#[tokio::test]
#[ignore = "needs redis-server and s3s-fs: run through `cargo xtask test`"]
async fn a_type_is_judged_from_first_bytes_sent_to_two_gateways() {
    let sandbox = start_fetching_sandbox(300).await;
    let redis = Redis::start().await;
    let s3 = S3Server::start().await;
    let one = gateway(&sandbox, &redis, &s3, |_| {}).await;
    let other = gateway(&sandbox, &redis, &s3, |_| {}).await;
    let file = png(100_000);
    let made = create(&one.base_url, file.len()).await;
    let upload = made.headers()["location"].to_str().unwrap().to_owned();
    // Ten bytes on one (too few to judge), the rest on the other.
    assert_eq!(patch(&upload, 0, &file[..10]).await, StatusCode::NO_CONTENT);
    let on_other = at(&other.base_url, &upload);
    assert_eq!(
        patch(&on_other, 10, &file[10..]).await,
        StatusCode::NO_CONTENT
    );
    let served = reqwest::get(&upload).await.unwrap();
    assert_eq!(served.headers()["content-type"], "image/png");
    // A page named .png is refused once its first bytes are in, wherever.
    let page = b"<!DOCTYPE html><html><body><script>alert(1)</script></body></html>".repeat(3);
    let made = create(&one.base_url, page.len()).await;
    let refused = made.headers()["location"].to_str().unwrap().to_owned();
    assert_eq!(
        patch(&refused, 0, &page[..10]).await,
        StatusCode::NO_CONTENT
    );
    let refused_on_other = at(&other.base_url, &refused);
    assert_eq!(
        patch(&refused_on_other, 10, &page[10..]).await,
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
    assert_eq!(
        s3.objects("uploads").len(),
        1,
        "nothing of the page is kept"
    );
}

#[tokio::test]
#[ignore = "needs redis-server: run through `cargo xtask test`"]
async fn two_gateways_admit_uploads_against_one_quota_one_at_a_time() {
    let sandbox = start_fetching_sandbox(100).await;
    let redis = Redis::start().await;
    let dir = media_gen_e2e::test_folder("shared-quota");
    let start = || {
        let uploads = UploadSettings {
            quota: 6 * MIB as u64,
            in_flight: 100,
            ..UploadSettings::new(dir.path().to_owned(), String::new())
        };
        RelayGateway::start(RelayOptions {
            redis: Some(redis.url.clone()),
            uploads: Some(uploads),
            ..RelayOptions::new(&sandbox)
        })
    };
    let (one, other) = (start().await, start().await);
    one.ready().await;
    other.ready().await;
    // Each round, both gateways are asked at once for an upload whose
    // first piece (4 MiB) fits the 6 MiB quota alone: one gets it, the
    // other is told the storage is full.
    for round in 0..6 {
        let (first, second) = tokio::join!(
            create(&one.base_url, 4 * MIB),
            create(&other.base_url, 4 * MIB)
        );
        let statuses = [first.status(), second.status()];
        let made: Vec<&reqwest::Response> = [&first, &second]
            .into_iter()
            .filter(|answer| answer.status() == StatusCode::CREATED)
            .collect();
        assert_eq!(made.len(), 1, "round {round}: {statuses:?}");
        assert!(
            statuses.contains(&StatusCode::INSUFFICIENT_STORAGE),
            "round {round}: {statuses:?}"
        );
        // The one made is cancelled: room again for the next round.
        let address = made[0].headers()["location"].to_str().unwrap().to_owned();
        let ended = tus(reqwest::Client::new().delete(&address))
            .send()
            .await
            .unwrap();
        assert_eq!(ended.status(), StatusCode::NO_CONTENT);
    }
}

#[tokio::test]
#[ignore = "needs redis-server: run through `cargo xtask test`"]
async fn the_counts_two_gateways_keep_are_a_recount_and_drift_is_mended() {
    use media_gen_gateway::uploads::counts::{Counts, UPLOADS};
    use media_gen_gateway::uploads::record::RESERVATION;
    let sandbox = start_fetching_sandbox(100).await;
    let redis = Redis::start().await;
    let dir = media_gen_e2e::test_folder("shared-counts");
    let settings = || UploadSettings {
        in_flight: 100,
        ..UploadSettings::new(dir.path().to_owned(), String::new())
    };
    let start = || {
        RelayGateway::start(RelayOptions {
            redis: Some(redis.url.clone()),
            uploads: Some(settings()),
            ..RelayOptions::new(&sandbox)
        })
    };
    let (one, other) = (start().await, start().await);
    one.ready().await;
    other.ready().await;
    // Uploads made, written to and cancelled on both gateways.
    let mut made = Vec::new();
    for (base, length) in [
        (&one.base_url, MIB),
        (&other.base_url, 2 * MIB),
        (&one.base_url, 3 * MIB),
    ] {
        let answer = create(base, length).await;
        assert_eq!(answer.status(), StatusCode::CREATED);
        made.push(answer.headers()["location"].to_str().unwrap().to_owned());
    }
    assert_eq!(
        patch(&made[0], 0, &png(64 * 1024)).await,
        StatusCode::NO_CONTENT
    );
    let ended = tus(reqwest::Client::new().delete(&made[1]))
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status(), StatusCode::NO_CONTENT);
    // A third look at the same records: its counts are what a recount of
    // every record finds.
    let link = media_gen_gateway::redis_link::RedisLink::start(&redis.url)
        .await
        .unwrap();
    let uploads = media_gen_gateway::uploads::Uploads::open(settings(), Some(link))
        .await
        .unwrap();
    let records = &uploads.store.records;
    let all = records.all().await.unwrap();
    assert_eq!(all.len(), 2, "the cancelled upload is gone");
    let recounted = Counts::of(all.iter().map(|(_, record)| record));
    let counts = records.counts().await.unwrap();
    assert_eq!(counts.drift(&recounted), Vec::new(), "{counts:?}");
    assert!(counts.get(UPLOADS) > 0, "{counts:?}");
    // A count changed by hand, and a record written with no charge (as one
    // from before counts were kept): the recount says both and mends them.
    assert_eq!(
        redis_command(
            &redis.url,
            &["HSET", "media-gen:upload-counts", UPLOADS, "1"]
        )
        .await,
        ":0"
    );
    let id = FileId::parse("00112233445566778899aabbccddeeff").unwrap();
    let record = media_gen_gateway::uploads::record::Upload::new(
        5 * MIB as u64,
        "old.png".to_owned(),
        "192.0.2.9".to_owned(),
        1,
        u64::MAX / 2,
    );
    let text = serde_json::to_string(&record).unwrap();
    let key = format!("media-gen:upload:{id}");
    assert_eq!(
        redis_command(&redis.url, &["SET", &key, &text]).await,
        "+OK"
    );
    redis_command(&redis.url, &["SADD", "media-gen:uploads", id.as_str()]).await;
    let drift = uploads.store.recount().await.unwrap();
    let uploads_drift = drift.iter().find(|(count, _, _)| count == UPLOADS);
    // The old record's charge enters the counts as it is mended; then the
    // sum of every charge is found to differ from the count set by hand.
    let reserved = RESERVATION.min(5 * MIB as u64);
    let with_old = recounted.get(UPLOADS) + reserved;
    assert_eq!(
        uploads_drift,
        Some(&(UPLOADS.to_owned(), 1 + reserved, with_old)),
        "{drift:?}"
    );
    let all = records.all().await.unwrap();
    let counts = records.counts().await.unwrap();
    assert_eq!(
        counts.drift(&Counts::of(all.iter().map(|(_, record)| record))),
        Vec::new()
    );
    assert_eq!(
        uploads.store.recount().await.unwrap(),
        Vec::new(),
        "nothing left to mend"
    );
}

#[tokio::test]
#[ignore = "needs redis-server and s3s-fs: run through `cargo xtask test`"]
async fn a_result_read_through_both_gateways_at_once_is_fetched_once_and_served_by_both() {
    let sandbox = media_gen_sandbox::spawn_local(media_gen_sandbox::Config {
        media_ttl: Some(4),
        ..media_gen_e2e::sandbox_config(300)
    })
    .await
    .unwrap();
    let redis = Redis::start().await;
    let s3 = S3Server::start().await;
    // Every gateway of a deployment holds the same token: the same copies.
    let keeping = || RelayOptions {
        keep: Some(media_gen_gateway::kept::KeepSettings::new(b"token")),
        ..options(&sandbox, &redis, &s3, |_| {})
    };
    let one = started(keeping()).await;
    let other = started(keeping()).await;
    let image = format!("{sandbox}/sandbox/media/image/1K/16x9.png");
    let asked_before = crate::common::sandbox_stats(&sandbox).await["media_requests"]
        .as_u64()
        .unwrap();
    let id = submit_video_from(&one.base_url, &image, "Kept behind a balancer").await;
    // Past the task's end (the relay's confirming read may keep it then),
    // then read through both gateways at once.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let read = |base: String| {
        let id = id.clone();
        async move {
            let read: serde_json::Value = reqwest::get(format!("{base}/v1/image_to_video/{id}"))
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            read["data"].clone()
        }
    };
    let (first, second) = tokio::join!(read(one.base_url.clone()), read(other.base_url.clone()));
    assert_eq!(first["status"], "SUCCEEDED", "{first}");
    let kept = |data: &serde_json::Value| {
        let url = data["kept"]["video_url"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        url.split("/kept/").nth(1).map(str::to_owned)
    };
    let (mut copy_one, mut copy_other) = (kept(&first), kept(&second));
    // The gateway that did not fetch may have answered before the copy was
    // whole: a later read names it.
    if copy_one.is_none() {
        copy_one = kept(&read(one.base_url.clone()).await);
    }
    if copy_other.is_none() {
        copy_other = kept(&read(other.base_url.clone()).await);
    }
    let copy = copy_one.unwrap();
    assert_eq!(
        Some(copy.clone()),
        copy_other,
        "one copy, whichever gateway is asked"
    );
    let asked = crate::common::sandbox_stats(&sandbox).await["media_requests"]
        .as_u64()
        .unwrap();
    assert_eq!(
        asked - asked_before,
        2,
        "the video and its cover, fetched once in all (the relay and both reads)"
    );

    let original = first["video_url"].as_str().unwrap().to_owned();
    let served = reqwest::get(&original)
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert_eq!(
        reqwest::get(&original).await.unwrap().status(),
        404,
        "the service's URL is gone"
    );
    for base in [&one.base_url, &other.base_url] {
        let answer = reqwest::get(format!("{base}/kept/{copy}")).await.unwrap();
        assert_eq!(answer.status(), 200, "{base}");
        assert_eq!(
            sha256(&answer.bytes().await.unwrap()),
            sha256(&served),
            "{base}"
        );
        let part = reqwest::Client::new()
            .get(format!("{base}/kept/{copy}"))
            .header("range", "bytes=4-11")
            .send()
            .await
            .unwrap();
        assert_eq!(part.status(), 206);
        assert_eq!(part.bytes().await.unwrap(), served[4..12]);
    }
}
