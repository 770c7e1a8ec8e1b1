//! The dependency rules ARCHITECTURE.md states, checked: on Cargo's own
//! graph (`cargo tree`), what each crate must never pull in, however
//! indirectly; in the browser crates' sources, which folder alone may call
//! browser storage or the network; in the contract's follow engine, no
//! clock, wait or I/O at all; in each gateway crate, no two modules that
//! import each other (`module_cycles.rs`). Part of the lint phase of
//! `cargo xtask test`.

use std::borrow::Cow;
use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::cmd::{self, command};
use crate::module_cycles;
use crate::tools::WASM_TARGET;

/// One rule: `package`, built for `target` (this machine when `None`),
/// depends on none of `forbidden` (crate names, matched whole or as a
/// prefix followed by `-` or `_`) nor on any of `forbidden_exactly`
/// (matched whole: the app `media-gen` is not the family `media-gen-*`).
struct Rule {
    package: &'static str,
    target: Option<&'static str>,
    forbidden: &'static [&'static str],
    forbidden_exactly: Cow<'static, [&'static str]>,
    why: &'static str,
}

/// View code: Leptos and the crates it is made of.
const VIEWS: &[&str] = &["leptos", "tachys", "reactive_graph", "leptos_router"];
/// Browser bindings.
const BROWSER: &[&str] = &["web-sys", "js-sys", "wasm-bindgen", "gloo"];

/// What a crate of plain Rust never depends on: views and browser bindings.
const PLAIN_RUST: &[&str] = &[
    "leptos",
    "tachys",
    "reactive_graph",
    "web-sys",
    "js-sys",
    "wasm-bindgen",
    "gloo",
];

const RULES: &[Rule] = &[
    Rule {
        package: "media-gen-api",
        target: Some(WASM_TARGET),
        forbidden: PLAIN_RUST,
        forbidden_exactly: Cow::Borrowed(&[]),
        why: "the contract is plain Rust, tested natively, shared by every part",
    },
    Rule {
        package: "media-gen-client",
        target: Some(WASM_TARGET),
        forbidden: VIEWS,
        forbidden_exactly: Cow::Borrowed(&["url"]),
        why: "a JavaScript package can be built from the client and the contract alone; URLs are read by the browser's parser",
    },
    Rule {
        package: "media-gen-js",
        target: Some(WASM_TARGET),
        forbidden: VIEWS,
        forbidden_exactly: Cow::Borrowed(&["media-gen", "media-gen-ui", "media-gen-widgets", "url"]),
        why: "the client module a page loads without widgets carries no view code, and reads URLs with the browser's parser",
    },
    Rule {
        package: "media-gen-ui",
        target: Some(WASM_TARGET),
        forbidden: &[],
        forbidden_exactly: Cow::Borrowed(&["media-gen", "media-gen-widgets"]),
        why: "the shared views know neither host",
    },
    Rule {
        package: "media-gen-widgets",
        target: Some(WASM_TARGET),
        forbidden: &["leptos_router"],
        forbidden_exactly: Cow::Borrowed(&["media-gen"]),
        why: "the npm package carries no page of the app, nor its router",
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
        forbidden_exactly: Cow::Borrowed(&["media-gen"]),
        why: "the commands build in seconds on a fresh machine; they start servers through media-gen-launch only",
    },
    Rule {
        package: "media-gen-samples",
        target: Some(WASM_TARGET),
        forbidden: PLAIN_RUST,
        forbidden_exactly: Cow::Borrowed(&["tokio"]),
        why: "the result files are bytes, served alike by the sandbox and by the test service in a page",
    },
    Rule {
        package: "media-gen-test-service",
        target: Some(WASM_TARGET),
        forbidden: &["leptos", "tachys", "reactive_graph", "web-sys", "gloo", "tokio"],
        forbidden_exactly: Cow::Borrowed(BROWSER_CRATES),
        why: "the test service is the service's model and nothing of a page: the page's client and widgets talk to it as to a site",
    },
    Rule {
        package: "media-gen-gateway",
        target: None,
        forbidden: BROWSER,
        forbidden_exactly: Cow::Borrowed(&["media-gen-sandbox"]),
        why: "the servers never carry browser code; the gateway forwards to any service, not the sandbox's code",
    },
    Rule {
        package: "media-gen-sandbox",
        target: None,
        forbidden: BROWSER,
        forbidden_exactly: Cow::Borrowed(&[]),
        why: "the servers never carry browser code",
    },
    Rule {
        package: "media-gen-e2e",
        target: None,
        forbidden: BROWSER,
        forbidden_exactly: Cow::Borrowed(BROWSER_CRATES),
        why: "the end-to-end tests see the app only as a browser does",
    },
    Rule {
        package: "media-gen-bench",
        target: None,
        forbidden: BROWSER,
        forbidden_exactly: Cow::Borrowed(BROWSER_CRATES),
        why: "the bench measures what a browser or a client sees, over HTTP",
    },
];

