//! Random ids and hex: 128 bits from the operating system as 32 hex
//! digits (the contract's capability shape), for a callback secret, an
//! upload's id, a lock's token.

/// 128 random bits from the operating system, as 32 hex digits; none when
/// the system gives no randomness.
pub fn random_id() -> Option<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).ok()?;
    Some(hex(&bytes))
}

/// `bytes` in lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_random_and_shaped() {
        let (one, two) = (random_id().unwrap(), random_id().unwrap());
        assert_ne!(one, two);
        assert!(media_gen_api::relay::is_capability(&one), "{one}");
        assert_eq!(hex(&[0, 15, 255]), "000fff");
    }
}
