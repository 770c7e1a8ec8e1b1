//! Closed sets of string values (`"V"`, `"16:9"`, `"720p"`, ...) as Rust enums.

use std::fmt;

/// A string that is not one of a field's allowed values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownValue {
    /// The field, as the document spells it.
    pub field: &'static str,
    /// What was given.
    pub value: String,
    /// Every allowed value.
    pub allowed: Vec<&'static str>,
}

impl fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: `{}` is not one of {}",
            self.field,
            self.value,
            self.allowed.join(", ")
        )
    }
}

impl std::error::Error for UnknownValue {}

/// Defines an enum whose variants are spelled on the wire as given, with
/// `ALL`, `as_str`, `Display`, `FromStr` (errors name the field and the
/// allowed values) and serde as plain strings.
macro_rules! wire_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident for $field:literal {
            $( $(#[$variant_meta:meta])* $variant:ident => $wire:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$variant_meta])* $variant, )+
        }

        impl $name {
            /// Every allowed value, in the document's order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The value as the service spells it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $wire,)+
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::wire_enum::UnknownValue;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Self::ALL
                    .iter()
                    .copied()
                    .find(|value| value.as_str() == s)
                    .ok_or_else(|| $crate::wire_enum::UnknownValue {
                        field: $field,
                        value: s.to_owned(),
                        allowed: Self::ALL.iter().map(|value| value.as_str()).collect(),
                    })
            }
        }

        /// In TypeScript: the union of the wire spellings.
        #[cfg(feature = "typescript")]
        impl ::ts_rs::TS for $name {
            type WithoutGenerics = Self;
            type OptionInnerType = Self;

            fn name(_: &::ts_rs::Config) -> String {
                stringify!($name).to_owned()
            }

            fn inline(_: &::ts_rs::Config) -> String {
                [$(concat!("\"", $wire, "\"")),+].join(" | ")
            }

            fn decl(config: &::ts_rs::Config) -> String {
                format!("type {} = {};", Self::name(config), Self::inline(config))
            }

            fn decl_concrete(config: &::ts_rs::Config) -> String {
                Self::decl(config)
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <::std::string::String as ::serde::Deserialize>::deserialize(deserializer)?;
                text.parse().map_err(::serde::de::Error::custom)
            }
        }
    };
}

pub(crate) use wire_enum;
