//! Timing of each phase, printed as it ends and again at the end: its wall
//! time, the CPU time (user and system) of the programs it ran, and how
//! busy the whole machine was meanwhile, so two runs on machines of
//! different speed and load compare by what they cost.

use std::time::{Duration, Instant};

use crate::machine_busy;

/// One phase done.
struct Done {
    name: String,
    wall: Duration,
    /// CPU time of the programs it ran and waited for (`None` where the
    /// system does not say).
    cpu: Option<Duration>,
    /// The whole machine's busy time over it, all cores together: what the
    /// CPU column misses (see [`machine_busy`]). `None` where the system
    /// does not say.
    busy: Option<Duration>,
    ok: bool,
    /// The steps of a phase run in lanes, each lane's in its order (their
    /// CPU is the phase's: the system counts the process's children, not
    /// a thread's).
    steps: Vec<Step>,
}

/// A step of one lane of a phase.
struct Step {
    name: String,
    wall: Duration,
    ok: bool,
}

/// One lane of a phase run in lanes: the steps it ran and how long each took.
#[derive(Default)]
pub struct Lane {
    steps: Vec<Step>,
}

impl Lane {
    /// Run `step` under `name` in this lane, announcing it and its duration.
    pub fn run<T>(
        &mut self,
        name: &str,
        step: impl FnOnce() -> anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        // No CPU or busy time of its own: the system counts the process's
        // children, and the machine everything, the other lane's too.
        let (result, wall, _) = timed(name, false, step);
        self.steps.push(Step {
            name: name.to_owned(),
            wall,
            ok: result.is_ok(),
        });
        result
    }
}

/// The CPU time and the machine's busy time of a phase.
#[derive(Default)]
struct Cost {
    cpu: Option<Duration>,
    busy: Option<Duration>,
}

/// Run `work` under `name`, announcing its start and, when it ends, its
/// outcome and wall time (and with `count_cost` the CPU time of the
/// programs it ran and the machine's busy time): its result, wall time
/// and what it cost.
fn timed<T>(
    name: &str,
    count_cost: bool,
    work: impl FnOnce() -> anyhow::Result<T>,
) -> (anyhow::Result<T>, Duration, Cost) {
    println!("\n==> {name}");
    let started = Instant::now();
    let cpu_before = children_cpu().filter(|_| count_cost);
    let busy_before = machine_busy::busy_now().filter(|_| count_cost);
    let result = work();
    let wall = started.elapsed();
    let cost = Cost {
        cpu: children_cpu()
            .zip(cpu_before)
            .map(|(after, before)| after.saturating_sub(before)),
        busy: machine_busy::busy_since(busy_before),
    };
    let outcome = if result.is_ok() { "done" } else { "FAILED" };
    let cost_said = if count_cost {
        format!(
            " ({} of CPU, the machine busy {})",
            cost.cpu.map_or_else(|| "?".to_owned(), seconds),
            busy_seconds(cost.busy)
        )
    } else {
        String::new()
    };
    println!("<== {name}: {outcome} in {}{cost_said}", seconds(wall));
    (result, wall, cost)
}

/// The phases run so far and how long each took.
#[derive(Default)]
pub struct Phases {
    done: Vec<Done>,
}

impl Phases {
    /// Run `phase` under `name`, announcing its start and printing its duration.
    pub fn run<T>(
        &mut self,
        name: &str,
        phase: impl FnOnce() -> anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        let (result, wall, cost) = timed(name, true, phase);
        self.done.push(Done {
            name: name.to_owned(),
            wall,
            cpu: cost.cpu,
            busy: cost.busy,
            ok: result.is_ok(),
            steps: Vec::new(),
        });
        result
    }

    /// Run `first` and `second` at once under `name`, each a lane of
    /// steps (a lane waiting on a single-threaded link or a download
    /// leaves the other the core it does not use); the table shows each
    /// step's wall time under the phase. The phase has failed if a lane
    /// returned an error; both lanes' results are returned.
    pub fn run_lanes<A: Send, B: Send>(
        &mut self,
        name: &str,
        first: impl FnOnce(&mut Lane) -> anyhow::Result<A> + Send,
        second: impl FnOnce(&mut Lane) -> anyhow::Result<B> + Send,
    ) -> (anyhow::Result<A>, anyhow::Result<B>) {
        let mut lanes = (Lane::default(), Lane::default());
        let mut results = None;
        let _ = self.run(name, || {
            let (a, b) = std::thread::scope(|scope| {
                let one = scope.spawn(|| first(&mut lanes.0));
                let two = scope.spawn(|| second(&mut lanes.1));
                (joined(one.join(), name), joined(two.join(), name))
            });
            let ok = a.is_ok() && b.is_ok();
            results = Some((a, b));
            if ok {
                Ok(())
            } else {
                Err(anyhow::anyhow!("a lane failed"))
            }
        });
        if let Some(done) = self.done.last_mut() {
            done.steps = lanes.0.steps.into_iter().chain(lanes.1.steps).collect();
        }
        results.unwrap_or_else(|| unreachable!("the phase ran both lanes"))
    }

