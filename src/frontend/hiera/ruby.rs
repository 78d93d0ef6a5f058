//! Puppet's view of data values beyond Ruby's own (`value::ruby`, re-exported here: truthiness,
//! `eql?`, `<=>`, `sort!`, class names): the Puppet type names used in type-assertion messages,
//! the string a value becomes when interpolated (`to_s`), `inspect`, and `convert_to` for the
//! few Puppet types strata converts.

use crate::error::{Error, ErrorKind, Result};
pub use crate::value::ruby::{class_name, compare, eql, sort, string, text, truthy};
use crate::value::{Kind, Node, Span};

/// The Puppet type Puppet's type assertions name for a value (`got Struct`, `got Tuple`).
pub fn puppet_type(n: &Node) -> &'static str {
    match &n.kind {
        Kind::Null => "Undef",
        Kind::Bool(_) => "Boolean",
        Kind::Int(_) | Kind::BigInt(_) => "Integer",
        Kind::Float(_) => "Float",
        Kind::Str(_) | Kind::Timestamp(_) | Kind::Bytes(_) => "String",
        Kind::List(_) | Kind::Tuple(_) => "Tuple",
        Kind::Map(m) | Kind::Set(m) if m.is_empty() => "Hash",
        Kind::Map(_) | Kind::Set(_) => "Struct",
    }
}

/// The generalized Puppet type of a value that `Array.new` refuses, as its message names it.
fn puppet_type_name(n: &Node) -> &'static str {
    match &n.kind {
        Kind::List(_) | Kind::Tuple(_) => "Array",
        Kind::Map(_) | Kind::Set(_) => "Hash",
        _ => puppet_type(n),
    }
}

/// What `"#{value}"` gives in Ruby: strings as they are, `nil` as "", containers inspected.
pub fn to_s(n: &Node) -> String {
    match &n.kind {
        Kind::Null => String::new(),
        Kind::Str(_) | Kind::Timestamp(_) => text(n).unwrap_or_default().to_string(),
        _ => inspect(n),
    }
}

/// Ruby's `inspect` (`{"a"=>1, "b"=>[true, nil]}`).
pub fn inspect(n: &Node) -> String {
    match &n.kind {
        Kind::Null => "nil".into(),
        Kind::Bool(b) => b.to_string(),
        Kind::Int(i) => i.to_string(),
        Kind::BigInt(s) => s.to_string(),
        Kind::Float(f) => float_s(*f),
        Kind::Str(_) | Kind::Timestamp(_) => quote(text(n).unwrap_or_default()),
        Kind::Bytes(b) => quote(&String::from_utf8_lossy(b)),
        Kind::List(items) | Kind::Tuple(items) => {
            let parts: Vec<String> = items.iter().map(inspect).collect();
            format!("[{}]", parts.join(", "))
        }
        Kind::Map(m) | Kind::Set(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}=>{}", inspect(&k.0), inspect(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
    }
}

/// Ruby's `Float#to_s` for ordinary magnitudes (`2.0`, `1.5`, `1.0e+20`).
pub fn float_s(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let a = f.abs();
    if a != 0.0 && !(1e-4..1e16).contains(&a) {
        let s = format!("{f:e}");
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        let m = if m.contains('.') {
            m.to_string()
        } else {
            format!("{m}.0")
        };
        let (sign, digits) = match e.strip_prefix('-') {
            Some(d) => ('-', d),
            None => ('+', e),
        };
        return format!("{m}e{sign}{digits:0>2}");
    }
    let s = format!("{f}");
    if s.contains('.') {
        s
    } else {
        format!("{s}.0")
    }
}

/// A Ruby double-quoted string literal.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '#' => out.push('#'),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\x{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Items `convert_to: Array` makes of an Integer at most (Puppet counts 0...n).
const MAX_RANGE: i64 = 1 << 20;

