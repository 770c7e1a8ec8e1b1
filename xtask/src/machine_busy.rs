//! How busy the whole machine was over a phase: every core's time spent
//! on anything but waiting, from Linux's `/proc/stat`.
//!
//! The phase table's CPU column counts only the programs a phase started
//! and waited for (`RUSAGE_CHILDREN`), and a program's children only when
//! it waited for them in turn: Chromium's renderers and GPU process, the
//! servers the tests start and leave to be killed, are never counted. The
//! machine's busy time counts them, and whatever else ran meanwhile (on a
//! shared machine, someone else's build too), so a slow phase on a busy
//! machine reads as such.

use std::time::Duration;

/// The machine's busy time since it started, all cores together; `None`
/// where `/proc/stat` cannot be read or understood (not Linux, say), so
/// the table says so rather than the run failing.
pub fn busy_now() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let ticks = busy_ticks(&stat)?;
    // sysconf(_SC_CLK_TCK), which /proc/stat counts in (100 on Linux
    // nearly everywhere, but not promised).
    let per_second = rustix::param::clock_ticks_per_second();
    (per_second > 0).then(|| Duration::from_secs_f64(ticks as f64 / per_second as f64))
}

/// The machine's busy time between `before` and now (`None` when either
/// reading is missing).
pub fn busy_since(before: Option<Duration>) -> Option<Duration> {
    busy_now()
        .zip(before)
        .map(|(now, before)| now.saturating_sub(before))
}

/// The busy clock ticks of a `/proc/stat` text: its `cpu ` line (every
/// core together), all its time but `idle` and `iowait` (waiting on a
/// disk is waiting: no core works then).
fn busy_ticks(stat: &str) -> Option<u64> {
    let line = stat.lines().find(|line| line.starts_with("cpu "))?;
    let ticks: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .map(|field| field.parse().ok())
        .collect::<Option<_>>()?;
    // user nice system idle iowait [irq softirq steal [guest guest_nice]]:
    // older kernels give fewer. Guest time is left out of the total: the
    // kernel counts it in `user` (and `nice`) already.
    let (idle, iowait) = (*ticks.get(3)?, *ticks.get(4)?);
    let total: u64 = ticks.iter().take(8).sum();
    total.checked_sub(idle + iowait)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_time_is_all_but_idle_and_iowait_of_the_cpu_line() {
        let stat = "cpu  4227541 122881 636668 3042391 21600 0 13186 2012 500 7\n\
                    cpu0 2113770 61440 318334 1521195 10800 0 6593 1006 250 3\n\
                    intr 123 0 0\nctxt 456\n";
        // user + nice + system + irq + softirq + steal; guest not again.
        assert_eq!(
            busy_ticks(stat),
            Some(4227541 + 122881 + 636668 + 13186 + 2012)
        );
        // An old kernel's five fields.
        assert_eq!(busy_ticks("cpu  10 2 3 50 5\n"), Some(15));
    }

    #[test]
    fn a_stat_without_a_readable_cpu_line_gives_nothing() {
        assert_eq!(busy_ticks(""), None);
        // Only a core's line: the machine's is missing.
        assert_eq!(busy_ticks("cpu0 1 2 3 4 5 6 7 8\n"), None);
        assert_eq!(busy_ticks("cpu  1 2 x 4 5\n"), None);
        assert_eq!(busy_ticks("cpu  1 2 3 4\n"), None);
    }
}
