//! Each stylesheet beside what it styles, and no dead rules: every class a
//! stylesheet names is written by the views it is for (the app's sheet may
//! also style the shared views it shows; the shared sheet only the shared
//! views, since every widget carries it). Part of the lint phase of
//! `cargo xtask test`.
//!
//! A view writes a class inside a string literal (`class="field cards"`,
//! `attr:class="button-link open"`, `format!("status--{}", …)`, which names
//! every class starting `status--`) or as a class toggle (`class:hint--over`).

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::{bail, Context, Result};

/// Each stylesheet, and the source folders (or files) of the views it may
/// style, from the project's root. The app's `index.html` is one: its
/// plain-HTML header and loading state show until the app starts.
const STYLESHEETS: &[(&str, &[&str])] = &[
    ("style/app.css", &["src", "crates/ui/src", "index.html"]),
    ("crates/ui/style/ui.css", &["crates/ui/src"]),
    (
        "crates/widgets/style/widget.css",
        &["crates/widgets/src", "crates/ui/src"],
    ),
];

/// The classes `css` names in its selectors, once each, sorted.
fn classes_in(css: &str) -> BTreeSet<String> {
    let selectors = without_blocks(&without_comments(css));
    let mut classes = BTreeSet::new();
    let mut rest = selectors.as_str();
    while let Some(dot) = rest.find('.') {
        rest = &rest[dot + 1..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        if name.starts_with(|c: char| c.is_ascii_alphabetic()) {
            classes.insert(name);
        }
    }
    classes
}

fn without_comments(css: &str) -> String {
    let mut text = String::new();
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        text.push_str(&rest[..start]);
        rest = rest[start..]
            .find("*/")
            .map_or("", |end| &rest[start + end + 2..]);
    }
    text.push_str(rest);
    text
}

/// `css` with each declaration block (the innermost braces) left out, so
/// only selectors and at-rule preludes remain (`0.5rem` is no class).
fn without_blocks(css: &str) -> String {
    let mut text = String::new();
    let mut block = String::new();
    let mut inside = false;
    for c in css.chars() {
        match c {
            '{' => {
                text.push_str(&block);
                block.clear();
                inside = true;
            }
            '}' => {
                if !inside {
                    text.push_str(&block);
                }
                block.clear();
                inside = false;
            }
            _ if inside => block.push(c),
            _ => text.push(c),
        }
    }
    text
}

/// The class names `source` can write: the words of its string literals
/// (a word with `{` in it names every class starting with what precedes
/// it) and its `class:` toggles. Returns (whole names, prefixes).
fn written_classes(source: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut names, mut prefixes) = (BTreeSet::new(), BTreeSet::new());
    let mut literal: Option<String> = None;
    let mut escaped = false;
    for c in source.chars() {
        match (&mut literal, c) {
            (Some(text), _) if escaped => {
                text.push(c);
                escaped = false;
            }
            (Some(_), '\\') => escaped = true,
            (Some(text), '"') => {
                for word in text.split_whitespace() {
                    match word.split_once('{') {
                        Some((prefix, _)) if !prefix.is_empty() => {
                            prefixes.insert(prefix.to_owned());
                        }
                        Some(_) => {}
                        None => {
                            names.insert(word.to_owned());
                        }
                    }
                }
                literal = None;
            }
            (Some(text), _) => text.push(c),
            (None, '"') => literal = Some(String::new()),
            (None, _) => {}
        }
    }
    for (index, _) in source.match_indices("class:") {
        let name: String = source[index + "class:".len()..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        names.insert(name);
    }
    (names, prefixes)
}

/// The classes the Rust and HTML files under `folders` (or named there)
/// write: (names, prefixes).
fn written_under(root: &Path, folders: &[&str]) -> Result<(BTreeSet<String>, BTreeSet<String>)> {
    let (mut names, mut prefixes) = (BTreeSet::new(), BTreeSet::new());
    for folder in folders {
        let path = root.join(folder);
        let files = if path.is_file() {
            vec![path]
        } else {
            crate::project::files_under(&path)?
        };
        for file in files {
            if file
                .extension()
                .is_some_and(|ext| ext == "rs" || ext == "html")
            {
                let text = std::fs::read_to_string(&file)
                    .with_context(|| format!("read {}", file.display()))?;
                let (file_names, file_prefixes) = written_classes(&text);
                names.extend(file_names);
                prefixes.extend(file_prefixes);
            }
        }
    }
    Ok((names, prefixes))
}

/// The classes each stylesheet names that none of its views writes, as
/// `sheet: .class`.
fn dead_rules(root: &Path) -> Result<Vec<String>> {
    let mut dead = Vec::new();
    for (sheet, folders) in STYLESHEETS {
        let (names, prefixes) = written_under(root, folders)?;
        let css =
            std::fs::read_to_string(root.join(sheet)).with_context(|| format!("read {sheet}"))?;
        for class in classes_in(&css) {
            let written = names.contains(&class)
                || prefixes
                    .iter()
                    .any(|prefix| class.starts_with(prefix.as_str()));
            if !written {
                dead.push(format!("{sheet}: .{class}"));
            }
        }
    }
    Ok(dead)
}

/// Fail naming every class none of its sheet's views writes.
pub fn check() -> Result<()> {
    let dead = dead_rules(&crate::project::root())?;
    if !dead.is_empty() {
        bail!(
            "rules for classes none of the sheet's views writes:\n  {}",
            dead.join("\n  ")
        );
    }
    for (sheet, folders) in STYLESHEETS {
        println!(
            "{sheet}: every class is written in {}",
            folders.join(" or ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_name_classes_and_declarations_do_not() {
        let css = "/* .commented */\n.a, .b-c > p.d__e { margin: 0.5rem; }\n\
                   @media (max-width: 40rem) { .f:hover { width: 1.5em; } }\n";
        let classes: Vec<String> = classes_in(css).into_iter().collect();
        assert_eq!(classes, ["a", "b-c", "d__e", "f"]);
    }

    #[test]
    fn views_write_classes_in_literals_formats_and_toggles() {
        let source = r#"view! { <p class="hint download-all__state" class:hint--over=x>
            {format!("status--{}", s)} "not \"a\" class" }"#;
        let (names, prefixes) = written_classes(source);
        for name in ["hint", "download-all__state", "hint--over", "not", "class"] {
            assert!(names.contains(name), "{name}: {names:?}");
        }
        assert!(prefixes.contains("status--"), "{prefixes:?}");
    }

    #[test]
    fn the_stylesheets_have_no_dead_rules() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        assert_eq!(dead_rules(&root).unwrap(), Vec::<String>::new());
    }
}
