//! A JavaScript value read straight into the contract's types with serde:
//! what a page passed (a request), or what the browser's `JSON.parse` made
//! of an answer, a relayed event or a stored record. Every browser module
//! reads JSON so, and none carries a JSON text reader. Read as
//! `JSON.stringify` would have written it: properties that are `undefined`
//! or functions are absent, a number that is not finite is `null`.
//!
//! Its errors never print a number with a fraction (serde's messages would
//! bring the float printer into the module, for a message nobody needs
//! digits in).

use std::fmt;

use serde::de::{self, DeserializeOwned, Expected, IntoDeserializer, Unexpected, Visitor};
use wasm_bindgen::{JsCast, JsValue};

/// Why a value could not be read as the type asked for.
#[derive(Debug)]
pub struct ReadError(String);

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ReadError {}

/// What was found, in words, without the digits of a fraction.
fn found(unexpected: &Unexpected<'_>) -> String {
    match unexpected {
        Unexpected::Bool(value) => format!("boolean `{value}`"),
        Unexpected::Unsigned(value) => format!("integer `{value}`"),
        Unexpected::Signed(value) => format!("integer `{value}`"),
        Unexpected::Float(_) => "a number with a fraction".to_owned(),
        Unexpected::Str(value) => format!("string \"{value}\""),
        Unexpected::Unit => "null".to_owned(),
        Unexpected::Seq => "an array".to_owned(),
        Unexpected::Map => "an object".to_owned(),
        _ => "a value of another kind".to_owned(),
    }
}

impl de::Error for ReadError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        ReadError(message.to_string())
    }

    fn invalid_type(unexpected: Unexpected<'_>, expected: &dyn Expected) -> Self {
        ReadError(format!(
            "invalid type: {}, expected {expected}",
            found(&unexpected)
        ))
    }

    fn invalid_value(unexpected: Unexpected<'_>, expected: &dyn Expected) -> Self {
        ReadError(format!(
            "invalid value: {}, expected {expected}",
            found(&unexpected)
        ))
    }
}

/// `value` read as `T`.
pub fn read<T: DeserializeOwned>(value: &JsValue) -> Result<T, ReadError> {
    T::deserialize(ValueReader(value.clone()))
}

/// JSON text as the browser's `JSON.parse` reads it; `undefined` when it
/// is not JSON (which then reads as nothing a type asks for).
pub fn parse(text: &str) -> JsValue {
    js_sys::JSON::parse(text).unwrap_or(JsValue::UNDEFINED)
}

/// An answer's body as `JSON.parse` read it, for the contract's envelope
/// rules ([`media_gen_api::decode::Body`]).
pub struct Parsed<'a>(pub &'a JsValue);

impl media_gen_api::decode::Body for Parsed<'_> {
    fn read_as<T: DeserializeOwned>(&self) -> Result<T, String> {
        read(self.0).map_err(|error| error.to_string())
    }

    fn read_data_as<T: DeserializeOwned>(&self) -> Result<T, String> {
        // The property itself: one reader per payload type, not two.
        let data = js_sys::Reflect::get(self.0, &JsValue::from_str("data"))
            .ok()
            .filter(|data| !data.is_undefined())
            .ok_or_else(|| "missing field `data`".to_owned())?;
        read(&data).map_err(|error| error.to_string())
    }
}

/// Whether `JSON.stringify` would leave a property holding `value` out.
fn left_out(value: &JsValue) -> bool {
    value.is_undefined() || value.is_function() || value.is_symbol()
}

/// The serde deserializer over one JavaScript value.
struct ValueReader(JsValue);

/// What a JavaScript value is, found once outside the generic code: each
/// type read instantiates [`ValueReader::deserialize_any`], which then only
/// hands this to its visitor.
enum Found {
    Bool(bool),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Text(String),
    Null,
    Array(js_sys::Array),
    Object(Vec<(JsValue, JsValue)>),
    Other,
}

/// Whether `value` is written `null` (or nothing) by `JSON.stringify`:
/// `null`, `undefined`, a number that is not finite.
fn is_null(value: &JsValue) -> bool {
    value.is_null()
        || value.is_undefined()
        || value.as_f64().is_some_and(|number| !number.is_finite())
}

/// What `value` is, as `JSON.stringify` would write it.
fn found_in(value: &JsValue) -> Found {
    if let Some(flag) = value.as_bool() {
        return Found::Bool(flag);
    }
    if let Some(number) = value.as_f64() {
        // Whole numbers as integers, as JSON's readers give them.
        const SAFE: f64 = 9_007_199_254_740_991.0;
        return if is_null(value) {
            Found::Null
        } else if number.fract() == 0.0 && (0.0..=SAFE).contains(&number) {
            Found::Unsigned(number as u64)
        } else if number.fract() == 0.0 && (-SAFE..0.0).contains(&number) {
            Found::Signed(number as i64)
        } else {
            Found::Float(number)
        };
    }
    if let Some(text) = value.as_string() {
        return Found::Text(text);
    }
    if is_null(value) {
        return Found::Null;
    }
    if js_sys::Array::is_array(value) {
        return Found::Array(js_sys::Array::from(value));
    }
    match value.dyn_ref::<js_sys::Object>() {
        Some(object) => Found::Object(
            js_sys::Object::entries(object)
                .iter()
                .filter_map(|entry| {
                    let entry = js_sys::Array::from(&entry);
                    let value = entry.get(1);
                    (!left_out(&value)).then(|| (entry.get(0), value))
                })
                .collect(),
        ),
        None => Found::Other,
    }
}

impl<'de> de::Deserializer<'de> for ValueReader {
    type Error = ReadError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ReadError> {
        match found_in(&self.0) {
            Found::Bool(flag) => visitor.visit_bool(flag),
            Found::Unsigned(number) => visitor.visit_u64(number),
            Found::Signed(number) => visitor.visit_i64(number),
            Found::Float(number) => visitor.visit_f64(number),
            Found::Text(text) => visitor.visit_string(text),
            Found::Null => visitor.visit_unit(),
            Found::Array(items) => visitor.visit_seq(Items { items, next: 0 }),
            Found::Object(entries) => visitor.visit_map(Entries {
                entries: entries.into_iter(),
                value: None,
            }),
            Found::Other => Err(de::Error::invalid_type(
                Unexpected::Other("value"),
                &visitor,
            )),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ReadError> {
        if is_null(&self.0) {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ReadError> {
        // The contract's enums are unit variants named by a string.
        match self.0.as_string() {
            Some(text) => visitor.visit_enum(text.into_deserializer()),
            None => self.deserialize_any(visitor),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, ReadError> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

/// An array's items, one by one.
struct Items {
    items: js_sys::Array,
    next: u32,
}

impl<'de> de::SeqAccess<'de> for Items {
    type Error = ReadError;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, ReadError> {
        if self.next >= self.items.length() {
            return Ok(None);
        }
        let item = self.items.get(self.next);
        self.next += 1;
        seed.deserialize(ValueReader(item)).map(Some)
    }
}

/// An object's properties, one by one.
struct Entries {
    entries: std::vec::IntoIter<(JsValue, JsValue)>,
    value: Option<JsValue>,
}

impl<'de> de::MapAccess<'de> for Entries {
    type Error = ReadError;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, ReadError> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some(value);
        seed.deserialize(ValueReader(key)).map(Some)
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, ReadError> {
        seed.deserialize(ValueReader(self.value.take().unwrap_or(JsValue::NULL)))
    }
}
