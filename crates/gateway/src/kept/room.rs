//! Room under `--keep-quota`: when a new copy would not fit, the oldest
//! copies go first (said in the log and `gateway_kept_evicted_total`); a
//! file larger than the whole quota is not kept. Copies fetched at the
//! same moment may pass the quota by the last of them until the next one
//! makes room.

use media_gen_api::kept::NotKept;
use media_gen_api::size_text::size_text;

use super::KeepSettings;
use crate::access::now_seconds;
use crate::observe::KEPT_EVICTED;
use crate::uploads::Uploads;

/// Make room for `incoming` more bytes of kept copies, `person`'s when a
/// person's (their budgets are checked first, from the same records).
pub async fn make_room(
    uploads: &Uploads,
    settings: &KeepSettings,
    person: Option<&str>,
    incoming: u64,
) -> Result<(), NotKept> {
    if incoming > settings.quota {
        return Err(NotKept::NoRoom {
            detail: format!(
                "the gateway keeps {} of results in all",
                size_text(settings.quota)
            ),
        });
    }
    let all = uploads.store.records.all().await.map_err(|error| {
        tracing::warn!(error = %crate::observe::Scrubbed(&error), "the kept copies could not be counted");
        NotKept::NoRoom {
            detail: "the gateway's storage did not answer".to_owned(),
        }
    })?;
    let now = now_seconds();
    if let Some(owner) = person {
        super::budgets::check(&all, settings, owner, incoming, now)?;
    }
    let mut kept: Vec<_> = all
        .into_iter()
        .filter(|(_, record)| record.kept.is_some() && record.complete && !record.expired_at(now))
        .collect();
    let mut used: u64 = kept.iter().map(|(_, record)| record.length).sum();
    kept.sort_by_key(|(_, record)| record.created);
    for (id, record) in kept {
        if used.saturating_add(incoming) <= settings.quota {
            break;
        }
        used = used.saturating_sub(record.length);
        let task = record
            .kept
            .as_ref()
            .map(|kept| kept.task.clone())
            .unwrap_or_default();
        tracing::warn!(%task, bytes = record.length, "the oldest kept copy was deleted to make room under --keep-quota");
        metrics::counter!(KEPT_EVICTED).increment(1);
        uploads.store.expire(&id, record).await;
    }
    Ok(())
}
