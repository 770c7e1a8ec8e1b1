//! The release build of the app into `dist/`: the app compiled with the
//! size-first profile, bound with wasm-bindgen and shrunk with wasm-opt,
//! every file named by a hash of what it holds, and `index.html` written
//! from the project's page (its `data-trunk` links, which `trunk serve`
//! reads while developing, become the files' tags, with their integrity);
//! then a brotli and a gzip copy of each file beside it for the gateway to
//! serve to browsers that accept them (compressed once here at the best
//! levels, not per request). No Trunk: it takes minutes to compile on a
//! new machine, and these steps are what its release build did.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};
use base64::Engine;
use sha2::{Digest, Sha384};

use crate::files::hashed;

use crate::project;

/// File types worth compressing: text, and WebAssembly.
const COMPRESSED: &[&str] = &[
    "html", "js", "css", "wasm", "svg", "json", "ico", "txt", "map",
];

/// The cargo profile the app's `rel="rust"` link names when it has none.
const DEFAULT_PROFILE: &str = "release";

/// Build the app into `dist/` (replaced whole), then the compressed copies.
pub fn build_release_app() -> Result<()> {
    build_app(Shape::Split)
}

/// How the app's module is built: split at its lazy points (what is
/// served), or whole (to compare the two).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A first module and chunks.
    Split,
    /// One module, as before the app was split.
    Whole,
}

/// [`build_release_app`] in the given shape.
pub fn build_app(shape: Shape) -> Result<()> {
    let root = project::root();
    let html = std::fs::read_to_string(root.join("index.html")).context("reading index.html")?;
    let page = Page::read(&html)?;
    let staged = project::target_dir().join("dist-staged");
    if staged.exists() {
        std::fs::remove_dir_all(&staged)?;
    }
    std::fs::create_dir_all(&staged)?;
    let mut names = BTreeMap::new();
    for link in &page.links {
        names.insert(link.start, place(&root, link, &staged, shape)?);
    }
    std::fs::write(staged.join("index.html"), page.write(&names))?;
    let dist = root.join("dist");
    if dist.exists() {
        std::fs::remove_dir_all(&dist)?;
    }
    std::fs::rename(&staged, &dist)?;
    compress_folder(&dist)
}

/// One `<link data-trunk …>` of the project's page: where it is, and its
/// attributes.
#[derive(Debug)]
struct Link {
    start: usize,
    end: usize,
    attributes: BTreeMap<String, String>,
}

impl Link {
    fn get(&self, name: &str) -> Result<&str> {
        self.attributes
            .get(name)
            .map(String::as_str)
            .with_context(|| format!("a data-trunk link has no {name}"))
    }
}

/// What a link becomes in the built page: its own tag, and what goes at
/// the end of the head (the app's preloads).
#[derive(Debug, Default, PartialEq, Eq)]
struct Placed {
    tag: String,
    head: String,
}

/// The project's page and its `data-trunk` links.
struct Page<'a> {
    html: &'a str,
    links: Vec<Link>,
}

