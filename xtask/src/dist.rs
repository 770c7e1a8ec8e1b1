//! The release build of the app into `dist/`, with a brotli and a gzip copy
//! of each file beside it for the gateway to serve to browsers that accept
//! them (compressed once here at the best levels, not per request).

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

use crate::cmd::{self, command};

/// File types worth compressing: text, and WebAssembly.
const COMPRESSED: &[&str] = &[
    "html", "js", "css", "wasm", "svg", "json", "ico", "txt", "map",
];

/// `trunk build --release`: the app with the size-first profile and wasm-opt,
/// into `dist/` (Trunk runs offline with the tools `tools` installed), then
/// the compressed copies.
pub fn build_release_app() -> Result<()> {
    cmd::run(command("trunk").args(["build", "--release"]))?;
    compress_folder(&crate::project::root().join("dist"))
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

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
}
