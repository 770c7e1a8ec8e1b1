//! The release app cut at its lazy points (`src/chunks.rs`): the module
//! built with the `split` feature and its relocations, split by
//! `wasm_split_cli_support` into a first module and a chunk per page not
//! opened first, then each bound (the first module) and shrunk, and named
//! by a hash of what it holds so every file can be cached for good.
//!
//! The first module's JavaScript imports the chunks' loader
//! (`__wasm_split.js`), which imports the first module back for its memory
//! and table; the two names are hashed together, over everything the
//! build made, since each names the other.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::cmd::{self, command};
use crate::project;
use crate::tools::WASM_TARGET;
use crate::wasm;

/// The app's cargo feature that puts its lazy points in.
pub const FEATURE: &str = "split";

/// The loader's name as the split writes it, before it is hashed.
const LINK: &str = "__wasm_split.js";

/// The first module's JavaScript as the loader names it, before it is hashed.
const FIRST: &str = "first.js";

/// What the split build made, under its final names in `dist`.
#[derive(Debug)]
pub struct SplitApp {
    /// The first module's JavaScript (it starts the app).
    pub js: String,
    /// The first module.
    pub wasm: String,
    /// The chunks' loader, which the first module's JavaScript imports
    /// (none in a build made whole).
    pub link: Option<String>,
    /// Each chunk's file.
    pub chunks: Vec<String>,
    /// Each page's chunk by its name (the leading segments of the page's
    /// address, `new_image_to_video`), with the files it needs: its own
    /// and those of code it shares with other pages.
    pub pages: BTreeMap<String, Vec<String>>,
}

/// Build `bin` with `profile` and the lazy points, split it, bind and
/// shrink each part (`opt`: wasm-opt's level and parameters, when given)
/// and write them into `dist`.
pub fn build(
    bin: &str,
    profile: &str,
    opt: Option<(&str, &[String])>,
    dist: &Path,
) -> Result<SplitApp> {
    // The relocations let the split move code and data into chunks; they
    // are the linker's, so only the final link asks for them.
    cmd::run(cargo_app(bin, profile, "rustc").args([
        "--features",
        FEATURE,
        "--",
        "-Clink-arg=--emit-relocs",
    ]))?;
    let work = project::target_dir().join("dist-split");
    if work.exists() {
        std::fs::remove_dir_all(&work)?;
    }
    std::fs::create_dir_all(&work)?;
    let input = std::fs::read(wasm::built(profile, &format!("{bin}.wasm")))?;
    let first = work.join("first.wasm");
    let link = format!("./{LINK}");
    let main_module = format!("./{FIRST}");
    let split = wasm_split_cli_support::transform({
        let mut options = wasm_split_cli_support::Options::new(&input);
        options.output_dir = &work;
        options.main_out_path = &first;
        options.main_module = &main_module;
        options.link_name = &link;
        options
    })
    .map_err(|error| anyhow::anyhow!("splitting the app at its lazy points: {error:#}"))?;
    let bound = work.join("bound");
    wasm::bind_split_first(&first, "first", &bound)?;
    let first_wasm = bound.join("first_bg.wasm");
    let chunks: Vec<PathBuf> = split.split_modules;
    if let Some((level, params)) = opt {
        wasm::optimize(&first_wasm, level, params)?;
        for chunk in &chunks {
            wasm::optimize(chunk, level, params)?;
        }
    }
    let mut app = name_and_write(
        bin,
        &bound.join("first.js"),
        &first_wasm,
        &work.join(LINK),
        &chunks,
        dist,
    )?;
    let final_name = |stem: &str| -> Option<String> {
        let prefix = format!("{}-", stem.replace('_', "-"));
        app.chunks
            .iter()
            .find(|name| crate::dist::hashed_as(name, &prefix))
            .cloned()
    };
    let mut pages = BTreeMap::new();
    for (page, needs) in &split.prefetch_map {
        let files = needs
            .iter()
            .map(|stem| {
                final_name(stem)
                    .or_else(|| final_name(&format!("split_{stem}")))
                    .with_context(|| format!("the split names a chunk {stem} it did not write"))
            })
            .collect::<Result<Vec<_>>>()?;
        pages.insert(page.clone(), files);
    }
    app.pages = pages;
    Ok(app)
}

/// `cargo {how}` of the app's `bin` for the browser with `profile`.
fn cargo_app(bin: &str, profile: &str, how: &str) -> std::process::Command {
    let mut cargo = command("cargo");
    cargo.args([
        how,
        "--bin",
        bin,
        "--target",
        WASM_TARGET,
        "--profile",
        profile,
    ]);
    cargo
}

