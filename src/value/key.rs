//! How a scalar is written as text where it is not YAML output: a mapping key in paths
//! (`/a/1`), rule selection and messages — strings as they are, other scalars as they print,
//! floats as YAML writes them (`float_text`, which the YAML writer uses too). Below every other
//! layer, so the loader, the engine, the path types and the renderers share one spelling.

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
        Kind::Float(f) => float_text(*f),
        Kind::Bytes(b) => crate::value::base64(b),
        Kind::List(_) | Kind::Map(_) | Kind::Set(_) | Kind::Tuple(_) => "?".into(),
    }
}

/// A float as YAML 1.1 reads it back (a dot always, a signed exponent).
pub fn float_text(f: f64) -> String {
    if f.is_nan() {
        return ".nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.into();
    }
    let s = format!("{f:?}");
    match s.split_once('e') {
        Some((m, e)) => {
            let m = if m.contains('.') {
                m.to_string()
            } else {
                format!("{m}.0")
            };
            let e = if e.starts_with('-') {
                e.to_string()
            } else {
                format!("+{e}")
            };
            format!("{m}e{e}")
        }
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Span;

    #[test]
    fn scalars_are_written_as_they_print() {
        let n = |k: Kind| key_text(&Node::new(k, Span::NONE));
        assert_eq!(n(Kind::Float(1.0)), "1.0");
        assert_eq!(n(Kind::Float(1e20)), "1.0e+20");
        assert_eq!(n(Kind::Float(f64::NEG_INFINITY)), "-.inf");
        assert_eq!(n(Kind::Int(-3)), "-3");
        assert_eq!(n(Kind::Bool(true)), "true");
        assert_eq!(n(Kind::Null), "null");
        assert_eq!(key_cow(&Node::str("a/b", Span::NONE)), "a/b");
    }
}
