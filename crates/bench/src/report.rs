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

/// Every figure of a run.
#[derive(Debug, Default)]
pub struct Report {
    figures: Vec<Figure>,
}

impl Report {
    /// Record a figure and print it at once.
    pub fn add(&mut self, name: impl Into<String>, value: f64, unit: &'static str) {
        let figure = Figure {
            name: name.into(),
            value,
            unit,
            budget: None,
        };
        println!(
            "  {:<52} {:>12.1} {}",
            figure.name, figure.value, figure.unit
        );
        self.figures.push(figure);
    }

    /// All figures as a table.
    pub fn table(&self) -> String {
        let mut table = format!("{:<52} {:>12}  unit\n", "benchmark", "value");
        for figure in &self.figures {
            table.push_str(&format!(
                "{:<52} {:>12.1}  {}\n",
                figure.name, figure.value, figure.unit
            ));
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
