//! A module cut at its lazy points ([`split`]): built with the `split`
//! feature and its relocations, split by `wasm_split_cli_support` into a
//! first module and chunks, then each bound (the first module) and shrunk.
//!
//! The release app ([`build`], `src/chunks.rs`) names every part by a hash
//! of what it holds so every file can be cached for good. Its first
//! module's JavaScript imports the chunks' loader (`__wasm_split.js`),
//! which imports the first module back for its memory and table; the two
//! names are hashed together, over everything the build made, since each
//! names the other. The npm package's widgets ([`write_to_package`],
//! `crates/widgets/src/chunks.rs`) keep fixed names a bundler hashes.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::cmd::{self, command};
use crate::project;
use crate::tools::WASM_TARGET;
use crate::wasm;

/// The cargo feature that puts a crate's lazy points in (the app's, the
/// widgets').
pub const FEATURE: &str = "split";

/// The loader's name as the split writes it, before it is hashed.
const LINK: &str = "__wasm_split.js";

/// The first module's name as wasm-bindgen writes it (`first.js`), before
/// it is hashed.
const FIRST: &str = "first";

/// The loader, as errors name it.
const LOADER: &str = "the chunks' loader";

/// What the split build made, under its final names in `dist`.
#[derive(Debug)]
pub struct BuiltApp {
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
) -> Result<BuiltApp> {
    // The relocations let the split move code and data into chunks; they
    // are the linker's, so only the final link asks for them.
    cmd::run(cargo_app(bin, profile, "rustc").args(["--features", FEATURE, "--", RELOCS]))?;
    let work = project::target_dir().join("dist-split");
    let parts = split(
        &wasm::built(profile, &format!("{bin}.wasm")),
        &work,
        &Names {
            first: FIRST,
            link: LINK,
            typescript: false,
        },
        opt,
    )?;
    name_and_write(bin, &parts, dist)
}

/// The linker's flag that keeps the relocations a split needs.
pub const RELOCS: &str = "-Clink-arg=--emit-relocs";

/// What the parts of a split module are called before they are written
/// where they are served.
pub struct Names<'a> {
    /// The first module's name as wasm-bindgen writes it (`{first}.js`,
    /// `{first}_bg.wasm`).
    pub first: &'a str,
    /// The chunks' loader's file name.
    pub link: &'a str,
    /// Whether wasm-bindgen writes TypeScript declarations of the first
    /// module.
    pub typescript: bool,
}

/// A module split at its lazy points, each part bound or shrunk, in the
/// folder it was split in.
pub struct Parts {
    /// The first module's JavaScript (wasm-bindgen's, beside its
    /// declarations when asked for).
    pub js: PathBuf,
    /// The first module.
    pub wasm: PathBuf,
    /// The chunks' loader, its own console report of a chunk that did not
    /// load taken out.
    pub link: PathBuf,
    /// Each chunk's file, named by the split (`chunk_12.wasm`,
    /// `split_tasks.wasm`).
    pub chunks: Vec<PathBuf>,
    /// The chunk files (by stem) each lazy point needs, by the point's name.
    pub needs: HashMap<String, Vec<String>>,
}

/// Split the module `input` (linked with [`RELOCS`]) at its lazy points in
/// `work`, bind its first module as `names` says and shrink every part
/// (`opt`: wasm-opt's level and parameters, when given).
pub fn split(
    input: &Path,
    work: &Path,
    names: &Names,
    opt: Option<(&str, &[String])>,
) -> Result<Parts> {
    if work.exists() {
        std::fs::remove_dir_all(work)?;
    }
    std::fs::create_dir_all(work)?;
    let input = std::fs::read(input)?;
    let unbound = work.join("unbound.wasm");
    let link = format!("./{}", names.link);
    let main_module = format!("./{}.js", names.first);
    let split = wasm_split_cli_support::transform({
        let mut options = wasm_split_cli_support::Options::new(&input);
        options.output_dir = work;
        options.main_out_path = &unbound;
        options.main_module = &main_module;
        options.link_name = &link;
        options
    })
    .map_err(|error| anyhow::anyhow!("splitting a module at its lazy points: {error:#}"))?;
    std::fs::write(
        work.join(names.link),
        unloud_loader(&std::fs::read_to_string(work.join(names.link))?)?,
    )?;
    let binding = wasm::Binding {
        typescript: names.typescript,
        split: true,
    };
    wasm::bind_for_web(&unbound, names.first, work, binding)?;
    std::fs::remove_file(&unbound)?;
    let first_wasm = work.join(format!("{}_bg.wasm", names.first));
    let chunks: Vec<PathBuf> = split.split_modules;
    if let Some((level, params)) = opt {
        wasm::optimize(&first_wasm, level, params)?;
        for chunk in &chunks {
            wasm::optimize(chunk, level, params)?;
        }
    }
    Ok(Parts {
        js: work.join(format!("{}.js", names.first)),
        wasm: first_wasm,
        link: work.join(names.link),
        chunks,
        needs: split.prefetch_map,
    })
}

