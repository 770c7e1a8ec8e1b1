//! A task's progress: status, elapsed time and a bar.

use std::time::Duration;

use leptos::prelude::*;
use media_gen_api::TaskStatus;

/// The CSS class of a status badge.
pub fn status_class(status: &TaskStatus) -> &'static str {
    match status {
        TaskStatus::Succeeded => "status status--succeeded",
        TaskStatus::Failed => "status status--failed",
        TaskStatus::Generating => "status status--generating",
        TaskStatus::Pending | TaskStatus::Other(_) => "status status--waiting",
    }
}

/// Status, time since submit ("0:42", frozen when it ended), the usual
/// duration when one is known, and while the task runs an indeterminate
/// bar (the service reports no percentage).
#[component]
pub fn TaskProgress(
    /// The status shown.
    status: TaskStatus,
    /// When it was submitted (ms).
    submitted_at: f64,
    /// When it last changed (ms): the end time once it is terminal.
    updated_at: f64,
    /// Now (ms), ticking.
    now: ReadSignal<f64>,
    /// How long such tasks usually take, when known.
    #[prop(optional)]
    usual: Option<Duration>,
) -> impl IntoView {
    let done = status.is_terminal();
    let elapsed = move || {
        let end = if done { updated_at } else { now.get() };
        clock_text(end - submitted_at)
    };
    let usual = usual.filter(|_| !done).map(|usual| {
        format!(
            " · usually about {}",
            clock_text(usual.as_secs_f64() * 1000.0)
        )
    });
    // Only while it runs: an ended task's status says all, and a full bar
    // beside "SUCCEEDED" read as something still going on.
    let bar = (!done).then(|| {
        view! { <progress class="progress" part="progress" aria-label="In progress"></progress> }
    });
    view! {
        <span class=status_class(&status) part="status" data-status=status.to_string()>{status.to_string()}</span>
        <span class="elapsed" title="Time since submitted">{elapsed}{usual}</span>
        {bar}
    }
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
