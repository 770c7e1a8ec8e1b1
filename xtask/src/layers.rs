//! The dependency rules ARCHITECTURE.md states, checked on Cargo's own
//! graph (`cargo tree`): what each crate must never pull in, however
//! indirectly. Part of the lint phase of `cargo xtask test`.

use anyhow::{bail, Result};

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

/// Check every rule; fails naming each broken one.
pub fn check() -> Result<()> {
    let mut broken = Vec::new();
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
    fn offenders_are_named_once() {
        let tree = "media-gen-client v0.1.0 (/x)\nleptos v0.8.2\ngloo-net v0.6.0\nleptos v0.8.2 (*)\nserde v1.0.0\n";
        assert_eq!(offenders(tree, VIEWS), ["leptos"]);
        assert_eq!(offenders(tree, &["gloo"]), ["gloo-net"]);
        assert!(offenders(tree, &["tokio"]).is_empty());
    }
}
