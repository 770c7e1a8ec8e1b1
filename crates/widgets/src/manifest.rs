//! The package's `custom-elements.json` (the Custom Elements Manifest that
//! editors and catalogues read) checked against what the elements do.

use serde_json::Value;

const MANIFEST: &str = include_str!("../npm/custom-elements.json");
const INDEX: &str = include_str!("../npm/index.js");

fn declarations() -> Vec<Value> {
    let manifest: Value = serde_json::from_str(MANIFEST).expect("the manifest is JSON");
    manifest["modules"][0]["declarations"]
        .as_array()
        .expect("declarations")
        .clone()
}

fn names(declaration: &Value, list: &str) -> Vec<String> {
    declaration[list]
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|item| item["name"].as_str().expect("a name").to_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn the_manifest_lists_each_element_with_what_it_reads_and_sends() {
    let declarations = declarations();
    assert_eq!(declarations.len(), 2);
    for declaration in &declarations {
        let class = declaration["name"].as_str().expect("a class name");
        let tag = declaration["tagName"].as_str().expect("a tag");
        assert!(INDEX.contains(&format!("export class {class} ")), "{class}");
        assert!(INDEX.contains(&format!("\"{tag}\"")), "{tag} is defined");
        for attribute in names(declaration, "attributes") {
            assert!(
                INDEX.contains(&format!("\"{attribute}\"")),
                "{class} reads the attribute {attribute}"
            );
        }
        for member in names(declaration, "members") {
            assert!(
                INDEX.contains(&format!("get {member}()"))
                    || INDEX.contains(&format!("set {member}(")),
                "{class} has the property {member}"
            );
        }
        for event in names(declaration, "events") {
            assert!(
                INDEX.contains(&format!("= \"{event}\";")),
                "{event} is an exported event name"
            );
        }
    }
}

#[test]
fn every_part_the_manifest_names_is_one_the_views_write() {
    let sources = [
        include_str!("mounted.rs"),
        include_str!("status.rs"),
        include_str!("next_jobs.rs"),
        include_str!("../../ui/src/forms/shell.rs"),
        include_str!("../../ui/src/components/progress.rs"),
        include_str!("../../ui/src/components/task_result.rs"),
    ]
    .concat();
    for declaration in declarations() {
        for part in names(&declaration, "cssParts") {
            assert!(
                sources.contains(&format!("part=\"{part}\""))
                    || sources.contains(&format!("\"part\", \"{part}\"")),
                "the part {part} is written"
            );
        }
    }
}
