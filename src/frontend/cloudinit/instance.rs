//! The instance data a `## template: jinja` part is rendered with: an instance-data.json
//! turned into template variables as cloud-init 22.4's `convert_jinja_instance_data` does
//! (keys sorted, `v1` / `v2` ... copied to the top level, every key with a Jinja operator
//! character also reachable with `_`, `base64-encoded-keys` decoded).

use crate::error::{Error, ErrorKind, Result};
use crate::frontend::{add_text_input, Input, Settings};
use crate::value::{SourceMap, Span};
use minijinja::value::{Enumerator, Object, ObjectRepr, Value};
use std::sync::Arc;

/// Reads `--instance-data FILE`: an error at its position when it is not a JSON object.
pub fn load(input: Input, sources: &mut SourceMap, settings: &Settings) -> Result<InstanceData> {
    let id = add_text_input(input, sources, settings)?;
    InstanceData::parse(sources.text(id)).map_err(|e| {
        Error::new(ErrorKind::Parse, format!("instance data: {}", e.message))
            .at(Span::new(id, e.offset, e.offset + 1))
            .hint("give the instance-data.json of the machine (cloud-init query --all prints it)")
    })
}

/// The template variables made from an instance-data.json (`convert_jinja_instance_data`).
#[derive(Clone, Debug)]
pub struct InstanceData {
    pub(super) vars: Value,
}

/// Why instance data cannot be used: the message and the byte offset it is about.
#[derive(Debug)]
pub struct DataError {
    pub message: String,
    pub offset: usize,
}

impl InstanceData {
    /// Reads instance-data.json text (cloud-init's `load_json`: a JSON object).
    pub fn parse(text: &str) -> Result<InstanceData, DataError> {
        let json: serde_json::Value = serde_json::from_str(text).map_err(|e| DataError {
            message: format!("invalid JSON: {e}"),
            offset: offset_of(text, e.line(), e.column()),
        })?;
        let serde_json::Value::Object(map) = json else {
            return Err(DataError {
                message: "instance data must be a JSON object".into(),
                offset: text.len() - text.trim_start().len(),
            });
        };
        let decode: Vec<String> = match map.get("base64-encoded-keys") {
            Some(serde_json::Value::Array(a)) => a
                .iter()
                .filter_map(|p| p.as_str().map(str::to_string))
                .collect(),
            Some(serde_json::Value::String(s)) => s.chars().map(String::from).collect(),
            _ => Vec::new(),
        };
        let vars =
            convert(&map, "", &decode).map_err(|message| DataError { message, offset: 0 })?;
        Ok(InstanceData {
            vars: Value::from_object(vars),
        })
    }
}

fn offset_of(text: &str, line: usize, col: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + col.saturating_sub(1)).min(text.len())
}

/// A Python dict: insertion order, assigning an existing key keeps its place.
#[derive(Debug, Default, Clone)]
pub struct Dict(Vec<(Value, Value)>);

impl Dict {
    fn insert(&mut self, key: Value, value: Value) {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.0.push((key, value)),
        }
    }
}

impl Object for Dict {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Map
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Values(self.0.iter().map(|(k, _)| k.clone()).collect())
    }

    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        Some(self.0.len())
    }
}

/// `convert_jinja_instance_data(data, decode_paths=..., include_key_aliases=True)`.
fn convert(
    map: &serde_json::Map<String, serde_json::Value>,
    prefix: &str,
    decode: &[String],
) -> Result<Dict, String> {
    // cloud-init compares the paths with '-' made '_' to key paths as written: a path
    // through a hyphenated key is never decoded.
    let decode: Vec<String> = decode.iter().map(|p| p.replace('-', "_")).collect();
    let mut keys: Vec<&String> = map.keys().collect();
    keys.sort();
    let mut out = Dict::default();
    for key in keys {
        let Some(value) = map.get(key) else { continue };
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}/{key}")
        };
        let converted = if decode.contains(&path) {
            b64d(value, &path)?
        } else if let serde_json::Value::Object(inner) = value {
            let dict = convert(inner, &path, &decode)?;
            let is_version = key
                .strip_prefix('v')
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            let copies = is_version.then(|| dict.0.clone());
            out.insert(Value::from(key.as_str()), Value::from_object(dict));
            for (k, v) in copies.into_iter().flatten() {
                out.insert(k, v);
            }
            add_alias(&mut out, key);
            continue;
        } else {
            json_value(value)
        };
        out.insert(Value::from(key.as_str()), converted);
        add_alias(&mut out, key);
    }
    Ok(out)
}

