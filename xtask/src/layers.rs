//! The dependency rules ARCHITECTURE.md states, checked: on Cargo's own
//! graph (`cargo tree`), what each crate must never pull in, however
//! indirectly; in the browser crate's sources, which folder alone may call
//! browser storage or the network. Part of the lint phase of `cargo xtask test`.

use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::cmd::{self, command};
use crate::tools::WASM_TARGET;

/// One rule: `package`, built for `target` (this machine when `None`),
/// depends on none of `forbidden`
/// (crate names, matched whole or as a prefix followed by `-` or `_`).
struct Rule {
    package: &'static str,
    target: Option<&'static str>,
    forbidden: &'static [&'static str],
    why: &'static str,
}

/// View code: Leptos and the crates it is made of.
const VIEWS: &[&str] = &["leptos", "tachys", "reactive_graph", "leptos_router"];
/// Browser bindings.
const BROWSER: &[&str] = &["web-sys", "js-sys", "wasm-bindgen", "gloo"];

const RULES: &[Rule] = &[
    Rule {
        package: "media-gen-api",
        target: Some(WASM_TARGET),
        forbidden: &[
            "leptos",
            "tachys",
            "reactive_graph",
            "web-sys",
            "js-sys",
            "wasm-bindgen",
            "gloo",
        ],
        why: "the contract is plain Rust, tested natively, shared by every part",
    },
    Rule {
        package: "media-gen-client",
        target: Some(WASM_TARGET),
        forbidden: VIEWS,
        why: "a JavaScript package can be built from the client and the contract alone",
    },
    Rule {
        package: "xtask",
        target: None,
        forbidden: &[
            "media-gen-api",
            "media-gen-client",
            "media-gen-gateway",
            "media-gen-sandbox",
            "media-gen-e2e",
            "media-gen-bench",
        ],
        why: "the commands build in seconds on a fresh machine; they start servers through media-gen-launch only",
    },
    Rule {
        package: "media-gen-gateway",
        target: None,
        forbidden: BROWSER,
        why: "the servers never carry browser code",
    },
    Rule {
        package: "media-gen-sandbox",
        target: None,
        forbidden: BROWSER,
        why: "the servers never carry browser code",
    },
];

/// Whether the crate `name` is `rule` or one of its family (`gloo-net` for `gloo`).
fn matches(name: &str, rule: &str) -> bool {
    name == rule
        || name
            .strip_prefix(rule)
            .is_some_and(|rest| rest.starts_with('-') || rest.starts_with('_'))
}

/// The forbidden crates in `tree` (one crate name per line), sorted, once each.
fn offenders(tree: &str, forbidden: &[&str]) -> Vec<String> {
    let mut found: Vec<String> = tree
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| forbidden.iter().any(|rule| matches(name, rule)))
        .map(str::to_owned)
        .collect();
    found.sort();
    found.dedup();
    found
}

/// Calls only one folder of the browser crate's `src/` may make.
struct SourceRule {
    /// The folder (under `src/`) allowed to make them; `None`: no folder
    /// (they belong in another crate).
    allowed: Option<&'static str>,
    calls: &'static [&'static str],
    why: &'static str,
}

const SOURCE_RULES: &[SourceRule] = &[
    SourceRule {
        allowed: Some("store"),
        calls: &["local_storage()", "session_storage()"],
        why: "only store/ touches browser storage",
    },
    SourceRule {
        allowed: None,
        calls: &[
            "fetch_with_",
            "gloo_net::",
            "XmlHttpRequest",
            "EventSource::new",
        ],
        why: "only media-gen-client speaks HTTP",
    },
];

/// `file:line: call (why)` for each call in `text` (the file at `relative`,
/// under `src/`) that `rule` keeps to another place.
fn source_offences(relative: &Path, text: &str, rule: &SourceRule) -> Vec<String> {
    let inside = rule
        .allowed
        .is_some_and(|folder| relative.starts_with(folder));
    if inside {
        return Vec::new();
    }
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        for call in rule.calls {
            if line.contains(call) {
                found.push(format!(
                    "src/{}:{}: {call} ({})",
                    relative.display(),
                    number + 1,
                    rule.why
                ));
            }
        }
    }
    found
}