/// The loader without its own report of a chunk that did not load: that
/// is for the page to say (the app on its page, a widget in `ready`), or
/// for nobody, for one fetched ahead while the network is down.
fn unloud_loader(text: &str) -> Result<String> {
    replaced(text, "console.error(e);", "", LOADER)
}

/// Write a split module's `parts` into an npm package's folder `package`
/// under names that start with `prefix` (the first module's name): each
/// chunk `{prefix}_{stem}.wasm`, so the loader's
/// `new URL("./…", import.meta.url)` finds it, and a bundler that follows
/// those (Vite) ships it.
pub fn write_to_package(parts: &Parts, prefix: &str, package: &Path) -> Result<()> {
    std::fs::create_dir_all(package)?;
    let mut link_text = std::fs::read_to_string(&parts.link)?;
    write_chunks(&mut link_text, &parts.chunks, package, |stem, _| {
        format!("{prefix}_{stem}.wasm")
    })?;
    let link_name = parts.link.file_name().context("the loader has a name")?;
    std::fs::write(package.join(link_name), link_text)?;
    let work = parts.js.parent().context("the split's folder")?;
    // The rest is wasm-bindgen's of the first module: its JavaScript, the
    // module, their declarations and any snippets.
    for entry in std::fs::read_dir(work)? {
        let path = entry?.path();
        if path == parts.link || parts.chunks.contains(&path) {
            continue;
        }
        let name = path.file_name().context("a file has a name")?;
        if path.is_dir() {
            crate::files::copy_folder(&path, &package.join(name))?;
        } else {
            std::fs::copy(&path, package.join(name))?;
        }
    }
    Ok(())
}

/// Each page's chunk files by the page's name, from what the split says
/// each needs (`needs`: by the files' stems, a page's own written with or
/// without its `split_`) and the names the files were written under
/// (`written`, by stem).
fn page_files(
    needs: &HashMap<String, Vec<String>>,
    written: &BTreeMap<String, String>,
) -> Result<BTreeMap<String, Vec<String>>> {
    needs
        .iter()
        .map(|(page, stems)| {
            let files = stems
                .iter()
                .map(|stem| {
                    written
                        .get(stem)
                        .or_else(|| written.get(&format!("split_{stem}")))
                        .cloned()
                        .with_context(|| format!("the split names a chunk {stem} it did not write"))
                })
                .collect::<Result<Vec<_>>>()?;
            Ok((page.clone(), files))
        })
        .collect()
}

/// `text` with each `from` made `to` (one at least), or why not: the file
/// was not written as the split writes it (`what` names it).
fn replaced_each(text: &str, from: &str, to: &str, what: &str) -> Result<String> {
    anyhow::ensure!(text.contains(from), "{what} does not hold {from}");
    Ok(text.replace(from, to))
}

/// `text` with its one `from` made `to`, or why not: the file was not
/// written as the split writes it (`what` names it), holding `from` not at
/// all or more than once (a name the split would then change where it
/// should not).
fn replaced(text: &str, from: &str, to: &str, what: &str) -> Result<String> {
    match text.matches(from).count() {
        1 => Ok(text.replacen(from, to, 1)),
        0 => anyhow::bail!("{what} does not hold {from}"),
        times => anyhow::bail!("{what} holds {from} {times} times, not once"),
    }
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
) -> Result<BuiltApp> {
    cmd::run(&mut cargo_app(bin, profile, "build"))?;
    let bound = project::target_dir().join("dist-bindgen");
    if bound.exists() {
        std::fs::remove_dir_all(&bound)?;
    }
    let binding = wasm::Binding {
        typescript: false,
        split: false,
    };
    wasm::bind_for_web(
        &wasm::built(profile, &format!("{bin}.wasm")),
        bin,
        &bound,
        binding,
    )?;
    let wasm_path = bound.join(format!("{bin}_bg.wasm"));
    if let Some((level, params)) = opt {
        wasm::optimize(&wasm_path, level, params)?;
    }
    let js = crate::minify::module(
        &std::fs::read_to_string(bound.join(format!("{bin}.js")))?,
        "the module's JavaScript",
    )?
    .into_bytes();
    let wasm = std::fs::read(&wasm_path)?;
    let name = crate::files::hashed(bin, &[&js, &wasm]);
    let (js_name, wasm_name) = (format!("{name}.js"), format!("{name}_bg.wasm"));
    std::fs::write(dist.join(&js_name), &js)?;
    std::fs::write(dist.join(&wasm_name), &wasm)?;
    std::fs::remove_dir_all(&bound)?;
    Ok(BuiltApp {
        js: js_name,
        wasm: wasm_name,
        link: None,
        chunks: Vec::new(),
        pages: BTreeMap::new(),
    })
}