    /// A table of every phase's duration and the total.
    pub fn table(&self) -> String {
        self.table_noting("")
    }

    /// All the phases' wall time together.
    pub fn total(&self) -> Duration {
        self.done.iter().map(|done| done.wall).sum()
    }

    /// All the phases' CPU time together (what the system said of).
    fn total_cpu(&self) -> Duration {
        self.done.iter().filter_map(|done| done.cpu).sum()
    }

    /// The machine's busy time over all the phases together (what the
    /// system said of); `None` when it said nothing of any.
    pub fn total_busy(&self) -> Option<Duration> {
        self.done
            .iter()
            .filter_map(|done| done.busy)
            .reduce(|sum, busy| sum + busy)
    }

    /// [`Phases::table`] with `note` on the total's line.
    pub fn table_noting(&self, note: &str) -> String {
        // CPU: the programs each phase waited for; busy: the whole machine
        // over it, all cores (see `machine_busy`).
        let mut table = format!(
            "{:<34} {:>7} {:>7} {:>7}  result\n",
            "phase", "wall", "CPU", "busy"
        );
        for done in &self.done {
            let result = if done.ok { "ok" } else { "FAILED" };
            let cpu = done.cpu.map_or_else(|| "?".to_owned(), seconds);
            let busy = busy_seconds(done.busy);
            table.push_str(&format!(
                "{:<34} {:>7} {cpu:>7} {busy:>7}  {result}\n",
                done.name,
                seconds(done.wall)
            ));
            for step in &done.steps {
                let result = if step.ok { "ok" } else { "FAILED" };
                table.push_str(&format!(
                    "  {:<32} {:>7} {:>7} {:>7}  {result}\n",
                    step.name,
                    seconds(step.wall),
                    "",
                    ""
                ));
            }
        }
        let total = seconds(self.total());
        let cpu = seconds(self.total_cpu());
        let busy = busy_seconds(self.total_busy());
        table.push_str(format!("{:<34} {total:>7} {cpu:>7} {busy:>7}  {note}", "total").trim_end());
        table.push('\n');
        table
    }
}

/// A lane's result, a panic in it an error.
fn joined<T>(lane: std::thread::Result<anyhow::Result<T>>, phase: &str) -> anyhow::Result<T> {
    lane.unwrap_or_else(|_| Err(anyhow::anyhow!("a lane of {phase} panicked")))
}

/// `12.3s`
pub fn seconds(duration: Duration) -> String {
    format!("{:.1}s", duration.as_secs_f64())
}

/// The machine's busy time as [`seconds`] gives it, `–` where the system
/// did not say (no `/proc/stat`).
fn busy_seconds(busy: Option<Duration>) -> String {
    busy.map_or_else(|| "–".to_owned(), seconds)
}

/// The CPU time (user and system) of every program this process started
/// and waited for, so far: `getrusage(RUSAGE_CHILDREN)` as Linux's
/// `/proc/self/stat` gives it. `None` where there is no such file.
pub fn children_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let ticks = children_ticks(&stat)?;
    let per_second = rustix::param::clock_ticks_per_second();
    (per_second > 0).then(|| Duration::from_secs_f64(ticks as f64 / per_second as f64))
}

