//! The shape that keeps `cargo xtask test` quick, checked as `layers.rs`
//! checks the architecture: each rule says what a run must not do again
//! and why, and a test of xtask's own suite fails the day it does.

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// One rule: `holds` is true of the project as it is, `why` says what
    /// breaking it cost.
    struct Rule {
        what: &'static str,
        why: &'static str,
        holds: fn(&Path) -> Result<(), String>,
    }

    /// The `.rs` files directly in `dir` (each a test binary of its own).
    fn files_directly_in(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(|entry| entry.ok())
                    .map(|entry| entry.path())
                    .filter(|path| path.is_file() && path.extension().is_some_and(|e| e == "rs"))
                    .map(|path| path.display().to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Nothing but folders in `folder`: each `.rs` file there is a test
    /// binary of its own beside the one in its folder.
    fn no_test_files_directly_in(root: &Path, folder: &str) -> Result<(), String> {
        match files_directly_in(&root.join(folder)).as_slice() {
            [] => Ok(()),
            found => Err(format!("test binaries directly in {folder}/: {found:?}")),
        }
    }

    fn source(root: &Path, path: &str) -> String {
        std::fs::read_to_string(root.join(path)).unwrap_or_else(|error| panic!("{path}: {error}"))
    }

    /// The function `name`'s text in `text`: from `fn name(` to the brace
    /// that closes it at its own indentation (a method's too).
    fn function<'a>(text: &'a str, name: &str) -> &'a str {
        let start = text
            .find(&format!("fn {name}("))
            .unwrap_or_else(|| panic!("no fn {name}"));
        let line = text[..start].rfind('\n').map_or(0, |at| at + 1);
        let indent: String = text[line..start]
            .chars()
            .take_while(|c| *c == ' ')
            .collect();
        let end = text[start..]
            .find(&format!("\n{indent}}}\n"))
            .map_or(text.len(), |end| start + end);
        &text[start..end]
    }

    /// Where a doc comment opens a code block rustdoc would run as a test
    /// (```` ``` ```` or ```` ```rust ````), in the project's Rust sources.
    fn doc_tests(root: &Path) -> Vec<String> {
        let mut found = Vec::new();
        for folder in ["src", "crates", "xtask/src"] {
            let Ok(files) = crate::project::files_under(&root.join(folder)) else {
                continue;
            };
            for file in files
                .iter()
                .filter(|f| f.extension().is_some_and(|e| e == "rs"))
            {
                let text = std::fs::read_to_string(file).unwrap_or_default();
                let mut open = false;
                for (number, line) in text.lines().enumerate() {
                    let line = line.trim_start();
                    let Some(doc) = line
                        .strip_prefix("///")
                        .or_else(|| line.strip_prefix("//!"))
                    else {
                        continue;
                    };
                    let Some(fence) = doc.trim().strip_prefix("```") else {
                        continue;
                    };
                    if !open && (fence.is_empty() || fence.starts_with("rust")) {
                        found.push(format!("{}:{}", file.display(), number + 1));
                    }
                    open = !open;
                }
            }
        }
        found
    }

    const RULES: &[Rule] = &[
        Rule {
            what: "the browser tests are one binary (`tests/browser/main.rs`), nothing else directly in `tests/`",
            why: "each binary is a wasm-bindgen run of its own (the module bound again, ChromeDriver and Chromium started, the page loaded): twelve of them cost 46 s of a 114 s suite",
            holds: |root| no_test_files_directly_in(root, "tests"),
        },
        Rule {
            what: "the end-to-end tests are one binary (`crates/e2e/tests/e2e/main.rs`)",
            why: "one link of the crate's heavy dependencies instead of one per file, and one libtest pool that runs tests of every module side by side",
            holds: |root| no_test_files_directly_in(root, "crates/e2e/tests"),
        },
        Rule {
            what: "`cargo xtask test` builds no Trunk",
            why: "Trunk took 9 min 19 s to compile on a slow machine; the release build is xtask's own (`dist.rs`), and only `cargo xtask serve` needs Trunk",
            holds: |root| {
                let test = source(root, "xtask/src/test.rs");
                let tools = source(root, "xtask/src/tools.rs");
                let dist = source(root, "xtask/src/dist.rs");
                let build_tools = function(&tools, "ensure_build_tools");
                if test.contains("ensure_trunk") || build_tools.contains("ensure_trunk") {
                    return Err("the test run installs Trunk".to_owned());
                }
                if dist.contains("command(\"trunk\")") {
                    return Err("the release build runs Trunk".to_owned());
                }
                Ok(())
            },
        },
        Rule {
            what: "suites run from binaries built once, two lanes at once, not through `cargo test`",
            why: "`cargo test` holds the build folder's lock until its last test ends: the browser, native and sandbox suites could not run beside the end-to-end suite, and all of them waited in turn",
            holds: |root| {
                let test = source(root, "xtask/src/test.rs");
                if test.contains("\"test\", \"--no-fail-fast\"") || test.contains("fn cargo_test") {
                    return Err("a suite runs through `cargo test`".to_owned());
                }
                if !test.contains("std::thread::scope") {
                    return Err("the suites no longer run side by side".to_owned());
                }
                Ok(())
            },
        },
        Rule {
            what: "the lint is clippy compiling the test builds, native and wasm32, not a check of its own",
            why: "a separate `cargo clippy --workspace --all-targets` checked every dependency only for the test build to compile them again (311 s of a fresh run's lint), and three wasm32 checks did the same for the browser's crates (128 s)",
            holds: |root| {
                let test = source(root, "xtask/src/test.rs");
                let lint = function(&test, "lint");
                if lint.contains("\"--workspace\"") {
                    return Err("the lint checks the whole workspace itself".to_owned());
                }
                if lint.contains("WASM_TARGET") || lint.contains("wasm32") {
                    return Err("the lint checks the wasm32 crates itself".to_owned());
                }
                for name in ["build_native_tests", "build_browser_tests"] {
                    let build = function(&test, name);
                    if !build.contains("test_binaries::build(") || build.contains("command(\"cargo\")") {
                        return Err(format!("`{name}` is not made by `test_binaries::build`"));
                    }
                }
                let binaries = source(root, "xtask/src/test_binaries.rs");
                if !function(&binaries, "build").contains("RUSTC_WORKSPACE_WRAPPER") {
                    return Err("`test_binaries::build` does not compile with clippy's driver".to_owned());
                }
                Ok(())
            },
        },
        Rule {
            what: "the app's release build and npm package run beside the lint and the test build",
            why: "the release steps are mostly single-threaded links and wasm-opt: one after the other, the second core waited through them",
            holds: |root| {
                let test = source(root, "xtask/src/test.rs");
                if !function(&test, "run").contains("run_lanes(") {
                    return Err("the builds do not run in lanes".to_owned());
                }
                for (lane, step) in [
                    ("release_lane", "build the app (release)"),
                    ("release_lane", "npm package"),
                    ("test_lane", "build the tests + lint"),
                ] {
                    if !function(&test, lane).contains(&format!("\"{step}\"")) {
                        return Err(format!("`{step}` is not a step of `{lane}`"));
                    }
                }
                Ok(())
            },
        },
        Rule {
            what: "the test run builds no native package on its own beside the workspace's test build",
            why: "a package built alone resolves its dependencies' features alone: `cargo build -p media-gen-sandbox` and the test build compiled reqwest, hyper and their kin over each other on every run (10 s and 30 s of a warm run, both again on a fresh one)",
            holds: |root| {
                let sandbox = source(root, "xtask/src/sandbox.rs");
                if sandbox.contains("command(\"cargo\")") {
                    return Err("xtask/src/sandbox.rs runs cargo".to_owned());
                }
                let test = source(root, "xtask/src/test.rs");
                if test.contains("\"build\", \"--package\"") || test.contains("\"build\", \"-p\"") {
                    return Err("xtask/src/test.rs builds one package".to_owned());
                }
                Ok(())
            },
        },
        Rule {
            what: "an end-to-end test's browser is a context in a shared Chromium, not a Chromium of its own",
            why: "starting ChromeDriver and a Chromium cost each test about a second of CPU; with a browser context each in a Chromium shared three at a time, the suite went from 204 s to 134 s alone, all tests passing",
            holds: |root| {
                let lib = source(root, "crates/e2e/src/lib.rs");
                let start = lib
                    .find("pub async fn start() -> Browser {")
                    .ok_or("no Browser::start")?;
                if !lib[start..].lines().take(4).any(|line| line.contains("Lease::take")) {
                    return Err("Browser::start does not take a shared Chromium".to_owned());
                }
                let tests = root.join("crates/e2e/tests/e2e");
                for file in crate::project::files_under(&tests).map_err(|error| error.to_string())? {
                    let text = std::fs::read_to_string(&file).map_err(|error| error.to_string())?;
                    let allowed = file.ends_with("harness.rs");
                    if text.contains("start_own()") && !allowed {
                        return Err(format!("{} starts a Chromium of its own", file.display()));
                    }
                }
                Ok(())
            },
        },
        Rule {
            what: "the npm package's modules are made cdylibs by `cargo rustc`; no crate declares a crate type",
            why: "a lib declared cdylib and rlib gets no LTO from cargo, and its dependencies are compiled to objects besides bitcode: the widgets module was 15 % larger gzipped, and the package's three builds compiled Leptos over the app's again (86 crates and 71 s for the widgets; 5 crates and 34 s since)",
            holds: |root| {
                let npm = source(root, "xtask/src/npm.rs");
                if !function(&npm, "build_module").contains("\"--crate-type\",\n        \"cdylib\"") {
                    return Err("xtask/src/npm.rs does not build its modules as `--crate-type cdylib`".to_owned());
                }
                let crates = root.join("crates");
                let manifests = std::fs::read_dir(&crates)
                    .map_err(|error| error.to_string())?
                    .filter_map(|entry| Some(entry.ok()?.path().join("Cargo.toml")))
                    .chain([root.join("Cargo.toml")]);
                for manifest in manifests.filter(|manifest| manifest.exists()) {
                    let text = std::fs::read_to_string(&manifest).map_err(|error| error.to_string())?;
                    if text.lines().any(|line| line.trim_start().starts_with("crate-type")) {
                        return Err(format!("{} declares a crate type", manifest.display()));
                    }
                }
                Ok(())
            },
        },
        Rule {
            what: "no doc comment holds a code block rustdoc would run",
            why: "the suites run the test binaries cargo built, not rustdoc's: a doc test would never run (and each crate's rustdoc pass cost about a second when there were none); examples that must work are tests",
            holds: |root| match doc_tests(root).as_slice() {
                [] => Ok(()),
                found => Err(format!("doc tests at {found:?}: mark them `text` or make them tests")),
            },
        },
        Rule {
            what: "an end-to-end test waits in the page, not by asking WebDriver again and again",
            why: "a look from the test costs about 11 ms of ChromeDriver's and Chromium's CPU; the helpers looked 20 times a second while waiting",
            holds: |root| {
                let lib = source(root, "crates/e2e/src/lib.rs");
                for helper in ["wait_for_text", "wait_until", "wait_for_address", "find"] {
                    if !function(&lib, helper).contains("wait_in_page") {
                        return Err(format!("Browser::{helper} polls over WebDriver"));
                    }
                }
                Ok(())
            },
        },
    ];

    #[test]
    fn the_test_run_keeps_its_quick_shape() {
        let root = crate::project::root();
        let broken: Vec<String> = RULES
            .iter()
            .filter_map(|rule| {
                (rule.holds)(&root)
                    .err()
                    .map(|found| format!("{}: {found}\n  why: {}", rule.what, rule.why))
            })
            .collect();
        assert!(broken.is_empty(), "{}", broken.join("\n"));
    }

    #[test]
    fn the_shape_rules_see_a_broken_shape() {
        let dir = std::env::temp_dir().join(format!("xtask-shape-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("tests")).unwrap();
        std::fs::write(dir.join("tests/forms.rs"), "").unwrap();
        let rule = &RULES[0];
        assert!(
            (rule.holds)(&dir).is_err(),
            "a second browser test binary went unseen"
        );
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(
            dir.join("src/lib.rs"),
            "/// ```text\n/// not run\n/// ```\n/// ```\n/// run();\n/// ```\npub fn run() {}\n",
        )
        .unwrap();
        assert_eq!(doc_tests(&dir).len(), 1, "{:?}", doc_tests(&dir));
        std::fs::remove_dir_all(&dir).unwrap();
        let lib = "impl B {\n    fn find(&self) {\n        self.client.wait()\n    }\n    fn other(&self) {\n        self.wait_in_page()\n    }\n}\n";
        assert!(
            !function(lib, "find").contains("wait_in_page"),
            "a method's text ran into the next one"
        );
        // A crate declaring cdylib and rlib again.
        let cdylib = RULES
            .iter()
            .find(|rule| rule.what.starts_with("the npm package's modules"))
            .unwrap();
        std::fs::create_dir_all(dir.join("xtask/src")).unwrap();
        std::fs::create_dir_all(dir.join("crates/js")).unwrap();
        std::fs::write(dir.join("Cargo.toml"), "[workspace]\n").unwrap();
        std::fs::write(
            dir.join("xtask/src/npm.rs"),
            "fn build_module() {\n    build.args([\n        \"--crate-type\",\n        \"cdylib\",\n    ]);\n}\n",
        )
        .unwrap();
        std::fs::write(dir.join("crates/js/Cargo.toml"), "[lib]\n").unwrap();
        assert_eq!((cdylib.holds)(&dir), Ok(()));
        std::fs::write(
            dir.join("crates/js/Cargo.toml"),
            "[lib]\ncrate-type = [\"cdylib\", \"rlib\"]\n",
        )
        .unwrap();
        assert!(
            (cdylib.holds)(&dir).is_err(),
            "a declared crate type went unseen"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
