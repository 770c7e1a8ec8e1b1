//! A file's size as people read it: "820 KB", "3.1 MB", "1.2 GB". One
//! wording for the page's upload progress and the gateway's reasons.
//! Whole-number arithmetic only: formatting a float would bring the float
//! printer into a page's wasm for one line of text.

/// `bytes` as people read a file's size: "512 bytes", "820 KB", "3.1 MB",
/// "1.2 GB" (powers of 1000, tenths from a megabyte up).
pub fn size_text(bytes: u64) -> String {
    const KB: u64 = 1_000;
    const MB: u64 = 1_000_000;
    const GB: u64 = 1_000_000_000;
    // Whole units and the rest apart: a size a server was told can be as
    // large as u64 allows, and `bytes * 10` would overflow (u128 would
    // bring its division routines into a page's wasm).
    let tenths = |unit: u64| {
        let tenths = bytes / unit * 10 + (bytes % unit * 10 + unit / 2) / unit;
        format!("{}.{}", tenths / 10, tenths % 10)
    };
    if bytes >= GB {
        format!("{} GB", tenths(GB))
    } else if bytes >= MB {
        format!("{} MB", tenths(MB))
    } else if bytes >= KB {
        format!("{} KB", (bytes + KB / 2) / KB)
    } else {
        format!("{bytes} bytes")
    }
}

/// Two sizes compared in one sentence ("2.149 GB, over 2.147 GB"): each
/// as [`size_text`] writes it, with more decimals where that would write
/// two different sizes the same (down to the byte), so a reader never sees
/// "2.1 GB, over 2.1 GB".
pub fn sizes_apart(a: u64, b: u64) -> (String, String) {
    let (first, second) = (size_text(a), size_text(b));
    if a == b || first != second {
        return (first, second);
    }
    // The same text means the same unit; more decimals of it, until they differ.
    let unit: u64 = match a.max(b) {
        n if n >= 1_000_000_000 => 1_000_000_000,
        n if n >= 1_000_000 => 1_000_000,
        _ => 1_000,
    };
    let name = match unit {
        1_000_000_000 => "GB",
        1_000_000 => "MB",
        _ => "KB",
    };
    let written = |bytes: u64, decimals: u32| {
        let scale = 10u64.pow(decimals);
        let step = unit / scale;
        let n = bytes / step + u64::from(bytes % step >= step.div_ceil(2) && step > 1);
        format!(
            "{}.{:0width$} {name}",
            n / scale,
            n % scale,
            width = decimals as usize
        )
    };
    let most = unit.ilog10();
    for decimals in 1..=most {
        let (first, second) = (written(a, decimals), written(b, decimals));
        if first != second {
            return (first, second);
        }
    }
    (written(a, most), written(b, most))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_different_sizes_never_read_the_same() {
        let gib = 1u64 << 30;
        assert_eq!(
            sizes_apart(2 * gib + (1 << 20), 2 * gib),
            ("2.149 GB".to_owned(), "2.147 GB".to_owned())
        );
        assert_eq!(
            sizes_apart(1_000_000_001, 1_000_000_000),
            ("1.000000001 GB".to_owned(), "1.000000000 GB".to_owned())
        );
        assert_eq!(
            sizes_apart(150_400, 150_000),
            ("150.4 KB".to_owned(), "150.0 KB".to_owned())
        );
        assert_eq!(
            sizes_apart(3_000_000, 1_000_000),
            ("3.0 MB".to_owned(), "1.0 MB".to_owned()),
            "already apart: as size_text writes them"
        );
        assert_eq!(
            sizes_apart(2 * gib, 2 * gib),
            ("2.1 GB".to_owned(), "2.1 GB".to_owned())
        );
        assert_eq!(
            sizes_apart(u64::MAX, u64::MAX - 1),
            (
                "18446744073.70955162 GB".to_owned(),
                "18446744073.70955161 GB".to_owned()
            ),
            "the largest read without overflow"
        );
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(size_text(512), "512 bytes");
        assert_eq!(size_text(820_400), "820 KB");
        assert_eq!(size_text(3_140_000), "3.1 MB");
        assert_eq!(size_text(20_971_520), "21.0 MB");
        assert_eq!(size_text(1_250_000_000), "1.3 GB");
    }

    #[test]
    fn the_largest_size_is_read_without_overflow() {
        assert_eq!(size_text(u64::MAX), "18446744073.7 GB");
    }
}
