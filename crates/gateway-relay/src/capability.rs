//! The relay's two secrets per relayed submission, each 128 bits written as
//! 32 hex digits (the contract's `media_gen_api::relay::is_capability`
//! shape):
//!
//! - the **callback secret**, 128 random bits from the operating system, in
//!   the callback address the service is given and nowhere else: only the
//!   service can call back;
//! - the **listening capability**, derived from it one way (SHA-256), in the
//!   submit's `media-gen-relay` answer header: what a page names to hear of
//!   the tasks. Holding it says nothing of the callback secret, so a visitor
//!   cannot call back (and so cannot make the gateway read the service on
//!   the owner's token).
//!
//! Neither is the user's token, a task id, or a count.

use media_gen_api::relay::is_capability;
use sha2::{Digest, Sha256};

pub(crate) use media_gen_gateway_base::ids::{hex, random_id};

/// A relayed submission's callback secret: in the callback address the
/// service is given and nowhere else (never in a log: its `Debug` prints
/// a placeholder).
#[derive(Clone, PartialEq, Eq)]
pub struct CallbackSecret(String);

impl CallbackSecret {
    /// A new one, from the operating system's randomness.
    pub fn new() -> Option<CallbackSecret> {
        random_id().map(CallbackSecret)
    }

    /// The secret a callback address names, when it has a secret's shape.
    pub fn parse(text: &str) -> Option<CallbackSecret> {
        is_capability(text).then(|| CallbackSecret(text.to_owned()))
    }

    /// The secret as the callback address writes it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The listening capability derived from it, one way: what a page
    /// names to hear of the submission's tasks.
    pub fn listening(&self) -> Capability {
        let digest = Sha256::new()
            .chain_update(b"media-gen relay: listening capability of ")
            .chain_update(self.0.as_bytes())
            .finalize();
        Capability(hex(&digest[..16]))
    }
}

/// A relayed submission's listening capability: what its page names to
/// hear of its tasks (the `media-gen-relay` header, `/events?relays=`),
/// and what the relay keeps the submission under.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Capability(String);

impl Capability {
    /// The capability a page names, when it has a capability's shape.
    pub fn parse(text: &str) -> Option<Capability> {
        is_capability(text).then(|| Capability(text.to_owned()))
    }

    /// The capability as the header and the stores write it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for CallbackSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CallbackSecret(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_random_and_shaped() {
        let one = CallbackSecret::new().expect("randomness");
        let two = CallbackSecret::new().expect("randomness");
        assert!(is_capability(one.as_str()) && is_capability(two.as_str()));
        assert_ne!(one, two);
        assert_eq!(CallbackSecret::parse(one.as_str()), Some(one.clone()));
        assert_eq!(CallbackSecret::parse(&one.as_str().to_uppercase()), None);
        assert_eq!(format!("{one:?}"), "CallbackSecret(…)");
    }

    #[test]
    fn the_listening_capability_is_shaped_fixed_and_not_the_secret() {
        let secret = CallbackSecret::new().expect("randomness");
        let listening = secret.listening();
        assert!(is_capability(listening.as_str()));
        assert_eq!(listening, secret.listening());
        assert_ne!(listening.as_str(), secret.as_str());
        assert_eq!(
            Capability::parse(listening.as_str()),
            Some(listening.clone())
        );
        assert_eq!(Capability::parse("library:ada"), None);
        // Calling back with the listening capability names another
        // submission: the page's capability is no callback address.
        let named = CallbackSecret::parse(listening.as_str()).expect("shaped");
        assert_ne!(named.listening(), listening);
    }
}