/// The source rules over the browser crate's `src/`.
fn check_sources(root: &Path) -> Result<Vec<String>> {
    let src = root.join("src");
    let mut broken = Vec::new();
    let rust = crate::project::files_under(&src)?
        .into_iter()
        .filter(|file| file.extension().is_some_and(|ext| ext == "rs"));
    for file in rust {
        let text =
            std::fs::read_to_string(&file).with_context(|| format!("read {}", file.display()))?;
        let relative = file.strip_prefix(&src).unwrap_or(&file);
        for rule in SOURCE_RULES {
            broken.extend(source_offences(relative, &text, rule));
        }
    }
    Ok(broken)
}

/// Check every rule; fails naming each broken one.
pub fn check() -> Result<()> {
    let mut broken = check_sources(&crate::project::root())?;
    if broken.is_empty() {
        for rule in SOURCE_RULES {
            println!("src/: {}", rule.why);
        }
    }
    for rule in RULES {
        let mut tree = command("cargo");
        tree.args(["tree", "--quiet", "--package", rule.package])
            .args(["--edges", "normal", "--prefix", "none", "--format", "{p}"]);
        if let Some(target) = rule.target {
            tree.args(["--target", target]);
        }
        let (status, output) = cmd::run_capturing_quietly(&mut tree)?;
        if !status.success() {
            bail!("`cargo tree` failed for {}", rule.package);
        }
        let found = offenders(&output, rule.forbidden);
        if found.is_empty() {
            println!(
                "{}: none of {} ({})",
                rule.package,
                rule.forbidden.join(", "),
                rule.why
            );
        } else {
            broken.push(format!(
                "{} depends on {} ({})",
                rule.package,
                found.join(", "),
                rule.why
            ));
        }
    }
    if broken.is_empty() {
        Ok(())
    } else {
        bail!("dependency rules broken:\n  {}", broken.join("\n  "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_match_but_lookalikes_do_not() {
        assert!(matches("gloo-net", "gloo"));
        assert!(matches("leptos", "leptos"));
        assert!(matches("leptos_router", "leptos"));
        assert!(!matches("leptosish", "leptos"));
        assert!(!matches("web-sys-helpers-free", "js-sys"));
    }

    #[test]
    fn storage_calls_outside_store_are_named() {
        let rule = &SOURCE_RULES[0];
        let text =
            "fn f() {\n    // local_storage() in a comment\n    window().local_storage();\n}\n";
        assert_eq!(
            source_offences(Path::new("app/notify.rs"), text, rule),
            ["src/app/notify.rs:3: local_storage() (only store/ touches browser storage)"]
        );
        assert!(source_offences(Path::new("store/tasks.rs"), text, rule).is_empty());
        // Network calls have no folder of their own in this crate.
        let fetch = "let r = window().fetch_with_str(url);";
        assert_eq!(
            source_offences(Path::new("store/x.rs"), fetch, &SOURCE_RULES[1]).len(),
            1
        );
    }

    #[test]
    fn the_browser_crate_keeps_the_source_rules() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        assert_eq!(check_sources(&root).unwrap(), Vec::<String>::new());
    }

    #[test]
    fn offenders_are_named_once() {
        let tree = "media-gen-client v0.1.0 (/x)\nleptos v0.8.2\ngloo-net v0.6.0\nleptos v0.8.2 (*)\nserde v1.0.0\n";
        assert_eq!(offenders(tree, VIEWS), ["leptos"]);
        assert_eq!(offenders(tree, &["gloo"]), ["gloo-net"]);
        assert!(offenders(tree, &["tokio"]).is_empty());
    }
}
