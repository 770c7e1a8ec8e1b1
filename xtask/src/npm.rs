//! `cargo xtask npm`: the widgets as an npm package, packed as a tarball.
//!
//! Two WebAssembly modules, each built with the size-first profile,
//! `wasm-bindgen --target web` and `wasm-opt -Oz`: the client
//! (`media-gen-js`) and the widgets (`media-gen-widgets`), the widgets
//! split at their lazy points into a first module and chunks (each form,
//! the status view, the file controls: `crates/widgets/src/chunks.rs`);
//! then the package files kept in `crates/widgets/npm/` and the licence;
//! `npm pack` makes the tarball. (wasm-pack is not used: it tries to
//! download tools.)

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use crate::cmd::{self, command};
use crate::files::copy_folder;
use crate::phases::Phases;
use crate::project;
use crate::tools::{self, WASM_TARGET};

/// Where the package is assembled and packed.
pub fn npm_dir(root: &Path) -> PathBuf {
    root.join("target").join("npm")
}

/// One WebAssembly module of the package: the crate it is built from and
/// the name wasm-bindgen gives its files.
struct Module {
    package: &'static str,
    features: &'static [&'static str],
    wasm: &'static str,
    out_name: &'static str,
    /// Whether it is split at its lazy points (its features put them in).
    split: bool,
}

/// The client module (what the `client` entry loads), the widgets'
/// module (fetched on the first mount), whose chunks each widget loads as
/// it needs them, and the test service's (the `testing` entry's alone).
/// Built one at a time: together, Cargo would give the widgets the
/// client's exports too.
const MODULES: [Module; 3] = [
    Module {
        package: "media-gen-js",
        features: &[],
        wasm: "media_gen_js.wasm",
        out_name: "media_gen_client",
        split: false,
    },
    Module {
        package: "media-gen-widgets",
        features: &["uploads", crate::split::FEATURE],
        wasm: "media_gen_widgets.wasm",
        out_name: "media_gen_widgets",
        split: true,
    },
    Module {
        package: "media-gen-test-service",
        features: &[],
        wasm: "media_gen_test_service.wasm",
        out_name: "media_gen_test_service",
        split: false,
    },
];

/// The widgets' chunks' loader in the package.
const WIDGETS_LOADER: &str = "media_gen_widgets_chunks.js";

/// Build `module` with the size-first profile into `package`.
///
/// The crates are plain libraries; the module is made a cdylib here, with
/// `cargo rustc --crate-type cdylib`. A lib declared both cdylib and rlib
/// gets no LTO from cargo (the widgets module was 15 % larger gzipped), and
/// its dependencies are compiled to objects as well as bitcode: units the
/// app's build (whose dependencies are bitcode alone) could not share, so
/// each module compiled Leptos again.
fn build_module(root: &Path, module: &Module, package: &Path) -> Result<()> {
    let mut build = command("cargo");
    build.args([
        "rustc",
        "--package",
        module.package,
        "--lib",
        "--crate-type",
        "cdylib",
        "--target",
        WASM_TARGET,
        "--profile",
        "wasm-release",
    ]);
    if !module.features.is_empty() {
        build.args(["--features", &module.features.join(",")]);
    }
    if module.split {
        build.args(["--", crate::split::RELOCS]);
    }
    cmd::run(&mut build)?;
    let built = crate::wasm::built("wasm-release", module.wasm);
    let params = crate::dist::wasm_opt_params(root)?;
    if module.split {
        let names = crate::split::Names {
            first: module.out_name,
            link: WIDGETS_LOADER,
            typescript: true,
        };
        let work = npm_dir(root).join("split");
        let parts = crate::split::split(&built, &work, &names, Some(("z", &params)))?;
        return crate::split::write_to_package(&parts, module.out_name, package);
    }
    let binding = crate::wasm::Binding {
        typescript: true,
        split: false,
    };
    crate::wasm::bind_for_web(&built, module.out_name, package, binding)?;
    crate::wasm::optimize(
        &package.join(format!("{}_bg.wasm", module.out_name)),
        "z",
        &params,
    )
}

