//! The secret in a relayed submission's callback address: 128 random bits
//! from the operating system, written as 32 hex digits (the contract's
//! `media_gen_api::relay::is_capability` shape). Nobody can guess one; it is never the user's
//! token, a task id, or a count.

/// A new capability.
pub fn new_capability() -> Option<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).ok()?;
    Some(bytes.iter().map(|byte| format!("{byte:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use media_gen_api::relay::is_capability;

    #[test]
    fn capabilities_are_random_and_shaped() {
        let one = new_capability().expect("randomness");
        let two = new_capability().expect("randomness");
        assert!(is_capability(&one) && is_capability(&two));
        assert_ne!(one, two);
        assert!(!is_capability(&one.to_uppercase()));
    }
}
