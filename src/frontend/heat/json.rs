//! The Json half of Heat's `parse_param`: a value given as a YAML structure goes through
//! `json.dumps` / `json.loads` (so every mapping key becomes a string: `1` → `"1"`,
//! `true` → `"true"`), and a value given as a string is parsed as JSON. A string that is not
//! JSON is Heat's `Invalid parameter in environment` error.

use super::crash::Site;
use super::Heat;
use crate::error::{Error, ErrorKind, Result};
use crate::load::json;
use crate::value::{Key, Kind, List, Map, Node};

/// Parses a Json parameter given as a string. The JSON text becomes a source of its own, so
/// the parsed values keep positions (shown as `file (JSON of 'name'):line:col`).
pub(super) fn parse_string(
    text: &str,
    value: &Node,
    site: &Site,
    heat: &mut Heat<'_>,
) -> Result<Node> {
    let name = format!("{} (JSON of '{}')", site.file, site.param);
    let id = heat.sources.add(name, text.to_string());
    match json::load(heat.sources.text(id), id, &heat.settings.load) {
        // The value as a whole stays where it was written in the environment file.
        Ok(node) => Ok(Node {
            span: value.span,
            ..node
        }),
        Err(e) => {
            let at = e
                .span
                .and_then(|s| heat.sources.locate(s))
                .map(|l| format!(" at line {}, column {} of the string", l.line, l.column))
                .unwrap_or_default();
            Err(Error::new(
                ErrorKind::Merge,
                format!(
                    "Invalid parameter in environment: Json parameter '{}' is given as a string that is not JSON ({}{at})",
                    site.param, e.message
                ),
            )
            .code("ValueError")
            .at(value.span)
            .with_path(heat.path.clone())
            .hint("write the value as a YAML mapping, or as valid JSON text"))
        }
    }
}

/// `json.loads(json.dumps(value))`: the same value with every mapping key a string.
pub(super) fn round_trip(value: Node) -> Node {
    let span = value.span;
    match value.kind {
        Kind::List(items) => Node::list(items.into_iter().map(round_trip).collect::<List>(), span),
        Kind::Map(map) => {
            let mut out = Map::default();
            for (k, v) in map.into_iter() {
                let key = match &k.0.kind {
                    Kind::Str(_) => k,
                    _ => Key(Node::str(key_string(&k.0), k.0.span)),
                };
                out.insert(key, round_trip(v));
            }
            Node::map(out, span)
        }
        kind => Node::new(kind, span),
    }
}

/// The string `json.dumps` writes for a non-string key.
fn key_string(k: &Node) -> String {
    match &k.kind {
        Kind::Null => "null".into(),
        Kind::Bool(b) => b.to_string(),
        Kind::Float(f) => float_repr(*f),
        _ => crate::value::key_text(k),
    }
}

/// Python's `repr(float)` (which `json.dumps` uses for keys).
fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let abs = f.abs();
    if abs != 0.0 && !(1e-4..1e16).contains(&abs) {
        let s = format!("{f:e}");
        return match s.split_once('e') {
            Some((mant, exp)) => {
                let (sign, digits) = match exp.strip_prefix('-') {
                    Some(d) => ('-', d),
                    None => ('+', exp),
                };
                format!("{mant}e{sign}{digits:0>2}")
            }
            None => s,
        };
    }
    if f.fract() == 0.0 {
        format!("{f:.1}")
    } else {
        format!("{f}")
    }
}

#[cfg(test)]
mod tests {
    use super::float_repr;

    #[test]
    fn floats_as_python_writes_them() {
        assert_eq!(float_repr(1.0), "1.0");
        assert_eq!(float_repr(1.5), "1.5");
        assert_eq!(float_repr(1e20), "1e+20");
        assert_eq!(float_repr(1.5e-5), "1.5e-05");
        assert_eq!(float_repr(f64::INFINITY), "Infinity");
    }
}
