//! How big a run is: in full, for the figures `cargo xtask bench` prints,
//! or at each part's smallest (`--smoke`), which `cargo xtask test` runs
//! so that a part that no longer runs is caught the day it breaks. A
//! smoke run's figures mean nothing (too few samples, debug builds): it
//! runs every step of each part once or on a handful of items, and writes
//! no `bench.json`.

/// How big a run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    /// Every sample the figures need.
    Full,
    /// Each part at its smallest meaningful size: every step, a few items.
    Smoke,
}

impl Size {
    /// `full` in a full run, `smoke` in a smoke run.
    pub fn pick<T>(self, full: T, smoke: T) -> T {
        match self {
            Size::Full => full,
            Size::Smoke => smoke,
        }
    }
}

/// The command line's size and parts: `[--smoke] [PART...]`, in any order.
pub fn from_args(args: impl IntoIterator<Item = String>) -> (Size, Vec<String>) {
    let mut size = Size::Full;
    let mut parts = Vec::new();
    for arg in args {
        if arg == "--smoke" {
            size = Size::Smoke;
        } else {
            parts.push(arg);
        }
    }
    (size, parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> (Size, Vec<String>) {
        from_args(words.iter().map(|word| (*word).to_owned()))
    }

    #[test]
    fn smoke_is_asked_for_anywhere_among_the_parts() {
        assert_eq!(args(&[]), (Size::Full, vec![]));
        assert_eq!(args(&["relay"]), (Size::Full, vec!["relay".to_owned()]));
        assert_eq!(
            args(&["relay", "--smoke", "load"]),
            (Size::Smoke, vec!["relay".to_owned(), "load".to_owned()])
        );
        assert_eq!(Size::Smoke.pick(1_000, 10), 10);
        assert_eq!(Size::Full.pick(1_000, 10), 1_000);
    }
}