impl<'a> Page<'a> {
    fn read(html: &'a str) -> Result<Page<'a>> {
        let links = links(html)?
            .into_iter()
            .filter(|link| link.attributes.contains_key("data-trunk"))
            .collect();
        Ok(Page { html, links })
    }

    /// The page with each link replaced by what it became (`placed`, by the
    /// link's start), and their head parts before `</head>`.
    fn write(&self, placed: &BTreeMap<usize, Placed>) -> String {
        let mut out = String::with_capacity(self.html.len());
        let mut at = 0;
        let mut head = String::new();
        for link in &self.links {
            out.push_str(&self.html[at..link.start]);
            if let Some(placed) = placed.get(&link.start) {
                out.push_str(&placed.tag);
                head.push_str(&placed.head);
            }
            at = link.end;
        }
        out.push_str(&self.html[at..]);
        match out.find("</head>") {
            Some(end) => out.insert_str(end, &head),
            None => out.push_str(&head),
        }
        out
    }
}

/// Every `<link …>` of `html`, in order.
fn links(html: &str) -> Result<Vec<Link>> {
    let mut links = Vec::new();
    let mut from = 0;
    while let Some(found) = html[from..].find("<link") {
        let start = from + found;
        let end = start
            + html[start..]
                .find('>')
                .with_context(|| format!("a <link at byte {start} never ends"))?
            + 1;
        from = end;
        let inside = html[start + "<link".len()..end - 1].trim_end_matches('/');
        links.push(Link {
            start,
            end,
            attributes: attributes(inside),
        });
    }
    Ok(links)
}

/// The first value of attribute `name` on a `<link>` of `html`.
pub fn link_attribute(html: &str, name: &str) -> Option<String> {
    links(html)
        .ok()?
        .into_iter()
        .find_map(|mut link| link.attributes.remove(name))
}

/// `name="value"` pairs and bare names (`data-trunk`) of a tag's inside.
fn attributes(inside: &str) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut rest = inside.trim_start();
    while !rest.is_empty() {
        let name_end = rest
            .find(|c: char| c.is_whitespace() || c == '=')
            .unwrap_or(rest.len());
        let name = rest[..name_end].to_owned();
        rest = rest[name_end..].trim_start();
        let mut value = String::new();
        if let Some(after) = rest.strip_prefix('=') {
            let after = after.trim_start();
            if let Some(quoted) = after.strip_prefix('"') {
                let close = quoted.find('"').unwrap_or(quoted.len());
                value = quoted[..close].to_owned();
                rest = quoted.get(close + 1..).unwrap_or("");
            } else {
                let close = after.find(char::is_whitespace).unwrap_or(after.len());
                value = after[..close].to_owned();
                rest = &after[close..];
            }
        }
        if !name.is_empty() {
            found.insert(name, value);
        }
        rest = rest.trim_start();
    }
    found
}

/// `sha384-…`, as a tag's `integrity` says it.
fn integrity(bytes: &[u8]) -> String {
    format!(
        "sha384-{}",
        base64::engine::general_purpose::STANDARD.encode(Sha384::digest(bytes))
    )
}

/// The page's script that fetches the chunks of the page it opens on
/// beside the first module, instead of after it: `pages` are each page's
/// chunk files by the page's name, the leading segments of its address
/// (`/new/image-to-video` is `new_image_to_video`, else its first segment,
/// `tasks`), as `src/chunks.rs` names them.
fn page_chunks_script(pages: &BTreeMap<String, Vec<String>>) -> String {
    let table = pages
        .iter()
        .map(|(page, files)| {
            let files = files
                .iter()
                .map(|file| format!("\"{file}\""))
                .collect::<Vec<_>>()
                .join(",");
            format!("\"{page}\":[{files}]")
        })
        .collect::<Vec<_>>()
        .join(",");
    format!(
        "<script>\n\
         (function () {{\n\
           var pages = {{{table}}};\n\
           var base = new URL(document.baseURI).pathname;\n\
           var path = location.pathname.indexOf(base) === 0 ? location.pathname.slice(base.length) : \"\";\n\
           var parts = path.split(\"/\").filter(Boolean).map(function (part) {{ return part.replace(/-/g, \"_\"); }});\n\
           var files = pages[parts.slice(0, 2).join(\"_\")] || pages[parts[0]] || [];\n\
           files.forEach(function (file) {{\n\
             var link = document.createElement(\"link\");\n\
             link.rel = \"preload\"; link.as = \"fetch\"; link.type = \"application/wasm\";\n\
             link.crossOrigin = \"anonymous\"; link.href = file;\n\
             document.head.appendChild(link);\n\
           }});\n\
         }})();\n\
         </script>"
    )
}

