//! Puppet's four merge behaviours (`Puppet::Pops::MergeStrategy`): how a merge is written
//! (`first`, `{strategy: deep, knockout_prefix: '--'}`), which options each accepts, and the
//! three hooks every lookup fold calls: `convert_value` for the first value found,
//! `merge(memo, value)` with its type assertions, and `merge_single` when there was only one
//! place to look. Each compiles to an engine spec: `unique` a `ListMethod::Union`, `hash` a one-level
//! `DictMethod::Replace`, `deep` the deep_merge gem's merge (`MergerSpec::Gem`, `merge/gem.rs`).

use super::ruby;
use crate::merge::fold::{Fold, Rules};
use crate::merge::union::union;
use crate::merge::{RuleRef, Trace};
use crate::strategy::{
    DictMethod, DictOpts, GemOpts, Knockout, ListMethod, ListOpts, Merger, MergerSpec, Origin,
    RuleSet,
};
use crate::value::{Kind, Node, Span};
use regex::Regex;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Name {
    First,
    Unique,
    Hash,
    Deep,
}

impl Name {
    pub fn parse(s: &str) -> Option<Name> {
        match s {
            "first" | "default" => Some(Name::First),
            "unique" => Some(Name::Unique),
            "hash" => Some(Name::Hash),
            "deep" => Some(Name::Deep),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Name::First => "first",
            Name::Unique => "unique",
            Name::Hash => "hash",
            Name::Deep => "deep",
        }
    }
}

/// A merge behaviour with its options, and where it was chosen (for `--explain`).
#[derive(Clone, Debug)]
pub struct Behaviour {
    pub name: Name,
    pub deep: GemOpts,
    /// The options as written, in order (for the explanation's `Options:` line).
    pub options: Vec<(String, Node)>,
    /// What chose it: `--merge`, a `lookup_options` entry, or the default.
    pub source: String,
    pub origin: Origin,
}

impl Behaviour {
    pub fn first() -> Behaviour {
        Behaviour {
            name: Name::First,
            deep: GemOpts::default(),
            options: Vec::new(),
            source: "default: first found".into(),
            origin: Origin::Default("Hiera's default merge behaviour (first)".into()),
        }
    }

    /// Reads a `merge` value (a name or `{strategy: NAME, options...}`).
    pub fn parse(value: &Node, source: String, origin: Origin) -> Result<Behaviour, String> {
        let (name_node, opts): (&Node, Vec<(String, Node)>) = match &value.kind {
            Kind::Map(m) => {
                let name = m.get(&crate::value::Key::str("strategy")).ok_or_else(|| {
                    "The hash given as 'merge' must contain the name of a strategy in string form for the key 'strategy'".to_string()
                })?;
                let opts = m
                    .iter()
                    .filter(|(k, _)| k.as_str() != Some("strategy"))
                    .map(|(k, v)| (crate::value::key_text(&k.0), v.clone()))
                    .collect();
                (name, opts)
            }
            _ => (value, Vec::new()),
        };
        let text = ruby::text(name_node)
            .map(str::to_string)
            .unwrap_or_else(|| ruby::inspect(name_node));
        let name = Name::parse(&text).ok_or_else(|| format!("Unknown merge strategy: '{text}'"))?;
        let mut deep = GemOpts::default();
        for (k, v) in &opts {
            let bad = || {
                format!(
                    "The merge options has wrong type, unrecognized key '{k}' for the '{}' strategy",
                    name.as_str()
                )
            };
            if name != Name::Deep {
                return Err(bad());
            }
            match (k.as_str(), &v.kind) {
                ("knockout_prefix", Kind::Null) => {}
                ("knockout_prefix", _) => {
                    let p = ruby::text(v).ok_or_else(|| {
                        format!("The merge options entry 'knockout_prefix' expects a String value, got {}", ruby::puppet_type(v))
                    })?;
                    if p.is_empty() {
                        return Err(
                            "knockout_prefix cannot be an empty string in deep_merge!".into()
                        );
                    }
                    let re = Regex::new(&format!("(?m)^(?:{p})")).map_err(|e| {
                        format!("knockout_prefix '{p}' is not a regular expression Ruby and strata can both read: {e}")
                    })?;
                    deep.knockout = Some(Knockout {
                        prefix: p.into(),
                        re,
                    });
                }
                ("sort_merged_arrays" | "merge_hash_arrays" | "merge_debug", Kind::Bool(b)) => {
                    match k.as_str() {
                        "sort_merged_arrays" => deep.sort_merged_arrays = *b,
                        "merge_hash_arrays" => deep.merge_hash_arrays = *b,
                        _ => {}
                    }
                }
                ("sort_merged_arrays" | "merge_hash_arrays" | "merge_debug", Kind::Null) => {}
                ("sort_merged_arrays" | "merge_hash_arrays" | "merge_debug", _) => {
                    return Err(format!(
                        "The merge options entry '{k}' expects a Boolean value, got {}",
                        ruby::puppet_type(v)
                    ))
                }
                _ => return Err(bad()),
            }
        }
        Ok(Behaviour {
            name,
            deep,
            options: opts,
            source,
            origin,
        })
    }

