//! Lower-casing for case-insensitive search (the board's filter, the
//! language picker).
//!
//! In the browser the text goes through `String.prototype.toLowerCase`: the
//! browser already carries the Unicode case tables, and Rust's would add
//! about 8 KB of gzipped wasm. Natively (unit tests) Rust's own are used; both
//! follow Unicode's default lower-case mapping.

/// `text` in lower case, for comparing without regard to case.
pub fn lower(text: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        String::from(js_sys::JsString::from(text).to_lower_case())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        text.to_lowercase()
    }
}

/// `text` on one line in at most `max` characters (not bytes): runs of
/// white space read as one space, and "…" ends it where it was cut.
pub fn shorten(text: &str, max: usize) -> String {
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if words.chars().count() <= max {
        return words;
    }
    let kept: String = words.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", kept.trim_end())
}

/// `n` and the noun that goes with it: "1 task", "3 tasks", "0 files".
pub fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    use super::{count, shorten};

    #[test]
    fn counts_take_the_noun_their_number_needs() {
        assert_eq!(count(1, "task", "tasks"), "1 task");
        assert_eq!(count(0, "task", "tasks"), "0 tasks");
        assert_eq!(count(2, "file", "files"), "2 files");
    }

    #[test]
    fn short_text_is_kept_on_one_line() {
        assert_eq!(
            shorten("A lighthouse\n at  dawn ", 40),
            "A lighthouse at dawn"
        );
        assert_eq!(shorten("", 10), "");
    }

    #[test]
    fn long_text_is_cut_by_characters_with_an_ellipsis() {
        assert_eq!(shorten("abcdefghij", 5), "abcd…");
        assert_eq!(shorten("日本語のテキストです", 4), "日本語…");
        assert_eq!(shorten("one two three", 9), "one two…");
        assert_eq!(shorten("abcdefghij", 10), "abcdefghij");
    }
}
