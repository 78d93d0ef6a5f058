//! Which merge strategy applies to a parameter, as Heat's `get_param_merge_strategy` decides:
//! one file's `parameter_merge_strategies` (its `default` and per-parameter entries), and the
//! registry, shared by `parameters` and `parameter_defaults`, that fixes each parameter's
//! strategy where it first appears and reports a conflict when a later file names another.

use super::env::STRATEGIES;
use crate::error::{Error, ErrorKind, WarnKind, Warning};
use crate::merge::RuleRef;
use crate::strategy::Origin;
use crate::value::key_text;
use crate::value::{Key, Kind, Node, SourceMap, Span};
use rustc_hash::FxHashMap;

/// A strategy as written. Anything but the three names is kept as written (`Other`): Heat
/// records an invalid `default` as it is, and then merges like `overwrite`.
#[derive(Clone, Debug)]
pub enum Name {
    Overwrite,
    Merge,
    DeepMerge,
    Other(Node),
}

impl Name {
    pub fn of(node: &Node) -> Name {
        match node.as_str() {
            Some("overwrite") => Name::Overwrite,
            Some("merge") => Name::Merge,
            Some("deep_merge") => Name::DeepMerge,
            _ => Name::Other(node.clone()),
        }
    }

    pub fn is_valid(&self) -> bool {
        !matches!(self, Name::Other(_))
    }

    pub fn text(&self) -> String {
        match self {
            Name::Overwrite => "overwrite".into(),
            Name::Merge => "merge".into(),
            Name::DeepMerge => "deep_merge".into(),
            Name::Other(n) => match &n.kind {
                Kind::List(_) | Kind::Map(_) => {
                    crate::render::json::to_compact(n).unwrap_or_else(|_| "?".into())
                }
                _ => key_text(n),
            },
        }
    }

    /// Python's `==` on the strategy values.
    pub fn same(&self, other: &Name) -> bool {
        match (self, other) {
            (Name::Other(a), Name::Other(b)) => a.py_eq(b),
            (Name::Overwrite, Name::Overwrite)
            | (Name::Merge, Name::Merge)
            | (Name::DeepMerge, Name::DeepMerge) => true,
            _ => false,
        }
    }
}

/// A strategy and where it was set.
#[derive(Clone, Debug)]
pub struct Choice {
    pub name: Name,
    pub origin: Origin,
}

impl Choice {
    pub fn heat_default() -> Choice {
        Choice {
            name: Name::Overwrite,
            origin: Origin::Default("Heat default: overwrite".into()),
        }
    }

    pub fn at(node: &Node) -> Choice {
        Choice {
            name: Name::of(node),
            origin: Origin::At(node.span),
        }
    }

    pub fn rule(&self) -> RuleRef {
        RuleRef {
            text: self.name.text().into(),
            origin: self.origin.clone(),
        }
    }
}

/// One file's strategies.
#[derive(Debug, Default)]
pub struct FileStrategies {
    /// The file's `default`, if it has one.
    pub default: Option<Choice>,
    /// Entries by parameter name (`default` included: a parameter named so gets the default).
    pub entries: FxHashMap<Key, Choice>,
}

impl FileStrategies {
    /// Reads a `parameter_merge_strategies` mapping, warning about names Heat does not know.
    pub fn read(section: Option<&Node>, warnings: &mut Vec<Warning>) -> FileStrategies {
        let mut out = FileStrategies::default();
        let Some(map) = section.and_then(Node::as_map) else {
            return out;
        };
        let default = map.get(&Key::str("default")).map(Choice::at);
        for (k, v) in map.iter() {
            let choice = Choice::at(v);
            if !choice.name.is_valid() {
                let name = choice.name.text();
                let message = if k.as_str() == Some("default") {
                    format!("{STRATEGIES} default '{name}' is not a merge strategy (overwrite, merge, deep_merge): Heat records it as it is for every parameter first set in this file, merges them like overwrite, and reports a conflict when a later file sets them")
                } else {
                    let fallback = default
                        .as_ref()
                        .map(|d| d.name.text())
                        .unwrap_or_else(|| "overwrite".into());
                    format!("unknown merge strategy '{name}' for parameter '{}': Heat silently uses this file's default '{fallback}'", key_text(&k.0))
                };
                warnings.push(Warning::new(WarnKind::UnknownOption, message, v.span));
            }
            out.entries.insert(k.clone(), choice);
        }
        out.default = default;
        out
    }