/// The gateway's crates and the only others among them each may depend
/// on: a concern never on the server, nor sideways but where named; any
/// of them never on the sandbox nor on browser code. The rules checked
/// are made from this table ([`gateway_rules`]).
const GATEWAY_PARTS: &[(&str, &[&str], &str)] = &[
    (
        "media-gen-gateway-base",
        &[],
        "what every part of the gateway stands on depends on none of its parts",
    ),
    (
        "media-gen-gateway-access",
        &["media-gen-gateway-base"],
        "access knows no other part: the library answers the database it asks for through a trait",
    ),
    (
        "media-gen-gateway-store",
        &["media-gen-gateway-base"],
        "the store keeps files and knows none of its clients: the uploads and the kept results ask it",
    ),
    (
        "media-gen-gateway-uploads",
        &["media-gen-gateway-base", "media-gen-gateway-access", "media-gen-gateway-store"],
        "uploads stand on access and the store: the kept results share that store, not the other way round",
    ),
    (
        "media-gen-gateway-kept",
        &[
            "media-gen-gateway-base",
            "media-gen-gateway-access",
            "media-gen-gateway-store",
            "media-gen-gateway-uploads",
        ],
        "kept results stand on the uploads' store and access: the server tells them a task succeeded, whether a read or the relay brought the news",
    ),
    (
        "media-gen-gateway-relay",
        &["media-gen-gateway-base", "media-gen-gateway-access"],
        "the relay stands on access alone: what a confirmed callback leads to, the server decides",
    ),
    (
        "media-gen-gateway-sharing",
        &[
            "media-gen-gateway-base",
            "media-gen-gateway-access",
            "media-gen-gateway-store",
            "media-gen-gateway-uploads",
            "media-gen-gateway-kept",
            "media-gen-gateway-library",
        ],
        "sharing reads the library's links and serves the kept copies: no relay, and the server wires it",
    ),
    (
        "media-gen-gateway-library",
        &["media-gen-gateway-base", "media-gen-gateway-access"],
        "the library stands on access alone: what forwarded calls write in it, the server decides",
    ),
];

/// One rule per [`GATEWAY_PARTS`] row: every other gateway crate (the
/// server too) not named there is forbidden, with the sandbox and the
/// browser code.
fn gateway_rules() -> Vec<Rule> {
    GATEWAY_PARTS
        .iter()
        .map(|(package, allowed, why)| {
            let forbidden: Vec<&'static str> = GATEWAY_PARTS
                .iter()
                .map(|(other, _, _)| *other)
                .chain(["media-gen-gateway", "media-gen-sandbox", "media-gen-client"])
                .filter(|other| other != package && !allowed.contains(other))
                .collect();
            Rule {
                package,
                target: None,
                forbidden: BROWSER,
                forbidden_exactly: Cow::Owned(forbidden),
                why,
            }
        })
        .collect()
}

/// The project's browser crates.
const BROWSER_CRATES: &[&str] = &[
    "media-gen",
    "media-gen-client",
    "media-gen-js",
    "media-gen-ui",
    "media-gen-widgets",
];

/// Whether the crate `name` is `rule` or one of its family (`gloo-net` for `gloo`).
fn matches(name: &str, rule: &str) -> bool {
    name == rule
        || name
            .strip_prefix(rule)
            .is_some_and(|rest| rest.starts_with('-') || rest.starts_with('_'))
}

/// The forbidden crates in `tree` (one crate name per line), sorted, once
/// each: any of the families `forbidden`, or exactly one of `exactly`.
fn offenders(tree: &str, forbidden: &[&str], exactly: &[&str]) -> Vec<String> {
    let mut found: Vec<String> = tree
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| forbidden.iter().any(|rule| matches(name, rule)) || exactly.contains(name))
        .map(str::to_owned)
        .collect();
    found.sort();
    found.dedup();
    found
}

/// The browser crates' source folders the source rules read, from the
/// project's root: the app, the shared views, the widgets.
const BROWSER_SOURCES: &[&str] = &[
    "src",
    "crates/ui/src",
    "crates/js/src",
    "crates/widgets/src",
];

