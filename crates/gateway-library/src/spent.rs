//! What the owner's service was spent on: `media-gen-gateway usage`,
//! from the library's tally (counted when each submit was forwarded, so
//! a request the person removed still counts).

use std::collections::BTreeMap;

use serde::Serialize;

use super::database::{DbError, Statement};
use super::Library;

/// How the figures are grouped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum By {
    /// One line per person.
    #[default]
    Person,
    /// One line per day (UTC).
    Day,
    /// One line per kind of task.
    Kind,
}

/// The figures of one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Spent {
    /// Tasks made.
    pub tasks: u64,
    /// Images made.
    pub images: u64,
    /// Seconds of video made (image to video; a translation's length is
    /// not known when it is submitted).
    pub video_seconds: u64,
}

impl Spent {
    fn add(&mut self, other: Spent) {
        self.tasks += other.tasks;
        self.images += other.images;
        self.video_seconds += other.video_seconds;
    }
}

/// `2026-11-01` as days since 1970, or what is wrong with it.
pub fn day_of(date: &str) -> Result<u64, String> {
    let time = humantime::parse_rfc3339_weak(&format!("{date} 00:00:00"))
        .map_err(|_| format!("--since {date:?}: a date as 2026-11-01"))?;
    let since = time
        .duration_since(std::time::UNIX_EPOCH)
        .map_err(|_| format!("--since {date:?}: a date after 1970"))?;
    Ok(since.as_secs() / 86_400)
}

/// Days since 1970 as `2026-11-01`.
pub fn date_of(day: u64) -> String {
    let time = std::time::UNIX_EPOCH + std::time::Duration::from_secs(day * 86_400);
    humantime::format_rfc3339_seconds(time)
        .to_string()
        .get(..10)
        .unwrap_or_default()
        .to_owned()
}

impl Library {
    /// The figures from day `since` on, grouped `by`, keyed by the person,
    /// the date or the kind.
    pub async fn spent(&self, since: u64, by: By) -> Result<BTreeMap<String, Spent>, DbError> {
        let rows = self
            .db()
            .run(vec![Statement::new(
                "SELECT person, day, kind, tasks, images, video_seconds FROM library_spent WHERE day >= $1",
            )
            .int(since)])
            .await?
            .pop()
            .unwrap_or_default();
        let mut lines: BTreeMap<String, Spent> = BTreeMap::new();
        for row in rows {
            let [person, day, kind, tasks, images, seconds] = &row[..] else {
                continue;
            };
            let key = match by {
                By::Person => person.string(),
                By::Day => date_of(day.whole("library_spent.day")?),
                By::Kind => kind.string(),
            };
            lines.entry(key).or_default().add(Spent {
                tasks: tasks.whole("library_spent.tasks")?,
                images: images.whole("library_spent.images")?,
                video_seconds: seconds.whole("library_spent.video_seconds")?,
            });
        }
        Ok(lines)
    }
}

/// The figures as the table `usage` prints.
pub fn table(lines: &BTreeMap<String, Spent>, by: By) -> String {
    let heading = match by {
        By::Person => "person",
        By::Day => "day",
        By::Kind => "kind",
    };
    let mut out = format!(
        "{heading:<32} {:>8} {:>8} {:>14}\n",
        "tasks", "images", "video seconds"
    );
    let mut total = Spent::default();
    for (key, spent) in lines {
        out.push_str(&format!(
            "{key:<32} {:>8} {:>8} {:>14}\n",
            spent.tasks, spent.images, spent.video_seconds
        ));
        total.add(*spent);
    }
    out.push_str(&format!(
        "{:<32} {:>8} {:>8} {:>14}\n",
        "total", total.tasks, total.images, total.video_seconds
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_days() {
        assert_eq!(day_of("1970-01-02").unwrap(), 1);
        assert_eq!(date_of(day_of("2026-11-01").unwrap()), "2026-11-01");
        assert!(day_of("yesterday").unwrap_err().contains("--since"));
    }

    #[test]
    fn the_table_totals_its_lines() {
        let mut lines = BTreeMap::new();
        lines.insert(
            "ada".to_owned(),
            Spent {
                tasks: 3,
                images: 3,
                video_seconds: 0,
            },
        );
        lines.insert(
            "grace".to_owned(),
            Spent {
                tasks: 2,
                images: 0,
                video_seconds: 16,
            },
        );
        let printed = table(&lines, By::Person);
        assert!(printed.starts_with("person"));
        assert!(printed
            .lines()
            .last()
            .unwrap()
            .split_whitespace()
            .eq(["total", "5", "3", "16"]));
    }
}
