//! JSON writer: pretty-printed with two-space indentation, keys in order. Non-string keys are
//! written as Python's `json` module writes them (`true`, `1`, `1.5`, `NaN`, `null`);
//! timestamps as strings. A JSON object never holds a key twice: a mapping whose keys would
//! be written as the same text (`1` and `'1'`) has no JSON form and is refused, before any
//! byte is written.

use crate::error::{Error, ErrorKind, Result, WarnKind, Warning};
use crate::value::{Key, Kind, Map, Node};
use std::collections::HashMap;

/// Renders a value as pretty JSON with a trailing newline.
pub fn to_string(node: &Node) -> Result<String> {
    check(node)?;
    let mut out = Out {
        buf: String::new(),
        sink: None,
        error: None,
    };
    write_value(&mut out, node, 0);
    out.buf.push('\n');
    Ok(out.buf)
}

/// Fails on the first value (in document order) that has no JSON form: a NaN or infinity, a
/// mapping with two keys written as the same text, a pair (tuple) as a key.
pub fn check(node: &Node) -> Result<()> {
    match &node.kind {
        Kind::Float(f) if !f.is_finite() => Err(no_json_form(*f, node)),
        Kind::List(items) | Kind::Tuple(items) => items.iter().try_for_each(check),
        Kind::Map(m) => {
            check_keys(m)?;
            m.values().try_for_each(check)
        }
        Kind::Set(m) => m.keys().try_for_each(|k| check(&k.0)),
        _ => Ok(()),
    }
}

/// The text a key is written as in JSON, as Python's `json` writes keys: strings as they are,
/// `true` / `false` / `null`, integers in decimal, floats as `repr` (`1.0`, `1e+20`) or
/// `NaN`, `Infinity`, `-Infinity`; timestamps as their text and binary data as base64 (which
/// Python's `json` refuses). `None` for a key JSON cannot hold (a tuple).
pub fn key_text(key: &Node) -> Option<String> {
    Some(match &key.kind {
        Kind::Str(s) => s.to_string(),
        Kind::Timestamp(s) | Kind::BigInt(s) => s.to_string(),
        Kind::Null => "null".into(),
        Kind::Bool(b) => b.to_string(),
        Kind::Int(i) => i.to_string(),
        Kind::Float(f) if f.is_nan() => "NaN".into(),
        Kind::Float(f) if f.is_infinite() => if *f > 0.0 { "Infinity" } else { "-Infinity" }.into(),
        Kind::Float(f) => crate::value::py::float_repr(*f),
        Kind::Bytes(b) => crate::value::base64(b),
        Kind::List(_) | Kind::Map(_) | Kind::Set(_) | Kind::Tuple(_) => return None,
    })
}

/// A mapping's keys, as JSON object keys: none without a JSON form, no text twice. Only a key
/// that is not a string can collide (two string keys are two texts), so a mapping of string
/// keys is not searched.
fn check_keys(m: &Map) -> Result<()> {
    if m.keys().all(|k| matches!(k.0.kind, Kind::Str(_))) {
        return Ok(());
    }
    let mut seen: HashMap<String, &Key> = HashMap::with_capacity(m.len());
    for k in m.keys() {
        let Some(text) = key_text(&k.0) else {
            return Err(Error::new(
                ErrorKind::Merge,
                format!(
                    "the key {} ({}) has no JSON form: a JSON object's keys are strings",
                    crate::value::key_text(&k.0),
                    k.0.kind_phrase()
                ),
            )
            .at(k.span())
            .hint("use --output yaml, or change the key to a string"));
        };
        if let Some(first) = seen.get(&text) {
            let mut quoted = String::new();
            write_string(&mut quoted, &text);
            return Err(Error::new(
                ErrorKind::Merge,
                format!(
                    "the keys {} ({}) and {} ({}) would both be written as the JSON key {quoted}, and a JSON object cannot hold a key twice",
                    describe(&first.0),
                    first.0.kind_phrase(),
                    describe(&k.0),
                    k.0.kind_phrase()
                ),
            )
            .at(k.span())
            .note("the other key", first.span())
            .hint("use --output yaml, or rename one of the keys"));
        }
        seen.insert(text, k);
    }
    Ok(())
}

/// A key as the messages show it: a string quoted, anything else as YAML writes it.
fn describe(k: &Node) -> String {
    match &k.kind {
        Kind::Str(s) => format!("'{s}'"),
        _ => super::yaml_scalar::key_string(k),
    }
}

