//! A stored file's id: an upload's, drawn at random, or a kept copy's,
//! derived from its task (`kept::IdKey`). Both are 128 bits written as 32
//! lowercase hex digits (the contract's capability shape), so the stores'
//! keys, paths and addresses never hold anything else.

use std::fmt;

use media_gen_api::relay::is_capability;

use media_gen_gateway_base::ids::{hex, random_id};

/// A stored file's id, checked for its shape once: where it was made or
/// where it was read from an address or a store.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(String);

impl FileId {
    /// A new upload's id, from the operating system's randomness.
    pub fn new() -> Option<FileId> {
        random_id().map(FileId)
    }

    /// `text` when it has an id's shape (an address's or a store's key).
    pub fn parse(text: &str) -> Option<FileId> {
        is_capability(text).then(|| FileId(text.to_owned()))
    }

    /// The id written by 128 bits of a digest.
    pub fn of_digest(bits: &[u8; 16]) -> FileId {
        FileId(hex(bits))
    }

    /// The id as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for FileId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_has_one_shape_however_it_was_made() {
        let drawn = FileId::new().expect("randomness");
        assert_ne!(FileId::new(), Some(drawn.clone()));
        assert_eq!(FileId::parse(drawn.as_str()), Some(drawn.clone()));
        let derived = FileId::of_digest(&[0xab; 16]);
        assert_eq!(derived.as_str(), "ab".repeat(16));
        assert_eq!(FileId::parse(&derived.to_string()), Some(derived));
        for bad in [
            "",
            "../x",
            &"AB".repeat(16),
            &"a".repeat(31),
            &"a".repeat(33),
        ] {
            assert_eq!(FileId::parse(bad), None, "{bad:?}");
        }
    }
}