/// `convert_to`: `Array` as Puppet's `Array.new` (a hash becomes `[key, value]` pairs, a
/// string its characters, an integer n `0...n`; with `[Array, true]` anything but an array is
/// wrapped), `String` and `Integer` / `Float` / `Numeric` from their usual forms. `key`: the
/// key looked up, for the messages.
pub fn convert(ty: &Node, v: Node, key: &str, at: Span) -> Result<Node> {
    let (ty_text, wrap) = match &ty.kind {
        Kind::List(items) => (
            items.first().and_then(text).unwrap_or_default(),
            matches!(items.get(1).map(|n| &n.kind), Some(Kind::Bool(true))),
        ),
        _ => (text(ty).unwrap_or_default(), false),
    };
    let fail = |m: String| Error::new(ErrorKind::Directive, m).at(at);
    let span = v.span;
    match ty_text {
        "Array" if wrap => Ok(match v.kind {
            Kind::List(_) => v,
            kind => Node::list(vec![Node::new(kind, span)], span),
        }),
        "Array" => {
            let refused = |v: &Node| {
                fail(format!(
                    "The convert_to lookup_option for key '{key}' raised error: 'new_array' Value of type {} cannot be converted to Array",
                    puppet_type_name(v)
                ))
                .hint("write convert_to: [Array, true] to wrap the value in an array")
            };
            Ok(match v.kind {
                Kind::List(_) => v,
                Kind::Map(m) => Node::list(
                    m.into_iter()
                        .map(|(k, v)| Node::list(vec![k.0, v], span))
                        .collect::<Vec<_>>(),
                    span,
                ),
                Kind::Str(ref s) => Node::list(
                    s.chars()
                        .map(|c| Node::str(c.to_string(), span))
                        .collect::<Vec<_>>(),
                    span,
                ),
                Kind::Int(n) if (0..=MAX_RANGE).contains(&n) => Node::list(
                    (0..n)
                        .map(|i| Node::new(Kind::Int(i), span))
                        .collect::<Vec<_>>(),
                    span,
                ),
                Kind::Int(n) if n > MAX_RANGE => {
                    return Err(fail(format!(
                        "convert_to: Array on the integer {n} makes an array of {n} items, more than strata builds ({MAX_RANGE})"
                    )))
                }
                _ => return Err(refused(&v)),
            })
        }
        "String" => Ok(match &v.kind {
            Kind::Str(_) => v,
            _ => Node::str(to_s(&v), span),
        }),
        "Integer" | "Float" | "Numeric" => {
            let t = text(&v).map(|s| s.trim().to_string());
            let n = match (&v.kind, t) {
                (Kind::Int(i), _) if ty_text != "Float" => Some(Kind::Int(*i)),
                (Kind::Int(i), _) => Some(Kind::Float(*i as f64)),
                (Kind::Float(f), _) if ty_text == "Integer" => Some(Kind::Int(f.trunc() as i64)),
                (Kind::Float(f), _) => Some(Kind::Float(*f)),
                (_, Some(s)) if ty_text != "Float" && s.parse::<i64>().is_ok() => {
                    s.parse::<i64>().ok().map(Kind::Int)
                }
                (_, Some(s)) => s.parse::<f64>().ok().map(Kind::Float),
                _ => None,
            };
            n.map(|k| Node::new(k, span)).ok_or_else(|| {
                fail(format!(
                    "The convert_to lookup_option raised error: cannot convert {} to {ty_text}",
                    inspect(&v)
                ))
            })
        }
        other => Err(fail(format!(
            "convert_to '{other}' is not supported by strata (it converts to Array, String, Integer, Float, Numeric)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(kind: Kind) -> Node {
        Node::new(kind, Span::NONE)
    }

    #[test]
    fn mixed_sort_fails_like_ruby() {
        let mut items = vec![string("a", Span::NONE), n(Kind::Int(1))];
        assert!(sort(&mut items).is_err());
        assert_eq!(float_s(2.0), "2.0");
        assert_eq!(float_s(1e20), "1.0e+20");
    }
}