/// Values JSON holds only in another form, with what becomes of them: binary data is
/// written as a base64 string and a set as an array (Python's `json` refuses both). The
/// first few, in document order.
pub fn lossy(node: &Node) -> Vec<Warning> {
    let mut out = Vec::new();
    let mut todo = vec![node];
    while let Some(n) = todo.pop() {
        if out.len() >= 20 {
            break;
        }
        match &n.kind {
            Kind::Bytes(_) => out.push(Warning::new(WarnKind::JsonLossy,
                "binary data (!!binary) is written to JSON as a base64 string: a JSON reader sees text",
                n.span,
            )),
            Kind::Set(m) => {
                out.push(Warning::new(WarnKind::JsonLossy,
                    "a set (!!set) is written to JSON as an array",
                    n.span,
                ));
                todo.extend(m.keys().rev().map(|k| &k.0));
            }
            Kind::List(items) | Kind::Tuple(items) => todo.extend(items.iter().rev()),
            Kind::Map(m) => {
                for (k, v) in m.iter().rev() {
                    todo.push(v);
                    todo.push(&k.0);
                }
            }
            _ => {}
        }
    }
    out
}

fn no_json_form(f: f64, node: &Node) -> Error {
    Error::new(ErrorKind::Merge, format!("the value {f} has no JSON form"))
        .at(node.span)
        .hint("use --output yaml, or change the value to a string")
}

/// Writes a value as pretty JSON into `sink` as it goes, 64 KiB at a time. Call [`check`]
/// first: a value with no JSON form is written as `null` here.
pub fn write(node: &Node, sink: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut out = Out {
        buf: String::with_capacity(SPILL_AT + 4096),
        sink: Some(sink),
        error: None,
    };
    write_value(&mut out, node, 0);
    out.buf.push('\n');
    out.spill(0);
    match out.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

const SPILL_AT: usize = 1 << 16;

/// The text being written and, when streaming, where full blocks of it go.
struct Out<'s> {
    buf: String,
    sink: Option<&'s mut dyn std::io::Write>,
    error: Option<std::io::Error>,
}

impl Out<'_> {
    /// Hands the text to the sink once it holds at least `at` bytes (after an error, drops it).
    fn spill(&mut self, at: usize) {
        if self.buf.len() < at {
            return;
        }
        if let Some(sink) = self.sink.as_mut() {
            if self.error.is_none() {
                if let Err(e) = sink.write_all(self.buf.as_bytes()) {
                    self.error = Some(e);
                }
            }
            self.buf.clear();
        }
    }
}

/// Renders a value as compact JSON.
pub fn to_compact(node: &Node) -> Result<String> {
    let mut out = String::new();
    write_compact(&mut out, node)?;
    Ok(out)
}

/// Writes `s` as a JSON string (RFC 8259 escapes, plus `\u` escapes for the characters a
/// YAML reader refuses raw).
pub fn write_string(out: &mut String, s: &str) {
    // serde_json's escaping is exactly RFC 8259's; on top of it, characters a YAML reader (and
    // strata's own loaders) refuse raw (DEL, C1 controls, U+FFFE/U+FFFF) become \u escapes, so
    // the output always reads back (fuzz finding: a "\u0080" string was written raw).
    if s.bytes()
        .all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\')
    {
        // Nothing to escape (most keys and values): no copy through serde_json.
        out.reserve(s.len() + 2);
        out.push('"');
        out.push_str(s);
        out.push('"');
        return;
    }
    let quoted = serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into());
    for c in quoted.chars() {
        let cp = c as u32;
        if (0x7f..=0x9f).contains(&cp) || cp == 0xfffe || cp == 0xffff {
            out.push_str(&format!("\\u{cp:04x}"));
        } else {
            out.push(c);
        }
    }
}

fn scalar(out: &mut String, node: &Node) -> Result<bool> {
    match &node.kind {
        Kind::Null => out.push_str("null"),
        Kind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Kind::Int(i) => out.push_str(&i.to_string()),
        Kind::BigInt(s) => out.push_str(s),
        Kind::Float(f) if f.is_finite() => {
            let s = format!("{f:?}");
            out.push_str(&s);
        }
        Kind::Float(f) => return Err(no_json_form(*f, node)),
        Kind::Str(s) => write_string(out, s),
        Kind::Timestamp(s) => write_string(out, s),
        Kind::Bytes(b) => write_string(out, &crate::value::base64(b)),
        Kind::List(_) | Kind::Map(_) | Kind::Set(_) | Kind::Tuple(_) => return Ok(false),
    }
    Ok(true)
}

/// The items a JSON array holds for a list, a tuple or a set.
fn array_items(node: &Node) -> Option<Vec<&Node>> {
    match &node.kind {
        Kind::List(items) | Kind::Tuple(items) => Some(items.iter().collect()),
        Kind::Set(m) => Some(m.keys().map(|k| &k.0).collect()),
        _ => None,
    }
}

