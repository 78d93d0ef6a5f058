//! `default_lookup_options` + `lookup_options` → a `PathRules` table. A rule is a preset name
//! (`hash`) or a map of behaviours (`merge_hash`, `merge_basetype_array`, `merge_hash_array`,
//! `merge_options: {knockout_prefix, tuple_keys}`); setting names are case-insensitive. Keys
//! are exact paths (`A\B`, `A/B`, `/A/B`) or regexes (`^...`). Names Datum reads loosely (by
//! their start, or as a fallback) give a warning; a value of the wrong shape or an invalid
//! regex is an error at its file:line:col. Shared by `strata lookup` and `strata merge --rules`.

use super::names::{self, field_rule, NameMatch, Preset};
use crate::error::{Error, ErrorKind, Result, WarnKind, Warning};
use crate::strategy::ranked::{Field, MapMode, RankedStrategy, RuleId};
use crate::strategy::selector::{split_path, PathRule, PathRules, RuleKind};
use crate::strategy::Origin;
use crate::value::key_text;
use crate::value::{Kind, Node, Span};

/// What applies where no rule and no `default_lookup_options` is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// Datum: MostSpecific.
    Datum,
    /// `strata merge --rules`: maps merge recursively, arrays from the most specific file.
    PlainMerge,
}

/// A map entry looked up by a case-insensitive name.
pub fn get_ci<'a>(map: &'a Node, name: &str) -> Option<(&'a Node, &'a Node)> {
    map.as_map()?
        .iter()
        .find(|(k, _)| k.as_str().is_some_and(|t| t.eq_ignore_ascii_case(name)))
        .map(|(k, v)| (&k.0, v))
}

/// Compiles the two option values (either may be absent or null).
pub fn compile(
    default: Option<&Node>,
    options: Option<&Node>,
    fold: bool,
    fallback: Fallback,
    warnings: &mut Vec<Warning>,
) -> Result<PathRules> {
    let id0 = RuleId(0);
    let default_strategy = match default.filter(|d| !d.is_null()) {
        Some(d) => strategy_of(id0, d, "default_lookup_options", warnings)?,
        None => match fallback {
            Fallback::Datum => RankedStrategy::from_preset(
                id0,
                Preset::MostSpecific,
                "default",
                &Origin::Default("Datum default: MostSpecific".into()),
            ),
            Fallback::PlainMerge => RankedStrategy::plain_deep(
                id0,
                &Origin::Default("strata merge --rules default".into()),
            ),
        },
    };
    let mut rules = PathRules::new(
        fold,
        PathRule {
            name: "default_lookup_options".into(),
            kind: RuleKind::Default,
            span: default.map_or(Span::NONE, |d| d.span),
            strategy: default_strategy,
        },
    );
    let Some(options) = options.filter(|o| !o.is_null()) else {
        return Ok(rules);
    };
    let Some(map) = options.as_map() else {
        return Err(Error::new(
            ErrorKind::Directive,
            format!(
                "lookup_options must be a mapping, not {}",
                options.kind_phrase()
            ),
        )
        .at(options.span)
        .hint("write lookup_options: {Key: hash, Other\\Key: {merge_basetype_array: Unique}}"));
    };
    for (key, value) in map.iter() {
        let name = key_text(&key.0);
        let id = rules.next_id();
        let kind = if name.starts_with('^') {
            let re = regex::RegexBuilder::new(&name)
                .case_insensitive(fold)
                .size_limit(1 << 22)
                .build()
                .map_err(|e| {
                    let detail = e.to_string();
                    let last = detail.lines().last().unwrap_or("").trim();
                    let last = last.strip_prefix("error: ").unwrap_or(last).to_string();
                    Error::new(
                        ErrorKind::Directive,
                        format!("lookup_options key '{name}' is not a valid regex: {last}"),
                    )
                    .at(key.span())
                    .hint("keys starting with '^' are regexes matched against the path written with '\\' (write '\\\\' for one backslash); fix the pattern, or drop the '^' for an exact path")
                })?;
            RuleKind::Regex(re)
        } else {
            let segs: Vec<Box<str>> = split_path(&name).iter().map(|s| rules.norm(s)).collect();
            if segs.is_empty() {
                return Err(Error::new(
                    ErrorKind::Directive,
                    format!("lookup_options key '{name}' names no path"),
                )
                .at(key.span())
                .hint("write a key path such as 'Packages' or 'SoftwareBaseline\\Packages'"));
            }
            RuleKind::Exact(segs)
        };
        let label = match kind {
            RuleKind::Regex(_) => format!("regex rule '{name}'"),
            _ => format!("exact rule '{name}'"),
        };
        let strategy = strategy_of(id, value, &label, warnings)?;
        let pushed = rules.push(PathRule {
            name: name.clone(),
            kind,
            span: key.span(),
            strategy,
        });
        if !pushed {
            warnings.push(Warning::new(WarnKind::DuplicateKey,
                format!("lookup_options key '{name}' repeats an earlier key (keys are compared case-insensitively): the first one is used"),
                key.span(),
            ));
        }
    }
    Ok(rules)
}

