//! What people download: the app (`dist/`, built by xtask's release build)
//! and, from the npm package (`target/npm/`, built by `cargo xtask npm`),
//! what a Vite build of a page that uses all of the client entry ships and
//! what a page that mounts the widgets loads; each file gzipped and brotli-compressed at the
//! best levels, with totals against their budgets.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::report::Report;

/// The app's wasm, JS and CSS together, gzipped, at most (KB).
pub const APP_BUDGET_KB: f64 = 250.0;
/// The package's client entry as a production Vite build of a page that
/// uses all of it ships it (its JS and the client module), gzipped, at most
/// (KB): three times `@fal-ai/client`, which validates nothing.
pub const CLIENT_BUDGET_KB: f64 = 60.0;
/// Everything a page with the widgets loads (the client entry, the widgets'
/// entry and module), gzipped, at most (KB), whether or not its site takes
/// uploads.
pub const WIDGETS_PAGE_BUDGET_KB: f64 = 200.0;

/// What the app may weigh today (gzipped KB): its size now with a little
/// room, so a heavy dependency or a copy-pasted view cannot slip in
/// unnoticed. Checked by `cargo xtask test`; lowered as the app shrinks
/// towards [`APP_BUDGET_KB`]. 350 since the rules read URLs with the
/// browser's own parser instead of the `url` crate (367.7 → 348.3 KB); 356
/// since tasks submitted through a relaying gateway are heard of on an
/// event stream instead of read (+6.2 KB: the stream, the poller's relay
/// states, the submit's capability; 355.3 once a given-up stream is
/// opened again); 385 since a first visit's rough edges were mended
/// (+29.0 KB, 354.6 → 383.6: a re-run's notice, Undo and the list kept
/// still +10.5, guidance in the forms and settings +4.1, the phone's header
/// +1.4, a task's page saying what was asked +6.8, a request's tasks as one
/// row +5.7); 387 since the app runs under a path of its site (+1.3 KB,
/// 383.8 → 385.1: its base read from the page, every link and navigation
/// under it, a skip link that stays on its page); 396 since a gateway may
/// ask for a person (+8.8 KB, 385.6 → 394.4: the access rule read from
/// `/capabilities` +2.1, the sign-in page, the signed-in header and signing
/// in and out, the site drawn only once signed in; 395.3 with the client
/// remembering a page token for the relay's stream); 421 since a media
/// field takes a file (+25.4 KB, 395.3 → 420.7: the tus uploader with its
/// progress and resume +8.5 once its sizes were whole numbers (with
/// floats formatted and parsed it cost 33), the file controls, their
/// checks and progress line +12, the form waiting for its uploads and the
/// gateway's offer read +3.4); 428 with "Shrink to fit" and uploads kept in
/// IndexedDB across a reload (+6.6 KB, 420.7 → 427.3); 433 with one task
/// per image when several are dropped on the start frame (+5.2 KB: the
/// offer, the extra frames with Remove, the form sending a request each);
/// 435 with Re-run asking whether an uploaded file is still kept (+2.0);
/// 433 once the poller drives the contract's follow engine (−2.2: one
/// state machine in place of the poller's closures over shared state);
/// 434 once a task the stream had no room for is heard of when room comes
/// (+0.3: its own way of being followed); 429 once the follow engine
/// keeps its tasks in a list instead of a hash map and the translation
/// rules find repeated languages without a set (−4.3: no hashing, no
/// tree, no sort in the wasm); 419 once every answer, relayed event and
/// stored record is read from what the browser's `JSON.parse` made of it
/// (−9.7, 428.7 → 419.0: no JSON text reader, and no float printer, in the
/// wasm); 420 once the forms ask through a `FormClient` (+0.9: the trait
/// object the widgets answer with the page's client); see
/// `docs/performance.md`; 424 once a finished result starts the next job
/// (+3.5, 419.7 → 423.2: "Make a video of it", "Use as reference" and
/// "Translate it" on the task page, and the forms started from a result's
/// address with their link back); 435 once results are kept (+11.4, 423.2
/// → 434.6: `kept` and `not_kept` read and stored with every task, the
/// kept copy shown first and why a file was not, the next jobs on the
/// board's rows, the link back to the task a result came from, and
/// "Download all" as one `.zip` with `request.json`, 6.4 of it); 436 once
/// the full view offers its image to the next job (+0.5, 435.1); 437 once
/// a task's page reads a finished task again when its copies were still
/// being made (+1.6, 436.7); 462 once the board is the person's library
/// on a site that keeps one (+25.3, 436.7 → 462.0: its pages read and
/// searched, the newest read every few seconds, removals and undo carried
/// to it, this browser's tasks offered, rows' links named by what was
/// asked; 35.2 at first, with a JSON value reader for the pages and
/// Unicode case tables for the search words); 469 once the library's news
/// is heard on the relay's stream and its next page loads as the board
/// is scrolled (+6.4, 462.0 → 468.4).
pub const APP_CEILING_KB: f64 = 469.0;
/// The client entry's ceiling, as [`APP_CEILING_KB`]: 159.5 KB in a Vite
/// build as a module of its own; 134.0 with the browser's URL parser and
/// without a second, path-tracking JSON reader; 138.5 with the poller's
/// relay (shared with the app); 139.2 once the poller opens a given-up
/// stream again; 140.3 once `watch` listens for the tasks the client
/// submitted (or given their `relay`); 140.5 with the capability's shape
/// checked; 141.5 with the start frame's shape against the video's (a
/// rule its validators carry) and a sandbox's capabilities; 142.3 once a
/// relay's stream names another site's page token (fetched before the
/// stream opens); 157.8 with `client.upload` (+15.5 KB: the tus uploader
/// and its XHR +4, the gateway's upload offer read from `/capabilities`
/// (one more struct through serde_json's reader, +3), the file judged by
/// its first bytes and the call's own state machine +3; 2.2 of it won
/// back by reading a refusal's JSON from bytes, as every answer is);
/// 121 once the entry's calls, `watch` and `upload` are the package's
/// JavaScript (`fetch`, timers, `EventSource`, `XMLHttpRequest`) driving
/// the contract's plans in the client module (−37.3 KB, 158.0 → 120.7:
/// the async state machines, `gloo` and the answers' typed readers gone);
/// 80 once requests and answers are read from the JavaScript values
/// themselves (`JSON.parse`'s, the page's) instead of JSON text, whose
/// messages never print a float (−41.4, 120.7 → 79.3: `serde_json`'s
/// reader and the float printer gone, the envelope's `data` read as its
/// property, HTTP dates read by the browser, widget options checked
/// without the token provider's futures, no hash map or sort); 70 once
/// the module is built with LTO (−11.0, 79.7 → 68.7: the crate was
/// declared cdylib and rlib, which cargo builds without LTO; it is now made
/// a cdylib by `cargo rustc`, see `xtask/src/npm.rs`).
pub const CLIENT_CEILING_KB: f64 = 70.0;
/// A page with widgets, as [`APP_CEILING_KB`]: a production Vite build of
/// a page that mounts both (`vite-widgets/`): 441.8 KB when it was first
/// measured so (the widgets' module carries the client's code again: two
/// modules cannot share it); 449.6 with the poller's relay in both modules;
/// 451.6 once the status widget listens through it (`relay`); 452.8 with
/// the `relay` attribute and a given-up stream opened again; 452.2 once a
/// widget given a `relay` no longer asks the site for its relay first;
/// 461.1 with the forms' guidance (the callback under "Advanced" with a
/// sandbox's inbox, the start frame's shape, std and pro) and images shown
/// large with a full view that steps through them; 462.3 once the page
/// drives a Save button by the form's state, submits with the client too
/// and brings a custom element of its own (more page code), and every
/// submit answers in one shape with the service's answer; 464.4 once the
/// relay's stream names another site's page token (in both modules);
/// 465.2 once the forms' media fields and frame have their place for file
/// controls (the widgets build them without: a URL field, nothing waited
/// for); 466.2 with the start frame's place for more frames (one task per
/// image: sending them compiles away without uploads, the state does not);
/// 482.7 with `client.upload` in the client module the page loads
/// (+15.5, as [`CLIENT_CEILING_KB`]; the widgets' module is unchanged);
/// 526.6 once the submit widget's media fields take files when the site
/// takes uploads (+43.9: the app's file controls, their checks, progress,
/// "Shrink to fit", uploads kept across a reload and one task per image,
/// built into the widgets' module as they are into the app); 527.4 once
/// the poller drives the contract's follow engine (+0.8 here while the
/// app lost 2.2: the two modules each carry the engine); 528.0 with the
/// engine's way for a task waiting for room on the stream (+0.6, in both
/// modules); 491 with the client entry's I/O in JavaScript (−37.3, as
/// [`CLIENT_CEILING_KB`]); 446 with requests read from JavaScript values
/// and the smaller engine (in both modules); 424 once the widgets' module
/// reads answers, relayed events and stored records from `JSON.parse`'s
/// values too (−22.0, 445.9 → 423.9); 383 once the widgets talk to the
/// service through the client entry's client (one client on the page: the
/// widgets' module without the Rust client's calls, follow engine, stream
/// and uploader, 423.9 → 382.5); 344 once the file controls are a build of
/// their own that only a site taking uploads fetches (this page's site
/// takes none, 343.9: [`WIDGETS_UPLOADS_PAGE_CEILING_KB`] for one that
/// does); 296 once both modules are built with LTO (−49.0, 343.8 → 294.8,
/// as [`CLIENT_CEILING_KB`]); 303 once results are kept (+7.2, 294.8 →
/// 302.0: `kept` and `not_kept` read with every task, the kept copy shown
/// first and why a file was not, and the status widget's next-job buttons
/// sending `media-gen-use`; 302.7 once the gallery's full view takes the
/// app's actions).
pub const WIDGETS_PAGE_CEILING_KB: f64 = 303.0;
/// A page with widgets whose site takes uploads, as [`APP_CEILING_KB`]:
/// the same page, with the widgets' build that has the file controls
/// (`media_gen_widgets_uploads`): 382.5 KB when the builds were split;
/// 330 once the modules are built with LTO (−54.0, 382.6 → 328.6, as
/// [`CLIENT_CEILING_KB`]); 336 once results are kept (+7.1, 328.6 →
/// 335.7, as [`WIDGETS_PAGE_CEILING_KB`]); 337 once the gallery's full view
/// takes the app's actions (+0.7, 336.4).
pub const WIDGETS_UPLOADS_PAGE_CEILING_KB: f64 = 337.0;

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
    Ok(vec![
        Download {
            label: "app",
            files: files(&root.join("dist"), &["wasm", "js", "css"])?,
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
            label: "npm page with widgets",
            files: widgets_build(&widgets_assets, false)?,
            budget_kb: WIDGETS_PAGE_BUDGET_KB,
            ceiling_kb: WIDGETS_PAGE_CEILING_KB,
        },
        Download {
            label: "npm page with widgets, its site taking uploads",
            files: widgets_build(&widgets_assets, true)?,
            budget_kb: WIDGETS_PAGE_BUDGET_KB,
            ceiling_kb: WIDGETS_UPLOADS_PAGE_CEILING_KB,
        },
    ])
}

/// What a page with widgets loads of Vite's `assets`: the entries, the
/// client module and one build of the widgets' module, with the file
/// controls (`uploads`: its site takes uploads) or without.
fn widgets_build(assets: &Path, uploads: bool) -> Result<Vec<PathBuf>, String> {
    let all = files(assets, &["js", "wasm"])?;
    Ok(all
        .into_iter()
        .filter(|path| {
            let name = plain_name(path);
            let with_files = name.starts_with("media_gen_widgets_uploads");
            let without = name.starts_with("media_gen_widgets") && !with_files;
            !(if uploads { without } else { with_files })
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
) -> Result<(), String> {
    let (mut total_gzip, mut total_brotli) = (0, 0);
    for path in paths {
        let bytes =
            std::fs::read(path).map_err(|e| format!("{}: {e} (not built?)", path.display()))?;
        let (gz, br) = (gzip(&bytes), brotli(&bytes));
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
pub fn measure(report: &mut Report, root: &Path) -> Result<(), String> {
    println!("Transfer sizes");
    let sets = measured_sets(root)?;
    for set in &sets {
        measure_files(
            report,
            set.label,
            &set.files,
            (set.budget_kb, set.ceiling_kb),
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
}