fn newline(out: &mut String, indent: usize) {
    out.push('\n');
    out.extend(std::iter::repeat_n(' ', indent));
}

fn write_value(out: &mut Out<'_>, node: &Node, indent: usize) {
    // `check` has run: a scalar that fails here cannot occur; it would be left out.
    if scalar(&mut out.buf, node).unwrap_or(true) {
        return;
    }
    if let Some(items) = array_items(node) {
        if items.is_empty() {
            out.buf.push_str("[]");
            return;
        }
        out.buf.push('[');
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                out.buf.push(',');
            }
            newline(&mut out.buf, indent + 2);
            write_value(out, item, indent + 2);
            out.spill(SPILL_AT);
        }
        newline(&mut out.buf, indent);
        out.buf.push(']');
        return;
    }
    match &node.kind {
        Kind::List(items) if items.is_empty() => out.buf.push_str("[]"),
        Kind::List(items) => {
            out.buf.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.buf.push(',');
                }
                newline(&mut out.buf, indent + 2);
                write_value(out, item, indent + 2);
                out.spill(SPILL_AT);
            }
            newline(&mut out.buf, indent);
            out.buf.push(']');
        }
        Kind::Map(m) if m.is_empty() => out.buf.push_str("{}"),
        Kind::Map(m) => {
            out.buf.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.buf.push(',');
                }
                newline(&mut out.buf, indent + 2);
                write_string(&mut out.buf, &key_text(&k.0).unwrap_or_default());
                out.buf.push_str(": ");
                write_value(out, v, indent + 2);
                out.spill(SPILL_AT);
            }
            newline(&mut out.buf, indent);
            out.buf.push('}');
        }
        _ => {}
    }
}

fn write_compact(out: &mut String, node: &Node) -> Result<()> {
    if scalar(out, node)? {
        return Ok(());
    }
    if let Some(items) = array_items(node) {
        out.push('[');
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_compact(out, item)?;
        }
        out.push(']');
        return Ok(());
    }
    match &node.kind {
        Kind::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_compact(out, item)?;
            }
            out.push(']');
        }
        Kind::Map(m) => {
            check_keys(m)?;
            out.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, &key_text(&k.0).unwrap_or_default());
                out.push(':');
                write_compact(out, v)?;
            }
            out.push('}');
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Span;

    fn node(kind: Kind) -> Node {
        Node::new(kind, Span::NONE)
    }

    /// Keys as Python's `json` writes them; a mapping whose keys collide as text, or with a
    /// tuple key, has no JSON form (neither pretty nor compact).
    #[test]
    fn keys_are_written_as_python_writes_them_and_never_twice() {
        let text = |k: Kind| key_text(&node(k));
        assert_eq!(text(Kind::Float(1.0)).as_deref(), Some("1.0"));
        assert_eq!(text(Kind::Float(1e20)).as_deref(), Some("1e+20"));
        assert_eq!(text(Kind::Float(f64::NAN)).as_deref(), Some("NaN"));
        assert_eq!(
            text(Kind::Float(f64::NEG_INFINITY)).as_deref(),
            Some("-Infinity")
        );
        assert_eq!(text(Kind::Bool(true)).as_deref(), Some("true"));
        assert_eq!(text(Kind::Null).as_deref(), Some("null"));
        assert_eq!(text(Kind::Tuple(thin_vec::ThinVec::new())), None);
        let map = |keys: Vec<Kind>| {
            let mut m = Map::new();
            for k in keys {
                m.insert(Key(node(k)), node(Kind::Null));
            }
            node(Kind::Map(Box::new(m)))
        };
        for (a, b) in [
            (Kind::Int(1), Kind::Str("1".into())),
            (Kind::Bool(true), Kind::Str("true".into())),
            (Kind::Null, Kind::Str("null".into())),
            (Kind::Float(f64::NAN), Kind::Str("NaN".into())),
            (
                Kind::Timestamp("2024-01-02".into()),
                Kind::Str("2024-01-02".into()),
            ),
        ] {
            let m = map(vec![a, b]);
            assert_eq!(m.as_map().map(Map::len), Some(2));
            assert!(to_string(&m).is_err());
            assert!(to_compact(&m).is_err());
        }
        let fine = map(vec![Kind::Int(1), Kind::Str("2".into()), Kind::Float(1.5)]);
        assert_eq!(
            to_compact(&fine).ok().as_deref(),
            Some(r#"{"1":null,"2":null,"1.5":null}"#)
        );
        assert!(to_string(&map(vec![Kind::Tuple(thin_vec::ThinVec::new())])).is_err());
    }
}
