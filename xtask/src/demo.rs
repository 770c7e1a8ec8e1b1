//! `cargo xtask dist --demo`: the release app with the service inside, a
//! folder any static file server serves (`target/demo/`). The app's own
//! files as `dist/` has them; the npm package's testing entry and its
//! service module in `demo/`, its Service Worker at the root; `index.html`
//! starting the service (`demo/boot.js`) before the app; a `404.html` for
//! hosts that answer an unknown path with it (the app's routes).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::project;

/// Where the demo is assembled.
pub fn demo_dir(root: &Path) -> PathBuf {
    root.join("target").join("demo")
}

/// The package's files the demo takes, into its `demo/` folder.
const FROM_PACKAGE: &[&str] = &[
    "testing.js",
    "media_gen_test_service.js",
    "media_gen_test_service_bg.wasm",
];

/// The worker, served from the demo's root.
const WORKER: &str = "media-gen-test-worker.js";

/// What `index.html`'s start script begins with once the demo is in it:
/// the service started before the app (the script's imports only define;
/// its first statement starts the app).
const START: &str = "await (await import('./demo/boot.js')).start();\n";

/// Assemble the demo from `dist/` and the packed package's folder
/// (`target/npm/package/`), both built already.
pub fn assemble() -> Result<PathBuf> {
    let root = project::root();
    let dist = root.join("dist");
    let package = crate::npm::npm_dir(&root).join("package");
    let demo = demo_dir(&root);
    if demo.exists() {
        std::fs::remove_dir_all(&demo).context("clear target/demo")?;
    }
    crate::files::copy_folder(&dist, &demo)?;
    // The compressed copies are of the page before the demo changed it.
    for name in ["index.html.br", "index.html.gz"] {
        let _ = std::fs::remove_file(demo.join(name));
    }
    let own = demo.join("demo");
    std::fs::create_dir_all(&own)?;
    for file in FROM_PACKAGE {
        std::fs::copy(package.join(file), own.join(file))
            .with_context(|| format!("copy {file} from the npm package (cargo xtask npm)"))?;
    }
    std::fs::copy(package.join(WORKER), demo.join(WORKER)).context("copy the worker")?;
    std::fs::copy(root.join("demo/boot.js"), own.join("boot.js")).context("copy demo/boot.js")?;
    let page = std::fs::read_to_string(demo.join("index.html")).context("read index.html")?;
    let page = with_demo_start(&page)?;
    std::fs::write(demo.join("index.html"), &page)?;
    std::fs::write(demo.join("404.html"), &page)?;
    Ok(demo)
}

/// `page` with the demo's start before the app's: in the app's start
/// script, after its imports.
fn with_demo_start(page: &str) -> Result<String> {
    let opening = "<script type=\"module\">\n";
    let Some(script) = page.find(opening) else {
        bail!("index.html has no module script to start the demo in");
    };
    let body = script + opening.len();
    // Past the script's import lines: imports must come first in a module.
    let mut at = body;
    for line in page[body..].split_inclusive('\n') {
        if !line.starts_with("import ") {
            break;
        }
        at += line.len();
    }
    if at == body {
        bail!("index.html's start script imports nothing: is it the app's?");
    }
    Ok(format!("{}{START}{}", &page[..at], &page[at..]))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_demo_starts_after_the_imports_and_before_the_app() {
        let page = "<head><script type=\"module\">\nimport init from './app.js';\nawait init();\n</script>";
        let demo = super::with_demo_start(page).unwrap();
        assert_eq!(
            demo,
            "<head><script type=\"module\">\nimport init from './app.js';\n\
             await (await import('./demo/boot.js')).start();\nawait init();\n</script>"
        );
        assert!(super::with_demo_start("<p>no script</p>").is_err());
    }
}
