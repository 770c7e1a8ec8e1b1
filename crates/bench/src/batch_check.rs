//! A batch checked in the page, in headless Chromium: 500 lines pasted
//! into the batch page's list (one prompt a line, over the image form's
//! settings): the text read and every row checked by the contract's rules
//! (the page's `media-gen:batch-checked` measure), and from the `input`
//! event to the table's 500 rows drawn. Medians of several pastes.

use std::path::Path;

use media_gen_e2e::Browser;

use crate::report::{median, Report};
use crate::size::Size;
use crate::staged::StagedApp;

/// Rows pasted: the most the issue asks to check at once (a smoke run: a
/// few).
const ROWS: usize = 500;
/// Pastes measured (a smoke run: one).
const PASTES: usize = 5;
/// The budget for reading and checking them (ms).
const BUDGET_MS: f64 = 100.0;

/// Measure the release build in `dist`.
pub async fn measure(report: &mut Report, dist: &Path, size: Size) -> Result<(), String> {
    let (rows, pastes) = (size.pick(ROWS, 10), size.pick(PASTES, 1));
    println!("A batch of {rows} rows checked in the page (median of {pastes} pastes)");
    let staged = StagedApp::start(dist, "batch", &[]).await?;
    let browser = Browser::start_own().await;
    browser
        .open(&staged.url("/batch?kind=image-generate"))
        .await;
    browser.find("#batch-text").await;
    let (mut checks, mut times) = (Vec::new(), Vec::new());
    for paste in 0..pastes {
        let took = browser
            .run_async(&format!(
                "const text = document.querySelector('#batch-text');
                 const rows = () => document.querySelectorAll('#batch-table tbody tr').length;
                 text.value = ''; text.dispatchEvent(new Event('input', {{ bubbles: true }}));
                 while (rows() !== 0) await new Promise((r) => setTimeout(r, 0));
                 const lines = Array.from({{ length: {rows} }}, (_, i) => `A lighthouse, take {paste}-${{i}}`).join('\\n');
                 const start = performance.now();
                 text.value = lines; text.dispatchEvent(new Event('input', {{ bubbles: true }}));
                 while (rows() !== {rows}) await new Promise((r) => setTimeout(r, 0));
                 const checked = performance.getEntriesByName('media-gen:batch-checked').at(-1).duration;
                 return [checked, performance.now() - start];"
            ))
            .await;
        let (Some(checked), Some(drawn)) = (took[0].as_f64(), took[1].as_f64()) else {
            return Err(format!("the table never showed {rows} rows: {took}"));
        };
        checks.push(checked);
        times.push(drawn);
    }
    browser.close().await;
    report.add_with_budget(
        format!("batch: {rows} pasted lines read and checked in the page"),
        median(checks),
        "ms",
        BUDGET_MS,
    );
    report.add(
        format!("batch: the same, until the table's {rows} rows are drawn"),
        median(times),
        "ms",
    );
    Ok(())
}
