//! How a mapping key is written as text: in paths (`/a/1`), rule selection and messages —
//! strings as they are, other scalars as they print. Below every other layer, so the loader,
//! the engine, the path types and the renderers share one spelling.

use super::{Kind, Node};

/// `key_text` without a copy for string keys.
pub fn key_cow(k: &Node) -> std::borrow::Cow<'_, str> {
    match &k.kind {
        Kind::Str(s) => std::borrow::Cow::Borrowed(s),
        _ => std::borrow::Cow::Owned(key_text(k)),
    }
}

/// A key as a path segment: strings as they are, other scalars as YAML would print them.
pub fn key_text(k: &Node) -> String {
    match &k.kind {
        Kind::Str(s) => s.to_string(),
        Kind::Timestamp(s) | Kind::BigInt(s) => s.to_string(),
        Kind::Null => "null".into(),
        Kind::Bool(b) => b.to_string(),
        Kind::Int(i) => i.to_string(),
        Kind::Float(f) => f.to_string(),
        Kind::Bytes(b) => crate::value::base64(b),
        Kind::List(_) | Kind::Map(_) | Kind::Set(_) | Kind::Tuple(_) => "?".into(),
    }
}
