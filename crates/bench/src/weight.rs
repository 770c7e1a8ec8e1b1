//! What takes the most room in the app's wasm: the code of each function,
//! by the crate its name starts with, read from the module cargo builds
//! (before `wasm-bindgen` and `wasm-opt`, which drop the names).
//!
//! The figures are uncompressed code bytes, so they add up to more than the
//! shipped, optimized module; their shares are what tells where to look.
//! Generic code counts for the crate that defines it (`tachys` for a view's
//! rendering, `core` for drop glue and closures), wherever it is used.

use std::collections::HashMap;
use std::path::Path;

use wasmparser::{KnownCustom, Name, Parser, Payload, TypeRef};

use crate::report::Report;

/// How many crates and functions to list.
const TOP: usize = 10;

/// The size of each function's code, with its demangled name.
fn function_sizes(wasm: &[u8]) -> Result<Vec<(String, usize)>, String> {
    let error = |e: wasmparser::BinaryReaderError| e.to_string();
    let mut imported = 0u32;
    let mut bodies = Vec::new();
    let mut names = HashMap::new();
    for payload in Parser::new(0).parse_all(wasm) {
        match payload.map_err(error)? {
            Payload::ImportSection(section) => {
                for import in section.into_imports() {
                    if matches!(import.map_err(error)?.ty, TypeRef::Func(_)) {
                        imported += 1;
                    }
                }
            }
            Payload::CodeSectionEntry(body) => bodies.push(body.range().len()),
            Payload::CustomSection(section) => {
                if let KnownCustom::Name(reader) = section.as_known() {
                    for name in reader {
                        if let Ok(Name::Function(map)) = name {
                            for naming in map.into_iter().flatten() {
                                names.insert(naming.index, naming.name.to_owned());
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if names.is_empty() {
        return Err("the module has no function names".into());
    }
    Ok(bodies
        .into_iter()
        .enumerate()
        .map(|(position, size)| {
            let index = imported + position as u32;
            let name = names
                .get(&index)
                .map(|name| format!("{:#}", rustc_demangle::demangle(name)))
                .unwrap_or_else(|| format!("function {index}"));
            (name, size)
        })
        .collect())
}

/// The crate a demangled function name belongs to: its first path segment,
/// past any `<` or `&` of an impl (`<tachys::…>` is tachys). An impl of a
/// trait for a bare type parameter or a primitive (`<T as tachys::…>`,
/// `<&F as core::…>`) belongs to the trait's crate.
fn crate_of(name: &str) -> &str {
    let (segment, is_path) = first_segment(name);
    let segment = match name.split_once(" as ") {
        Some((_, trait_path)) if name.starts_with('<') && !is_path => first_segment(trait_path).0,
        _ => segment,
    };
    if segment.is_empty() {
        "other"
    } else {
        segment
    }
}

/// The first path segment of `path`, past any `<`, `&` or `mut `, and
/// whether it is followed by more path (`::` or a `[hash]`).
fn first_segment(path: &str) -> (&str, bool) {
    let path = path
        .trim_start_matches(['<', '&'])
        .trim_start_matches("mut ");
    let end = path.find([':', '<', ' ', '[', '>']).unwrap_or(path.len());
    let rest = &path[end..];
    (
        &path[..end],
        rest.starts_with("::") || rest.starts_with('['),
    )
}

/// Code bytes per crate, largest first.
fn by_crate(functions: &[(String, usize)]) -> Vec<(String, usize)> {
    let mut totals: HashMap<&str, usize> = HashMap::new();
    for (name, size) in functions {
        *totals.entry(crate_of(name)).or_default() += size;
    }
    let mut totals: Vec<(String, usize)> = totals
        .into_iter()
        .map(|(name, size)| (name.to_owned(), size))
        .collect();
    totals.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    totals
}

/// Print and record the largest crates and functions of the module at
/// `wasm` (cargo's output, with names), under `label` ("app").
pub fn measure(report: &mut Report, label: &str, wasm: &Path) -> Result<(), String> {
    let bytes = std::fs::read(wasm).map_err(|e| format!("{}: {e} (not built?)", wasm.display()))?;
    let mut functions = function_sizes(&bytes)?;
    let total: usize = functions.iter().map(|(_, size)| size).sum();
    let share = |size: usize| 100.0 * size as f64 / total.max(1) as f64;
    println!(
        "What takes the most room: {label} code before wasm-opt, {:.1} KB in {} functions",
        total as f64 / 1000.0,
        functions.len()
    );
    for (name, size) in by_crate(&functions).into_iter().take(TOP) {
        report.add(format!("{label} code by crate: {name}"), share(size), "%");
    }
    functions.sort_by_key(|(_, size)| std::cmp::Reverse(*size));
    println!("  largest functions:");
    for (name, size) in functions.iter().take(TOP) {
        let short: String = name.chars().take(100).collect();
        println!("  {:>8.1} KB  {short}", *size as f64 / 1000.0);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_belong_to_the_crate_their_path_starts_with() {
        assert_eq!(crate_of("tachys::view::any_view::build"), "tachys");
        assert_eq!(
            crate_of("<tachys::html::Foo<T> as core::ops::Drop>::drop"),
            "tachys"
        );
        assert_eq!(crate_of("&mut serde_json::de::Deserializer"), "serde_json");
        assert_eq!(crate_of("core[c5930c85a12de822]::fmt::write"), "core");
        assert_eq!(crate_of("<str>::to_lowercase"), "str");
        assert_eq!(crate_of("main"), "main");
        assert_eq!(crate_of("<>"), "other");
        assert_eq!(
            crate_of("<T as tachys::view::any_view::IntoAny>::into_any"),
            "tachys"
        );
        assert_eq!(
            crate_of("<&F as core::ops::function::FnOnce<A>>::call_once"),
            "core"
        );
        assert_eq!(crate_of("<f64 as core[1234]::fmt::Display>::fmt"), "core");
    }

    #[test]
    fn crates_are_summed_and_ordered_by_size() {
        let functions = vec![
            ("a::x".to_owned(), 5),
            ("b::y".to_owned(), 7),
            ("<a::z as b::T>::f".to_owned(), 4),
        ];
        assert_eq!(
            by_crate(&functions),
            [("a".to_owned(), 9), ("b".to_owned(), 7)]
        );
    }

    /// A hand-made module: one imported and two defined functions, named.
    #[test]
    fn sizes_are_read_with_the_names_of_defined_functions() {
        let module = wat_module();
        let functions = function_sizes(&module).unwrap();
        let names: Vec<&str> = functions.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, ["small", "large"]);
        assert!(functions[1].1 > functions[0].1, "{functions:?}");
    }

    /// The binary of `(module (import "m" "f" (func)) (func $small) (func
    /// $large i32.const 1 drop i32.const 2 drop))` with a name section.
    fn wat_module() -> Vec<u8> {
        let mut module = b"\0asm\x01\0\0\0".to_vec();
        let section = |module: &mut Vec<u8>, id: u8, body: &[u8]| {
            module.push(id);
            module.push(body.len() as u8);
            module.extend_from_slice(body);
        };
        section(&mut module, 1, &[1, 0x60, 0, 0]); // type 0: () -> ()
        section(&mut module, 2, &[1, 1, b'm', 1, b'f', 0, 0]); // import m.f: type 0
        section(&mut module, 3, &[2, 0, 0]); // two functions of type 0
        let small = [2, 0, 0x0b];
        let large = [8, 0, 0x41, 1, 0x1a, 0x41, 2, 0x1a, 0x0b];
        let mut code = vec![2];
        code.extend_from_slice(&small);
        code.extend_from_slice(&large);
        section(&mut module, 10, &code);
        let mut names = vec![1]; // function names subsection
        let map: Vec<u8> = [
            &[3, 0, 1, b'f'][..],
            &[1, 5, b's', b'm', b'a', b'l', b'l'],
            &[2, 5, b'l', b'a', b'r', b'g', b'e'],
        ]
        .concat();
        names.push(map.len() as u8);
        names.extend_from_slice(&map);
        let mut custom = vec![4, b'n', b'a', b'm', b'e'];
        custom.extend_from_slice(&names);
        section(&mut module, 0, &custom);
        module
    }
}
