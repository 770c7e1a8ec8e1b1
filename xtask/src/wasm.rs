//! From a module cargo built for the browser to the files a page loads:
//! where cargo put it, wasm-bindgen's bindings for the web, wasm-opt. The
//! app's release build (`dist.rs`) and the npm package's modules (`npm.rs`)
//! take the same steps.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::cmd::{self, command};
use crate::project;
use crate::tools::WASM_TARGET;

/// The module `file` (`media-gen-app.wasm`) cargo built with `profile`.
pub fn built(profile: &str, file: &str) -> PathBuf {
    project::target_dir()
        .join(WASM_TARGET)
        .join(profile)
        .join(file)
}

/// What wasm-bindgen writes beside a module's JavaScript.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Binding {
    /// TypeScript declarations.
    pub typescript: bool,
    /// The exports a split module's chunks import from its first part,
    /// kept (wasm-bindgen drops the linker's own exports otherwise).
    pub split: bool,
}

/// `wasm-bindgen --target web` of `module` into `out_dir` as
/// `{out_name}.js` and `{out_name}_bg.wasm`, as `binding` says.
pub fn bind_for_web(module: &Path, out_name: &str, out_dir: &Path, binding: Binding) -> Result<()> {
    let mut bind = command("wasm-bindgen");
    bind.args(["--target", "web", "--out-name", out_name]);
    if !binding.typescript {
        bind.arg("--no-typescript");
    }
    if binding.split {
        bind.arg("--keep-lld-exports");
    }
    cmd::run(bind.arg("--out-dir").arg(out_dir).arg(module))
}

/// The passes run after the level's, before it runs once more: the code
/// flattened and its control flow rebuilt, which the level's own passes
/// then shrink further. Measured with binaryen 132 (gzipped): the app
/// 554.3 → 553.6 KB, its first page 328.3 → 328.0, a page with the widgets
/// 346.5 → 345.6, for about 10 s more of the release build.
pub const RESHAPE: &[&str] = &["--flatten", "--rereloop"];

/// `wasm-opt -O{level}` with `params` on `file`, in place, then
/// [`RESHAPE`] and the level again.
pub fn optimize(file: &Path, level: &str, params: &[String]) -> Result<()> {
    let level = format!("-O{level}");
    cmd::run(
        command("wasm-opt")
            .arg(&level)
            .args(params)
            .args(RESHAPE)
            .arg(&level)
            .arg(file)
            .arg("-o")
            .arg(file),
    )
}
