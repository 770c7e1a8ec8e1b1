//! A ticking clock for elapsed times, and how they read.

use leptos::prelude::*;

use media_gen_client::now_ms;

/// `Date.now()` as a signal, updated every `every_ms` while the calling
/// component lives.
pub fn use_now(every_ms: u32) -> ReadSignal<f64> {
    let (now, set_now) = signal(now_ms());
    let interval = gloo_timers::callback::Interval::new(every_ms, move || {
        set_now.try_set(now_ms());
    });
    let interval = StoredValue::new_local(Some(interval));
    on_cleanup(move || {
        // Dropping the interval clears it.
        interval.try_update_value(|interval| interval.take());
    });
    now
}

/// Milliseconds as a clock reading: `0:07`, `1:05`, `1:02:03`.
pub fn clock_text(ms: f64) -> String {
    let seconds = (ms.max(0.0) / 1000.0).floor() as u64;
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::clock_text;

    #[test]
    fn clock_readings() {
        assert_eq!(clock_text(0.0), "0:00");
        assert_eq!(clock_text(7_999.0), "0:07");
        assert_eq!(clock_text(65_000.0), "1:05");
        assert_eq!(clock_text(3_723_000.0), "1:02:03");
        assert_eq!(clock_text(-5.0), "0:00");
    }
}
