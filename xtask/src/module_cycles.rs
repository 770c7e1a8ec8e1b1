//! The gateway crates' modules, checked for cycles: within each crate, no
//! two top-level modules (a file or folder directly under `src/`) import
//! each other, however indirectly. Part of the lint phase, beside the
//! dependency rules of `layers.rs`.
//!
//! A module imports another when its code names `crate::other` (or
//! `crate::{.., other, ..}`), or `super::other` where `super` is the crate
//! root. Comment lines do not count; the crate root (`lib.rs`, `main.rs`)
//! is neither an importer nor imported.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result};

/// Why the modules of a gateway crate form no cycle.
pub const WHY: &str = "a gateway crate's modules import one another one way: two that import each other are one module, read, tested and moved together";

/// The folders, under the project's `crates/`, whose names start so: the
/// gateway's crates.
const GATEWAY_CRATES: &str = "gateway";

/// Every `.rs` file of the gateway crates' `src/` folders, as its path from
/// `root` and its text.
pub fn gateway_sources(root: &Path) -> Result<Vec<(PathBuf, String)>> {
    let crates = root.join("crates");
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&crates)
        .with_context(|| format!("read {}", crates.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| {
            path.file_name()
                .is_some_and(|name| name.to_string_lossy().starts_with(GATEWAY_CRATES))
        })
        .map(|path| path.join("src"))
        .filter(|src| src.is_dir())
        .collect();
    folders.sort();
    let mut sources = Vec::new();
    for folder in folders {
        let rust = crate::project::files_under(&folder)?
            .into_iter()
            .filter(|file| file.extension().is_some_and(|ext| ext == "rs"));
        for file in rust {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("read {}", file.display()))?;
            let relative = file.strip_prefix(root).unwrap_or(&file).to_owned();
            sources.push((relative, text));
        }
    }
    Ok(sources)
}

/// One cycle's description for each group of top-level modules that import
/// each other, in the crates of `files` (each a path with a `src` folder in
/// it, and its text): the modules, then each file, line and name that ties
/// them. Empty when no crate has a cycle.
pub fn cycles<P: AsRef<Path>, T: AsRef<str>>(files: &[(P, T)]) -> Vec<String> {
    let mut crates: BTreeMap<PathBuf, Vec<Source>> = BTreeMap::new();
    for (path, text) in files {
        let path = path.as_ref();
        if let Some((src, module)) = place(path) {
            let text = text.as_ref();
            crates
                .entry(src)
                .or_default()
                .push(Source { path, module, text });
        }
    }
    let mut found = Vec::new();
    for (src, sources) in crates {
        let edges = edges(&sources);
        for group in strongly_connected(&edges) {
            found.push(describe(&src, &group, &edges));
        }
    }
    found
}

/// One source file of a crate.
struct Source<'a> {
    path: &'a Path,
    /// Its module path under `src` (empty: the crate root).
    module: Vec<String>,
    text: &'a str,
}

/// Where a name that ties two modules is written: `file:line`, and the
/// path as written up to the module (`super::room`).
type Ties = BTreeMap<(String, String), Vec<usize>>;

/// The imports between distinct top-level modules of one crate, each with
/// what ties the importer to the imported.
type Edges = BTreeMap<(String, String), Ties>;

/// The imports between the top-level modules of one crate's `sources`.
fn edges(sources: &[Source]) -> Edges {
    let modules: BTreeSet<&str> = sources
        .iter()
        .filter_map(|source| source.module.first().map(String::as_str))
        .collect();
    let mut edges = Edges::new();
    for Source { path, module, text } in sources {
        // The crate root joins the modules; it is none of them.
        let Some(from) = module.first() else { continue };
        for import in imports(text, module.len()) {
            if import.name == *from || !modules.contains(import.name.as_str()) {
                continue;
            }
            edges
                .entry((from.clone(), import.name))
                .or_default()
                .entry((path.display().to_string(), import.written))
                .or_default()
                .push(import.line);
        }
    }
    edges
}

/// A file's crate (its `src` folder) and module path under it:
/// `room.rs` is `[room]`, `records/mod.rs` `[records]`, `records/redis.rs`
/// `[records, redis]`, the crate root `[]`. `None` for a file outside a
/// `src` folder, or in `src/bin` (each file there is a crate of its own).
fn place(path: &Path) -> Option<(PathBuf, Vec<String>)> {
    let components: Vec<Component> = path.components().collect();
    let at = components
        .iter()
        .position(|part| part.as_os_str() == "src")?;
    let src: PathBuf = components[..=at].iter().collect();
    let mut module: Vec<String> = components[at + 1..]
        .iter()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    let file = module.pop()?;
    if module.first().is_some_and(|first| first == "bin") {
        return None;
    }
    let stem = file.strip_suffix(".rs")?;
    let is_root = module.is_empty() && (stem == "lib" || stem == "main");
    if stem != "mod" && !is_root {
        module.push(stem.to_owned());
    }
    Some((src, module))
}

