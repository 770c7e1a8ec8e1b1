//! Facts about the project read from its own files.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::Deserialize;

/// The Trunk `cargo xtask serve` runs the app with while developing.
pub const TRUNK_VERSION: &str = "0.21.14";

/// The workspace root (the folder holding `Cargo.lock`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one folder below the workspace root")
        .to_owned()
}

/// Cargo's target folder: `$CARGO_TARGET_DIR`, else `target/` in the root.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
}

/// Every file under `dir`, in sub-folders too, sorted.
pub fn files_under(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_owned()];
    while let Some(folder) = folders.pop() {
        for entry in
            std::fs::read_dir(&folder).with_context(|| format!("read {}", folder.display()))?
        {
            let path = entry?.path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

#[derive(Deserialize)]
struct Lockfile {
    #[serde(default)]
    package: Vec<LockedPackage>,
}

#[derive(Deserialize)]
struct LockedPackage {
    name: String,
    version: String,
}

/// The version of `package` that `Cargo.lock` pins.
pub fn locked_version(root: &Path, package: &str) -> Result<String> {
    let path = root.join("Cargo.lock");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let lock: Lockfile =
        toml::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    let mut versions = lock
        .package
        .into_iter()
        .filter(|p| p.name == package)
        .map(|p| p.version);
    match (versions.next(), versions.next()) {
        (Some(version), None) => Ok(version),
        (None, _) => bail!("{} does not lock `{package}`", path.display()),
        (Some(a), Some(b)) => bail!(
            "{} locks `{package}` twice ({a} and {b}); keep one",
            path.display()
        ),
    }
}

#[derive(Deserialize)]
struct TrunkConfig {
    tools: TrunkTools,
}

#[derive(Deserialize)]
struct TrunkTools {
    wasm_bindgen: String,
}

/// The wasm-bindgen version `Trunk.toml` asks for.
pub fn trunk_wasm_bindgen_version(root: &Path) -> Result<String> {
    let path = root.join("Trunk.toml");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let config: TrunkConfig =
        toml::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    Ok(config.tools.wasm_bindgen)
}

/// The wasm-bindgen version every tool must have: Cargo.lock's, which
/// Trunk.toml must repeat (Trunk is offline and cannot fetch another).
pub fn wasm_bindgen_version(root: &Path) -> Result<String> {
    let locked = locked_version(root, "wasm-bindgen")?;
    let trunk = trunk_wasm_bindgen_version(root)?;
    if locked != trunk {
        bail!("Trunk.toml asks for wasm-bindgen {trunk} but Cargo.lock pins {locked}: set `[tools] wasm_bindgen = \"{locked}\"` in Trunk.toml");
    }
    Ok(locked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trunk_and_the_lockfile_agree_on_wasm_bindgen() {
        let version = wasm_bindgen_version(&root()).unwrap();
        assert!(version.starts_with("0.2."), "{version}");
    }

    #[test]
    fn the_wasm_bindgen_pin_is_exact() {
        let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
        let version = locked_version(&root(), "wasm-bindgen").unwrap();
        assert!(
            manifest.contains(&format!("wasm-bindgen = \"={version}\"")),
            "Cargo.toml must pin wasm-bindgen with `=` to the locked {version}"
        );
    }

    #[test]
    fn a_missing_package_is_an_error_that_names_it() {
        let error = locked_version(&root(), "no-such-package").unwrap_err();
        assert!(error.to_string().contains("no-such-package"));
    }
}
