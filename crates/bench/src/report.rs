//! The benchmark's results: a table for people, JSON for comparing commits.

use std::path::PathBuf;

use serde::Serialize;

/// One figure.
#[derive(Debug, Clone, Serialize)]
pub struct Figure {
    /// What was measured.
    pub name: String,
    /// The measured value.
    pub value: f64,
    /// Its unit.
    pub unit: &'static str,
    /// The most (or, for rates, the least) it may be, if it has a budget.
    pub budget: Option<f64>,
}

/// One line of the table: name, value, unit, budget and whether it holds.
fn row(figure: &Figure) -> String {
    let budget = match figure.budget {
        Some(budget) if figure.value > budget => format!("{budget:>10.1}  OVER"),
        Some(budget) => format!("{budget:>10.1}  ok"),
        None => String::new(),
    };
    format!(
        "{:<52} {:>12.1}  {:<6} {budget}",
        figure.name, figure.value, figure.unit
    )
}

/// Every figure of a run.
#[derive(Debug, Default)]
pub struct Report {
    figures: Vec<Figure>,
}

impl Report {
    /// Record a figure and print it at once.
    pub fn add(&mut self, name: impl Into<String>, value: f64, unit: &'static str) {
        self.push(name.into(), value, unit, None);
    }

    /// Record a figure that must stay at or under `budget`.
    pub fn add_with_budget(
        &mut self,
        name: impl Into<String>,
        value: f64,
        unit: &'static str,
        budget: f64,
    ) {
        self.push(name.into(), value, unit, Some(budget));
    }

    fn push(&mut self, name: String, value: f64, unit: &'static str, budget: Option<f64>) {
        let figure = Figure {
            name,
            value,
            unit,
            budget,
        };
        println!("  {}", row(&figure));
        self.figures.push(figure);
    }

    /// The figures over their budget.
    pub fn over_budget(&self) -> Vec<&Figure> {
        self.figures
            .iter()
            .filter(|f| f.budget.is_some_and(|budget| f.value > budget))
            .collect()
    }

    /// All figures as a table.
    pub fn table(&self) -> String {
        let mut table = format!(
            "{:<52} {:>12}  {:<6} {:>10}\n",
            "benchmark", "value", "unit", "budget"
        );
        for figure in &self.figures {
            table.push_str(&row(figure));
            table.push('\n');
        }
        table
    }

    /// Write `target/bench.json` next to the other build output.
    pub fn write_json(&self) -> Result<PathBuf, String> {
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"));
        std::fs::create_dir_all(&target).map_err(|e| e.to_string())?;
        let path = target.join("bench.json");
        let json = serde_json::to_string_pretty(&self.figures).map_err(|e| e.to_string())?;
        std::fs::write(&path, json).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(path)
    }
}

/// The middle value (the upper one of the two middles for an even count).
pub fn median<T: Copy + PartialOrd>(mut values: Vec<T>) -> T {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    values[values.len() / 2]
}
