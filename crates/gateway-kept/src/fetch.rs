//! One result file fetched from the service's address into the store:
//! bounded in size (`Content-Length` first, then every byte counted),
//! time and redirects; only from the addresses [`super::sources`] allows,
//! each redirect judged again; judged by its first bytes against what its
//! field names; never whole in memory. What could not be kept is recorded with why, so a
//! page can say it and no gateway tries again.

use media_gen_gateway_uploads::FileId;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::{header, StatusCode, Uri};
use http_body_util::BodyExt;
use media_gen_api::kept::{MediaField, NotKept, SubtitleFormat};
use media_gen_api::media_type::MediaType;
use media_gen_api::TaskKey;

use super::sources::Sources;
use super::{file_name, room, KeepSettings, KeptFile};
use crate::access::{now_seconds, Who};
use crate::observe::{KEPT_FILES, KEPT_SECONDS};
use media_gen_gateway_base::upstream::CallError;
use media_gen_gateway_uploads::bytes::Writer;
use media_gen_gateway_uploads::record::Upload;
use media_gen_gateway_uploads::Uploads;

/// Redirects followed at most.
const MAX_REDIRECTS: usize = 3;
/// The longest the service's address may take to answer with its head
/// (at most half the whole fetch's time, so a silent one is named so).
const HEAD_DEADLINE: Duration = Duration::from_secs(30);
/// Bytes a file's type is judged from.
const HEAD_BYTES: usize = 512;

/// One file to keep.
#[derive(Debug, Clone)]
pub struct Job {
    /// The copy's id.
    pub id: FileId,
    /// The task it is of.
    pub task: TaskKey,
    /// Which of its files.
    pub field: MediaField,
    /// The service's address of it.
    pub url: String,
    /// Who submitted the task (a person, whose budgets count it, or an
    /// address in `open` mode); none when that is not known.
    pub owner: Option<Who>,
}

/// Whether `record` is settled: kept whole, or known not to be kept for
/// good. A record that is neither was left by a fetch that never ended (a
/// gateway stopped mid-way), or refused for now (a budget spent, no room):
/// it is fetched again.
pub fn settled(record: &Upload) -> bool {
    match &record.kept {
        Some(kept) if kept.retry => record.complete,
        Some(kept) => kept.not_kept.is_some() || record.complete || record.gone,
        None => true,
    }
}

/// Keep `job`'s file, unless another request or gateway is keeping it or
/// it is settled already; the outcome is recorded and counted.
pub async fn keep_one(uploads: Arc<Uploads>, sources: Sources, settings: KeepSettings, job: Job) {
    // The store's lock: one fetch of a copy among all gateways.
    let Ok(Some(_writing)) = uploads.store.start_writing(&job.id).await else {
        return;
    };
    if let Ok(Some(record)) = uploads.store.get(&job.id).await {
        if settled(&record) {
            return;
        }
    }
    let started = Instant::now();
    let fetched = tokio::time::timeout(
        settings.fetch_deadline,
        fetch_into(&uploads, &sources, &settings, &job),
    )
    .await
    .unwrap_or_else(|_| {
        Err(NotKept::NotGiven {
            detail: format!(
                "not whole within {}",
                humantime::format_duration(settings.fetch_deadline)
            ),
        })
    });
    match fetched {
        Ok(bytes) => {
            metrics::counter!(KEPT_FILES, "outcome" => "kept").increment(1);
            metrics::histogram!(KEPT_SECONDS).record(started.elapsed().as_secs_f64());
            tracing::info!(task = %job.task, field = job.field.name(), bytes, "a result was kept");
        }
        Err(why) => {
            // A fetch cut by its deadline may have left bytes: they go (what
            // fetch_into could, it deleted already); the record says why.
            let begun = new_record(&settings, &job, "application/octet-stream", "none");
            if let Err(error) = uploads.store.bytes.delete(&job.id, &begun).await {
                tracing::warn!(error = %crate::observe::Scrubbed(&error), "a refused result's bytes could not be deleted");
            }
            metrics::counter!(KEPT_FILES, "outcome" => outcome(&why)).increment(1);
            tracing::warn!(task = %job.task, field = job.field.name(), reason = %why, "a result was not kept");
            let mut record = new_record(&settings, &job, "application/octet-stream", "none");
            record.gone = true;
            if let Some(kept) = &mut record.kept {
                kept.not_kept = Some(why.to_string());
                // No room now may be room later: a budget's day ends,
                // copies expire, the owner reads again.
                kept.retry = matches!(why, NotKept::NoRoom { .. });
            }
            if let Err(error) = uploads.store.save(&job.id, &record).await {
                tracing::warn!(error = %crate::observe::Scrubbed(&error), "why a result was not kept could not be recorded");
            }
        }
    }
}

