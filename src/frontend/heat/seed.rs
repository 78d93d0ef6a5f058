//! The 2016 blueprint's proposal, `merge_strategy:` keyed by type (`list: extend`,
//! `dict: merge | deep_merge`, `string: append`) or by parameter (`parameters: {Name: extend}`),
//! translated into per-parameter entries of the shipped `parameter_merge_strategies`. Heat never
//! shipped it (its parser rejects the section), so every use is warned about.

use super::env::{EnvFile, Section, SEED, STRATEGIES};
use super::strategy::{Choice, FileStrategies, Name};
use super::types::{PType, Schema};
use crate::error::{Error, ErrorKind, Result, WarnKind, Warning};
use crate::strategy::Origin;
use crate::value::key_text;
use crate::value::{Key, Node, Span};

/// The shipped strategy a proposed one means.
fn translate(value: &Node) -> Result<Name> {
    match value.as_str() {
        Some("extend" | "append" | "merge") => Ok(Name::Merge),
        Some("deep_merge") => Ok(Name::DeepMerge),
        Some("overwrite" | "replace") => Ok(Name::Overwrite),
        _ => Err(Error::new(
            ErrorKind::Directive,
            format!(
                "unknown {SEED} value {}",
                crate::render::yaml::to_string(value, None).trim_end()
            ),
        )
        .at(value.span)
        .hint("strata reads the blueprint's extend, append and merge as merge, deep_merge as deep_merge, overwrite and replace as overwrite")),
    }
}

/// The parameter type a proposed type key stands for.
fn type_key(key: &Key) -> Option<PType> {
    match key.as_str()? {
        "list" => Some(PType::List),
        "dict" => Some(PType::Json),
        "string" => Some(PType::String),
        _ => None,
    }
}

/// Adds the translated entries of `file`'s `merge_strategy` to `strategies` (explicit
/// `parameter_merge_strategies` entries win), and warns once for the file.
pub(super) fn apply(
    file: &EnvFile,
    schema: &Schema,
    strategies: &mut FileStrategies,
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    let Some((key_span, value)) = &file.seed else {
        return Ok(());
    };
    let Some(map) = value.as_map() else {
        return Err(Error::new(
            ErrorKind::Directive,
            format!(
                "{SEED} must be a mapping, not {}",
                super::env::describe(value)
            ),
        )
        .at(value.span)
        .hint(format!(
            "write {STRATEGIES}: {{SomeParameter: merge}} (the form Heat ships)"
        )));
    };
    let mut by_type: Vec<(PType, Choice)> = Vec::new();
    let mut by_name: Vec<(Key, Choice)> = Vec::new();
    for (k, v) in map.iter() {
        if k.as_str() == Some("parameters") {
            let Some(params) = v.as_map() else {
                return Err(Error::new(
                    ErrorKind::Directive,
                    format!(
                        "{SEED}: parameters must be a mapping of parameter names to strategies"
                    ),
                )
                .at(v.span)
                .hint("write parameters: {ControllerServices: extend}"));
            };
            for (name, s) in params.iter() {
                by_name.push((name.clone(), choice(translate(s)?, s.span)));
            }
        } else if let Some(t) = type_key(k) {
            by_type.push((t, choice(translate(v)?, v.span)));
        } else {
            return Err(Error::new(
                ErrorKind::Directive,
                format!("unknown key '{}' in {SEED}", key_text(&k.0)),
            )
            .at(k.span())
            .hint("the blueprint's keys are list, dict, string and parameters"));
        }
    }
    let mut added: Vec<(String, String)> = Vec::new();
    let mut add = |strategies: &mut FileStrategies, key: &Key, c: &Choice| {
        if !strategies.entries.contains_key(key) {
            added.push((key_text(&key.0), c.name.text()));
            strategies.entries.insert(key.clone(), c.clone());
        }
    };
    for (key, c) in &by_name {
        add(strategies, key, c);
    }
    for (section, _, node) in &file.sections {
        if !matches!(section, Section::Parameters | Section::ParameterDefaults) {
            continue;
        }
        for (key, v) in node.as_map().into_iter().flat_map(|m| m.iter()) {
            if v.is_null() {
                continue;
            }
            let Some(t) = schema.get(key) else { continue };
            if let Some((_, c)) = by_type.iter().find(|(bt, _)| *bt == t) {
                add(strategies, key, c);
            }
        }
    }
    let shown = if added.is_empty() {
        "{}".to_string()
    } else {
        let items: Vec<String> = added.iter().map(|(k, s)| format!("{k}: {s}")).collect();
        format!("{{{}}}", items.join(", "))
    };
    warnings.push(Warning::new(WarnKind::AcceptedInvalid,
        format!("'{SEED}' is the 2016 blueprint's proposal, which Heat never shipped: Heat rejects this file (environment has wrong section \"{SEED}\"); strata reads it as {STRATEGIES}: {shown}"),
        *key_span,
    ));
    Ok(())
}

fn choice(name: Name, span: Span) -> Choice {
    Choice {
        name,
        origin: Origin::At(span),
    }
}