/// Build the package; returns the tarball's path.
pub fn build_package() -> Result<PathBuf> {
    let root = project::root();
    let package = npm_dir(&root).join("package");
    if package.exists() {
        std::fs::remove_dir_all(&package).context("clear target/npm/package")?;
    }
    for module in &MODULES {
        build_module(&root, module, &package)?;
    }
    let files = root.join("crates").join("widgets").join("npm");
    for file in [
        "package.json",
        "index.js",
        "index.d.ts",
        "client.js",
        "client.d.ts",
        "testing.js",
        "testing.d.ts",
        "media-gen-test-worker.js",
        "custom-elements.json",
        "README.md",
    ] {
        std::fs::copy(files.join(file), package.join(file))
            .with_context(|| format!("copy crates/widgets/npm/{file}"))?;
    }
    // The client entry's JavaScript: its calls, `watch` and `upload`.
    copy_folder(&files.join("client"), &package.join("client"))?;
    std::fs::copy(root.join("LICENSE"), package.join("LICENSE")).context("copy LICENSE")?;
    let (status, output) = cmd::run_capturing(
        command("npm")
            .args(["pack", "--silent", "--pack-destination", ".."])
            .current_dir(&package),
    )?;
    if !status.success() {
        bail!("npm pack failed:\n{output}");
    }
    let name = output
        .lines()
        .rev()
        .map(str::trim)
        .find(|line| line.ends_with(".tgz"))
        .with_context(|| format!("npm pack named no tarball:\n{output}"))?;
    Ok(npm_dir(&root).join(name))
}

/// Run the command.
pub fn run() -> Result<ExitCode> {
    let mut phases = Phases::default();
    phases.run("tools", tools::ensure_build_tools)?;
    let tarball = phases.run("build and pack", build_package)?;
    phases.run("install and check types", || {
        install_and_check_types(&tarball)
    })?;
    println!("\npackage: {}\n\n{}", tarball.display(), phases.table());
    Ok(ExitCode::SUCCESS)
}

/// The TypeScript compiler the declarations are checked with.
const TYPESCRIPT: &str = "typescript@5.6.3";

/// The bundler the client entry's size is measured with: a production
/// build of `crates/e2e/pages/vite-client/` with the default configuration.
const VITE: &str = "vite@8.3.8";

/// The client the client entry's size is compared with
/// (`crates/e2e/pages/vite-fal/`, built as the others are, never run).
const FAL_CLIENT: &str = "@fal-ai/client@1.10.1";

/// What `npm create vite` makes a project from: its `vanilla-ts` template
/// (`tsconfig.json`, TypeScript and Vite as the template pins them) is
/// where the README's examples and the Vite pages must build as written.
const CREATE_VITE: &str = "create-vite@8.3.0";

/// The accessibility checker the end-to-end tests run over every page
/// (`node_modules/axe-core/axe.min.js`, read by `crates/e2e`).
const AXE_CORE: &str = "axe-core@4.14.1";

/// The test runner the README's Playwright examples are run with, as
/// written, in Debian's Chromium (its own browser download is skipped).
const PLAYWRIGHT_TEST: &str = "@playwright/test@1.65.2";

/// A tus client another program would upload with: the end-to-end tests
/// upload through the gateway with it (`node_modules/tus-js-client/dist/tus.min.js`).
const TUS_CLIENT: &str = "tus-js-client@4.3.1";