/// The metric's word for why a file was not kept.
fn outcome(why: &NotKept) -> &'static str {
    match why {
        NotKept::TooLarge { .. } => "too_large",
        NotKept::NotWhatItSaid { .. } => "not_what_it_said",
        NotKept::NotFetched { .. } => "not_fetched",
        NotKept::NotGiven { .. } => "not_given",
        NotKept::NoRoom { .. } => "no_room",
    }
}

/// A record of `job`'s copy served as `mime` with the extension `extension`.
fn new_record(settings: &KeepSettings, job: &Job, mime: &str, extension: &str) -> Upload {
    let now = now_seconds();
    let expires = now.saturating_add(settings.keep_for.as_secs());
    let name = file_name(&job.task.id, job.field, extension);
    Upload {
        kept: Some(KeptFile {
            pixels: None,
            task: job.task.to_string(),
            field: job.field.name().to_owned(),
            mime: mime.to_owned(),
            not_kept: None,
            retry: false,
        }),
        ..Upload::new(0, name, owner_text(job), now, expires)
    }
}

/// Whose a copy's record says it is: the owner's text, empty when unknown.
fn owner_text(job: &Job) -> String {
    job.owner.as_ref().map(Who::to_string).unwrap_or_default()
}

/// Fetch `job`'s file into the store; the bytes kept. Room is reserved
/// before a byte is written ([`room::reserve`]): the declared length, or
/// a piece at a time for a file sent with none, so fetches running
/// together never pass the quota or a budget.
async fn fetch_into(
    uploads: &Uploads,
    sources: &Sources,
    settings: &KeepSettings,
    job: &Job,
) -> Result<u64, NotKept> {
    let limit = settings.max_bytes;
    let response = answer(sources, settings, &job.url).await?;
    let declared = response
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok()?.parse::<u64>().ok());
    if let Some(bytes) = declared.filter(|&bytes| bytes > limit) {
        return Err(NotKept::TooLarge { bytes, limit });
    }
    let owner = job.owner.as_ref();
    // Asked before the body is read: a refusal costs the service's head only.
    let piece = room::PIECE.min(limit).min(settings.quota).max(1);
    let first_reservation = declared.unwrap_or(piece);
    room::fits(uploads, settings, owner, &job.id, first_reservation).await?;
    let broke = || NotKept::NotGiven {
        detail: "the connection broke".to_owned(),
    };
    let storage = |error: std::io::Error| {
        tracing::warn!(error = %crate::observe::Scrubbed(&error), "a kept copy could not be written");
        NotKept::NoRoom {
            detail: "the gateway's storage failed".to_owned(),
        }
    };
    // What has been written, if anything: deleted if the copy fails.
    let mut open: Option<(Writer, Upload)> = None;
    let mut finishing: Option<Upload> = None;
    let copied = async {
        let mut body = response.into_body();
        let mut head: Vec<u8> = Vec::new();
        let mut total: u64 = 0;
        loop {
            let data = match body.frame().await {
                Some(frame) => match frame.map_err(|_| broke())?.into_data() {
                    Ok(data) => Some(data),
                    Err(_) => continue,
                },
                None => None,
            };
            if let Some(data) = &data {
                total += data.len() as u64;
                if total > limit {
                    return Err(NotKept::TooLarge {
                        bytes: total,
                        limit,
                    });
                }
            }
            match (&mut open, data) {
                (Some((writer, record)), Some(data)) => {
                    if total > record.length {
                        // Past what is reserved (a file sent with no
                        // length): another piece, or no copy.
                        let more = piece.max(total - record.length);
                        room::reserve(uploads, settings, owner, &job.id, record, more).await?;
                    }
                    writer.write(&data, record).await.map_err(storage)?;
                }
                (None, Some(data)) if head.len() + data.len() < HEAD_BYTES => {
                    head.extend_from_slice(&data);
                }
                (None, data) => {
                    if let Some(data) = &data {
                        head.extend_from_slice(data);
                    }
                    job.field.expected().judge(&head)?;
                    let (mime, extension) = served_as(job.field, &head);
                    let mut record = new_record(settings, job, mime, extension);
                    uploads
                        .store
                        .bytes
                        .create(&job.id, &mut record)
                        .await
                        .map_err(storage)?;
                    // Deleted with its parts should the reservation fail.
                    finishing = Some(record.clone());
                    let reserving = first_reservation.max(head.len() as u64);
                    room::reserve(uploads, settings, owner, &job.id, &mut record, reserving)
                        .await?;
                    let writer = uploads
                        .store
                        .bytes
                        .writer(&job.id, &record)
                        .await
                        .map_err(storage)?;
                    let (writer, record) = open.insert((writer, record));
                    writer.write(&head, record).await.map_err(storage)?;
                    if data.is_none() {
                        break;
                    }
                }
                (Some(_), None) => break,
            }
        }
        let Some((writer, mut record)) = open.take() else {
            return Err(broke());
        };
        finishing = Some(record.clone());
        writer.finish(&mut record, true).await.map_err(storage)?;
        finishing = Some(record.clone());
        record.length = total;
        record.received = total;
        record.complete = true;
        record.media = MediaType::sniff(&head);
        if let Some(kept) = record.kept.as_mut() {
            kept.pixels = pixels(&head);
        }
        uploads
            .store
            .save(&job.id, &record)
            .await
            .map_err(storage)?;
        Ok(total)
    }
    .await;
    if copied.is_err() {
        // Its parts too, in object storage: the record knows them.
        let written = open.map(|(_, record)| record).or(finishing);
        if let Some(record) = written {
            if let Err(error) = uploads.store.bytes.delete(&job.id, &record).await {
                tracing::warn!(error = %crate::observe::Scrubbed(&error), "a copy not kept could not be deleted");
            }
        }
    }
    copied
}