/// A name reached through the crate root.
#[derive(Debug, PartialEq)]
struct Import {
    /// The first name under the crate root.
    name: String,
    /// The path as written up to that name (`crate::room`, `super::room`).
    written: String,
    line: usize,
}

/// The names `text`, a module `depth` below the crate root, reaches
/// through the crate root, outside comment lines.
fn imports(text: &str, depth: usize) -> Vec<Import> {
    // Comment lines are blanked, not dropped, so lines keep their numbers.
    let code: String = text
        .lines()
        .map(|line| {
            if line.trim_start().starts_with("//") {
                ""
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut found = Vec::new();
    for (at, _) in code.match_indices("::") {
        let Some(root) = root_before(&code[..at], depth) else {
            continue;
        };
        let line = code[..at].matches('\n').count() + 1;
        for name in names_after(&code[at + 2..]) {
            found.push(Import {
                written: format!("{root}::{name}"),
                name: name.to_owned(),
                line,
            });
        }
    }
    found
}

/// The path written just before a `::` at the end of `before` when it is
/// the crate root for a module `depth` below it: `crate`, or `super` as
/// many times as `depth`.
fn root_before(before: &str, depth: usize) -> Option<String> {
    let start = before
        .rfind(|c: char| !is_identifier(c) && c != ':')
        .map_or(0, |at| at + 1);
    let path = &before[start..];
    // `$crate` in a macro is the crate root too.
    if path == "crate" {
        return Some(path.to_owned());
    }
    let parts: Vec<&str> = path.split("::").collect();
    let climbs = parts.iter().all(|part| *part == "super");
    (climbs && parts.len() == depth).then(|| path.to_owned())
}

/// The first names of the path after a `::`: one, or each of a
/// `{..}` group (`self` and `*` name no module).
fn names_after(rest: &str) -> Vec<&str> {
    let Some(group) = rest.strip_prefix('{') else {
        return Vec::from_iter(leading_identifier(rest));
    };
    let mut names = Vec::new();
    let mut nesting = 0;
    let mut item_start = 0;
    for (at, c) in group.char_indices() {
        match c {
            '{' => nesting += 1,
            '}' if nesting == 0 => {
                names.extend(leading_identifier(&group[item_start..at]));
                break;
            }
            '}' => nesting -= 1,
            ',' if nesting == 0 => {
                names.extend(leading_identifier(&group[item_start..at]));
                item_start = at + 1;
            }
            _ => {}
        }
    }
    names.retain(|name| *name != "self");
    names
}

/// The identifier `text` starts with, past spaces and line breaks.
fn leading_identifier(text: &str) -> Option<&str> {
    let text = text.trim_start();
    let end = text.find(|c: char| !is_identifier(c)).unwrap_or(text.len());
    (end > 0).then(|| &text[..end])
}

fn is_identifier(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The groups of two or more modules of `edges` each reachable from every
/// other, each sorted, in order.
fn strongly_connected(edges: &Edges) -> Vec<Vec<String>> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in edges.keys() {
        next.entry(from).or_default().push(to);
    }
    let reach: BTreeMap<&str, BTreeSet<&str>> = next
        .keys()
        .map(|module| (*module, reachable(module, &next)))
        .collect();
    let mut groups: BTreeSet<Vec<String>> = BTreeSet::new();
    for (module, reached) in &reach {
        let group: Vec<String> = reached
            .iter()
            .filter(|other| reach.get(*other).is_some_and(|back| back.contains(module)))
            .map(|other| (*other).to_owned())
            .collect();
        if group.len() > 1 {
            groups.insert(group);
        }
    }
    groups.into_iter().collect()
}

/// The modules reachable from `start` by one import or more (with `start`
/// itself when it is on a cycle).
fn reachable<'a>(start: &'a str, next: &BTreeMap<&'a str, Vec<&'a str>>) -> BTreeSet<&'a str> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![start];
    while let Some(module) = todo.pop() {
        for to in next.get(module).into_iter().flatten() {
            if seen.insert(*to) {
                todo.push(to);
            }
        }
    }
    seen
}

/// The failure for one `group` of modules of the crate at `src`: the
/// modules, then each import between two of them.
fn describe(src: &Path, group: &[String], edges: &Edges) -> String {
    let mut text = format!(
        "{}: {} import each other in a cycle ({WHY})",
        src.display(),
        group.join(", ")
    );
    for ((from, to), ties) in edges {
        if !group.contains(from) || !group.contains(to) {
            continue;
        }
        for ((file, written), lines) in ties {
            let lines: Vec<String> = lines.iter().map(usize::to_string).collect();
            text.push_str(&format!(
                "\n    {from} -> {to}: {file}:{} {written}",
                lines.join(",")
            ));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modules_are_the_first_folder_or_file_under_src() {
        let module_of =
            |path: &str| place(Path::new(path)).map(|(src, module)| (src, module.join("/")));
        let src = PathBuf::from("crates/gateway-uploads/src");
        assert_eq!(
            module_of("crates/gateway-uploads/src/records/redis.rs"),
            Some((src.clone(), "records/redis".to_owned()))
        );
        assert_eq!(
            module_of("crates/gateway-uploads/src/records/mod.rs"),
            Some((src.clone(), "records".to_owned()))
        );
        assert_eq!(
            module_of("crates/gateway-uploads/src/lib.rs"),
            Some((src, String::new()))
        );
        assert_eq!(module_of("crates/gateway/src/bin/tool.rs"), None);
        assert_eq!(module_of("crates/gateway/build.rs"), None);
    }

    #[test]
    fn imports_through_the_crate_root_are_named_with_their_lines() {
        let text = "use super::KeepSettings;\n\
                    use crate::{access::Who, room, self};\n\
                    // crate::budgets in a comment\n\
                    fn f() { super::budgets::check(); my_crate::sources::x(); }\n\
                    use crate::{\n    fetch,\n};\n";
        let named: Vec<(String, usize)> = imports(text, 1)
            .into_iter()
            .map(|import| (import.written, import.line))
            .collect();
        assert_eq!(
            named,
            [
                ("super::KeepSettings".to_owned(), 1),
                ("crate::access".to_owned(), 2),
                ("crate::room".to_owned(), 2),
                ("super::budgets".to_owned(), 4),
                ("crate::fetch".to_owned(), 5),
            ]
        );
        // One module further down, `super` is the parent module, not the root.
        let deeper = imports("use super::budgets; use super::super::room;", 2);
        let names: Vec<&str> = deeper.iter().map(|import| import.name.as_str()).collect();
        assert_eq!(names, ["room"]);
    }

    #[test]
    fn a_cycle_is_named_with_what_ties_it() {
        let files = [
            (
                "crates/gateway-kept/src/lib.rs",
                "pub mod budgets;\npub mod room;\n",
            ),
            (
                "crates/gateway-kept/src/budgets.rs",
                "use super::KeepSettings;\nfn f() { super::room::counted_at(); }\n",
            ),
            (
                "crates/gateway-kept/src/room.rs",
                "use crate::fetch::get;\n",
            ),
            (
                "crates/gateway-kept/src/fetch/mod.rs",
                "use crate::budgets::check;\n",
            ),
            (
                "crates/gateway-kept/src/fetch/http.rs",
                "use super::super::budgets;\n",
            ),
            ("crates/gateway-kept/src/serve.rs", "use crate::room;\n"),
        ];
        assert_eq!(
            cycles(&files),
            [format!(
                "crates/gateway-kept/src: budgets, fetch, room import each other in a cycle ({WHY})\n    \
                 budgets -> room: crates/gateway-kept/src/budgets.rs:2 super::room\n    \
                 fetch -> budgets: crates/gateway-kept/src/fetch/http.rs:1 super::super::budgets\n    \
                 fetch -> budgets: crates/gateway-kept/src/fetch/mod.rs:1 crate::budgets\n    \
                 room -> fetch: crates/gateway-kept/src/room.rs:1 crate::fetch"
            )]
        );
    }

    #[test]
    fn imports_one_way_and_in_comments_pass() {
        let files = [
            (
                "crates/gateway-kept/src/budgets.rs",
                "//! Counted as [`crate::room`] counts.\nuse crate::sources;\n",
            ),
            (
                "crates/gateway-kept/src/room.rs",
                "use crate::budgets;\n    // super::room::counted_at is not ours\n",
            ),
            (
                "crates/gateway-kept/src/sources.rs",
                "pub struct Sources;\n",
            ),
            // Another crate's modules of the same names are another graph.
            (
                "crates/gateway-uploads/src/budgets.rs",
                "use crate::room;\n",
            ),
            (
                "crates/gateway-uploads/src/room.rs",
                "pub fn counted_at() {}\n",
            ),
        ];
        assert_eq!(cycles(&files), Vec::<String>::new());
    }

    #[test]
    fn the_gateway_crates_sources_are_read() {
        let sources = gateway_sources(&crate::project::root()).unwrap();
        let crates: BTreeSet<PathBuf> = sources
            .iter()
            .filter_map(|(path, _)| place(path).map(|(src, _)| src))
            .collect();
        assert!(crates.len() >= 7, "{crates:?}");
        assert!(crates.contains(Path::new("crates/gateway-kept/src")));
    }
}
