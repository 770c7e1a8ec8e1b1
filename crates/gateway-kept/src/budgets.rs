//! Each person's budgets for kept results, in `keys` and `proxy` mode:
//! bytes kept a day (UTC) and bytes kept at once, counted from the copies'
//! records (shared through Redis when the records are), so every gateway
//! counts the same; a copy being fetched counts its reservation
//! ([`super::room`]). A copy counts against the person who submitted its
//! task, whoever reads it. An address in `open` mode has none: the quota
//! bounds it.

use media_gen_api::kept::NotKept;
use media_gen_api::size_text::{size_text, sizes_apart};
use media_gen_gateway_uploads::FileId;

use super::KeepSettings;
use crate::access::person_usage::DAY;
use crate::access::Who;
use media_gen_gateway_uploads::record::Upload;

/// Whether `incoming` more bytes of `person`'s fit their budgets at `now`,
/// counted from `records` (every other stored record, each naming its
/// owner as [`Who`] writes itself).
pub fn check<'a>(
    records: impl Iterator<Item = &'a (FileId, Upload)>,
    settings: &KeepSettings,
    person: &Who,
    incoming: u64,
    now: u64,
) -> Result<(), NotKept> {
    let owner = person.to_string();
    let mine = records
        .map(|(_, record)| record)
        .filter(|record| record.kept.is_some() && record.owner == owner);
    let (mut today, mut held) = (0u64, 0u64);
    for record in mine {
        if record.created / DAY == now / DAY {
            today = today.saturating_add(record.length);
        }
        held = held.saturating_add(super::room::counted_at(record, now, settings));
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
            detail: {
                let (held, budget) = sizes_apart(held, settings.bytes_per_person);
                format!("your kept results take {held} of your {budget}")
            },
        });
    }
    Ok(())
}
