//! The test harness itself: what a test's browser leaves on the disk.

use media_gen_e2e::{start_site, Browser};

/// A stopped ChromeDriver leaves Chromium's profile and scoped folders
/// behind; over many runs they filled the disk. Each browser keeps them in
/// a folder of its own, gone with it: the profile's cache too, which
/// Chromium puts in the user's cache folder (`~/.cache`) unless told.
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
    let caches = folders_named(&folder, "Cache");
    assert!(
        !caches.is_empty(),
        "the page was cached outside {}: its profile's cache is left behind",
        folder.display()
    );
    let user_cache = match std::env::var_os("XDG_CACHE_HOME") {
        Some(cache) => Some(std::path::PathBuf::from(cache)),
        None => std::env::var_os("HOME").map(|home| std::path::Path::new(&home).join(".cache")),
    };
    if let Some(user_cache) = user_cache {
        let profiles = std::fs::read_dir(&folder)
            .unwrap()
            .filter_map(Result::ok)
            .filter(|entry| entry.path().join("Default").is_dir())
            .collect::<Vec<_>>();
        assert!(
            !profiles.is_empty(),
            "no Chromium profile in {}",
            folder.display()
        );
        for profile in profiles {
            let outside = user_cache.join(profile.file_name());
            assert!(
                !outside.exists(),
                "the profile {} keeps its cache in {}, left behind",
                profile.path().display(),
                outside.display()
            );
        }
    }
    drop(browser);
    assert!(!folder.exists(), "{} is left behind", folder.display());
}

/// Every folder named `name` at any depth below `root`.
fn folders_named(root: &std::path::Path, name: &str) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut to_read = vec![root.to_owned()];
    while let Some(folder) = to_read.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                if entry.file_name() == name {
                    found.push(entry.path());
                }
                to_read.push(entry.path());
            }
        }
    }
    found
}
