//! Each person's budgets for kept results, in `keys` and `proxy` mode:
//! bytes kept a day (UTC) and bytes kept at once, counted from the copies'
//! records (shared through Redis when the records are), so every gateway
//! counts the same. Copies fetched at the same moment may pass a budget
//! by the last of them. An address in `open` mode has none: the quota
//! bounds it.

use crate::uploads::FileId;
use media_gen_api::kept::NotKept;
use media_gen_api::size_text::size_text;

use super::KeepSettings;
use crate::access::person_usage::DAY;
use crate::uploads::record::Upload;

/// Whether `incoming` more bytes of `owner`'s (a person's) fit their
/// budgets at `now`, counted from `records` (every stored record).
pub fn check(
    records: &[(FileId, Upload)],
    settings: &KeepSettings,
    owner: &str,
    incoming: u64,
    now: u64,
) -> Result<(), NotKept> {
    let mine = records
        .iter()
        .map(|(_, record)| record)
        .filter(|record| record.kept.is_some() && record.owner == owner);
    let (mut today, mut held) = (0u64, 0u64);
    for record in mine {
        if record.created / DAY == now / DAY {
            today = today.saturating_add(record.length);
        }
        if record.complete && !record.expired_at(now) {
            held = held.saturating_add(record.length);
        }
    }
    if today.saturating_add(incoming) > settings.bytes_per_day {
        return Err(NotKept::NoRoom {
            detail: format!(
                "your {} of kept results a day are used; more from midnight UTC",
                size_text(settings.bytes_per_day)
            ),
        });
    }
    if held.saturating_add(incoming) > settings.bytes_per_person {
        return Err(NotKept::NoRoom {
            detail: format!(
                "your kept results take {} of your {}",
                size_text(held),
                size_text(settings.bytes_per_person)
            ),
        });
    }
    Ok(())
}
