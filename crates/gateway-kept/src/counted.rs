//! The bytes of `--keep-quota` a stored record takes at a moment: what
//! both the quota ([`super::room`]) and each person's budgets
//! ([`super::budgets`]) count.

use media_gen_gateway_uploads::record::Upload;

use super::KeepSettings;

/// The bytes of the quota `record` takes at `now`: a kept copy's length,
/// a fetch under way's reservation, nothing for anything else (uploads,
/// refusals, copies expired or whose fetch stopped long ago).
pub fn counted_at(record: &Upload, now: u64, settings: &KeepSettings) -> u64 {
    let Some(kept) = &record.kept else {
        return 0;
    };
    if record.complete {
        return if record.expired_at(now) {
            0
        } else {
            record.length
        };
    }
    let fetching = !record.gone
        && kept.not_kept.is_none()
        && record
            .touched
            .saturating_add(settings.fetch_deadline.as_secs())
            > now;
    if fetching {
        record.length.max(record.received)
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use media_gen_gateway_uploads::record::KeptFile;

    fn copy(length: u64, now: u64) -> Upload {
        Upload {
            kept: Some(KeptFile {
                pixels: None,
                task: "image_to_video:t".to_owned(),
                field: "video_url".to_owned(),
                mime: "video/mp4".to_owned(),
                not_kept: None,
                retry: false,
            }),
            ..Upload::new(
                length,
                "t.mp4".to_owned(),
                "person:ada".to_owned(),
                now,
                now + 100,
            )
        }
    }

    #[test]
    fn a_fetch_under_way_counts_its_reservation_until_it_goes_silent() {
        let settings = KeepSettings::new(b"token");
        let now = 1_000_000;
        let fetching = copy(700_000, now);
        assert_eq!(counted_at(&fetching, now, &settings), 700_000);
        let silent_since = now + settings.fetch_deadline.as_secs();
        assert_eq!(counted_at(&fetching, silent_since, &settings), 0);
        let kept = Upload {
            complete: true,
            ..copy(500, now)
        };
        assert_eq!(counted_at(&kept, now + 50, &settings), 500);
        assert_eq!(counted_at(&kept, now + 100, &settings), 0, "expired");
        let mut refused = copy(0, now);
        if let Some(kept) = &mut refused.kept {
            kept.not_kept = Some("no room".to_owned());
        }
        assert_eq!(counted_at(&refused, now, &settings), 0);
        let upload = Upload::new(900, "a.png".to_owned(), "x".to_owned(), now, now + 100);
        assert_eq!(counted_at(&upload, now, &settings), 0, "not a copy");
    }
}
