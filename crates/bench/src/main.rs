//! `media-gen-bench`: measures transfer sizes, polling cost and the sandbox over loopback,
//! prints a table, and writes `target/bench.json` (name, value, unit, budget).
//!
//! Run through `cargo xtask bench`, which builds everything in release mode.

mod load;
mod polling;
mod report;
mod sandbox;
mod sizes;
mod throughput;

use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("media-gen-bench: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), String> {
    let mut report = report::Report::default();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    sizes::measure(&mut report, &root)?;
    load::measure(&mut report, &root.join("dist")).await?;
    polling::measure(&mut report).await?;
    throughput::measure(&mut report).await?;
    println!("\n{}", report.table());
    let path = report.write_json()?;
    println!("Written to {}", path.display());
    let over = report.over_budget();
    if !over.is_empty() {
        let names: Vec<&str> = over.iter().map(|figure| figure.name.as_str()).collect();
        println!("Over budget: {}", names.join(", "));
    }
    Ok(())
}
