//! What a test gives `startTestService`: how fast tasks run, the faults,
//! a seed; read with the field named in what is wrong.

use media_gen_api::service::{Faults, Settings, Timing};
use serde::Deserialize;

/// How fast tasks run.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Speed {
    /// `"instant"` or `"realistic"`.
    Named(NamedSpeed),
    /// Each task ends this many milliseconds after its submit.
    Millis(u64),
}

/// The speeds that have a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NamedSpeed {
    /// Ended at the first read after the submit.
    Instant,
    /// About as the service: four seconds, give or take two.
    Realistic,
}

/// The options, as JSON.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// How fast tasks run (default `"instant"`).
    #[serde(default)]
    pub speed: Option<Speed>,
    /// Faults injected from the start.
    #[serde(default)]
    pub faults: Option<Faults>,
    /// Where the randomness starts: the same seed, the same task ids.
    #[serde(default)]
    pub seed: Option<u64>,
}

impl Options {
    /// `text` read as options (`{}` or empty: the defaults).
    pub fn read(text: &str) -> Result<Options, String> {
        if text.trim().is_empty() {
            return Ok(Options::default());
        }
        let options: Options = serde_json::from_str(text).map_err(|error| {
            format!("startTestService options: {error} (speed is \"instant\", \"realistic\" or milliseconds)")
        })?;
        if let Some(faults) = &options.faults {
            faults
                .check()
                .map_err(|error| format!("startTestService options: faults: {error}"))?;
        }
        Ok(options)
    }

    /// The model's settings for a service at `base_url`, seeded with
    /// `seed` unless the options give one.
    pub fn settings(&self, base_url: &str, seed: u64) -> Settings {
        let timing = match self.speed.unwrap_or(Speed::Named(NamedSpeed::Instant)) {
            Speed::Named(NamedSpeed::Instant) => Timing {
                typical_ms: 0,
                spread: 0.0,
            },
            Speed::Named(NamedSpeed::Realistic) => Timing {
                typical_ms: 4_000,
                spread: 0.5,
            },
            Speed::Millis(typical_ms) => Timing {
                typical_ms,
                spread: 0.0,
            },
        };
        Settings {
            timing,
            max_tasks: 10_000,
            base_url: base_url.trim_end_matches('/').to_owned(),
            callbacks_to_any_host: false,
            media_ttl_secs: None,
            faults: self.faults.clone().unwrap_or_default(),
            seed: self.seed.unwrap_or(seed),
        }
    }
}
