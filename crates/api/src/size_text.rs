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

#[cfg(test)]
mod tests {
    use super::*;

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
