//! `media-gen-bench`: measures transfer sizes, load time, board scale, a batch
//! checked in the page, polling cost and
//! the sandbox over loopback,
//! prints a table, and writes `target/bench.json` (name, value, unit, budget).
//!
//! Run through `cargo xtask bench`, which builds everything in release mode.
//! With `--smoke`, each part runs once at its smallest size and nothing is
//! written: `cargo xtask test` runs every part so, to catch one that no
//! longer runs (see `size.rs`).

mod batch_check;
mod board_scale;
mod gateway_cost;
mod kept;
mod library;
mod load;
mod loopback;
mod parts;
mod polling;
mod relay;
mod report;
mod sandbox;
mod sharing;
mod sign_ins;
mod size;
mod sizes;
mod staged;
mod throughput;
mod uploads;
mod weight;

use std::process::ExitCode;

use parts::PARTS;
use size::Size;

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
    // Parts named on the command line, or all of them; `--smoke` among them.
    let (size, chosen) = size::from_args(std::env::args().skip(1));
    if let Some(unknown) = chosen.iter().find(|part| !PARTS.contains(&part.as_str())) {
        return Err(format!(
            "no part `{unknown}`; the parts are {}",
            PARTS.join(", ")
        ));
    }
    let runs = |part: &str| chosen.is_empty() || chosen.iter().any(|c| c == part);
    let mut report = report::Report::default();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dist = root.join("dist");
    if runs("sizes") {
        sizes::measure(&mut report, &root, size)?;
        let app_wasm = root.join("target/wasm32-unknown-unknown/wasm-release/media-gen-app.wasm");
        weight::measure(&mut report, "app", &app_wasm)?;
        let client_wasm = root.join("target/wasm32-unknown-unknown/wasm-release/media_gen_js.wasm");
        weight::measure(&mut report, "client module", &client_wasm)?;
    }
    if runs("load") {
        load::measure(&mut report, &dist, size).await?;
    }
    if runs("board") {
        board_scale::measure(&mut report, &dist, size).await?;
    }
    if runs("batch") {
        batch_check::measure(&mut report, &dist, size).await?;
    }
    if runs("polling") {
        polling::measure(&mut report, size).await?;
    }
    if runs("relay") {
        relay::measure(&mut report, size).await?;
    }
    if runs("throughput") {
        throughput::measure(&mut report, size).await?;
    }
    if runs("gateway") {
        gateway_cost::measure(&mut report, size).await?;
    }
    if runs("uploads") {
        uploads::measure(&mut report, &dist, size).await?;
    }
    if runs("kept") {
        kept::measure(&mut report, size).await?;
    }
    if runs("sign_ins") {
        sign_ins::measure(&mut report, size).await?;
    }
    if runs("library") {
        library::measure(&mut report, size).await?;
    }
    if runs("sharing") {
        sharing::measure(&mut report, size).await?;
    }
    if size == Size::Smoke {
        // Figures of a few samples on debug builds: not a record to keep.
        println!("\nSmoke run: every part chosen ran; nothing written.");
        return Ok(());
    }
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
