//! The benchmark program's command line. (Being an integration test, this
//! also makes `cargo test` build the program itself, so the test build
//! lints it and no second build with other features is needed.)

use std::process::Command;

#[test]
fn a_part_that_does_not_exist_is_refused_with_the_list_of_parts() {
    let output = Command::new(env!("CARGO_BIN_EXE_media-gen-bench"))
        .arg("sizez")
        .output()
        .expect("run the benchmark program");
    assert!(!output.status.success(), "an unknown part must fail");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("no part `sizez`"), "{said}");
    for part in ["sizes", "load", "board", "polling", "relay", "uploads"] {
        assert!(said.contains(part), "the parts listed: {said}");
    }
    assert!(
        output.stdout.is_empty(),
        "nothing measured before the refusal"
    );
}
