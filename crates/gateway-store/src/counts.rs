//! The uploads' and kept copies' bytes kept as counts, so a new upload or
//! copy is checked against the quota and its owner's budgets in constant
//! time, not by reading every record under the lock every gateway shares.
//!
//! Each record adds its [`Charge`] to the counts while it is kept: the
//! most it can count at any time (an upload under way as if it were never
//! idle, a copy as if it never expired). The counts are therefore never
//! below what a full recount at any moment finds, so a check they pass is
//! one the recount passes; a check they fail is decided by the recount
//! ([`crate::store::Store`]), which ages what time has freed. Each change
//! of a record changes the counts in the same step (this gateway's lock,
//! or one script in Redis). The sweep recounts them from the records
//! every minute and says any drift in the log and the metrics.

use std::collections::BTreeMap;

use crate::record::{Upload, RESERVATION};
use media_gen_gateway_base::clock::DAY;

/// The bytes of the uploads' quota in use.
pub const UPLOADS: &str = "uploads";
/// The bytes of the kept copies' quota in use.
pub const KEPT: &str = "kept";

/// The count of `owner`'s uploads under way.
pub fn in_flight(owner: &str) -> String {
    format!("in-flight:{owner}")
}

/// The count of `owner`'s kept bytes.
pub fn kept_of(owner: &str) -> String {
    format!("kept:{owner}")
}

/// The count of `owner`'s kept bytes made on `day` (days since 1970, UTC).
pub fn kept_on(day: u64, owner: &str) -> String {
    format!("kept-day:{day}:{owner}")
}

/// What one record adds to the counts, by count.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Charge(pub BTreeMap<String, u64>);

impl Charge {
    /// What `record` adds: see the module.
    pub fn of(record: &Upload) -> Charge {
        let mut charge = BTreeMap::new();
        let mut add = |count: String, amount: u64| {
            if amount > 0 {
                *charge.entry(count).or_insert(0) += amount;
            }
        };
        match &record.kept {
            None => {
                add(UPLOADS.to_owned(), upload_bytes(record));
                if !record.complete && !record.gone && !record.owner.is_empty() {
                    add(in_flight(&record.owner), 1);
                }
            }
            Some(kept) => {
                let held = if record.complete {
                    if record.gone {
                        0
                    } else {
                        record.length
                    }
                } else if !record.gone && kept.not_kept.is_none() {
                    record.length.max(record.received)
                } else {
                    0
                };
                add(KEPT.to_owned(), held);
                if !record.owner.is_empty() {
                    add(kept_of(&record.owner), held);
                    add(kept_on(record.created / DAY, &record.owner), record.length);
                }
            }
        }
        Charge(charge)
    }
}

/// The most an upload counts at any time ([`Upload::counted_at`] while
/// it is under way).
fn upload_bytes(record: &Upload) -> u64 {
    if record.gone {
        return 0;
    }
    if record.complete {
        return record.length;
    }
    let received = record.received.min(record.length);
    received + (record.length - received).min(RESERVATION)
}

/// The counts of every record's charge.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts(BTreeMap<String, u64>);