fn text_of<'a>(value: &'a Node, what: &str) -> Result<&'a str> {
    value.as_str().ok_or_else(|| {
        Error::new(
            ErrorKind::Directive,
            format!("{what} must be a name, not {}", value.kind_phrase()),
        )
        .at(value.span)
        .hint(format!(
            "write one of: merge_hash {}; merge_basetype_array {}; merge_hash_array {}",
            names::HASH_NAMES,
            names::ARRAY_NAMES,
            names::HASH_ARRAY_NAMES
        ))
    })
}

fn loose_name(
    warnings: &mut Vec<Warning>,
    field: &str,
    written: &str,
    read_as: &str,
    how: NameMatch,
    names: &str,
    span: Span,
) {
    let message = match how {
        NameMatch::Exact => return,
        NameMatch::Prefix => format!(
            "{field} '{written}' is read as '{read_as}' (Datum matches only the start of the name); documented names: {names}"
        ),
        NameMatch::Fallback => format!(
            "{field} '{written}' is not a Datum strategy: Datum falls back to '{read_as}'; documented names: {names}"
        ),
    };
    warnings.push(Warning::new(WarnKind::UnknownOption, message, span));
}

/// One rule value: a preset name or a map of behaviours.
fn strategy_of(
    id: RuleId,
    value: &Node,
    label: &str,
    warnings: &mut Vec<Warning>,
) -> Result<RankedStrategy> {
    match &value.kind {
        Kind::Str(name) => {
            let origin = Origin::At(value.span);
            let preset = Preset::parse(name).unwrap_or_else(|| {
                warnings.push(Warning::new(WarnKind::UnknownOption,
                    format!("'{name}' is not a Datum preset (MostSpecific, First, hash, MergeTopKeys, deep, MergeRecursively, Unique): Datum reads it as MostSpecific; for one behaviour write e.g. {{merge_basetype_array: {name}}}"),
                    value.span,
                ));
                Preset::MostSpecific
            });
            Ok(RankedStrategy::from_preset(id, preset, label, &origin))
        }
        Kind::Map(_) => custom(id, value, label, warnings),
        _ => Err(Error::new(
            ErrorKind::Directive,
            format!(
                "a lookup_options rule must be a preset name or a mapping of merge settings, not {}",
                value.kind_phrase()
            ),
        )
        .at(value.span)
        .hint("write e.g. 'deep', or {merge_hash: deep, merge_basetype_array: Unique}")),
    }
}