/// A chunk as [`write_chunks`] wrote it.
struct WrittenChunk {
    /// Its name as the split wrote it, without `.wasm`.
    stem: String,
    /// Its name where it was written.
    name: String,
    bytes: Vec<u8>,
}

/// Write each of `chunks` into `dir` under the name `name` gives it (from
/// its stem and bytes), and name it so in the loader's `link_text`.
fn write_chunks(
    link_text: &mut String,
    chunks: &[PathBuf],
    dir: &Path,
    name: impl Fn(&str, &[u8]) -> String,
) -> Result<Vec<WrittenChunk>> {
    chunks
        .iter()
        .map(|chunk| {
            let bytes = std::fs::read(chunk)?;
            let stem = chunk
                .file_stem()
                .and_then(|stem| stem.to_str())
                .context("a chunk has a name")?
                .to_owned();
            let name = name(&stem, &bytes);
            *link_text = replaced(
                link_text,
                &format!("\"./{stem}.wasm\""),
                &format!("\"./{name}\""),
                LOADER,
            )?;
            std::fs::write(dir.join(&name), &bytes)?;
            Ok(WrittenChunk { stem, name, bytes })
        })
        .collect()
}

/// Name each part by its hash, write the names where the others read them,
/// and write the parts into `dist`.
fn name_and_write(bin: &str, parts: &Parts, dist: &Path) -> Result<BuiltApp> {
    let mut link_text =
        std::fs::read_to_string(&parts.link).context("reading the chunks' loader")?;
    let mut written = BTreeMap::new();
    let mut everything: Vec<Vec<u8>> = Vec::new();
    let renamed = write_chunks(&mut link_text, &parts.chunks, dist, |stem, bytes| {
        format!(
            "{}.wasm",
            crate::files::hashed(&stem.replace('_', "-"), &[bytes])
        )
    })?;
    for WrittenChunk { stem, name, bytes } in renamed {
        everything.push(bytes);
        written.insert(stem, name);
    }
    let wasm_bytes = std::fs::read(&parts.wasm)?;
    let wasm_name = format!("{}_bg.wasm", crate::files::hashed(bin, &[&wasm_bytes]));
    let mut js_text =
        std::fs::read_to_string(&parts.js).context("reading the first module's JavaScript")?;
    // Both name each other: one hash over the whole build names both.
    let build = crate::files::hashed(
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
    link_text = replaced(
        &link_text,
        &format!("\"./{FIRST}.js\""),
        &format!("\"./{js_name}\""),
        LOADER,
    )?;
    // Only the imports from the loader (one per import statement wasm-bindgen
    // wrote): the module's other imports keep the names the wasm asks for.
    js_text = replaced_each(
        &js_text,
        &format!("from \"./{LINK}\""),
        &format!("from \"./{link_name}\""),
        "the first module's JavaScript",
    )?;
    std::fs::write(dist.join(&wasm_name), &wasm_bytes)?;
    let js_text = crate::minify::module(&js_text, "the first module's JavaScript")?;
    let link_text = crate::minify::module(&link_text, LOADER)?;
    std::fs::write(dist.join(&js_name), &js_text)?;
    std::fs::write(dist.join(&link_name), &link_text)?;
    Ok(BuiltApp {
        js: js_name,
        wasm: wasm_name,
        link: Some(link_name),
        pages: page_files(&parts.needs, &written)?,
        chunks: written.into_values().collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_page_names_the_files_its_chunks_were_written_under() {
        let written = BTreeMap::from([
            ("chunk_1".to_owned(), "chunk-1-aa.wasm".to_owned()),
            ("chunk_12".to_owned(), "chunk-12-bb.wasm".to_owned()),
            ("split_tasks".to_owned(), "split-tasks-cc.wasm".to_owned()),
        ]);
        let needs = HashMap::from([(
            "tasks".to_owned(),
            vec!["chunk_12".to_owned(), "tasks".to_owned()],
        )]);
        let pages = page_files(&needs, &written).unwrap();
        assert_eq!(pages["tasks"], ["chunk-12-bb.wasm", "split-tasks-cc.wasm"]);
        let unknown = HashMap::from([("compare".to_owned(), vec!["chunk_9".to_owned()])]);
        assert!(page_files(&unknown, &written).is_err());
    }

    #[test]
    fn a_name_is_replaced_only_where_the_file_holds_it() {
        assert_eq!(
            replaced("import \"./a.js\"", "\"./a.js\"", "\"./b.js\"", "x").unwrap(),
            "import \"./b.js\""
        );
        let missing = replaced("nothing", "\"./a.js\"", "b", "the loader").unwrap_err();
        assert!(missing.to_string().contains("the loader does not hold"));
        let twice = replaced("\"./a.js\" \"./a.js\"", "\"./a.js\"", "b", "the loader").unwrap_err();
        assert!(twice.to_string().contains("2 times, not once"), "{twice}");
    }
}