/// Calls only one folder of the browser crates may make.
struct SourceRule {
    /// The folder (from the project's root) allowed to make them; `None`:
    /// none of [`BROWSER_SOURCES`] (they belong in `media-gen-client`).
    allowed: Option<&'static str>,
    calls: &'static [&'static str],
    why: &'static str,
}

const SOURCE_RULES: &[SourceRule] = &[
    SourceRule {
        allowed: Some("crates/ui/src/store"),
        calls: &["local_storage()", "session_storage()", "indexed_db()"],
        why: "only the store of media-gen-ui touches browser storage",
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
    SourceRule {
        allowed: Some("src/address.rs"),
        calls: &["use_navigate()", "<A href=\""],
        why: "the app's addresses go under the site's base path: crate::address::use_app_navigate and <A href=crate::address::href(..)>",
    },
];

/// The contract's machines' folders (the follow engine, a file's upload,
/// the service model): decisions only, no I/O.
const ENGINES: &[&str] = &[
    "crates/api/src/follow",
    "crates/api/src/upload",
    "crates/api/src/service",
];

/// What the machines never call: the drivers read the clock and chance,
/// and do the reading, sending, streaming and waiting.
const ENGINE_RULE: SourceRule = SourceRule {
    allowed: None,
    calls: &[
        "SystemTime",
        "Instant::now",
        "std::thread",
        "std::fs",
        "std::net",
        "std::io",
        "tokio",
        "futures",
        "async fn",
        ".await",
        "rand::",
    ],
    why: "the contract's machines do no I/O: time and chance come in as values, reads, sends, streams and waits go out as steps",
};

/// The widgets' sources: they reach the service through the page's
/// JavaScript client, never a Rust client of their own.
const WIDGETS: &str = "crates/widgets/src";

/// What [`WIDGETS`] never uses: the Rust client's calls and poller.
const WIDGETS_RULE: SourceRule = SourceRule {
    allowed: None,
    calls: &["media_gen_client::Client", "Poller", "Client::new", ".client()"],
    why: "a page with widgets carries one client: the widgets talk to the service through the client entry's (page_client.rs)",
};

/// The npm client entry's JavaScript: it does the I/O the client module's
/// decisions ask for, and decides nothing itself.
const DRIVER: &str = "crates/widgets/npm/client";

/// Why a line of [`DRIVER`] is refused.
const DRIVER_WHY: &str = "the client entry's JavaScript carries out the client module's decisions: no status compared with a number, no date read, no jitter computed";

/// What [`DRIVER`]'s JavaScript never does besides comparing a status with
/// a number ([`compares_status_with_a_number`]).
const DRIVER_CALLS: &[&str] = &["Date.parse", "Math.random() *", "* Math.random()"];

/// The Rust drivers of the contract's machines and plans: they carry out
/// what the contract decides about an answer, a retry, an upload's step.
const RUST_DRIVERS: &[&str] = &[
    "crates/client/src/upload",
    "crates/client/src/service.rs",
    "crates/js/src/call.rs",
    "crates/js/src/upload_rules.rs",
];

/// Why a line of [`RUST_DRIVERS`] is refused.
const RUST_DRIVER_WHY: &str = "a driver carries out the contract's decisions (retry::RetryPlan::missed, upload::Upload): no status compared with a number, no wait or jitter computed";

/// What [`RUST_DRIVERS`] never write besides comparing a status with a
/// number.
const RUST_DRIVER_CALLS: &[&str] = &[
    "..300).contains",
    "Math::random() *",
    "* js_sys::Math::random()",
    "wait_before(",
];

/// Whether `line` compares something named `status` with a number
/// (`answer.status === 201`, `status >= 500`).
fn compares_status_with_a_number(line: &str) -> bool {
    const OPERATORS: &[&str] = &["===", "!==", "==", "!=", ">=", "<=", ">", "<"];
    line.match_indices("status").any(|(at, word)| {
        let rest = line[at + word.len()..].trim_start();
        // A method as a field: `answer.status() == 404`.
        let rest = rest.strip_prefix("()").unwrap_or(rest).trim_start();
        OPERATORS.iter().any(|operator| {
            rest.strip_prefix(operator)
                .is_some_and(|value| value.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        })
    })
}

/// `file:line: what (why)` for each line of the driver's JavaScript `text`
/// that decides what the client module decides.
fn driver_offences(relative: &Path, text: &str) -> Vec<String> {
    decisions_in(relative, text, DRIVER_CALLS, DRIVER_WHY)
}

/// `file:line: what (why)` for each line of a driver's `text` that makes
/// one of `calls` or compares a status with a number.
fn decisions_in(relative: &Path, text: &str, calls: &[&str], why: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("//") || code.starts_with('*') || code.starts_with("/*") {
            continue;
        }
        let mut what: Vec<&str> = calls
            .iter()
            .copied()
            .filter(|call| line.contains(call))
            .collect();
        if compares_status_with_a_number(line) {
            what.push("a status compared with a number");
        }
        for what in what {
            found.push(format!(
                "{}:{}: {what} ({why})",
                relative.display(),
                number + 1
            ));
        }
    }
    found
}

/// `file:line: call (why)` for each call in `text` (the file at `relative`,
/// from the project's root) that `rule` keeps to another place.
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
                    "{}:{}: {call} ({})",
                    relative.display(),
                    number + 1,
                    rule.why
                ));
            }
        }
    }
    found
}

