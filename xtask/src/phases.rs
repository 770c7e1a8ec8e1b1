//! Timing of each phase, printed as it ends and again at the end.

use std::time::{Duration, Instant};

/// The phases run so far and how long each took.
#[derive(Default)]
pub struct Phases {
    done: Vec<(String, Duration, bool)>,
}

impl Phases {
    /// Run `phase` under `name`, announcing its start and printing its duration.
    pub fn run<T>(
        &mut self,
        name: &str,
        phase: impl FnOnce() -> anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        println!("\n==> {name}");
        let started = Instant::now();
        let result = phase();
        let took = started.elapsed();
        let outcome = if result.is_ok() { "done" } else { "FAILED" };
        println!("<== {name}: {outcome} in {}", seconds(took));
        self.done.push((name.to_owned(), took, result.is_ok()));
        result
    }

    /// A table of every phase's duration and the total.
    pub fn table(&self) -> String {
        self.table_noting("")
    }

    /// All the phases' time together.
    pub fn total(&self) -> Duration {
        self.done.iter().map(|(_, took, _)| *took).sum()
    }

    /// [`Phases::table`] with `note` on the total's line.
    pub fn table_noting(&self, note: &str) -> String {
        let mut table = format!("{:<34} {:>7}  result\n", "phase", "time");
        for (name, took, ok) in &self.done {
            let result = if *ok { "ok" } else { "FAILED" };
            table.push_str(&format!("{name:<34} {:>7}  {result}\n", seconds(*took)));
        }
        let total = seconds(self.total());
        table.push_str(format!("{:<34} {total:>7}  {note}", "total").trim_end());
        table.push('\n');
        table
    }
}

/// `12.3s`
pub fn seconds(duration: Duration) -> String {
    format!("{:.1}s", duration.as_secs_f64())
}
