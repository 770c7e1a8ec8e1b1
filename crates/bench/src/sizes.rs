//! What people download: the app (`dist/`, built by `trunk build --release`)
//! and the npm package (`target/npm/package/`, built by `cargo xtask npm`),
//! each file gzipped and brotli-compressed at the best levels, with totals
//! against their budgets.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::report::Report;

/// The app's wasm, JS and CSS together, gzipped, at most (KB).
pub const APP_BUDGET_KB: f64 = 250.0;
/// The package's wasm and JS together, gzipped, at most (KB).
pub const PACKAGE_BUDGET_KB: f64 = 200.0;

fn gzip(bytes: &[u8]) -> usize {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let _ = encoder.write_all(bytes);
    encoder.finish().map_or(0, |out| out.len())
}

fn brotli(bytes: &[u8]) -> usize {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        ..Default::default()
    };
    let _ = brotli::BrotliCompress(&mut &bytes[..], &mut out, &params);
    out.len()
}

fn kb(bytes: usize) -> f64 {
    bytes as f64 / 1024.0
}

/// The files in `dir` whose names end in one of `extensions`.
fn files(dir: &Path, extensions: &[&str]) -> Result<Vec<PathBuf>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut found: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| {
            path.extension()
                .and_then(|extension| extension.to_str())
                .is_some_and(|extension| extensions.contains(&extension))
        })
        .collect();
    found.sort();
    Ok(found)
}

/// Record each file's and the total's compressed sizes under `label`.
fn measure_dir(
    report: &mut Report,
    label: &str,
    dir: &Path,
    extensions: &[&str],
    budget_kb: f64,
) -> Result<(), String> {
    let (mut total_gzip, mut total_brotli) = (0, 0);
    for path in files(dir, extensions)? {
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        // Trunk's names carry a content hash: name the kind, not the hash.
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
        let name = match name.rsplit_once('-') {
            Some((_, hashed)) if hashed.len() > 16 => path
                .extension()
                .and_then(|e| e.to_str())
                .unwrap_or("file")
                .to_owned(),
            _ => name.to_owned(),
        };
        let (gz, br) = (gzip(&bytes), brotli(&bytes));
        report.add(format!("{label} {name}: gzip"), kb(gz), "KB");
        report.add(format!("{label} {name}: brotli"), kb(br), "KB");
        total_gzip += gz;
        total_brotli += br;
    }
    if total_gzip == 0 {
        return Err(format!(
            "{}: nothing to measure (not built?)",
            dir.display()
        ));
    }
    report.add_with_budget(
        format!("{label} total: gzip"),
        kb(total_gzip),
        "KB",
        budget_kb,
    );
    report.add(format!("{label} total: brotli"), kb(total_brotli), "KB");
    Ok(())
}

/// Measure the app and the package, from the workspace root `root`.
pub fn measure(report: &mut Report, root: &Path) -> Result<(), String> {
    println!("Transfer sizes");
    measure_dir(
        report,
        "app",
        &root.join("dist"),
        &["wasm", "js", "css"],
        APP_BUDGET_KB,
    )?;
    let package = root.join("target").join("npm").join("package");
    measure_dir(
        report,
        "npm package",
        &package,
        &["wasm", "js"],
        PACKAGE_BUDGET_KB,
    )
}