/// The source rules over the browser crates' sources.
fn check_sources(root: &Path) -> Result<Vec<String>> {
    let mut broken = Vec::new();
    for folder in BROWSER_SOURCES {
        let rust = crate::project::files_under(&root.join(folder))?
            .into_iter()
            .filter(|file| file.extension().is_some_and(|ext| ext == "rs"));
        for file in rust {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("read {}", file.display()))?;
            let relative = file.strip_prefix(root).unwrap_or(&file);
            for rule in SOURCE_RULES {
                broken.extend(source_offences(relative, &text, rule));
            }
        }
    }
    for engine in ENGINES {
        for file in crate::project::files_under(&root.join(engine))? {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("read {}", file.display()))?;
            let relative = file.strip_prefix(root).unwrap_or(&file);
            broken.extend(source_offences(relative, &text, &ENGINE_RULE));
        }
    }
    for file in crate::project::files_under(&root.join(WIDGETS))? {
        let text =
            std::fs::read_to_string(&file).with_context(|| format!("read {}", file.display()))?;
        let relative = file.strip_prefix(root).unwrap_or(&file);
        broken.extend(source_offences(relative, &text, &WIDGETS_RULE));
    }
    for driver in RUST_DRIVERS {
        let path = root.join(driver);
        let files = if path.is_file() {
            vec![path]
        } else {
            crate::project::files_under(&path)?
        };
        for file in files {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("read {}", file.display()))?;
            let relative = file.strip_prefix(root).unwrap_or(&file);
            broken.extend(decisions_in(
                relative,
                &text,
                RUST_DRIVER_CALLS,
                RUST_DRIVER_WHY,
            ));
        }
    }
    for file in crate::project::files_under(&root.join(DRIVER))? {
        let text =
            std::fs::read_to_string(&file).with_context(|| format!("read {}", file.display()))?;
        let relative = file.strip_prefix(root).unwrap_or(&file);
        broken.extend(driver_offences(relative, &text));
    }
    Ok(broken)
}

