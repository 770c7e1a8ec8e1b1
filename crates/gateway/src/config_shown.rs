//! `media-gen-gateway config`: the settings the gateway would serve with,
//! written as a file it would read (`key = value`), each with where it came
//! from; passwords in addresses and the token shown as `…`.

use std::fmt::Write as _;

use clap::CommandFactory;

use crate::config::{Config, TOKEN_VAR};
use crate::config_file::Loaded;
use media_gen_api::url_parts::without_password;

/// Keys whose value is an address that may carry a password.
const ADDRESSES: &[&str] = &["upstream", "library", "redis", "public-url", "upload-store"];

/// The environment the store is reached with (`--upload-store`), and
/// whether each is a secret.
pub(crate) const STORE_ENVIRONMENT: &[(&str, bool)] = &[
    ("AWS_ENDPOINT_URL", false),
    ("AWS_REGION", false),
    ("AWS_ACCESS_KEY_ID", true),
    ("AWS_SECRET_ACCESS_KEY", true),
    ("AWS_SESSION_TOKEN", true),
];

/// What a password is shown as.
const HIDDEN: &str = "…";

/// The effective configuration of `loaded`, `env` giving the variables
/// that are no flag's (the token, the store's).
pub fn shown(loaded: &Loaded, env: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# The settings media-gen-gateway serves with, each with where it came from{}.",
        loaded
            .file
            .as_ref()
            .map(|file| format!(" (file: {})", file.display()))
            .unwrap_or_default()
    );
    let command = Config::command();
    let mut unset = Vec::new();
    for arg in command.get_arguments() {
        let id = arg.get_id().as_str();
        let Some(long) = arg.get_long() else {
            continue;
        };
        if crate::config_file::NOT_IN_A_FILE.contains(&id) {
            continue;
        }
        let values: Vec<String> = loaded
            .matches
            .get_raw(id)
            .map(|raw| raw.map(|v| v.to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        let Some(source) = loaded.source(long).filter(|_| !values.is_empty()) else {
            unset.push(long);
            continue;
        };
        let values: Vec<String> = values
            .iter()
            .map(|value| {
                if ADDRESSES.contains(&long) {
                    without_password(value)
                } else {
                    value.clone()
                }
            })
            .collect();
        let written = if matches!(arg.get_action(), clap::ArgAction::Append) {
            format!(
                "[{}]",
                values
                    .iter()
                    .map(|value| toml_value(value))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            toml_value(&values.join(","))
        };
        let _ = writeln!(out, "{:<44} # {source}", format!("{long} = {written}"));
    }
    let token = match (
        loaded.config.token_file.as_ref(),
        env(TOKEN_VAR).filter(|t| !t.trim().is_empty()),
    ) {
        (Some(file), _) => format!("read from {}", file.display()),
        (None, Some(_)) => format!("{HIDDEN} (environment {TOKEN_VAR})"),
        (None, None) => "none".to_owned(),
    };
    let _ = writeln!(out, "# the service's token: {token}");
    if loaded.config.upload_store.is_some() {
        for (var, secret) in STORE_ENVIRONMENT {
            let value = match env(var) {
                Some(_) if *secret => HIDDEN.to_owned(),
                Some(value) => value,
                None => "not set".to_owned(),
            };
            let _ = writeln!(out, "# the store's {var}: {value}");
        }
    }
    if !unset.is_empty() {
        let _ = writeln!(out, "# not set: {}", unset.join(", "));
    }
    out
}

/// A value as TOML writes it: a whole number or `true`/`false` bare,
/// anything else quoted.
fn toml_value(value: &str) -> String {
    if value.parse::<i64>().is_ok() || value == "true" || value == "false" {
        value.to_owned()
    } else {
        toml::Value::String(value.to_owned()).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_written_as_the_file_takes_them() {
        assert_eq!(toml_value("512"), "512");
        assert_eq!(toml_value("true"), "true");
        assert_eq!(toml_value("10m"), "\"10m\"");
        assert_eq!(toml_value("a\"b"), "'a\"b'");
    }
}