/// Install `tarball` with npm into a scratch folder next to the widget test
/// page, as a JavaScript developer would, and check the declarations with
/// `tsc --noEmit --strict`; axe-core and tus-js-client go in beside it for
/// the end-to-end tests. Returns the folder (the e2e tests serve it).
pub fn install_and_check_types(tarball: &Path) -> Result<PathBuf> {
    let root = project::root();
    let scratch = npm_dir(&root).join("scratch");
    if scratch.exists() {
        std::fs::remove_dir_all(&scratch).context("clear target/npm/scratch")?;
    }
    std::fs::create_dir_all(&scratch).context("create target/npm/scratch")?;
    std::fs::write(
        scratch.join("package.json"),
        "{ \"private\": true, \"type\": \"module\" }\n",
    )?;
    let pages = root.join("crates").join("e2e").join("pages");
    std::fs::copy(pages.join("widgets.html"), scratch.join("index.html"))?;
    std::fs::copy(pages.join("client.html"), scratch.join("client.html"))?;
    std::fs::copy(pages.join("usage.ts"), scratch.join("usage.ts"))?;
    // The README's TypeScript examples, each a file, compiled as written.
    let readme = std::fs::read_to_string(root.join("crates/widgets/npm/README.md"))
        .context("read the package's README")?;
    let examples = typescript_blocks(&readme);
    if examples.is_empty() {
        bail!("the package's README has no ```ts example to check");
    }
    let mut checked = vec!["usage.ts".to_owned()];
    for (index, example) in examples.iter().enumerate() {
        let name = format!("readme-example-{}.ts", index + 1);
        std::fs::write(scratch.join(&name), example)?;
        checked.push(name);
    }
    place_example(&scratch)?;
    cmd::run(
        command("npm")
            .args(["install", "--no-audit", "--no-fund", "--silent"])
            .arg(tarball)
            .arg(TYPESCRIPT)
            .arg(AXE_CORE)
            .arg(VITE)
            .arg(FAL_CLIENT)
            .arg(CREATE_VITE)
            .arg(TUS_CLIENT)
            .arg(PLAYWRIGHT_TEST)
            .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
            .current_dir(&scratch),
    )?;
    // The README's Playwright examples, each a spec file, run by an
    // end-to-end test against the testing page.
    let specs = scratch.join("playwright");
    std::fs::create_dir_all(&specs)?;
    for (index, spec) in fenced_blocks(&readme, "js")
        .iter()
        .filter(|block| block.contains("@playwright/test"))
        .enumerate()
    {
        std::fs::write(specs.join(format!("readme-{}.spec.js", index + 1)), spec)?;
    }
    std::fs::copy(
        pages.join("playwright.config.mjs"),
        scratch.join("playwright.config.mjs"),
    )
    .context("copy playwright.config.mjs")?;
    cmd::run(
        command("node")
            .arg(scratch.join("node_modules/typescript/bin/tsc"))
            .args([
                "--noEmit",
                "--strict",
                "--target",
                "es2022",
                "--module",
                "es2022",
                "--moduleResolution",
                "bundler",
                "--lib",
                "es2022,dom,esnext.disposable",
            ])
            .args(&checked)
            .current_dir(&scratch),
    )?;
    // Production Vite builds (default configuration) of a page that uses
    // all of the client entry, of a page with both widgets, and of the
    // same jobs done with `@fal-ai/client`: what they ship is what the size
    // budgets count and compare.
    for page in VITE_PAGES {
        vite_build(&scratch, &pages, page)?;
    }
    build_in_default_vite_project(&scratch, tarball, &examples, &pages)?;
    // Every entry imports where there is no DOM (server-side rendering,
    // tests in Node): nothing runs at import that needs a browser.
    cmd::run(
        command("node")
            .args([
                "--input-type=module",
                "--eval",
                "await import('@media-gen/widgets'); await import('@media-gen/widgets/client'); \
                 await import('@media-gen/widgets/testing'); \
                 console.log('every entry imports without a DOM');",
            ])
            .current_dir(&scratch),
    )?;
    std::fs::copy(
        pages.join("node-testing.mjs"),
        scratch.join("node-testing.mjs"),
    )
    .context("copy node-testing.mjs")?;
    Ok(scratch)
}

/// The pages under `crates/e2e/pages/` built by Vite for production.
const VITE_PAGES: [&str; 4] = ["vite-client", "vite-widgets", "vite-fal", "vite-testing"];

/// The page whose tests run with no server: it serves the testing entry's
/// Service Worker from its root, as the package's README says to.
const TESTING_PAGE: &str = "vite-testing";

/// Copy `pages/<page>/` (its `index.html` and `main.ts`) into `scratch`,
/// where the package is installed, and build it with Vite.
fn vite_build(scratch: &Path, pages: &Path, page: &str) -> Result<()> {
    let dir = scratch.join(page);
    std::fs::create_dir_all(&dir)?;
    for file in ["index.html", "main.ts"] {
        std::fs::copy(pages.join(page).join(file), dir.join(file))
            .with_context(|| format!("copy {page}/{file}"))?;
    }
    if page == TESTING_PAGE {
        // As a developer does: the worker copied into `public/`, which
        // Vite serves, and copies into the build, at the site's root.
        let public = dir.join("public");
        std::fs::create_dir_all(&public)?;
        std::fs::copy(
            scratch.join("node_modules/@media-gen/widgets/media-gen-test-worker.js"),
            public.join("media-gen-test-worker.js"),
        )
        .context("copy the test service's worker into public/")?;
    }
    cmd::run(
        command("node")
            .arg(scratch.join("node_modules/vite/bin/vite.js"))
            .args(["build", "--logLevel", "warn"])
            .current_dir(&dir),
    )
}