/// Do what `link` asks into `dist` and say what it becomes in the page.
fn place(root: &Path, link: &Link, dist: &Path, shape: Shape) -> Result<Placed> {
    match link.get("rel")? {
        "rust" => place_app(link, dist, shape),
        "css" => {
            let (name, bytes) = copy_hashed(root, link.get("href")?, dist)?;
            Ok(Placed {
                tag: format!(
                    r#"<link rel="stylesheet" href="./{name}" integrity="{}"/>"#,
                    integrity(&bytes)
                ),
                head: String::new(),
            })
        }
        "icon" => {
            let (name, bytes) = copy_hashed(root, link.get("href")?, dist)?;
            let kind = link
                .attributes
                .get("type")
                .map(|kind| format!(r#" type="{kind}""#))
                .unwrap_or_default();
            Ok(Placed {
                tag: format!(
                    r#"<link rel="icon"{kind} href="./{name}" integrity="{}"/>"#,
                    integrity(&bytes)
                ),
                head: String::new(),
            })
        }
        "copy-file" => {
            let from = root.join(link.get("href")?);
            let name = from.file_name().context("a copy-file link names a file")?;
            std::fs::copy(&from, dist.join(name))
                .with_context(|| format!("copying {}", from.display()))?;
            Ok(Placed::default())
        }
        other => bail!(
            "index.html has a data-trunk link of rel=\"{other}\", which the build does not know"
        ),
    }
}

/// Copy `href` (from the project's root) into `dist` under its hashed
/// name; returns the name and the bytes.
fn copy_hashed(root: &Path, href: &str, dist: &Path) -> Result<(String, Vec<u8>)> {
    let from = root.join(href);
    let bytes = std::fs::read(&from).with_context(|| format!("reading {}", from.display()))?;
    let stem = from
        .file_stem()
        .and_then(|stem| stem.to_str())
        .context("a linked file has a name")?;
    let extension = from
        .extension()
        .and_then(|extension| extension.to_str())
        .map(|extension| format!(".{extension}"))
        .unwrap_or_default();
    let name = format!("{}{extension}", hashed(stem, &[&bytes]));
    std::fs::write(dist.join(&name), &bytes)?;
    Ok((name, bytes))
}

/// The app: the link's binary built with its profile and split at its
/// lazy points ([`crate::split`]), shrunk by wasm-opt at the link's level
/// with its parameters; the module script that starts it, and the preloads
/// of what the first page needs (the first module, its JavaScript and the
/// chunks' loader; the chunks are fetched when their pages open).
fn place_app(link: &Link, dist: &Path, shape: Shape) -> Result<Placed> {
    let bin = link.get("data-bin")?;
    let profile = link
        .attributes
        .get("data-cargo-profile-release")
        .map_or(DEFAULT_PROFILE, String::as_str);
    let params: Vec<String> = link
        .attributes
        .get("data-wasm-opt-params")
        .map(|params| params.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    let opt = link
        .attributes
        .get("data-wasm-opt")
        .map(|level| (level.as_str(), params.as_slice()));
    let app = match shape {
        Shape::Split => crate::split::build(bin, profile, opt, dist)?,
        Shape::Whole => crate::split::build_whole(bin, profile, opt, dist)?,
    };
    println!(
        "the app's first module {}, its chunks {}",
        app.wasm,
        app.chunks.join(", ")
    );
    let read = |name: &str| std::fs::read(dist.join(name));
    let module_preload = |name: &str| -> Result<String> {
        Ok(format!(
            r#"<link rel="modulepreload" href="./{name}" crossorigin="anonymous" integrity="{}">"#,
            integrity(&read(name)?)
        ))
    };
    let mut head = module_preload(&app.js)?;
    if let Some(loader) = &app.link {
        head.push_str(&module_preload(loader)?);
    }
    head.push_str(&format!(
        r#"<link rel="preload" href="./{}" crossorigin="anonymous" integrity="{}" as="fetch" type="application/wasm">"#,
        app.wasm,
        integrity(&read(&app.wasm)?)
    ));
    if !app.pages.is_empty() {
        head.push_str(&page_chunks_script(&app.pages));
    }
    Ok(Placed {
        tag: app_script(&app.js, &app.wasm),
        head,
    })
}

/// The module script that starts the app; `window.wasmBindings` keeps its
/// exports within reach of the page's scripts, as Trunk's script did.
fn app_script(js: &str, wasm: &str) -> String {
    format!(
        "<script type=\"module\">\n\
         import init, * as bindings from './{js}';\n\
         const wasm = await init({{ module_or_path: './{wasm}' }});\n\
         window.wasmBindings = bindings;\n\
         dispatchEvent(new CustomEvent(\"TrunkApplicationStarted\", {{detail: {{wasm}}}}));\n\
         </script>"
    )
}

/// Write `name.br` and `name.gz` next to every file worth compressing
/// under `dir`, replacing older copies.
pub fn compress_folder(dir: &Path) -> Result<()> {
    for path in crate::project::files_under(dir)? {
        let worth = path
            .extension()
            .and_then(|extension| extension.to_str())
            .is_some_and(|extension| COMPRESSED.contains(&extension));
        if worth {
            compress_file(&path)?;
        }
    }
    Ok(())
}

fn compress_file(path: &Path) -> Result<()> {
    let bytes = std::fs::read(path).with_context(|| format!("read {}", path.display()))?;
    let with_suffix = |suffix: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        std::path::PathBuf::from(name)
    };
    let mut br = Vec::new();
    {
        let mut writer = brotli::CompressorWriter::new(&mut br, 4096, 11, 22);
        writer.write_all(&bytes)?;
    }
    std::fs::write(with_suffix(".br"), br)?;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(&bytes)?;
    std::fs::write(with_suffix(".gz"), gz.finish()?)?;
    Ok(())
}

/// The wasm-opt flags the app is built with: `data-wasm-opt-params` in
/// `index.html` (the release build and `trunk serve` read them there), so
/// the npm package is optimised with the same ones.
pub fn wasm_opt_params(root: &Path) -> Result<Vec<String>> {
    let path = root.join("index.html");
    let html =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    params_in(&html).with_context(|| format!("{} has no data-wasm-opt-params", path.display()))
}

fn params_in(html: &str) -> Option<Vec<String>> {
    Some(
        link_attribute(html, "data-wasm-opt-params")?
            .split_whitespace()
            .map(str::to_owned)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    const PAGE: &str = r#"<html><head>
    <link
      data-trunk
      rel="rust"
      data-bin="app"
      data-wasm-opt="z"
      data-wasm-opt-params="--enable-bulk-memory --enable-sign-ext"
    />
    <link data-trunk rel="css" href="style/app.css" />
    <link rel="manifest" href="site.webmanifest" />
  </head><body></body></html>"#;

    #[test]
    fn the_pages_data_trunk_links_are_read_with_their_attributes() {
        let page = Page::read(PAGE).unwrap();
        assert_eq!(page.links.len(), 2, "{:?}", page.links);
        let app = &page.links[0];
        assert_eq!(app.get("rel").unwrap(), "rust");
        assert_eq!(app.get("data-bin").unwrap(), "app");
        assert_eq!(
            app.get("data-wasm-opt-params").unwrap(),
            "--enable-bulk-memory --enable-sign-ext"
        );
        assert!(app.attributes.contains_key("data-trunk"));
        assert_eq!(page.links[1].get("href").unwrap(), "style/app.css");
        assert!(page.links[1].get("data-bin").is_err());
    }

    #[test]
    fn each_link_becomes_its_tag_and_the_preloads_end_the_head() {
        let page = Page::read(PAGE).unwrap();
        let placed = BTreeMap::from([
            (
                page.links[0].start,
                Placed {
                    tag: "<script>app</script>".to_owned(),
                    head: "<link rel=modulepreload>".to_owned(),
                },
            ),
            (
                page.links[1].start,
                Placed {
                    tag: "<link rel=stylesheet>".to_owned(),
                    head: String::new(),
                },
            ),
        ]);
        let written = page.write(&placed);
        assert!(!written.contains("data-trunk"), "{written}");
        assert!(written.contains("<script>app</script>"), "{written}");
        assert!(
            written.contains(r#"<link rel="manifest" href="site.webmanifest" />"#),
            "a link without data-trunk stays as it is: {written}"
        );
        assert!(
            written.contains("<link rel=modulepreload></head>"),
            "{written}"
        );
        let script = written.find("<script>app</script>").unwrap();
        let sheet = written.find("<link rel=stylesheet>").unwrap();
        assert!(script < sheet, "the links keep their order: {written}");
    }

    #[test]
    fn hashed_names_and_integrity_follow_the_bytes() {
        assert_eq!(hashed("app", &[b"a"]), hashed("app", &[b"a"]));
        assert_ne!(hashed("app", &[b"a"]), hashed("app", &[b"b"]));
        assert_eq!(hashed("app", &[b"a"]).len(), "app-".len() + 16);
        // The integrity of the empty string, as browsers compute it.
        assert_eq!(
            integrity(b""),
            "sha384-OLBgp1GsljhM2TJ+sbHjaiH9txEUvgdDTAzHv2P24donTt6/529l+9Ua0vFImLlb"
        );
    }

    #[test]
    fn each_file_gets_copies_that_decompress_to_it() {
        let dir = std::env::temp_dir().join(format!("xtask-compress-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("embed")).unwrap();
        let text = "body { color: black; }".repeat(50);
        std::fs::write(dir.join("app.css"), &text).unwrap();
        std::fs::write(dir.join("embed/index.html"), &text).unwrap();
        std::fs::write(dir.join("video.mp4"), b"not text").unwrap();
        compress_folder(&dir).unwrap();
        let mut back = String::new();
        brotli::Decompressor::new(&std::fs::read(dir.join("app.css.br")).unwrap()[..], 4096)
            .read_to_string(&mut back)
            .unwrap();
        assert_eq!(back, text);
        let mut back = String::new();
        flate2::read::GzDecoder::new(&std::fs::read(dir.join("embed/index.html.gz")).unwrap()[..])
            .read_to_string(&mut back)
            .unwrap();
        assert_eq!(back, text);
        assert!(!dir.join("video.mp4.br").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_page_fetches_the_chunks_of_the_address_it_opens_on() {
        let pages = BTreeMap::from([
            ("tasks".to_owned(), vec!["split-tasks-0.wasm".to_owned()]),
            (
                "new_image_generate".to_owned(),
                vec![
                    "chunk-7-0.wasm".to_owned(),
                    "split-new-image-generate-0.wasm".to_owned(),
                ],
            ),
        ]);
        let script = page_chunks_script(&pages);
        assert!(script.contains(
            r#""new_image_generate":["chunk-7-0.wasm","split-new-image-generate-0.wasm"]"#
        ));
        assert!(script.contains(r#""tasks":["split-tasks-0.wasm"]"#));
        assert!(script.starts_with("<script>") && script.ends_with("</script>"));
    }
}

#[cfg(test)]
mod wasm_opt_tests {
    use super::*;
    use crate::project::root;

    #[test]
    fn the_apps_wasm_opt_params_are_read_from_index_html() {
        let params = wasm_opt_params(&root()).unwrap();
        assert!(
            params.contains(&"--enable-reference-types".to_owned()),
            "{params:?}"
        );
        assert_eq!(
            params_in("<link data-wasm-opt-params=\"--a --b\">"),
            Some(vec!["--a".into(), "--b".into()])
        );
        assert_eq!(params_in("<link>"), None);
    }
}
