//! `media-gen-bench`: measures polling cost and the sandbox over loopback,
//! prints a table, and writes `target/bench.json` (name, value, unit, budget).
//!
//! Run through `cargo xtask bench`, which builds everything in release mode.

mod polling;
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
    polling::measure(&mut report).await?;
    throughput::measure(&mut report).await?;
    println!("\n{}", report.table());
    let path = report.write_json()?;
    println!("Written to {}", path.display());
    Ok(())
}
