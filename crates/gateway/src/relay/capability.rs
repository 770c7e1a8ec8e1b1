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

use sha2::{Digest, Sha256};

/// 128 random bits from the operating system, as 32 hex digits (the
/// contract's capability shape): a callback secret, an upload's id.
pub(crate) fn random_id() -> Option<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).ok()?;
    Some(hex(&bytes))
}

/// A new callback secret.
pub fn new_callback_secret() -> Option<String> {
    random_id()
}

/// The listening capability of a callback secret.
pub fn listening(callback_secret: &str) -> String {
    let digest = Sha256::new()
        .chain_update(b"media-gen relay: listening capability of ")
        .chain_update(callback_secret.as_bytes())
        .finalize();
    hex(&digest[..16])
}

/// `bytes` in lowercase hex.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use media_gen_api::relay::is_capability;

    #[test]
    fn secrets_are_random_and_shaped() {
        let one = new_callback_secret().expect("randomness");
        let two = new_callback_secret().expect("randomness");
        assert!(is_capability(&one) && is_capability(&two));
        assert_ne!(one, two);
        assert!(!is_capability(&one.to_uppercase()));
    }

    #[test]
    fn the_listening_capability_is_shaped_fixed_and_not_the_secret() {
        let secret = new_callback_secret().expect("randomness");
        let listening = listening(&secret);
        assert!(is_capability(&listening));
        assert_eq!(listening, super::listening(&secret));
        assert_ne!(listening, secret);
        // Calling back with the listening capability names another
        // submission: the page's capability is no callback address.
        assert_ne!(super::listening(&listening), listening);
    }
}
