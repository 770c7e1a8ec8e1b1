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

/// What the app may weigh today (gzipped KB): its size now with a little
/// room, so a heavy dependency or a copy-pasted view cannot slip in
/// unnoticed. Checked by `cargo xtask test`; lowered as the app shrinks
/// towards [`APP_BUDGET_KB`]. 368 since the views both hosts share moved
/// to `media-gen-ui` (+6.6 KB: the same code compiled across a crate
/// boundary) and `Retry-After` dates are read in all three HTTP forms
/// (+1.3 KB); see `docs/performance.md`.
pub const APP_CEILING_KB: f64 = 368.0;
/// The package's ceiling, as [`APP_CEILING_KB`]. 343 since the widgets
/// became a crate of their own over `media-gen-ui` (+1.0 KB) and read
/// `Retry-After` dates in all three forms (+2.9 KB), less the app's own
/// styles, which the widgets no longer carry (−1.7 KB).
pub const PACKAGE_CEILING_KB: f64 = 343.0;

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
    (budget_kb, ceiling_kb): (f64, f64),
) -> Result<(), String> {
    let (mut total_gzip, mut total_brotli) = (0, 0);
    for path in files(dir, extensions)? {
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        // Trunk's names carry a content hash: name the file without it
        // (`ui-28793656f44d3f23.css` is `ui.css`).
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
        let name = match (name.rsplit_once('-'), path.extension()) {
            (Some((stem, hashed)), Some(extension)) if hashed.len() > 16 => {
                format!("{stem}.{}", extension.to_string_lossy())
            }
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
    let verdict = if kb(total_gzip) <= ceiling_kb {
        "within"
    } else {
        "OVER"
    };
    println!("    {verdict} its ceiling of {ceiling_kb} KB (checked by `cargo xtask test`)");
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
        (APP_BUDGET_KB, APP_CEILING_KB),
    )?;
    let package = root.join("target").join("npm").join("package");
    measure_dir(
        report,
        "npm package",
        &package,
        &["wasm", "js"],
        (PACKAGE_BUDGET_KB, PACKAGE_CEILING_KB),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gzipped size of the files in `dir` ending in `extensions`, in KB.
    fn gzip_total_kb(dir: &Path, extensions: &[&str]) -> Result<f64, String> {
        let mut total = 0;
        for path in files(dir, extensions)? {
            total += gzip(&std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?);
        }
        Ok(kb(total))
    }

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    fn assert_within(label: &str, dir: &Path, extensions: &[&str], ceiling: f64, budget: f64) {
        let size = gzip_total_kb(dir, extensions).expect("the build to measure");
        assert!(size > 0.0, "{}: nothing built", dir.display());
        println!("{label}: {size:.1} KB gzipped (ceiling {ceiling}, budget {budget})");
        assert!(
            size <= ceiling,
            "{label} is {size:.1} KB gzipped, over its ceiling of {ceiling} KB (budget {budget} KB): \
             run `cargo xtask bench sizes` and `twiggy top` to see what grew"
        );
    }

    // Ignored in a plain `cargo test`: they need the release builds, which
    // `cargo xtask test` makes before running them.
    #[test]
    #[ignore]
    fn the_app_stays_under_its_ceiling() {
        let dist = root().join("dist");
        assert_within(
            "app",
            &dist,
            &["wasm", "js", "css"],
            APP_CEILING_KB,
            APP_BUDGET_KB,
        );
    }

    #[test]
    #[ignore]
    fn the_npm_package_stays_under_its_ceiling() {
        let package = root().join("target").join("npm").join("package");
        assert_within(
            "npm package",
            &package,
            &["wasm", "js"],
            PACKAGE_CEILING_KB,
            PACKAGE_BUDGET_KB,
        );
    }
}
