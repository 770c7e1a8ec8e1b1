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

/// `wasm-bindgen --target web` of `module` into `out_dir` as
/// `{out_name}.js` and `{out_name}_bg.wasm`, with TypeScript declarations
/// when `typescript`.
pub fn bind_for_web(module: &Path, out_name: &str, out_dir: &Path, typescript: bool) -> Result<()> {
    let mut bind = command("wasm-bindgen");
    bind.args(["--target", "web", "--out-name", out_name]);
    if !typescript {
        bind.arg("--no-typescript");
    }
    cmd::run(bind.arg("--out-dir").arg(out_dir).arg(module))
}

/// `wasm-bindgen --target web` of a split module's first part: as
/// [`bind_for_web`], keeping the exports its chunks import from it.
pub fn bind_split_first(
    module: &Path,
    out_name: &str,
    out_dir: &Path,
    typescript: bool,
) -> Result<()> {
    let mut bind = command("wasm-bindgen");
    bind.args([
        "--target",
        "web",
        "--out-name",
        out_name,
        "--keep-lld-exports",
    ]);
    if !typescript {
        bind.arg("--no-typescript");
    }
    cmd::run(bind.arg("--out-dir").arg(out_dir).arg(module))
}

/// `wasm-opt -O{level}` with `params` on `file`, in place.
pub fn optimize(file: &Path, level: &str, params: &[String]) -> Result<()> {
    cmd::run(
        command("wasm-opt")
            .arg(format!("-O{level}"))
            .args(params)
            .arg(file)
            .arg("-o")
            .arg(file),
    )
}
