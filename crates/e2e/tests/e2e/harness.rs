//! The test harness itself: what a test's browser leaves on the disk.

use media_gen_e2e::{start_site, Browser};

/// A stopped ChromeDriver leaves Chromium's profile and scoped folders
/// behind; over many runs they filled the disk. Each browser keeps them in
/// a folder of its own, gone with it.
#[tokio::test]
#[ignore = "needs the release build in dist/ and ChromeDriver: run through `cargo xtask test`"]
async fn a_browser_keeps_its_temporary_files_to_itself_and_takes_them_away() {
    let site = start_site().await;
    let browser = Browser::start_own().await;
    browser.open(&format!("{}/", site.base_url)).await;
    browser.wait_for_text("main h1", "Tasks").await;
    let folder = browser.temporary_dir().to_owned();
    let made = std::fs::read_dir(&folder).unwrap().count();
    assert!(
        made > 0,
        "Chromium made no temporary files in {}: it writes them elsewhere",
        folder.display()
    );
    drop(browser);
    assert!(!folder.exists(), "{} is left behind", folder.display());
}
