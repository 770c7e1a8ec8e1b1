//! Access keys: what the owner hands a person (`mgk_` and 256 random bits,
//! shown once), and what is kept of one (its SHA-256 only, with the
//! person's name and daily budget). A key is looked up by its hash, so
//! nothing compares a guess with a key byte by byte.

use base64::Engine;
use std::io;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// What every access key starts with, so one is recognised in a config
/// file or a leaked log (and told from the service's own token).
pub const KEY_PREFIX: &str = "mgk_";

/// `prefix` and 32 random bytes from the operating system, base64url
/// without padding: an access key, a session's cookie, a page token.
pub fn random_secret(prefix: &str) -> Option<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).ok()?;
    Some(format!(
        "{prefix}{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    ))
}

/// An access key: what the owner hands a person, once. Only its hash is
/// kept ([`AccessKey::hash`]); its `Debug` prints a placeholder, so no log
/// line or panic message carries it.
#[derive(Clone, PartialEq, Eq)]
pub struct AccessKey(String);

impl AccessKey {
    /// A new one (47 characters in all), from the operating system's
    /// randomness.
    pub fn new() -> Option<AccessKey> {
        random_secret(KEY_PREFIX).map(AccessKey)
    }

    /// `text` as a key, when it has a key's shape (a wrong one is refused
    /// without a lookup).
    pub fn parse(text: &str) -> Option<AccessKey> {
        looks_like_key(text).then(|| AccessKey(text.to_owned()))
    }

    /// What is kept of it and looked up by: its SHA-256, in hex.
    pub fn hash(&self) -> String {
        key_hash(&self.0)
    }

    /// The key itself, to hand the person once.
    pub fn reveal(self) -> String {
        self.0
    }
}

impl std::fmt::Debug for AccessKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AccessKey(mgk_…)")
    }
}

/// How a secret (a key, a cookie, a page token) is kept and looked up:
/// its SHA-256, in hex.
pub fn key_hash(key: &str) -> String {
    media_gen_gateway_base::ids::hex(&Sha256::digest(key.as_bytes()))
}

/// Whether `text` has an access key's shape.
pub fn looks_like_key(text: &str) -> bool {
    text.strip_prefix(KEY_PREFIX).is_some_and(|rest| {
        rest.len() == 43
            && rest
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
    })
}

/// A person's name as the owner gives it: 1 to 64 letters, digits and
/// `-._@+` (a login or an e-mail address); the refusal names the rule.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > 64 {
        return Err(format!("the name {name:?} must have 1 to 64 characters"));
    }
    match name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '@' | '+')))
    {
        Some(other) => Err(format!(
            "the name {name:?} has {other:?}: use letters, digits and -._@+"
        )),
        None => Ok(()),
    }
}

/// Why a change of the keys was refused.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The key file or its folder could not be read or written.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The file is not what this program writes.
    #[error("{path} is not a key file this gateway wrote: {why}")]
    Unreadable {
        /// The file.
        path: String,
        /// What is wrong with it.
        why: String,
    },
    /// The name breaks the rule.
    #[error("{0}")]
    Name(String),
    /// A key is already given to this name.
    #[error("{0} already has a key: revoke it first, or choose another name")]
    Exists(String),
    /// No key is given to this name.
    #[error("no key is given to {0}")]
    Unknown(String),
    /// The operating system gave no randomness.
    #[error("no randomness from the operating system for a key")]
    Random,
    /// The Redis the keys are kept in (`--redis`) failed a call.
    #[error("{0}")]
    Redis(#[from] crate::redis_link::StoreError),
    /// The library's database (where the keys are kept with a library)
    /// failed a call.
    #[error("{0}")]
    Library(String),
    /// The Redis of `--redis` does not answer.
    #[error("the redis at {0} does not answer: is it running, and is --redis right?")]
    RedisSilent(String),
}

/// What is kept of one key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyRecord {
    /// The person it was given to.
    pub name: String,
    /// [`key_hash`] of the key.
    pub hash: String,
    /// When it was made (seconds since 1970, UTC).
    pub created: u64,
    /// Tasks the person may create per day (UTC); `None`: the gateway's
    /// `--tasks-per-day`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks_per_day: Option<u32>,
}

impl KeyRecord {
    /// A new key for `name` (`tasks_per_day`, when given, instead of the
    /// gateway's default), made at `now`: the key itself, to hand over
    /// once, and the record to keep.
    pub fn issue(
        name: &str,
        tasks_per_day: Option<u32>,
        now: u64,
    ) -> Result<(AccessKey, KeyRecord), KeyError> {
        check_name(name).map_err(KeyError::Name)?;
        let key = AccessKey::new().ok_or(KeyError::Random)?;
        let record = KeyRecord {
            name: name.to_owned(),
            hash: key.hash(),
            created: now,
            tasks_per_day,
        };
        Ok((key, record))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_random_shaped_and_kept_as_hashes() {
        let (one, two) = (AccessKey::new().unwrap(), AccessKey::new().unwrap());
        assert_eq!(format!("{one:?}"), "AccessKey(mgk_…)");
        assert_eq!(AccessKey::parse(&one.clone().reveal()), Some(one.clone()));
        assert_eq!(one.hash(), key_hash(&one.clone().reveal()));
        let (one, two) = (one.reveal(), two.reveal());
        assert_ne!(one, two);
        assert!(looks_like_key(&one) && looks_like_key(&two), "{one}");
        assert_eq!(one.len(), 47);
        assert_eq!(key_hash(&one), key_hash(&one));
        assert_ne!(key_hash(&one), key_hash(&two));
        assert_eq!(key_hash(&one).len(), 64);
        assert!(!key_hash(&one).contains(&one[4..]));
        assert!(!looks_like_key("Bearer x"));
        assert!(!looks_like_key(&one[..46]));
        assert!(!looks_like_key(&one.replace("mgk_", "mgx_")));
    }

    #[test]
    fn names_are_logins_or_addresses() {
        for name in ["ada", "ada.lovelace@example.com", "team-7_b+x"] {
            assert!(check_name(name).is_ok(), "{name}");
        }
        assert!(check_name("").unwrap_err().contains("1 to 64"));
        assert!(check_name(&"a".repeat(65)).unwrap_err().contains("1 to 64"));
        assert!(check_name("ada lovelace").unwrap_err().contains("' '"));
        assert!(check_name("ådа").unwrap_err().contains("'å'"));
    }
}
