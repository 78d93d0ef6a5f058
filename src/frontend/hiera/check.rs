//! Puppet's check of each value a YAML data file gives for a key, before it is interpolated
//! (`DataProvider#validate_data_value`: the value must be `RichData`). What Psych builds can
//! fail it in two ways: a hash key that is neither a String nor a number (`off:` is `false`,
//! `~:` nil, `? [a]` an array), and a Ruby Symbol (`:name`, `!ruby/sym`), which strata holds
//! as the string of its name. The loader notes (`load::psych::Refusal`) the Symbols' spans,
//! and the mappings where a Boolean key merged into an equal number key (`1:` and `yes:`:
//! one key in strata's map, two in Ruby's). Symbol keys are not checked: Puppet makes them
//! strings when it reads the file.

use super::config::Format;
use crate::error::{Error, ErrorKind, Result};
use crate::load::psych::Refusal;
use crate::value::{Kind, Node, Span};
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::Path;

/// Where the value came from, for the message: the root key, the data file and its format.
pub struct Origin<'a> {
    pub key: &'a str,
    pub path: &'a Path,
    pub format: Format,
}

/// Fails like Puppet when `value` is not `RichData`; `refused`: what the loaders noted.
pub fn rich_data(
    value: &Node,
    refused: &FxHashMap<Span, Refusal>,
    origin: &Origin<'_>,
) -> Result<()> {
    if origin.format != Format::Yaml {
        return Ok(());
    }
    let is_symbol =
        |n: &Node| matches!(n.kind, Kind::Str(_)) && refused.get(&n.span) == Some(&Refusal::Symbol);
    let key_hint = "a Puppet hash key is a String or a number, and Psych reads unquoted off / no / yes / on / true / false as booleans and ~ or nothing as nil: quote the key";
    let mut todo = vec![value];
    while let Some(n) = todo.pop() {
        match &n.kind {
            Kind::Str(s) if is_symbol(n) => {
                let got = if std::ptr::eq(n, value) {
                    "Runtime[ruby, 'Symbol']".to_string()
                } else {
                    format!("a value holding the Ruby Symbol :{s} (Runtime[ruby, 'Symbol'])")
                };
                return Err(wrong_type(origin, &got, n.span).hint(format!(
                    "Psych reads :{s} as a Ruby Symbol, which is not Puppet data: quote it (':{s}') or drop the colon"
                )));
            }
            Kind::List(items) => todo.extend(items.iter().rev()),
            Kind::Map(m) => {
                if let Some(Refusal::BooleanKey { key }) = refused.get(&n.span) {
                    let got =
                        "a Hash with a Boolean key (Ruby keeps it beside the equal number key)";
                    return Err(wrong_type(origin, got, *key).hint(key_hint));
                }
                for (k, v) in m.iter() {
                    if let Some(what) = bad_key(&k.0) {
                        let got = format!("a Hash with the key {what}");
                        return Err(wrong_type(origin, &got, k.span()).hint(key_hint));
                    }
                    todo.push(v);
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// What a key that is not `RichDataKey` (a String or a number) is, for the message.
fn bad_key(k: &Node) -> Option<String> {
    Some(match &k.kind {
        Kind::Str(_) | Kind::Int(_) | Kind::BigInt(_) | Kind::Float(_) => return None,
        Kind::Null => "nil (Undef), not a String".to_string(),
        Kind::Bool(b) => format!("{b} (a Boolean), not a String"),
        Kind::List(_) | Kind::Tuple(_) => "an Array, not a String".to_string(),
        Kind::Map(_) | Kind::Set(_) => "a Hash, not a String".to_string(),
        Kind::Timestamp(_) | Kind::Bytes(_) => return None,
    })
}

fn wrong_type(origin: &Origin<'_>, got: &str, at: Span) -> Error {
    let function = match origin.format {
        Format::Yaml => "yaml_data",
        Format::Json => "json_data",
    };
    Error::new(
        ErrorKind::Merge,
        format!(
            "Value for key '{key}', in hash returned from data_hash function '{function}', when using location '{}', has wrong type, expects Puppet::LookupValue, got {got}",
            origin.path.display(),
            key = origin.key,
        ),
    )
    .at(at)
}

/// A Symbol among hiera.yaml's values (its keys Puppet makes strings): Puppet's type check
/// of the configuration fails.
pub fn config_symbols(doc: &Node, noted: &[(Span, Refusal)], name: &str) -> Result<()> {
    let symbols: FxHashSet<Span> = noted
        .iter()
        .filter(|(_, r)| *r == Refusal::Symbol)
        .map(|(at, _)| *at)
        .collect();
    if symbols.is_empty() {
        return Ok(());
    }
    let mut todo = vec![(doc, String::new())];
    while let Some((n, at)) = todo.pop() {
        match &n.kind {
            Kind::Str(s) if symbols.contains(&n.span) => {
                return Err(Error::new(
                    ErrorKind::Directive,
                    format!(
                        "The Lookup Configuration at '{name}' has wrong type,{at} expects a String value, got Runtime[ruby, 'Symbol']"
                    ),
                )
                .at(n.span)
                .hint(format!(
                    "Psych reads :{s} as a Ruby Symbol: quote it (':{s}') or drop the colon"
                )));
            }
            Kind::List(items) => {
                for (i, item) in items.iter().enumerate().rev() {
                    todo.push((item, format!("{at} index {i}")));
                }
            }
            Kind::Map(m) => {
                for (k, v) in m.iter().rev() {
                    let key = crate::value::key_text(&k.0);
                    todo.push((v, format!("{at} entry '{key}'")));
                }
            }
            _ => {}
        }
    }
    Ok(())
}
