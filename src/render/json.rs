//! JSON writer: pretty-printed with two-space indentation, keys in order. Non-string keys are
//! written as Python's `json` module writes them (`true`, `1`, `null`); timestamps as strings.

use crate::error::{Error, ErrorKind, Result};
use crate::merge::key_text;
use crate::value::{Kind, Node};

/// Renders a value as pretty JSON with a trailing newline.
pub fn to_string(node: &Node) -> Result<String> {
    let mut out = String::new();
    write_value(&mut out, node, 0)?;
    out.push('\n');
    Ok(out)
}

/// Renders a value as compact JSON.
pub fn to_compact(node: &Node) -> Result<String> {
    let mut out = String::new();
    write_compact(&mut out, node)?;
    Ok(out)
}

pub fn write_string(out: &mut String, s: &str) {
    // serde_json's escaping is exactly RFC 8259's; on top of it, characters a YAML reader (and
    // strata's own loaders) refuse raw (DEL, C1 controls, U+FFFE/U+FFFF) become \u escapes, so
    // the output always reads back (fuzz finding: a "\u0080" string was written raw).
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
        Kind::Float(f) => {
            return Err(
                Error::new(ErrorKind::Merge, format!("the value {f} has no JSON form"))
                    .at(node.span)
                    .hint("use --output yaml, or change the value to a string"),
            )
        }
        Kind::Str(s) | Kind::Timestamp(s) => write_string(out, s),
        Kind::List(_) | Kind::Map(_) => return Ok(false),
    }
    Ok(true)
}

fn newline(out: &mut String, indent: usize) {
    out.push('\n');
    out.extend(std::iter::repeat_n(' ', indent));
}

fn write_value(out: &mut String, node: &Node, indent: usize) -> Result<()> {
    if scalar(out, node)? {
        return Ok(());
    }
    match &node.kind {
        Kind::List(items) if items.is_empty() => out.push_str("[]"),
        Kind::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, indent + 2);
                write_value(out, item, indent + 2)?;
            }
            newline(out, indent);
            out.push(']');
        }
        Kind::Map(m) if m.is_empty() => out.push_str("{}"),
        Kind::Map(m) => {
            out.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, indent + 2);
                write_string(out, &key_text(&k.0));
                out.push_str(": ");
                write_value(out, v, indent + 2)?;
            }
            newline(out, indent);
            out.push('}');
        }
        _ => {}
    }
    Ok(())
}

fn write_compact(out: &mut String, node: &Node) -> Result<()> {
    if scalar(out, node)? {
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
            out.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, &key_text(&k.0));
                out.push(':');
                write_compact(out, v)?;
            }
            out.push('}');
        }
        _ => {}
    }
    Ok(())
}