/// An image's width and height, when `head` (its first bytes) says them.
fn pixels(head: &[u8]) -> Option<[u32; 2]> {
    let size = imagesize::blob_size(head).ok()?;
    Some([
        u32::try_from(size.width).ok()?,
        u32::try_from(size.height).ok()?,
    ])
}

/// The type and extension a copy of `field` opening with `head` is served as.
fn served_as(field: MediaField, head: &[u8]) -> (&'static str, &'static str) {
    if field == MediaField::CaptionUrl {
        // Judged already: a caption that reads as no subtitle format is not kept.
        let format = SubtitleFormat::sniff(head).unwrap_or(SubtitleFormat::Ass);
        return (format.mime(), format.extension());
    }
    match MediaType::sniff(head) {
        Some(media) => (media.mime(), media.extension()),
        None => ("application/octet-stream", "bin"),
    }
}

/// The service's answer for `url` (redirects followed, each address
/// checked), when it is a success.
async fn answer(
    sources: &Sources,
    settings: &KeepSettings,
    url: &str,
) -> Result<hyper::Response<hyper::body::Incoming>, NotKept> {
    let mut address = url::Url::parse(url).map_err(|_| NotKept::NotFetched {
        rule: "the service's URL does not read".to_owned(),
    })?;
    for _ in 0..=MAX_REDIRECTS {
        let http = sources.client_for(&address).await?;
        let uri: Uri = address.as_str().parse().map_err(|_| NotKept::NotFetched {
            rule: "the service's URL does not read".to_owned(),
        })?;
        let response = http
            .get_streamed(uri, HEAD_DEADLINE.min(settings.fetch_deadline / 2))
            .await
            .map_err(|error| NotKept::NotGiven {
                detail: match error {
                    CallError::Timeout => "no answer in time".to_owned(),
                    CallError::Failed => "no connection".to_owned(),
                },
            })?;
        let status = response.status();
        if status.is_redirection() {
            let next = response
                .headers()
                .get(header::LOCATION)
                .and_then(|location| location.to_str().ok())
                .and_then(|location| address.join(location).ok());
            match next {
                Some(next) => {
                    address = next;
                    continue;
                }
                None => {
                    return Err(NotKept::NotGiven {
                        detail: format!("it answered {status} with no address"),
                    })
                }
            }
        }
        if status != StatusCode::OK {
            return Err(NotKept::NotGiven {
                detail: format!("it answered {}", status.as_u16()),
            });
        }
        return Ok(response);
    }
    Err(NotKept::NotGiven {
        detail: format!("more than {MAX_REDIRECTS} redirects"),
    })
}