/// Check every rule; fails naming each broken one.
pub fn check() -> Result<()> {
    let root = crate::project::root();
    let mut broken = check_sources(&root)?;
    let cycles = module_cycles::cycles(&module_cycles::gateway_sources(&root)?);
    if broken.is_empty() {
        for rule in SOURCE_RULES {
            println!("{}: {}", BROWSER_SOURCES.join(", "), rule.why);
        }
        println!("{}: {}", ENGINES.join(", "), ENGINE_RULE.why);
        println!("{WIDGETS}: {}", WIDGETS_RULE.why);
        println!("{DRIVER}: {DRIVER_WHY}");
        println!("{}: {RUST_DRIVER_WHY}", RUST_DRIVERS.join(", "));
    }
    if cycles.is_empty() {
        println!("crates/gateway*/src: {}", module_cycles::WHY);
    }
    broken.extend(cycles);
    for rule in RULES.iter().chain(&gateway_rules()) {
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
        let found = offenders(&output, rule.forbidden, &rule.forbidden_exactly);
        if found.is_empty() {
            let named: Vec<&str> = rule
                .forbidden
                .iter()
                .chain(rule.forbidden_exactly.iter())
                .copied()
                .collect();
            println!(
                "{}: none of {} ({})",
                rule.package,
                named.join(", "),
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
            source_offences(Path::new("src/app/notify.rs"), text, rule),
            ["src/app/notify.rs:3: local_storage() (only the store of media-gen-ui touches browser storage)"]
        );
        let store = Path::new("crates/ui/src/store/tasks.rs");
        assert!(source_offences(store, text, rule).is_empty());
        // Network calls have no folder of their own in the browser crates.
        let fetch = "let r = window().fetch_with_str(url);";
        assert_eq!(source_offences(store, fetch, &SOURCE_RULES[1]).len(), 1);
    }

    #[test]
    fn the_machines_folders_hold_their_sources() {
        let root = crate::project::root();
        for engine in ENGINES {
            let files = crate::project::files_under(&root.join(engine)).unwrap_or_default();
            assert!(
                files.iter().any(|file| file.ends_with("mod.rs")),
                "{engine}"
            );
        }
    }

    #[test]
    fn a_clock_or_a_wait_in_the_engine_is_named() {
        let engine = Path::new("crates/api/src/follow/mod.rs");
        let text = "fn poll(&mut self) {\n    let now = std::time::Instant::now();\n}\n";
        assert_eq!(source_offences(engine, text, &ENGINE_RULE).len(), 1);
        let waits = "async fn read(&self) { sleep(1).await }";
        assert_eq!(source_offences(engine, waits, &ENGINE_RULE).len(), 2);
        let plain = "pub fn poll(&mut self, now: Millis) -> Vec<Command> {";
        assert!(source_offences(engine, plain, &ENGINE_RULE).is_empty());
    }

    #[test]
    fn a_decision_in_a_rust_driver_is_named() {
        let path = Path::new("crates/client/src/service.rs");
        let decides = "let bad = (200..300).contains(&answer.status);\n\
                       if answer.status() == 404 { return gone; }\n\
                       let wait = tus::wait_before(failures);\n";
        assert_eq!(
            decisions_in(path, decides, RUST_DRIVER_CALLS, RUST_DRIVER_WHY).len(),
            3
        );
        let carries = "let retry = plan.missed(missed, now, random, parse_http_date);";
        assert!(decisions_in(path, carries, RUST_DRIVER_CALLS, RUST_DRIVER_WHY).is_empty());
        let root = crate::project::root();
        for driver in RUST_DRIVERS {
            assert!(root.join(driver).exists(), "{driver}");
        }
    }

    #[test]
    fn a_decision_in_the_client_entrys_javascript_is_named() {
        let path = Path::new("crates/widgets/npm/client/upload.js");
        let decides = "if (made.status !== 201) throw refused(made);\n\
                       const wait = 500 * Math.random();\n\
                       const at = Date.parse(header);\n";
        assert_eq!(driver_offences(path, decides).len(), 3);
        let carries_out = "// status >= 500 is the module's to judge\n\
                           if (!uploadMade(made.status)) throw refused(made);\n\
                           if (typeof task.status !== \"string\") return;\n\
                           engine.streamLost(Date.now(), Math.random());\n";
        assert!(driver_offences(path, carries_out).is_empty());
    }

    #[test]
    fn a_rust_client_in_the_widgets_is_named() {
        let path = Path::new("crates/widgets/src/status.rs");
        let own = "let poller = Poller::new(connection.client(), options, tell);";
        assert_eq!(source_offences(path, own, &WIDGETS_RULE).len(), 2);
        let page = "let watch = client.watch(kind.as_str(), id, on_update, relay)?;";
        assert!(source_offences(path, page, &WIDGETS_RULE).is_empty());
    }

    #[test]
    fn the_client_entrys_javascript_keeps_its_rule() {
        let root = crate::project::root();
        let files = crate::project::files_under(&root.join(DRIVER)).unwrap();
        assert!(files.len() >= 4, "the driver's files: {files:?}");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let relative = file.strip_prefix(&root).unwrap();
            assert_eq!(driver_offences(relative, &text), Vec::<String>::new());
        }
    }

    #[test]
    fn the_browser_crates_keep_the_source_rules() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        assert_eq!(check_sources(&root).unwrap(), Vec::<String>::new());
    }

    #[test]
    fn offenders_are_named_once() {
        let tree = "media-gen-client v0.1.0 (/x)\nleptos v0.8.2\ngloo-net v0.6.0\nleptos v0.8.2 (*)\nserde v1.0.0\n";
        assert_eq!(offenders(tree, VIEWS, &[]), ["leptos"]);
        assert_eq!(offenders(tree, &["gloo"], &[]), ["gloo-net"]);
        assert!(offenders(tree, &["tokio"], &[]).is_empty());
        // The app by its exact name only, not the crates named after it.
        assert!(offenders(tree, &[], &["media-gen"]).is_empty());
        let with_app = format!("{tree}media-gen v0.1.0 (/x)\n");
        assert_eq!(offenders(&with_app, &[], &["media-gen"]), ["media-gen"]);
    }
}