fn custom(
    id: RuleId,
    value: &Node,
    label: &str,
    warnings: &mut Vec<Warning>,
) -> Result<RankedStrategy> {
    let at = |v: &Node| Origin::At(v.span);
    let missing = Origin::At(value.span);
    let mut s = RankedStrategy::from_preset(id, Preset::MostSpecific, label, &missing);
    s.maps = Field {
        value: MapMode::TopKeys,
        rule: field_rule(
            id,
            "merge_hash",
            "hash (not set; Datum merges top keys)",
            label,
            missing.clone(),
        ),
    };
    s.lists.rule.text = format!("merge_basetype_array: MostSpecific (not set) ({label})").into();
    s.map_lists.rule.text = format!("merge_hash_array: MostSpecific (not set) ({label})").into();
    let Some(map) = value.as_map() else {
        return Ok(s);
    };
    for (key, v) in map.iter() {
        let name = key_text(&key.0);
        match name.to_ascii_lowercase().as_str() {
            "merge_hash" => {
                let t = text_of(v, "merge_hash")?;
                let (mode, how) = names::parse_hash_mode(t);
                loose_name(warnings, "merge_hash", t, mode.name(), how, names::HASH_NAMES, v.span);
                s.maps = Field {
                    value: mode,
                    rule: field_rule(id, "merge_hash", mode.name(), label, at(v)),
                };
            }
            "merge_basetype_array" => {
                let t = text_of(v, "merge_basetype_array")?;
                let (mode, how) = names::parse_array_mode(t);
                loose_name(warnings, "merge_basetype_array", t, mode.name(), how, names::ARRAY_NAMES, v.span);
                s.lists = Field {
                    value: mode,
                    rule: field_rule(id, "merge_basetype_array", mode.name(), label, at(v)),
                };
            }
            "merge_hash_array" => {
                let t = text_of(v, "merge_hash_array")?;
                let (mode, how) = names::parse_hash_array_mode(t);
                loose_name(warnings, "merge_hash_array", t, mode.name(), how, names::HASH_ARRAY_NAMES, v.span);
                s.map_lists = Field {
                    value: mode,
                    rule: field_rule(id, "merge_hash_array", mode.name(), label, at(v)),
                };
            }
            "merge_options" => merge_options(id, v, label, &mut s, warnings)?,
            "strategy" => warnings.push(Warning::new(WarnKind::UnknownOption,
                format!("'{name}' is not read by Datum's merge: this rule merges maps by top keys and keeps the most specific arrays; write merge_hash: deep (or the preset 'deep') to merge recursively"),
                key.span(),
            )),
            _ => warnings.push(Warning::new(WarnKind::UnknownOption,
                format!("'{name}' is not a Datum merge setting (merge_hash, merge_basetype_array, merge_hash_array, merge_options): ignored"),
                key.span(),
            )),
        }
    }
    Ok(s)
}

fn merge_options(
    id: RuleId,
    value: &Node,
    label: &str,
    s: &mut RankedStrategy,
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    if value.is_null() {
        return Ok(());
    }
    let Some(map) = value.as_map() else {
        return Err(Error::new(
            ErrorKind::Directive,
            format!(
                "merge_options must be a mapping, not {}",
                value.kind_phrase()
            ),
        )
        .at(value.span)
        .hint("write merge_options: {knockout_prefix: '--', tuple_keys: [Name]}"));
    };
    for (key, v) in map.iter() {
        let name = key_text(&key.0);
        match name.to_ascii_lowercase().as_str() {
            "knockout_prefix" => {
                if v.is_null() {
                    s.knockout_prefix = None;
                    continue;
                }
                let prefix = match v.as_str() {
                    Some(p) if !p.is_empty() => p,
                    _ => {
                        return Err(Error::new(
                            ErrorKind::Directive,
                            "knockout_prefix must be a non-empty string",
                        )
                        .at(v.span)
                        .hint("write knockout_prefix: '--'"))
                    }
                };
                s.knockout_prefix = Some(Field {
                    value: prefix.into(),
                    rule: field_rule(id, "knockout_prefix", prefix, label, Origin::At(v.span)),
                });
            }
            "tuple_keys" => {
                let keys: Vec<Box<str>> = match &v.kind {
                    Kind::List(items) => items
                        .iter()
                        .map(|i| match &i.kind {
                            Kind::List(_) | Kind::Map(_) | Kind::Null => Err(Error::new(
                                ErrorKind::Directive,
                                format!("a tuple key must be a key name, not {}", i.kind_phrase()),
                            )
                            .at(i.span)
                            .hint("write tuple_keys: [Name, Version]")),
                            _ => Ok(key_text(i).into()),
                        })
                        .collect::<Result<_>>()?,
                    Kind::Str(k) => vec![k.as_str().into()],
                    _ => {
                        return Err(Error::new(
                            ErrorKind::Directive,
                            format!(
                                "tuple_keys must be a list of key names, not {}",
                                v.kind_phrase()
                            ),
                        )
                        .at(v.span)
                        .hint("write tuple_keys: [Name, Version]"))
                    }
                };
                if keys.is_empty() {
                    return Err(Error::new(ErrorKind::Directive, "tuple_keys is empty")
                        .at(v.span)
                        .hint("name the keys that identify an item, e.g. tuple_keys: [Name]"));
                }
                let text = keys.iter().map(|k| &**k).collect::<Vec<_>>().join(", ");
                s.item_keys = Some(Field {
                    value: keys,
                    rule: field_rule(id, "tuple_keys", &text, label, Origin::At(v.span)),
                });
            }
            _ => warnings.push(Warning::new(
                WarnKind::UnknownOption,
                format!(
                    "'{name}' is not a Datum merge option (knockout_prefix, tuple_keys): ignored"
                ),
                key.span(),
            )),
        }
    }
    Ok(())
}
