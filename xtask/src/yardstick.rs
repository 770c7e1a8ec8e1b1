//! The yardstick: how fast this machine compiles Rust, as one number to
//! compare machines by. The same generated crate (150 structs, no
//! dependencies) compiled three times by rustc at opt-level 2 with one
//! codegen unit; the best time, in seconds. A machine that reads twice the
//! number compiles about half as fast.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

/// The crate compiled: the same text every time, so two readings compare.
pub fn source() -> String {
    let mut out = String::new();
    for i in 0..150 {
        let _ = write!(
            out,
            "\n#[derive(Debug, Clone, PartialEq)]\n\
             pub struct S{i} {{ pub a: Vec<u64>, pub b: String, pub c: Option<Box<S{i}>> }}\n\
             impl S{i} {{\n    pub fn step(&self, k: u64) -> u64 {{\n        \
             self.a.iter().enumerate().map(|(j, x)| x.wrapping_mul(k ^ j as u64).rotate_left({} + 1)).fold({i}, |s, v| s ^ v)\n            \
             + self.b.chars().filter(|c| c.is_alphanumeric()).count() as u64\n            \
             + self.c.as_ref().map_or(0, |n| n.step(k + 1))\n    }}\n}}\n\
             pub fn make{i}(n: usize) -> S{i} {{ S{i} {{ a: (0..n as u64).collect(), b: format!(\"{{n}}-{i}\"), c: None }} }}\n",
            i % 63
        );
    }
    out
}

/// The best of three compiles of [`source`] in `dir`, in seconds; `None`
/// when rustc cannot be run or fails.
pub fn measure(dir: &Path) -> Option<f64> {
    let lib = dir.join("lib.rs");
    std::fs::write(&lib, source()).ok()?;
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let mut best: Option<f64> = None;
    for _ in 0..3 {
        let started = Instant::now();
        let status = std::process::Command::new(&rustc)
            .args([
                "--edition",
                "2021",
                "--crate-type",
                "lib",
                "-C",
                "opt-level=2",
            ])
            .args(["-C", "codegen-units=1", "-o"])
            .arg(dir.join("lib.rlib"))
            .arg(&lib)
            .status()
            .ok()?;
        if !status.success() {
            return None;
        }
        let seconds = started.elapsed().as_secs_f64();
        best = Some(best.map_or(seconds, |best: f64| best.min(seconds)));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crate_is_the_same_every_time() {
        let text = source();
        assert_eq!(text.matches("pub struct S").count(), 150);
        assert!(text.contains(
            "pub struct S64 { pub a: Vec<u64>, pub b: String, pub c: Option<Box<S64>> }"
        ));
        assert!(text.contains(".rotate_left(1 + 1)).fold(64, |s, v| s ^ v)"));
        assert!(text.contains("b: format!(\"{n}-149\"), c: None } }\n"));
        // The crate every earlier reading compiled, byte for byte
        // (its length and FNV-1a hash), so readings compare across runs.
        assert_eq!(text.len(), 79_190);
        let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        assert_eq!(hash, 0xc992_9da7_cbd5_5b5b);
    }
}