    /// The file's default, or Heat's (`overwrite`).
    fn env_default(&self) -> Choice {
        self.default.clone().unwrap_or_else(Choice::heat_default)
    }

    /// `get_param_merge_strategy`: this file's entry, else the recorded strategy, else the
    /// file's default; an invalid name falls back to the file's default. Also returns the span
    /// of this file's entry for the parameter, if it has one.
    pub fn resolve(&self, key: &Key, registry: &Registry) -> (Choice, Option<Span>) {
        let entry = self.entries.get(key);
        let candidate = match (entry, registry.get(key)) {
            (Some(c), _) => c.clone(),
            (None, Some(rec)) => rec.choice.clone(),
            (None, None) => self.env_default(),
        };
        let choice = if candidate.name.is_valid() {
            candidate
        } else {
            self.env_default()
        };
        (choice, entry.and_then(|c| origin_span(&c.origin)))
    }
}

fn origin_span(origin: &Origin) -> Option<Span> {
    match origin {
        Origin::At(span) => Some(*span),
        Origin::Default(_) => None,
    }
}

/// A parameter's strategy, fixed where the parameter first appeared.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub choice: Choice,
    /// The parameter's key in the file where it first appeared.
    pub first: Span,
}

/// Heat's `available_strategies`, for the whole merge.
#[derive(Debug, Default)]
pub struct Registry {
    map: FxHashMap<Key, Recorded>,
}

impl Registry {
    pub fn get(&self, key: &Key) -> Option<&Recorded> {
        self.map.get(key)
    }

    /// Records a parameter's strategy, or checks it against the recorded one.
    pub fn check(
        &mut self,
        key: &Key,
        key_span: Span,
        resolved: (Choice, Option<Span>),
        file: &str,
        sources: &SourceMap,
    ) -> Result<(), Error> {
        let (choice, entry) = resolved;
        let Some(rec) = self.map.get(key) else {
            self.map.insert(
                key.clone(),
                Recorded {
                    choice,
                    first: key_span,
                },
            );
            return Ok(());
        };
        if rec.choice.name.same(&choice.name) {
            return Ok(());
        }
        let param = key_text(&key.0);
        let was = rec.choice.name.text();
        let set = match &rec.choice.origin {
            Origin::At(span) => match sources.locate(*span) {
                Some(loc) => format!("set at {loc}"),
                None => "set earlier".into(),
            },
            Origin::Default(_) => match sources.locate(rec.first) {
                Some(loc) => format!(
                    "Heat's default, as no strategy was named where it first appeared at {loc}"
                ),
                None => "Heat's default".into(),
            },
        };
        let span = entry.unwrap_or(key_span);
        let hint = if rec.choice.name.is_valid() {
            format!("'{param}' already has the strategy '{was}' ({set}); Heat fixes a parameter's strategy in the first file that sets it: name '{was}' here, or remove this entry")
        } else {
            format!("'{param}' was recorded with the invalid default '{was}' ({set}), which Heat keeps as it is and no entry can match: make that default overwrite, merge or deep_merge")
        };
        Err(Error::new(
            ErrorKind::Conflict,
            format!(
                "Conflicting merge strategy '{}' for parameter '{param}' in file '{file}'.",
                choice.name.text()
            ),
        )
        .code("ConflictingMergeStrategyForParam")
        .at(span)
        .hint(hint))
    }
}
