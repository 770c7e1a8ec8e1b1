//! Performance marks the benchmarks read (`cargo xtask bench`): each is set
//! once per page load, the first time its moment comes.

use leptos::prelude::window;

/// The first form of a page is ready for input.
pub const FORM_INTERACTIVE: &str = "media-gen:form-interactive";

/// The task board has drawn its stored tasks.
pub const BOARD_RENDERED: &str = "media-gen:board-rendered";

/// Set the Performance mark `name` unless this page load already has it.
pub fn mark_once(name: &str) {
    if let Some(performance) = window().performance() {
        if performance.get_entries_by_name(name).length() == 0 {
            let _ = performance.mark(name);
        }
    }
}

/// A batch's text was read and every row checked: a measure set each
/// time (the benchmark reads the last).
pub const BATCH_CHECKED: &str = "media-gen:batch-checked";

/// `work` done, measured as the Performance measure `name`.
pub fn measured<T>(name: &str, work: impl FnOnce() -> T) -> T {
    let Some(performance) = window().performance() else {
        return work();
    };
    let start = format!("{name}:start");
    let _ = performance.mark(&start);
    let done = work();
    let _ = performance.measure_with_start_mark(name, &start);
    done
}