/// `cutime + cstime` of a `/proc/{pid}/stat` line, in clock ticks.
fn children_ticks(stat: &str) -> Option<u64> {
    // The program's name is in parentheses and may hold spaces: the fields
    // are counted from after its closing one (field 3, the state, first).
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let field = |number: usize| fields.get(number - 3)?.parse::<u64>().ok();
    Some(field(16)? + field(17)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_childrens_cpu_is_read_after_the_programs_name() {
        let stat = "4242 (cargo xtask) S 1 4242 4242 0 -1 4194560 5000 90000 0 3 120 40 \
                    700 55 20 0 3 0 12345 1000000 500 18446744073709551615";
        assert_eq!(children_ticks(stat), Some(755));
        assert_eq!(children_ticks("4242 (x) S 1"), None);
    }

    #[test]
    fn a_program_run_and_waited_for_counts_its_cpu() {
        let before = children_cpu().unwrap();
        // About a tenth of a second of work in a child.
        let status = std::process::Command::new("sh")
            .args(["-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"])
            .status()
            .unwrap();
        assert!(status.success());
        let after = children_cpu().unwrap();
        assert!(after > before, "{before:?} → {after:?}");
    }

    #[test]
    fn lanes_run_at_once_and_their_steps_are_shown_under_the_phase() {
        use std::sync::mpsc::channel;
        // Each lane's first step waits for word from the other's: one after
        // the other, the first would give up after its wait.
        let ((to_second, from_first), (to_first, from_second)) = (channel(), channel());
        let wait = Duration::from_secs(30);
        let mut phases = Phases::default();
        let (a, b) = phases.run_lanes(
            "builds",
            move |lane| {
                lane.run("one", || {
                    to_second.send(())?;
                    Ok(from_second.recv_timeout(wait)?)
                })?;
                lane.run("two", || Ok(()))?;
                Ok(1)
            },
            move |lane| {
                lane.run("three", || -> anyhow::Result<()> {
                    to_first.send(())?;
                    from_first.recv_timeout(wait)?;
                    anyhow::bail!("no")
                })
            },
        );
        assert_eq!(a.unwrap(), 1, "the lanes ran at once");
        assert!(b.is_err());
        let table = phases.table();
        let lines: Vec<&str> = table.lines().collect();
        assert!(
            lines[1].starts_with("builds") && lines[1].ends_with("FAILED"),
            "{table}"
        );
        assert!(
            lines[2].starts_with("  one") && lines[2].ends_with("ok"),
            "{table}"
        );
        assert!(lines[3].starts_with("  two"), "{table}");
        assert!(
            lines[4].starts_with("  three") && lines[4].ends_with("FAILED"),
            "{table}"
        );
        // The total counts the phase once, not its steps again.
        assert_eq!(phases.total(), phases.done[0].wall, "{table}");
        assert!(lines[5].starts_with("total"), "{table}");
    }

    #[test]
    fn the_table_gives_wall_and_cpu_time_and_their_totals() {
        let mut phases = Phases::default();
        phases
            .run("a shell's loop", || {
                // At least a tenth of a second of wall time, whatever the machine.
                std::thread::sleep(Duration::from_millis(150));
                std::process::Command::new("sh")
                    .args(["-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"])
                    .status()?;
                Ok(())
            })
            .unwrap();
        let table = phases.table_noting("a note");
        let lines: Vec<&str> = table.lines().collect();
        assert!(
            lines[0].contains("wall") && lines[0].contains("CPU") && lines[0].contains("busy"),
            "{table}"
        );
        assert!(
            lines[1].starts_with("a shell's loop") && lines[1].ends_with("ok"),
            "{table}"
        );
        assert!(
            lines[2].starts_with("total") && lines[2].ends_with("a note"),
            "{table}"
        );
        let total: Vec<f64> = lines[2]
            .split_whitespace()
            .skip(1)
            .take(3)
            .map(|figure| figure.trim_end_matches('s').parse().unwrap())
            .collect();
        // The CPU column is the process's children's, in clock ticks: a
        // short loop may round to none. Linux says how busy the machine
        // was (a figure, not a dash), however little.
        assert!(total[0] >= 0.1 && total[1] >= 0.0, "wall and CPU: {table}");
        assert!(total[2] >= 0.0, "busy: {table}");
    }

    #[test]
    fn a_machine_that_does_not_say_how_busy_it_was_shows_a_dash() {
        let phases = Phases {
            done: vec![Done {
                name: "somewhere else".to_owned(),
                wall: Duration::from_secs(2),
                cpu: Some(Duration::from_secs(1)),
                busy: None,
                ok: true,
                steps: Vec::new(),
            }],
        };
        assert_eq!(phases.total_busy(), None);
        let table = phases.table();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(
            lines[1].split_whitespace().collect::<Vec<_>>(),
            ["somewhere", "else", "2.0s", "1.0s", "–", "ok"],
            "{table}"
        );
        assert_eq!(
            lines[2].split_whitespace().collect::<Vec<_>>(),
            ["total", "2.0s", "1.0s", "–"],
            "{table}"
        );
    }
}
