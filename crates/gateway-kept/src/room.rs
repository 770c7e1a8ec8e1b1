//! Room under `--keep-quota` and each person's budgets. A copy reserves
//! its bytes before it writes any ([`reserve`]): its declared length, or
//! [`PIECE`] at a time when it was sent with none; the reservation is its
//! record's `length` while it is fetched, counted with the copies kept by
//! every gateway sharing the records, in one admission at a time, so
//! fetches running together never pass the quota or a budget. A fetch
//! that stopped without a word (a gateway killed mid-way) stops counting
//! once `--keep-fetch-timeout` has passed since its last piece.
//!
//! When a new copy would not fit, the oldest kept copies go first (said in
//! the log and `gateway_kept_evicted_total`); copies still being fetched
//! are not evicted, and a copy that fits only once they end is refused for
//! now (tried again on the next read). A file larger than the whole quota
//! is not kept.

use media_gen_api::kept::NotKept;

use super::counted::counted_at;
use super::KeepSettings;
use crate::access::{now_seconds, Who};
use crate::observe::KEPT_EVICTED;
use media_gen_gateway_uploads::counts::{Counts, KEPT};
use media_gen_gateway_uploads::record::{Upload, RESERVATION};
use media_gen_gateway_uploads::{FileId, Uploads};

/// Bytes reserved at a time for a file sent with no length.
pub const PIECE: u64 = RESERVATION;

/// Whether `incoming` bytes for copy `id` (`owner`'s, whose budgets count
/// it when a person) would fit now, evicting nothing: asked before a
/// file's body is read, so a refusal costs its head only.
pub async fn fits(
    uploads: &Uploads,
    settings: &KeepSettings,
    owner: Option<&Who>,
    id: &FileId,
    incoming: u64,
) -> Result<(), NotKept> {
    if incoming > settings.quota {
        return Err(NotKept::TooLarge {
            bytes: incoming,
            limit: settings.quota,
        });
    }
    let now = now_seconds();
    let Some(person) = owner.filter(|owner| owner.person().is_some()) else {
        return Ok(());
    };
    if let Some(counts) = counts(uploads).await? {
        if super::budgets::fit_in_counts(&counts, settings, person, incoming, now) {
            return Ok(());
        }
    }
    let all = records(uploads).await?;
    let others = all.iter().filter(|(other, _)| other != id);
    super::budgets::check(others, settings, person, incoming, now)
}

/// Reserve `more` bytes for copy `id` (`record`, its record as this fetch
/// holds it), `owner`'s: a person's budgets checked, the
/// oldest kept copies evicted if need be, and the record saved with the
/// new reservation, all in one admission at a time among the gateways.
pub async fn reserve(
    uploads: &Uploads,
    settings: &KeepSettings,
    owner: Option<&Who>,
    id: &FileId,
    record: &mut Upload,
    more: u64,
) -> Result<(), NotKept> {
    let reserved = record.length.saturating_add(more);
    if reserved > settings.quota {
        return Err(NotKept::TooLarge {
            bytes: reserved,
            limit: settings.quota,
        });
    }
    let _one_at_a_time = uploads.admit().await.map_err(unanswered)?;
    let now = now_seconds();
    // The counts are never below a recount: when they say it fits, it does
    // (this copy's own reservation counted twice, to be sure).
    if let Some(counts) = counts(uploads).await? {
        let budgets_fit = owner
            .filter(|owner| owner.person().is_some())
            .is_none_or(|person| {
                super::budgets::fit_in_counts(&counts, settings, person, reserved, now)
            });
        if budgets_fit && counts.get(KEPT).saturating_add(reserved) <= settings.quota {
            return keep_reservation(uploads, id, record, reserved, now).await;
        }
    }
    let all = records(uploads).await?;
    let others: Vec<&(FileId, Upload)> = all.iter().filter(|(other, _)| other != id).collect();
    if let Some(person) = owner.filter(|owner| owner.person().is_some()) {
        super::budgets::check(others.iter().copied(), settings, person, reserved, now)?;
    }
    let mut used: u64 = others
        .iter()
        .map(|(_, other)| counted_at(other, now, settings))
        .fold(0, u64::saturating_add);
    if used.saturating_add(reserved) > settings.quota {
        let mut evictable: Vec<&(FileId, Upload)> = others
            .iter()
            .copied()
            .filter(|(_, other)| other.kept.is_some() && other.complete && !other.expired_at(now))
            .collect();
        evictable.sort_by_key(|(_, other)| other.created);
        for (other_id, other) in evictable {
            if used.saturating_add(reserved) <= settings.quota {
                break;
            }
            used = used.saturating_sub(other.length);
            let task = other
                .kept
                .as_ref()
                .map(|kept| kept.task.clone())
                .unwrap_or_default();
            tracing::warn!(%task, bytes = other.length, "the oldest kept copy was deleted to make room under --keep-quota");
            metrics::counter!(KEPT_EVICTED).increment(1);
            uploads.store.expire(other_id, other.clone()).await;
        }
    }
    if used.saturating_add(reserved) > settings.quota {
        return Err(NotKept::NoRoom {
            detail: "the gateway's room for results is taken by copies being made; \
                     tried again on the next read"
                .to_owned(),
        });
    }
    keep_reservation(uploads, id, record, reserved, now).await
}

/// Save copy `id`'s `record` with `reserved` bytes reserved at `now`.
async fn keep_reservation(
    uploads: &Uploads,
    id: &FileId,
    record: &mut Upload,
    reserved: u64,
    now: u64,
) -> Result<(), NotKept> {
    record.length = reserved;
    record.touched = now;
    uploads.store.save(id, record).await.map_err(|error| {
        tracing::warn!(error = %crate::observe::Scrubbed(&error), "a kept copy's reservation could not be saved");
        NotKept::NoRoom {
            detail: "the gateway's storage did not answer".to_owned(),
        }
    })
}

/// The counts of every stored record once trusted, or the refusal that
/// the storage did not answer.
async fn counts(uploads: &Uploads) -> Result<Option<Counts>, NotKept> {
    uploads.store.counts().await.map_err(unanswered)
}

/// Every stored record, or the refusal that the storage did not answer.
async fn records(uploads: &Uploads) -> Result<Vec<(FileId, Upload)>, NotKept> {
    uploads.store.records.all().await.map_err(unanswered)
}

fn unanswered(error: std::io::Error) -> NotKept {
    tracing::warn!(error = %crate::observe::Scrubbed(&error), "the kept copies could not be counted");
    NotKept::NoRoom {
        detail: "the gateway's storage did not answer".to_owned(),
    }
}
