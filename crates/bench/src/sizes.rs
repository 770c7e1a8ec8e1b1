//! What people download: the app (`dist/`, built by xtask's release build)
//! and, from the npm package (`target/npm/`, built by `cargo xtask npm`),
//! what a Vite build of a page that uses all of the client entry ships and
//! what a page that mounts the widgets loads; each file gzipped and brotli-compressed at the
//! best levels, with totals against their budgets.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::report::Report;
use crate::size::Size;

/// The app's wasm, JS and CSS together (its first module and every chunk),
/// gzipped, at most (KB).
pub const APP_BUDGET_KB: f64 = 250.0;
/// What the app's first page fetches before its first control (the first
/// module, its JavaScript, the chunks' loader and the styles), gzipped, at
/// most (KB), whichever page it is: every page's own part is a chunk.
pub const FIRST_PAGE_BUDGET_KB: f64 = 150.0;
/// The package's client entry as a production Vite build of a page that
/// uses all of it ships it (its JS and the client module), gzipped, at most
/// (KB): three times `@fal-ai/client`, which validates nothing.
pub const CLIENT_BUDGET_KB: f64 = 60.0;
/// Everything a page with the widgets loads (the client entry, the widgets'
/// entry, module and the chunks its widgets draw), gzipped, at most (KB),
/// whether or not its site takes uploads.
pub const WIDGETS_PAGE_BUDGET_KB: f64 = 300.0;
/// Everything a production Vite build of a page with the widgets emits
/// (every part a page of them may fetch), gzipped, at most (KB).
pub const WIDGETS_SHIPPED_BUDGET_KB: f64 = 400.0;

/// The app's ceiling (gzipped KB): its size now with a little room, checked
/// by `cargo xtask test` and lowered as it shrinks towards [`APP_BUDGET_KB`].
/// Its history is in `docs/performance.md`, "How the ceilings grew".
pub const APP_CEILING_KB: f64 = 698.0;
/// The first page's ceiling, as [`APP_CEILING_KB`], lowered as it shrinks
/// towards [`FIRST_PAGE_BUDGET_KB`].
pub const FIRST_PAGE_CEILING_KB: f64 = 324.0;
/// The client entry's ceiling in a Vite build of a page that uses all of it,
/// as [`APP_CEILING_KB`]; its history is in `docs/performance.md`, "How the
/// ceilings grew".
pub const CLIENT_CEILING_KB: f64 = 68.0;
/// A page that mounts both widgets on a site taking no uploads
/// (`vite-widgets/`: the widgets' first module and the forms' chunk), as
/// [`APP_CEILING_KB`]; its history is in `docs/performance.md`, "How the
/// ceilings grew".
pub const WIDGETS_PAGE_CEILING_KB: f64 = 346.0;
/// The same page on a site that takes uploads (the file controls' chunk
/// too), as [`APP_CEILING_KB`].
pub const WIDGETS_UPLOADS_PAGE_CEILING_KB: f64 = 373.0;
/// A page with only the status widget (the widgets' first module, no
/// chunk), as [`APP_CEILING_KB`].
pub const STATUS_PAGE_CEILING_KB: f64 = 222.0;
/// Everything Vite emits for the page with both widgets, as
/// [`APP_CEILING_KB`].
pub const WIDGETS_SHIPPED_CEILING_KB: f64 = 373.0;

fn gzip(bytes: &[u8]) -> usize {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let _ = encoder.write_all(bytes);
    encoder.finish().map_or(0, |out| out.len())
}

/// Brotli's best level: what the gateway serves (`dist/*.br`).
const BROTLI_BEST: i32 = 11;

fn brotli(bytes: &[u8], quality: i32) -> usize {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality,
        ..Default::default()
    };
    let _ = brotli::BrotliCompress(&mut &bytes[..], &mut out, &params);
    out.len()
}

