//! `media-gen-bench`: measures the sandbox over loopback and prints a table;
//! also writes `target/bench.json` (name, value, unit, budget).
//!
//! Run through `cargo xtask bench`, which builds everything in release mode.

mod report;
mod sandbox;
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
    throughput::measure(&mut report).await?;
    println!("\n{}", report.table());
    let path = report.write_json()?;
    println!("Written to {}", path.display());
    Ok(())
}