    pub fn rule(&self, level: &str) -> RuleRef {
        RuleRef {
            text: format!(
                "hiera {} from {}, merging level \"{level}\"",
                self.describe(),
                self.source
            )
            .into(),
            origin: self.origin.clone(),
        }
    }

    /// `deep (knockout_prefix: --)`.
    pub fn describe(&self) -> String {
        if self.options.is_empty() {
            return self.name.as_str().into();
        }
        let opts: Vec<String> = self
            .options
            .iter()
            .map(|(k, v)| format!("{k}: {}", ruby::to_s(v)))
            .collect();
        format!("{} ({})", self.name.as_str(), opts.join(", "))
    }

    /// `convert_value`: applied to the first value a fold finds.
    pub fn convert(&self, v: Node) -> Node {
        match self.name {
            Name::Unique => unique_convert(v),
            _ => v,
        }
    }

    /// `merge_single`: the value of a fold over exactly one place.
    pub fn single(&self, v: Node) -> Node {
        match (self.name, v.kind) {
            (Name::Unique, Kind::List(items)) => Node::list(union(items), v.span),
            (_, kind) => Node::new(kind, v.span),
        }
    }

    /// `merge(memo, value)`: memo, the higher-priority accumulator, is `fold`'s value.
    pub fn merge(
        &self,
        fold: &mut Fold,
        value: Node,
        trace: Option<&mut Trace>,
        rule: Option<RuleRef>,
    ) -> Result<(), String> {
        let null = Node::null(Span::NONE);
        let memo = fold.value().unwrap_or(&null);
        // Each behaviour is one engine merge with the lower value as the old side.
        let rule = |spec| {
            let rule = rule.unwrap_or_else(|| RuleRef {
                text: self.name.as_str().into(),
                origin: self.origin.clone(),
            });
            RuleSet::one(Merger {
                spec,
                text: rule.text,
                origin: rule.origin,
            })
        };
        match self.name {
            Name::First => Ok(()),
            Name::Unique => {
                check_unique("The first element of the merge", memo)?;
                check_unique("The second element of the merge", &value)?;
                // `flatten(memo) | flatten(value)`: the engine's union by strict equality,
                // the list named by its first item. Puppet's explanation shows no step per
                // item, so none is recorded.
                let value = flat(value);
                let span = first_leaf(memo)
                    .or(value.first().map(|n| n.span))
                    .unwrap_or(Span::NONE);
                fold.edit(|memo| Ok::<_, (String, Node)>(Node::list(flat(memo), span)))?;
                let rules = rule(MergerSpec::List(ListOpts {
                    method: ListMethod::Union,
                    recurse_list: false,
                    recurse_str: false,
                    recurse_dict: false,
                }));
                fold.merge(None, Rules::new(&rules), Node::list(value, span))
                    .map_err(|e| e.message)
            }
            Name::Hash => {
                check_hash("The first element of the merge", memo)?;
                check_hash("The second element of the merge", &value)?;
                // `value.merge(memo)`: lower keys first, higher values win — a one-level
                // `Dict Replace`.
                let rules = rule(MergerSpec::Dict(DictOpts::new(DictMethod::Replace)));
                fold.merge_into(trace, Rules::new(&rules), value)
                    .map_err(|e| e.message)
            }
            // `deep_merge!(memo, value)`: the gem merges the higher value into the lower.
            Name::Deep => {
                let rules = rule(MergerSpec::Gem(self.deep.clone()));
                fold.merge_into(trace, Rules::new(&rules), value)
                    .map_err(|e| e.message)
            }
        }
    }
}

