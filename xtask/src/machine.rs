//! What machine a run ran on, so two runs compare by what they cost: its
//! cores, and its yardstick ([`crate::yardstick`]: a fixed crate compiled
//! by rustc, best of three; or the script `MEDIA_GEN_YARDSTICK` names),
//! with the run's goals scaled to it. The goals
//! ([`crate::run_record`]) hold on the slowest machine measured, whose
//! yardstick read [`SLOW_YARDSTICK`]; a faster machine must do better.

use std::path::PathBuf;
use std::time::Duration;

use crate::run_record::{FRESH_GOAL, WARM_GOAL};

/// The yardstick, in seconds, of the slowest machine a run was measured on.
pub const SLOW_YARDSTICK: f64 = 6.3;

/// The script `MEDIA_GEN_YARDSTICK` names, if it names one.
fn yardstick_script() -> Option<PathBuf> {
    std::env::var_os("MEDIA_GEN_YARDSTICK")
        .map(PathBuf::from)
        .filter(|path| path.is_file())
}

/// The seconds a yardstick's line says: `yardstick: 4.08 s (rustc …)`.
fn read_yardstick(line: &str) -> Option<f64> {
    line.trim()
        .strip_prefix("yardstick:")?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
        .filter(|seconds: &f64| *seconds > 0.0)
}

/// `goal` scaled to a machine of `yardstick` seconds.
fn scaled(goal: Duration, yardstick: f64) -> Duration {
    goal.mul_f64(yardstick / SLOW_YARDSTICK)
}

/// The machine's line: its cores, its yardstick (measured now: about ten
/// seconds of compiling) and the goals on it; what is missing said so.
pub fn describe() -> String {
    let cores = std::thread::available_parallelism().map_or(0, |cores| cores.get());
    let measured = match yardstick_script() {
        Some(script) => std::process::Command::new(&script)
            .output()
            .ok()
            .filter(|output| output.status.success())
            .and_then(|output| read_yardstick(&String::from_utf8_lossy(&output.stdout))),
        None => {
            let dir = crate::project::root().join("target").join("yardstick");
            let measured = std::fs::create_dir_all(&dir)
                .ok()
                .and_then(|()| crate::yardstick::measure(&dir));
            let _ = std::fs::remove_dir_all(&dir);
            measured
        }
    };
    match measured {
        Some(yardstick) => line(cores, yardstick),
        None => format!("machine: {cores} cores · the yardstick did not say (rustc failed)"),
    }
}

/// The machine's line for `cores` and `yardstick` seconds.
fn line(cores: usize, yardstick: f64) -> String {
    format!(
        "machine: {cores} cores · yardstick {yardstick:.2} s · goals here: fresh ≤ {:.0} s, \
         warm ≤ {:.0} s ({} s and {} s where the yardstick reads {SLOW_YARDSTICK} s)",
        scaled(FRESH_GOAL, yardstick).as_secs_f64(),
        scaled(WARM_GOAL, yardstick).as_secs_f64(),
        FRESH_GOAL.as_secs(),
        WARM_GOAL.as_secs(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_yardstick_is_read_from_its_line() {
        assert_eq!(
            read_yardstick("yardstick: 4.08 s (rustc 1.95.0, 2 cores)\n"),
            Some(4.08)
        );
        assert_eq!(read_yardstick("4.08"), None);
        assert_eq!(read_yardstick("yardstick: none"), None);
    }

    #[test]
    fn the_goals_scale_with_the_machine() {
        assert_eq!(
            line(2, 4.08),
            "machine: 2 cores · yardstick 4.08 s · goals here: fresh ≤ 777 s, warm ≤ 117 s \
             (1200 s and 180 s where the yardstick reads 6.3 s)"
        );
        assert_eq!(scaled(WARM_GOAL, SLOW_YARDSTICK), WARM_GOAL);
    }
}