/// A project as `npm create vite` makes it from its `vanilla-ts` template,
/// with the package installed, the README's examples as its `src/main.ts`'s
/// imports and the Vite pages' code beside them, built with the template's
/// own `npm run build` (`tsc && vite build`, under its default
/// `tsconfig.json`: `strict`, `noUnusedLocals`, no `esnext.disposable`).
fn build_in_default_vite_project(
    scratch: &Path,
    tarball: &Path,
    examples: &[String],
    pages: &Path,
) -> Result<()> {
    let project = scratch.join("vite-default");
    copy_folder(
        &scratch.join("node_modules/create-vite/template-vanilla-ts"),
        &project,
    )?;
    let src = project.join("src");
    let mut main = String::new();
    for (index, example) in examples.iter().enumerate() {
        let name = format!("readme-example-{}.ts", index + 1);
        std::fs::write(src.join(&name), example)?;
        main.push_str(&format!("import \"./{name}\";\n"));
    }
    std::fs::write(src.join("main.ts"), main)?;
    // The pages of this package (the comparison page uses another one).
    for page in ["vite-client", "vite-widgets"] {
        std::fs::copy(
            pages.join(page).join("main.ts"),
            src.join(format!("{page}.ts")),
        )
        .with_context(|| format!("copy {page}/main.ts"))?;
    }
    cmd::run(
        command("npm")
            .args(["install", "--no-audit", "--no-fund", "--silent"])
            .arg(tarball)
            .current_dir(&project),
    )?;
    cmd::run(
        command("npm")
            .args(["run", "build", "--silent", "--", "--logLevel", "warn"])
            .current_dir(&project),
    )
}

/// The bodies of the ```` ```ts ```` blocks of a Markdown text, in order.
fn typescript_blocks(markdown: &str) -> Vec<String> {
    fenced_blocks(markdown, "ts")
}

/// The bodies of the blocks fenced as `language` in a Markdown text, in
/// order; a block indented under a list item loses its indentation.
fn fenced_blocks(markdown: &str, language: &str) -> Vec<String> {
    let opening = format!("```{language}");
    let mut blocks = Vec::new();
    // The block being read, and the indentation of its fence.
    let mut open: Option<(String, usize)> = None;
    for line in markdown.lines() {
        let indent = line.len() - line.trim_start().len();
        match open.as_mut() {
            None if line.trim() == opening => open = Some((String::new(), indent)),
            None => {}
            Some((block, _)) if line.trim() == "```" => {
                blocks.push(std::mem::take(block));
                open = None;
            }
            Some((block, fence)) => {
                let cut = (*fence).min(indent);
                block.push_str(&line[cut..]);
                block.push('\n');
            }
        }
    }
    blocks
}

/// Put the widgets example (`examples/embed/`) and the package it imports
/// (`pkg/`) under `dir/embed/`, where a sandbox serving `dir` shows it.
pub fn place_example(dir: &Path) -> Result<()> {
    let root = project::root();
    let embed = dir.join("embed");
    let pkg = embed.join("pkg");
    std::fs::create_dir_all(&pkg).with_context(|| format!("create {}", pkg.display()))?;
    std::fs::copy(
        root.join("examples/embed/index.html"),
        embed.join("index.html"),
    )
    .context("copy examples/embed/index.html")?;
    let package = npm_dir(&root).join("package");
    for entry in std::fs::read_dir(&package).context("read target/npm/package")? {
        let path = entry?.path();
        let Some(name) = path.file_name() else {
            continue;
        };
        if path.is_dir() {
            copy_folder(&path, &pkg.join(name))?;
        } else {
            std::fs::copy(&path, pkg.join(name))
                .with_context(|| format!("copy {}", path.display()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn typescript_examples_are_read_out_of_markdown() {
        let markdown =
            "text\n```ts\nconst a = 1;\n```\n```js\nno\n```\n```ts\nlet b;\nb = 2;\n```\n";
        assert_eq!(
            super::typescript_blocks(markdown),
            ["const a = 1;\n", "let b;\nb = 2;\n"]
        );
        let listed = "- item:\n\n  ```js\n  test();\n    inner();\n  ```\n";
        assert_eq!(
            super::fenced_blocks(listed, "js"),
            ["test();\n  inner();\n"]
        );
    }
}