/// `get_jinja_variable_alias`: each run of a Jinja operator (`jinja2.lexer.operator_re`:
/// `//`, `**`, `==`, `!=`, `>=`, `<=` or one of `+-/*%~[](){}><=.:|,;`) becomes `_`.
fn add_alias(out: &mut Dict, key: &str) {
    let mut alias = String::with_capacity(key.len());
    let mut rest = key;
    while let Some(c) = rest.chars().next() {
        let two = rest
            .get(..2)
            .filter(|t| ["//", "**", "==", "!=", ">=", "<="].contains(t));
        if let Some(t) = two {
            alias.push('_');
            rest = &rest[t.len()..];
        } else {
            alias.push(if "+-/*%~[](){}><=.:|,;".contains(c) {
                '_'
            } else {
                c
            });
            rest = &rest[c.len_utf8()..];
        }
    }
    if alias != key {
        if let Some(v) = out.get_value_of(key) {
            out.insert(Value::from(alias), v);
        }
    }
}

impl Dict {
    fn get_value_of(&self, key: &str) -> Option<Value> {
        self.0
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v.clone())
    }
}

/// `util.b64d`: the decoded text, or bytes when it is not UTF-8.
fn b64d(value: &serde_json::Value, path: &str) -> Result<Value, String> {
    let text = value
        .as_str()
        .ok_or_else(|| format!("base64-encoded key {path} is not a string"))?;
    let bytes = base64_decode(text)
        .ok_or_else(|| format!("base64-encoded key {path}: invalid base64 (binascii.Error)"))?;
    Ok(match String::from_utf8(bytes) {
        Ok(s) => Value::from(s),
        Err(e) => Value::from_bytes(e.into_bytes()),
    })
}

/// Python's `base64.b64decode` (not validating: characters outside the alphabet are
/// skipped; the padding must be right).
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let mut bits = 0u32;
    let mut n = 0;
    let mut out = Vec::new();
    let mut quads = 0usize;
    let mut pad = 0;
    for b in text.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                pad += 1;
                continue;
            }
            _ => continue,
        };
        if pad > 0 {
            return None;
        }
        bits = (bits << 6) | u32::from(v);
        n += 1;
        quads += 1;
        if n == 4 {
            out.extend_from_slice(&[(bits >> 16) as u8, (bits >> 8) as u8, bits as u8]);
            bits = 0;
            n = 0;
        }
    }
    match n {
        0 => {}
        2 if quads % 4 == 2 && pad >= 2 => out.push((bits >> 4) as u8),
        3 if pad >= 1 => out.extend_from_slice(&[(bits >> 10) as u8, (bits >> 2) as u8]),
        _ => return None,
    }
    Some(out)
}

fn json_value(value: &serde_json::Value) -> Value {
    match value {
        serde_json::Value::Null => Value::from(()),
        serde_json::Value::Bool(b) => Value::from(*b),
        serde_json::Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => Value::from(i),
            (_, Some(u), _) => Value::from(u),
            (_, _, Some(f)) => Value::from(f),
            _ => Value::from(()),
        },
        serde_json::Value::String(s) => Value::from(s.as_str()),
        serde_json::Value::Array(a) => Value::from(a.iter().map(json_value).collect::<Vec<_>>()),
        serde_json::Value::Object(m) => {
            let mut d = Dict::default();
            for (k, v) in m {
                d.insert(Value::from(k.as_str()), json_value(v));
            }
            Value::from_object(d)
        }
    }
}