/// The span of the first item `flat` gives.
fn first_leaf(v: &Node) -> Option<Span> {
    match &v.kind {
        Kind::List(items) => items.iter().find_map(first_leaf),
        _ => Some(v.span),
    }
}

/// `e.is_a?(Array) ? e.flatten : [e]`
fn flat(v: Node) -> Vec<Node> {
    fn go(v: Node, out: &mut Vec<Node>) {
        match v.kind {
            Kind::List(items) => items.into_iter().for_each(|i| go(i, out)),
            kind => out.push(Node::new(kind, v.span)),
        }
    }
    match v.kind {
        Kind::List(_) => {
            let mut out = Vec::new();
            go(v, &mut out);
            out
        }
        kind => vec![Node::new(kind, v.span)],
    }
}

fn unique_convert(v: Node) -> Node {
    let span = v.span;
    Node::list(flat(v), span)
}

/// `Variant[Scalar, Array[Data]]`.
fn check_unique(what: &str, v: &Node) -> Result<(), String> {
    match &v.kind {
        Kind::Map(_) | Kind::Null => Err(format!(
            "{what} has wrong type, expects a value of type Scalar or Array, got {}",
            ruby::puppet_type(v)
        )),
        Kind::List(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, item)| check_data(what, &format!(" index {i}"), item)),
        _ => Ok(()),
    }
}

/// `Hash[String, Data]`.
fn check_hash(what: &str, v: &Node) -> Result<(), String> {
    match &v.kind {
        Kind::Map(m) if m.keys().all(|k| ruby::text(&k.0).is_some()) => {
            m.iter().try_for_each(|(k, item)| {
                let entry = format!(" entry '{}'", ruby::text(&k.0).unwrap_or_default());
                check_data(what, &entry, item)
            })
        }
        Kind::Map(_) => Err(format!(
            "{what} has wrong type, expects a Hash[String, Data] value, got a Hash with keys that are not strings"
        )),
        _ => Err(format!(
            "{what} has wrong type, expects a Hash value, got {}",
            ruby::puppet_type(v)
        )),
    }
}

/// Puppet's `Data` (scalars, undef, arrays of Data, hashes of String to Data) at `at`
/// (`" entry 'a' index 0"`): a hash with a key that is not a string anywhere inside fails.
fn check_data(what: &str, at: &str, v: &Node) -> Result<(), String> {
    match &v.kind {
        Kind::Map(m) => {
            if !m.keys().all(|k| ruby::text(&k.0).is_some()) {
                return Err(format!(
                    "{what} has wrong type,{at} expects a Data value, got Hash (a key that is not a string)"
                ));
            }
            m.iter().try_for_each(|(k, item)| {
                let entry = format!("{at} entry '{}'", ruby::text(&k.0).unwrap_or_default());
                check_data(what, &entry, item)
            })
        }
        Kind::List(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, item)| check_data(what, &format!("{at} index {i}"), item)),
        _ => Ok(()),
    }
}
