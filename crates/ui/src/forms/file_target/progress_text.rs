//! What an upload's progress says: "42 % · 3.1 of 7.4 MB · 1.2 MB/s · 4 s
//! left". Whole-number arithmetic only: formatting a float would bring the
//! float printer into the page's wasm for one line of text.

use media_gen_api::size_text::size_text;

/// The line under an upload's bar: `sent` of `total` bytes after
/// `elapsed_ms`; the speed and time left once a second has passed.
pub fn progress_text(sent: u64, total: u64, elapsed_ms: u64) -> String {
    let percent = (sent * 100).checked_div(total).unwrap_or(100).min(100);
    let mut text = format!("{percent} % · {} of {}", size_text(sent), size_text(total));
    if elapsed_ms >= 1_000 && sent > 0 && sent < total {
        let per_second = sent * 1_000 / elapsed_ms;
        let left = (total - sent).div_ceil(per_second.max(1));
        text.push_str(&format!(
            " · {}/s · {} left",
            size_text(per_second),
            time_text(left)
        ));
    }
    text
}

/// Seconds as people read a wait: "4 s", "3 min", "2 h 5 min".
fn time_text(seconds: u64) -> String {
    match seconds {
        0..60 => format!("{seconds} s"),
        60..3_600 => format!("{} min", seconds.div_ceil(60)),
        _ => format!("{} h {} min", seconds / 3_600, (seconds % 3_600) / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_says_how_far_how_fast_and_how_long() {
        assert_eq!(progress_text(0, 7_400_000, 0), "0 % · 0 bytes of 7.4 MB");
        assert_eq!(
            progress_text(3_100_000, 7_400_000, 2_500),
            "41 % · 3.1 MB of 7.4 MB · 1.2 MB/s · 4 s left"
        );
        assert_eq!(
            progress_text(7_400_000, 7_400_000, 9_000),
            "100 % · 7.4 MB of 7.4 MB"
        );
        assert_eq!(progress_text(5, 0, 0), "100 % · 5 bytes of 0 bytes");
        assert!(progress_text(1_000_000, 1_000_000_000, 10_000)
            .ends_with("· 100 KB/s · 2 h 46 min left"));
    }
}
