//! Each person's budgets for kept results, in `keys` and `proxy` mode:
//! bytes kept a day (UTC) and bytes kept at once, counted from the copies'
//! records (shared through Redis when the records are), so every gateway
//! counts the same; a copy being fetched counts its reservation
//! ([`super::counted`]). A copy counts against the person who submitted its
//! task, whoever reads it. An address in `open` mode has none: the quota
//! bounds it.

use media_gen_api::kept::NotKept;
use media_gen_api::size_text::{size_text, sizes_apart};
use media_gen_gateway_uploads::counts::{kept_of, kept_on, Counts};
use media_gen_gateway_uploads::FileId;

use super::KeepSettings;
use crate::access::person_usage::DAY;
use crate::access::Who;
use media_gen_gateway_uploads::record::Upload;

/// Whether `incoming` more bytes of `person`'s fit their budgets at `now`
/// by the counts ([`media_gen_gateway_uploads::counts`]): never below a
/// recount, so what fits here fits; what does not is for [`check`] to say.
pub fn fit_in_counts(
    counts: &Counts,
    settings: &KeepSettings,
    person: &Who,
    incoming: u64,
    now: u64,
) -> bool {
    let owner = person.to_string();
    let today = counts.get(&kept_on(now / DAY, &owner));
    let held = counts.get(&kept_of(&owner));
    today.saturating_add(incoming) <= settings.bytes_per_day
        && held.saturating_add(incoming) <= settings.bytes_per_person
}

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
        held = held.saturating_add(super::counted::counted_at(record, now, settings));
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
