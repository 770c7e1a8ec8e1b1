//! A build step's inputs, fingerprinted: a step whose inputs are the same
//! as when it last succeeded (and whose output is still there) is not done
//! again. The release app's build (wasm-opt alone takes most of it)
//! and the npm package's build, install and checks cost a warm run nearly a
//! minute each time otherwise.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// Folders never read as inputs: outputs, and what package managers fetch.
const NOT_INPUTS: &[&str] = &["target", "node_modules", "dist", ".git"];

/// The fingerprint of a step's inputs, and where it is kept once the step
/// succeeded.
pub struct Stamp {
    file: PathBuf,
    fingerprint: String,
}

impl Stamp {
    /// The stamp of step `name` over `inputs` (files or folders, from the
    /// project's root; a missing one counts as empty) and `also` (tool
    /// versions and the like).
    pub fn of(name: &str, inputs: &[&str], also: &[String]) -> Result<Stamp> {
        let root = crate::project::root();
        let mut hasher = std::hash::DefaultHasher::new();
        also.hash(&mut hasher);
        for input in inputs {
            for file in input_files(&root.join(input))? {
                let relative = file.strip_prefix(&root).unwrap_or(&file);
                relative.hash(&mut hasher);
                std::fs::read(&file)
                    .with_context(|| format!("read {}", file.display()))?
                    .hash(&mut hasher);
            }
        }
        Ok(Stamp {
            file: root.join("target").join("xtask-stamps").join(name),
            fingerprint: format!("{:016x}", hasher.finish()),
        })
    }

    /// Whether the step last succeeded with these very inputs.
    pub fn is_current(&self) -> bool {
        std::fs::read_to_string(&self.file).is_ok_and(|kept| kept.trim() == self.fingerprint)
    }

    /// Keep the fingerprint: the step succeeded with these inputs.
    pub fn record(&self) -> Result<()> {
        if let Some(folder) = self.file.parent() {
            std::fs::create_dir_all(folder)?;
        }
        std::fs::write(&self.file, &self.fingerprint)
            .with_context(|| format!("write {}", self.file.display()))
    }

    /// Forget it: the step runs next time whatever its inputs.
    pub fn forget(&self) {
        let _ = std::fs::remove_file(&self.file);
    }
}

/// The files of `path`: itself, or everything under it but outputs.
fn input_files(path: &Path) -> Result<Vec<PathBuf>> {
    if path.is_file() {
        return Ok(vec![path.to_owned()]);
    }
    if !path.is_dir() {
        return Ok(Vec::new());
    }
    let mut files = Vec::new();
    let mut folders = vec![path.to_owned()];
    while let Some(folder) = folders.pop() {
        for entry in
            std::fs::read_dir(&folder).with_context(|| format!("read {}", folder.display()))?
        {
            let path = entry?.path();
            let name = path
                .file_name()
                .and_then(|name| name.to_str())
                .unwrap_or("");
            if path.is_dir() {
                if !NOT_INPUTS.contains(&name) {
                    folders.push(path);
                }
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// Run `step` unless `stamp` says its inputs are unchanged since it last
/// succeeded and `output` is still there; keep the stamp when it succeeds.
/// Returns whether it ran.
pub fn unless_current(
    stamp: &Stamp,
    output: &Path,
    step: impl FnOnce() -> Result<()>,
) -> Result<bool> {
    if stamp.is_current() && output.exists() {
        println!(
            "inputs unchanged since it last succeeded, and {} is there: not done again",
            output.display()
        );
        return Ok(false);
    }
    stamp.forget();
    step()?;
    stamp.record()?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_follows_its_inputs_and_outputs() {
        let root = crate::project::root();
        let dir = root
            .join("target")
            .join(format!("stamp-test-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("node_modules")).unwrap();
        std::fs::write(dir.join("a.txt"), "one").unwrap();
        std::fs::write(dir.join("node_modules/x.js"), "fetched").unwrap();
        let relative = dir
            .strip_prefix(&root)
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        let name = format!("test-{}", std::process::id());
        let stamp = || Stamp::of(&name, &[&relative], &["tool 1".to_owned()]).unwrap();
        let output = dir.join("a.txt");
        let mut runs = 0;
        assert!(unless_current(&stamp(), &output, || {
            runs += 1;
            Ok(())
        })
        .unwrap());
        // Unchanged: not run again.
        assert!(!unless_current(&stamp(), &output, || {
            runs += 1;
            Ok(())
        })
        .unwrap());
        // What a package manager fetched is not an input.
        std::fs::write(dir.join("node_modules/x.js"), "fetched again").unwrap();
        assert!(!unless_current(&stamp(), &output, || {
            runs += 1;
            Ok(())
        })
        .unwrap());
        // A changed input, a changed tool, a missing output: run again.
        std::fs::write(dir.join("a.txt"), "two").unwrap();
        assert!(unless_current(&stamp(), &output, || {
            runs += 1;
            Ok(())
        })
        .unwrap());
        let other_tool = Stamp::of(&name, &[&relative], &["tool 2".to_owned()]).unwrap();
        assert!(unless_current(&other_tool, &output, || {
            runs += 1;
            Ok(())
        })
        .unwrap());
        assert!(unless_current(&stamp(), &output, || {
            runs += 1;
            Ok(())
        })
        .unwrap());
        assert!(unless_current(&stamp(), &dir.join("gone"), || {
            runs += 1;
            Ok(())
        })
        .unwrap());
        // A failed step keeps no stamp.
        std::fs::write(dir.join("a.txt"), "three").unwrap();
        assert!(unless_current(&stamp(), &output, || anyhow::bail!("broken")).is_err());
        assert!(!stamp().is_current());
        assert_eq!(runs, 5);
        stamp().forget();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
