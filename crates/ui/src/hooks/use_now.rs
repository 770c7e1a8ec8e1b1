//! The time, ticking.

use leptos::prelude::*;

use media_gen_client::now_ms;

/// `Date.now()` as a signal, updated every `every_ms` while the calling
/// component lives (the elapsed times of running tasks).
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