/// The app built whole, without its lazy points (as it was before it was
/// split, for comparing the two: `cargo xtask dist --whole`), bound,
/// shrunk and named by its hash into `dist`.
pub fn build_whole(
    bin: &str,
    profile: &str,
    opt: Option<(&str, &[String])>,
    dist: &Path,
) -> Result<SplitApp> {
    cmd::run(&mut cargo_app(bin, profile, "build"))?;
    let bound = project::target_dir().join("dist-bindgen");
    if bound.exists() {
        std::fs::remove_dir_all(&bound)?;
    }
    wasm::bind_for_web(
        &wasm::built(profile, &format!("{bin}.wasm")),
        bin,
        &bound,
        false,
    )?;
    let wasm_path = bound.join(format!("{bin}_bg.wasm"));
    if let Some((level, params)) = opt {
        wasm::optimize(&wasm_path, level, params)?;
    }
    let js = std::fs::read(bound.join(format!("{bin}.js")))?;
    let wasm = std::fs::read(&wasm_path)?;
    let name = crate::dist::hashed(bin, &[&js, &wasm]);
    let (js_name, wasm_name) = (format!("{name}.js"), format!("{name}_bg.wasm"));
    std::fs::write(dist.join(&js_name), &js)?;
    std::fs::write(dist.join(&wasm_name), &wasm)?;
    std::fs::remove_dir_all(&bound)?;
    Ok(SplitApp {
        js: js_name,
        wasm: wasm_name,
        link: None,
        chunks: Vec::new(),
        pages: BTreeMap::new(),
    })
}

/// Name each part by its hash, write the names where the others read them,
/// and write the parts into `dist`.
fn name_and_write(
    bin: &str,
    js: &Path,
    wasm: &Path,
    link: &Path,
    chunks: &[PathBuf],
    dist: &Path,
) -> Result<SplitApp> {
    let mut link_text = std::fs::read_to_string(link).context("reading the chunks' loader")?;
    // A chunk that does not load is the app's to say (on its page, or not
    // at all for one fetched ahead, as while the network is down): the
    // loader's own report of it would be an error in the console.
    const REPORT: &str = "console.error(e);";
    anyhow::ensure!(
        link_text.contains(REPORT),
        "the chunks' loader no longer reports a failed load as it did"
    );
    link_text = link_text.replace(REPORT, "");
    let mut chunk_names = Vec::new();
    let mut everything: Vec<Vec<u8>> = Vec::new();
    for chunk in chunks {
        let bytes = std::fs::read(chunk)?;
        let stem = chunk
            .file_stem()
            .and_then(|stem| stem.to_str())
            .context("a chunk has a name")?;
        let name = format!(
            "{}.wasm",
            crate::dist::hashed(&stem.replace('_', "-"), &[&bytes])
        );
        let written = format!("\"./{stem}.wasm\"");
        anyhow::ensure!(
            link_text.contains(&written),
            "the chunks' loader does not name {written}"
        );
        link_text = link_text.replace(&written, &format!("\"./{name}\""));
        std::fs::write(dist.join(&name), &bytes)?;
        everything.push(bytes);
        chunk_names.push(name);
    }
    let wasm_bytes = std::fs::read(wasm)?;
    let wasm_name = format!("{}_bg.wasm", crate::dist::hashed(bin, &[&wasm_bytes]));
    let mut js_text =
        std::fs::read_to_string(js).context("reading the first module's JavaScript")?;
    // Both name each other: one hash over the whole build names both.
    let build = crate::dist::hashed(
        "",
        &[
            &wasm_bytes,
            js_text.as_bytes(),
            link_text.as_bytes(),
            &everything.concat(),
        ],
    );
    let js_name = format!("{bin}{build}.js");
    let link_name = format!("__wasm-split{build}.js");
    let from_link = format!("\"./{FIRST}\"");
    anyhow::ensure!(
        link_text.contains(&from_link),
        "the chunks' loader does not import {from_link}"
    );
    link_text = link_text.replace(&from_link, &format!("\"./{js_name}\""));
    let to_link = format!("from \"./{LINK}\"");
    anyhow::ensure!(
        js_text.contains(&to_link),
        "the first module's JavaScript does not import {to_link}"
    );
    // Only the import: the module's imports keep the name the wasm asks for.
    js_text = js_text.replace(&to_link, &format!("from \"./{link_name}\""));
    std::fs::write(dist.join(&wasm_name), &wasm_bytes)?;
    std::fs::write(dist.join(&js_name), &js_text)?;
    std::fs::write(dist.join(&link_name), &link_text)?;
    Ok(SplitApp {
        js: js_name,
        wasm: wasm_name,
        link: Some(link_name),
        chunks: chunk_names,
        pages: BTreeMap::new(),
    })
}