impl Counts {
    /// The counts of `records`' charges, as a recount finds them.
    pub fn of<'a>(records: impl Iterator<Item = &'a Upload>) -> Counts {
        let mut counts = Counts::default();
        for record in records {
            counts.change(&Charge::default(), &Charge::of(record));
        }
        counts
    }

    /// One count (0 when nothing adds to it).
    pub fn get(&self, count: &str) -> u64 {
        self.0.get(count).copied().unwrap_or(0)
    }

    /// A record's charge went from `before` to `after`.
    pub fn change(&mut self, before: &Charge, after: &Charge) {
        for (count, amount) in &before.0 {
            if let Some(held) = self.0.get_mut(count) {
                *held = held.saturating_sub(*amount);
                if *held == 0 {
                    self.0.remove(count);
                }
            }
        }
        for (count, amount) in &after.0 {
            *self.0.entry(count.clone()).or_insert(0) += amount;
        }
    }

    /// The counts `self` and `other` disagree on: (count, here, there).
    pub fn drift(&self, other: &Counts) -> Vec<(String, u64, u64)> {
        let names: std::collections::BTreeSet<&String> =
            self.0.keys().chain(other.0.keys()).collect();
        names
            .into_iter()
            .filter_map(|name| {
                let (here, there) = (self.get(name), other.get(name));
                (here != there).then(|| (name.clone(), here, there))
            })
            .collect()
    }

    /// The counts from what a store holds, by name.
    pub fn from_map(map: BTreeMap<String, u64>) -> Counts {
        Counts(map.into_iter().filter(|(_, amount)| *amount > 0).collect())
    }

    /// The counts by name.
    pub fn as_map(&self) -> &BTreeMap<String, u64> {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::record::KeptFile;

    /// A record of any state an upload or a kept copy can be in.
    fn any_record() -> impl Strategy<Value = Upload> {
        (
            (0u64..3 * RESERVATION, 0u64..3 * RESERVATION, 0u64..4 * DAY),
            (any::<bool>(), any::<bool>(), 0u64..4 * DAY, 0u64..4 * DAY),
            (
                0usize..3,
                proptest::option::of((any::<bool>(), any::<bool>())),
            ),
        )
            .prop_map(
                |(
                    (length, received, created),
                    (complete, gone, touched, expires),
                    (owner, kept),
                )| {
                    let mut record = Upload::new(
                        length,
                        "f".to_owned(),
                        ["", "person:ada", "192.0.2.1"][owner].to_owned(),
                        created,
                        expires,
                    );
                    record.received = received;
                    record.complete = complete;
                    record.gone = gone;
                    record.touched = touched;
                    record.kept = kept.map(|(refused, retry)| KeptFile {
                        pixels: None,
                        task: "image_generate:t".to_owned(),
                        field: "image_url".to_owned(),
                        mime: "image/png".to_owned(),
                        not_kept: refused.then(|| "no room".to_owned()),
                        retry,
                    });
                    record
                },
            )
    }

    proptest! {
        /// The counts are never below what a recount at any time finds:
        /// a check they pass, the recount passes.
        #[test]
        fn counts_never_fall_below_a_recount_at_any_time(
            records in proptest::collection::vec(any_record(), 0..12),
            now in 0u64..5 * DAY,
            idle in 0u64..DAY,
            fetch_deadline in 0u64..DAY,
        ) {
            let counts = Counts::of(records.iter());
            let uploads: u64 = records
                .iter()
                .filter(|record| record.kept.is_none())
                .map(|record| record.counted_at(now, idle))
                .sum();
            prop_assert!(counts.get(UPLOADS) >= uploads);
            for owner in ["person:ada", "192.0.2.1"] {
                let under_way = records
                    .iter()
                    .filter(|record| record.kept.is_none() && record.owner == owner && record.under_way_at(now, idle))
                    .count() as u64;
                prop_assert!(counts.get(&in_flight(owner)) >= under_way);
                let today: u64 = records
                    .iter()
                    .filter(|record| record.kept.is_some() && record.owner == owner && record.created / DAY == now / DAY)
                    .map(|record| record.length)
                    .sum();
                prop_assert!(counts.get(&kept_on(now / DAY, owner)) >= today);
            }
            // A kept copy's exact count: held while complete and not
            // expired, or fetched within the deadline.
            let kept: u64 = records
                .iter()
                .filter_map(|record| record.kept.as_ref().map(|kept| (record, kept)))
                .map(|(record, kept)| {
                    if record.complete {
                        if record.expired_at(now) { 0 } else { record.length }
                    } else if !record.gone && kept.not_kept.is_none() && record.touched + fetch_deadline > now {
                        record.length.max(record.received)
                    } else {
                        0
                    }
                })
                .sum();
            prop_assert!(counts.get(KEPT) >= kept);
        }

        /// Counts changed record by record are the counts of the records
        /// left: nothing drifts however the records change.
        #[test]
        fn changes_one_by_one_add_up_to_a_recount(
            steps in proptest::collection::vec((0usize..4, proptest::option::of(any_record())), 0..24),
        ) {
            let mut records: BTreeMap<usize, Upload> = BTreeMap::new();
            let mut counts = Counts::default();
            for (slot, record) in steps {
                let before = records.get(&slot).map(Charge::of).unwrap_or_default();
                let after = record.as_ref().map(Charge::of).unwrap_or_default();
                counts.change(&before, &after);
                match record {
                    Some(record) => records.insert(slot, record),
                    None => records.remove(&slot),
                };
            }
            let recount = Counts::of(records.values());
            prop_assert_eq!(counts.drift(&recount), Vec::new());
        }
    }
}