/// The files at `paths` gzipped, together, in KB (0 for a file not there).
fn gzipped_kb(paths: &[PathBuf]) -> f64 {
    kb(paths
        .iter()
        .map(|path| std::fs::read(path).map_or(0, |bytes| gzip(&bytes)))
        .sum())
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

/// The testing entry's own module (the service model, the contract's rules,
/// the sample result files and a PNG encoder), gzipped, at most (KB): only
/// a page that imports `@media-gen/widgets/testing` ships or loads it.
pub const TESTING_BUDGET_KB: f64 = 250.0;
/// Its ceiling, as [`APP_CEILING_KB`].
pub const TESTING_CEILING_KB: f64 = 224.0;

/// What a page of one kind downloads.
struct Download {
    label: &'static str,
    files: Vec<PathBuf>,
    budget_kb: f64,
    ceiling_kb: f64,
}

/// The files a page of each kind loads, from the workspace root `root`.
fn measured_sets(root: &Path) -> Result<Vec<Download>, String> {
    // What Vite ships for a page that uses all of the client entry
    // (`crates/e2e/pages/vite-client/`, built by `cargo xtask npm`), and for
    // a page that mounts both widgets (`vite-widgets/`: the client entry,
    // and the widgets' module Vite splits off for the first mount).
    let vite_assets = root.join("target/npm/scratch/vite-client/dist/assets");
    let widgets_assets = root.join("target/npm/scratch/vite-widgets/dist/assets");
    let app = files(&root.join("dist"), &["wasm", "js", "css"])?;
    let first_page = app
        .iter()
        .filter(|path| !media_gen_e2e::is_app_chunk(&file_name_of(path)))
        .cloned()
        .collect();
    Ok(vec![
        Download {
            label: "app first page",
            files: first_page,
            budget_kb: FIRST_PAGE_BUDGET_KB,
            ceiling_kb: FIRST_PAGE_CEILING_KB,
        },
        Download {
            label: "app",
            files: app,
            budget_kb: APP_BUDGET_KB,
            ceiling_kb: APP_CEILING_KB,
        },
        Download {
            label: "npm client entry",
            files: files(&vite_assets, &["js", "wasm"])?,
            budget_kb: CLIENT_BUDGET_KB,
            ceiling_kb: CLIENT_CEILING_KB,
        },
        Download {
            label: "npm page with the status widget",
            files: widgets_page(&widgets_assets, WidgetsPage::Status)?,
            budget_kb: WIDGETS_PAGE_BUDGET_KB,
            ceiling_kb: STATUS_PAGE_CEILING_KB,
        },
        Download {
            label: "npm page with widgets",
            files: widgets_page(&widgets_assets, WidgetsPage::Both)?,
            budget_kb: WIDGETS_PAGE_BUDGET_KB,
            ceiling_kb: WIDGETS_PAGE_CEILING_KB,
        },
        Download {
            label: "npm page with widgets, its site taking uploads",
            files: widgets_page(&widgets_assets, WidgetsPage::BothWithUploads)?,
            budget_kb: WIDGETS_PAGE_BUDGET_KB,
            ceiling_kb: WIDGETS_UPLOADS_PAGE_CEILING_KB,
        },
        Download {
            label: "npm widgets as Vite emits them",
            files: files(&widgets_assets, &["js", "wasm"])?,
            budget_kb: WIDGETS_SHIPPED_BUDGET_KB,
            ceiling_kb: WIDGETS_SHIPPED_CEILING_KB,
        },
        Download {
            label: "npm testing entry's module",
            files: files(
                &root.join("target/npm/scratch/vite-testing/dist/assets"),
                &["wasm"],
            )?
            .into_iter()
            .filter(|path| file_name_of(path).starts_with(TESTING_MODULE))
            .collect(),
            budget_kb: TESTING_BUDGET_KB,
            ceiling_kb: TESTING_CEILING_KB,
        },
    ])
}

/// The name the testing entry's module starts with.
const TESTING_MODULE: &str = "media_gen_test_service";

/// `path`'s file name.
fn file_name_of(path: &Path) -> String {
    path.file_name()
        .and_then(|name| name.to_str())
        .unwrap_or_default()
        .to_owned()
}

/// Which page of widgets a set of files is for.
#[derive(Clone, Copy, PartialEq)]
enum WidgetsPage {
    /// Only status widgets: the widgets' first module, no chunk.
    Status,
    /// Both widgets on a site taking no uploads: the forms' chunk too.
    Both,
    /// Both on a site that takes uploads: the file controls' chunk too.
    BothWithUploads,
}

/// What a page of widgets loads of Vite's `assets` (the widgets' parts
/// as `xtask/src/split.rs` names them in the package): the entries, the
/// client module, the widgets' first module and the chunks its widgets
/// draw. Code the chunks share (`…_chunk_N`) comes with the forms, as
/// every chunk is drawn within a form.
fn widgets_page(assets: &Path, page: WidgetsPage) -> Result<Vec<PathBuf>, String> {
    let all = files(assets, &["js", "wasm"])?;
    Ok(all
        .into_iter()
        .filter(|path| {
            let name = plain_name(path);
            let controls = name.starts_with("media_gen_widgets_split_file_controls");
            let chunk = controls
                || name.starts_with("media_gen_widgets_split_")
                || name.starts_with("media_gen_widgets_chunk_");
            match page {
                WidgetsPage::Status => !chunk,
                WidgetsPage::Both => !controls,
                WidgetsPage::BothWithUploads => true,
            }
        })
        .collect())
}

/// `path`'s name without the content hash the release build or Vite gives
/// it (`ui-28793656f44d3f23.css` is `ui.css`, `index-B4EsS_ah.js` is
/// `index.js`): the release build writes 16 hex digits after the last `-`,
/// Vite 8 characters (which may hold a `-` themselves).
fn plain_name(path: &Path) -> String {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let (Some(stem), Some(extension)) = (
        path.file_stem().and_then(|s| s.to_str()),
        path.extension().and_then(|e| e.to_str()),
    ) else {
        return name.to_owned();
    };
    let trunk = stem.rsplit_once('-').filter(|(_, hash)| {
        let digits = hash.chars().take_while(char::is_ascii_hexdigit).count();
        digits >= 12
            && hash[digits..]
                .chars()
                .all(|c| c == '_' || c.is_ascii_alphabetic())
    });
    let vite = stem
        .len()
        .checked_sub(9)
        .filter(|&cut| stem.is_char_boundary(cut) && stem[cut..].starts_with('-'))
        .map(|cut| &stem[..cut]);
    match (trunk, vite) {
        (Some((plain, _)), _) => format!("{plain}.{extension}"),
        (None, Some(plain)) => format!("{plain}.{extension}"),
        (None, None) => name.to_owned(),
    }
}

/// Record each file's and the total's compressed sizes under `label`.
fn measure_files(
    report: &mut Report,
    label: &str,
    paths: &[PathBuf],
    (budget_kb, ceiling_kb): (f64, f64),
    brotli_quality: i32,
) -> Result<(), String> {
    let (mut total_gzip, mut total_brotli) = (0, 0);
    for path in paths {
        let bytes =
            std::fs::read(path).map_err(|e| format!("{}: {e} (not built?)", path.display()))?;
        let (gz, br) = (gzip(&bytes), brotli(&bytes, brotli_quality));
        let name = plain_name(path);
        report.add(format!("{label} {name}: gzip"), kb(gz), "KB");
        report.add(format!("{label} {name}: brotli"), kb(br), "KB");
        total_gzip += gz;
        total_brotli += br;
    }
    if total_gzip == 0 {
        return Err(format!("{label}: nothing to measure (not built?)"));
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
    println!(
        "    {label}: {verdict} its ceiling of {ceiling_kb} KB (checked by `cargo xtask test`)"
    );
    Ok(())
}

/// What the same jobs cost with `@fal-ai/client` (submit, read a status,
/// follow to the end, its errors): `crates/e2e/pages/vite-fal/`, built by
/// Vite as the client entry's page is. The client entry's budget is read
/// against it.
const COMPARISON: &str = "@fal-ai/client page (comparison)";

/// Measure the app and the package, and the comparison, from the
/// workspace root `root`.
pub fn measure(report: &mut Report, root: &Path, size: Size) -> Result<(), String> {
    println!("Transfer sizes");
    // Brotli's best level takes seconds a megabyte in a debug build (the
    // smoke run's): its fastest runs the same steps.
    let brotli_quality = size.pick(BROTLI_BEST, 1);
    let sets = measured_sets(root)?;
    for set in &sets {
        measure_files(
            report,
            set.label,
            &set.files,
            (set.budget_kb, set.ceiling_kb),
            brotli_quality,
        )?;
    }
    let fal = files(
        &root.join("target/npm/scratch/vite-fal/dist/assets"),
        &["js"],
    )?;
    let fal_kb = gzipped_kb(&fal);
    if fal_kb == 0.0 {
        return Err(format!("{COMPARISON}: not built (run `cargo xtask npm`)"));
    }
    report.add(format!("{COMPARISON} total: gzip"), fal_kb, "KB");
    for set in sets.iter().filter(|set| set.label.starts_with("npm")) {
        report.add(
            format!("{} against {COMPARISON}", set.label),
            gzipped_kb(&set.files) / fal_kb,
            "x",
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_shown_without_their_content_hash() {
        for (file, plain) in [
            ("dist/ui-28793656f44d3f23.css", "ui.css"),
            ("dist/app-8cc51f1d39235db.css", "app.css"),
            (
                "dist/media-gen-app-e9780e6dbab1e741_bg.wasm",
                "media-gen-app.wasm",
            ),
            ("assets/index-B4EsS_ah.js", "index.js"),
            ("assets/index-CjykMj-u.js", "index.js"),
            (
                "assets/media_gen_client_bg-DzGxNgBP.wasm",
                "media_gen_client_bg.wasm",
            ),
            ("package/media_gen_client.js", "media_gen_client.js"),
        ] {
            assert_eq!(plain_name(Path::new(file)), plain, "{file}");
        }
    }

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    /// The set `label` is under its ceiling.
    fn assert_within(label: &str) {
        let sets = measured_sets(&root()).expect("the builds to measure");
        let Download {
            files: paths,
            budget_kb: budget,
            ceiling_kb: ceiling,
            ..
        } = sets
            .into_iter()
            .find(|set| set.label == label)
            .expect("a measured set of that name");
        let mut total = 0;
        for path in &paths {
            let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            total += gzip(&bytes);
        }
        let size = kb(total);
        assert!(size > 0.0, "{label}: nothing built");
        println!("{label}: {size:.1} KB gzipped (ceiling {ceiling}, budget {budget})");
        assert!(
            size <= ceiling,
            "{label} is {size:.1} KB gzipped, over its ceiling of {ceiling} KB (budget {budget} KB): \
             run `cargo xtask bench sizes` to see what grew"
        );
    }

    // Ignored in a plain `cargo test`: they need the release builds, which
    // `cargo xtask test` makes before running them.
    #[test]
    #[ignore]
    fn the_app_stays_under_its_ceiling() {
        assert_within("app");
    }

    #[test]
    #[ignore]
    fn the_apps_first_page_stays_under_its_ceiling() {
        assert_within("app first page");
    }

    #[test]
    #[ignore]
    fn the_client_entry_stays_under_its_ceiling() {
        assert_within("npm client entry");
    }

    #[test]
    #[ignore]
    fn a_page_with_widgets_stays_under_its_ceiling() {
        assert_within("npm page with widgets");
    }

    #[test]
    #[ignore]
    fn a_page_with_widgets_on_a_site_taking_uploads_stays_under_its_ceiling() {
        assert_within("npm page with widgets, its site taking uploads");
    }

    #[test]
    #[ignore]
    fn a_page_with_the_status_widget_stays_under_its_ceiling() {
        assert_within("npm page with the status widget");
    }

    #[test]
    #[ignore]
    fn what_vite_emits_for_the_widgets_stays_under_its_ceiling() {
        assert_within("npm widgets as Vite emits them");
    }

    #[test]
    #[ignore]
    fn the_testing_entrys_module_stays_under_its_ceiling() {
        assert_within("npm testing entry's module");
    }

    #[test]
    #[ignore]
    fn a_page_that_does_not_import_the_testing_entry_ships_none_of_it() {
        for page in ["vite-client", "vite-widgets"] {
            let assets = root().join(format!("target/npm/scratch/{page}/dist/assets"));
            for path in files(&assets, &["js", "wasm"]).expect("the page's build") {
                let name = file_name_of(&path);
                assert!(!name.starts_with(TESTING_MODULE), "{page} ships {name}");
                let text = String::from_utf8_lossy(&std::fs::read(&path).expect("a built file"))
                    .into_owned();
                for word in [
                    "media-gen-test-worker",
                    "startTestService",
                    "media-gen.test",
                ] {
                    assert!(!text.contains(word), "{page}'s {name} holds {word}");
                }
            }
        }
        // The testing page does ship it: the check reads what it means to.
        let testing = root().join("target/npm/scratch/vite-testing/dist/assets");
        assert!(files(&testing, &["wasm"])
            .expect("the testing page's build")
            .iter()
            .any(|path| file_name_of(path).starts_with(TESTING_MODULE)));
    }
}
