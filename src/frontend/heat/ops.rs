//! Heat's value-level merge functions, with Python's semantics: `merge_map` (one-level update,
//! or recursive with `deep_merge`: maps recurse, lists extend, strings concatenate, nulls are
//! skipped, a falsy old value is replaced), `merge_list` (list extend, or comma-joined
//! strings), `''.join` for String and `+` for Number. Where the Python code would raise on
//! input it does not guard (a TypeError or AttributeError), strata returns a clear error.

use super::env::truthy;
use super::tracer::Tracer;
use super::types::PType;
use crate::error::{Error, ErrorKind, Result, Warning};
use crate::merge::{Outcome, RuleRef};
use crate::value::{Kind, List, Node, SourceMap};

/// The parameter being merged, for messages and the trace.
#[derive(Debug)]
pub struct Site {
    pub param: String,
    pub ptype: PType,
    pub file: String,
    pub rule: RuleRef,
}

/// The functions, with what they need to trace, warn and explain failures.
pub struct Ops<'a> {
    pub tracer: &'a mut Tracer,
    pub warnings: &'a mut Vec<Warning>,
    pub sources: &'a SourceMap,
    pub site: &'a Site,
}

/// Python's type name, as Heat's crash messages show it.
fn pytype(n: &Node) -> &'static str {
    match n.kind {
        Kind::Null => "NoneType",
        Kind::Bool(_) => "bool",
        Kind::Int(_) | Kind::BigInt(_) => "int",
        Kind::Float(_) => "float",
        Kind::Str(_) | Kind::Timestamp(_) => "str",
        Kind::Bytes(_) => "bytes",
        Kind::List(_) => "list",
        Kind::Map(_) => "dict",
        Kind::Set(_) => "set",
        Kind::Tuple(_) => "tuple",
    }
}

/// A value's kind in words.
pub fn describe(n: &Node) -> &'static str {
    match n.kind {
        Kind::Null => "null",
        Kind::Bool(_) => "a boolean",
        Kind::Int(_) | Kind::BigInt(_) | Kind::Float(_) => "a number",
        Kind::Str(_) | Kind::Timestamp(_) => "a string",
        Kind::Bytes(_) => "binary data",
        Kind::List(_) => "a list",
        Kind::Map(_) => "a mapping",
        Kind::Set(_) => "a set",
        Kind::Tuple(_) => "a pair",
    }
}

impl Ops<'_> {
    fn rule(&self) -> RuleRef {
        self.site.rule.clone()
    }

    /// Heat would crash merging `new` into `old` here.
    fn crash(&self, old: &Node, new: &Node, python: String) -> Error {
        let s = self.site;
        let from = match self.sources.locate(old.span) {
            Some(loc) => format!(" (from {loc})"),
            None => String::new(),
        };
        // At the parameter itself (/section/name), not inside a deep-merged value.
        let top = self.tracer.path.0.len() <= 2;
        let mixed_list = s.ptype == PType::List
            && matches!(
                (&old.kind, &new.kind),
                (Kind::Str(_), Kind::List(_)) | (Kind::List(_), Kind::Str(_))
            );
        let hint = if mixed_list {
            format!("write '{}' the same way everywhere: a YAML list in every file, or a comma-separated string in every file (a -P value is a string, a -P name given twice a list)", s.param)
        } else if s.ptype == PType::Json && top && matches!(old.kind, Kind::Str(_)) {
            format!("give '{}' as a YAML mapping, not as a JSON string (Heat keeps a string from the first file or from -P as it is; set the value in an environment file instead)", s.param)
        } else if s.ptype == PType::Json && top {
            format!("merging the Json parameter '{}' needs a mapping on both sides: give it a mapping in every file, or the strategy overwrite", s.param)
        } else {
            format!(
                "give the values of '{}' the same kind in every file, or give it the strategy overwrite",
                s.param
            )
        };
        Error::new(
            ErrorKind::Merge,
            format!(
                "cannot merge {} into {}{from} at {} ({} parameter '{}', strategy '{}'): Heat crashes here with {python}",
                describe(new),
                describe(old),
                self.tracer.here(),
                s.ptype.name(),
                s.param,
                s.rule.text
            ),
        )
        .at(new.span)
        .with_path(self.tracer.path.clone())
        .hint(hint)
    }

    /// `merge_map(old, new, deep_merge)`; `None` stands for a missing old value.
    pub fn merge_map(&mut self, old: Option<Node>, new: Node, deep: bool) -> Result<Node> {
        let old = match old {
            Some(o) if truthy(&o) => o,
            other => {
                self.tracer
                    .replaced(Some(&self.rule()), &new, other.as_ref());
                return Ok(new);
            }
        };
        let Kind::Map(new_map) = new.kind else {
            let python = format!(
                "AttributeError: '{}' object has no attribute 'items'",
                pytype(&new)
            );
            return Err(self.crash(&old, &new, python));
        };
        let mut old = old;
        if old.as_map().is_none() {
            // Python fails on the first entry it would store (an empty update changes nothing).
            return match new_map.iter().find(|(_, v)| !v.is_null()) {
                None => Ok(old),
                Some((_, v)) => {
                    let python =
                        if deep && matches!(v.kind, Kind::Map(_) | Kind::List(_) | Kind::Str(_)) {
                            format!(
                                "AttributeError: '{}' object has no attribute 'get'",
                                pytype(&old)
                            )
                        } else {
                            format!(
                                "TypeError: '{}' object does not support item assignment",
                                pytype(&old)
                            )
                        };
                    Err(self.crash(&old, &Node::new(Kind::Map(new_map), new.span), python))
                }
            };
        }
        self.tracer.settle(&old);
        self.tracer
            .record(Outcome::Merged, Some(&self.rule()), old.span, &[], &[]);
        for (k, v) in new_map.into_iter() {
            self.tracer.push(&k);
            let result = self.map_entry(&mut old, &k, v, deep);
            self.tracer.pop();
            result?;
        }
        Ok(old)
    }

    /// One entry of `merge_map` into an old mapping.
    fn map_entry(
        &mut self,
        old: &mut Node,
        k: &crate::value::Key,
        v: Node,
        deep: bool,
    ) -> Result<()> {
        let Some(map) = old.as_map_mut() else {
            return Ok(());
        };
        if v.is_null() {
            if let Some(kept) = map.get(k) {
                self.tracer
                    .record(Outcome::Kept, Some(&self.site.rule), kept.span, &[], &[&v]);
            }
            return Ok(());
        }
        let previous = map.get_mut(k).map(Node::take);
        let merged = if !deep {
            self.tracer
                .replaced(Some(&self.rule()), &v, previous.as_ref());
            v
        } else {
            match v.kind {
                Kind::Map(_) => self.merge_map(previous, v, true)?,
                Kind::List(_) => self.merge_list(previous, v)?,
                Kind::Str(_) => {
                    // old.get(k, '') + v: a missing old value is ''.
                    self.join_str(previous, v)?
                }
                _ => {
                    self.tracer
                        .replaced(Some(&self.rule()), &v, previous.as_ref());
                    v
                }
            }
        };
        map.insert(k.clone(), merged);
        Ok(())
    }

    /// `merge_list(old, new)`: list extend, or `','.join([old, new])` for strings.
    pub fn merge_list(&mut self, old: Option<Node>, new: Node) -> Result<Node> {
        let old = match old {
            Some(o) if truthy(&o) => o,
            other => {
                self.tracer
                    .replaced(Some(&self.rule()), &new, other.as_ref());
                return Ok(new);
            }
        };
        match (old.kind, new.kind) {
            (Kind::List(a), Kind::List(b)) => {
                let old = Node::new(Kind::List(a), old.span);
                self.tracer.settle(&old);
                self.tracer
                    .record(Outcome::Appended, Some(&self.site.rule), old.span, &[], &[]);
                let start = old.as_list().map_or(0, <[Node]>::len);
                self.tracer.appended(Some(&self.site.rule), start, &b);
                let mut items = match old.kind {
                    Kind::List(a) => a,
                    _ => List::new(),
                };
                items.extend(b);
                Ok(Node::list(items, old.span))
            }
            (Kind::Str(a), Kind::Str(b)) => {
                let joined = format!("{a},{b}");
                let (old, new) = (
                    Node::new(Kind::Str(a), old.span),
                    Node::new(Kind::Str(b), new.span),
                );
                self.tracer.record(
                    Outcome::Concatenated,
                    Some(&self.site.rule),
                    old.span,
                    &[],
                    &[&old, &new],
                );
                Ok(Node::str(joined, old.span))
            }
            (a, b) => {
                let (old, new) = (Node::new(a, old.span), Node::new(b, new.span));
                let python = if matches!(new.kind, Kind::List(_)) {
                    format!(
                        "AttributeError: '{}' object has no attribute 'extend'",
                        pytype(&old)
                    )
                } else if !matches!(old.kind, Kind::Str(_)) {
                    format!(
                        "TypeError: sequence item 0: expected str instance, {} found",
                        pytype(&old)
                    )
                } else {
                    format!(
                        "TypeError: sequence item 1: expected str instance, {} found",
                        pytype(&new)
                    )
                };
                Err(self.crash(&old, &new, python))
            }
        }
    }

    /// `''.join([old.get(key, ''), new])`; `None` is a missing old value ('').
    pub fn join_str(&mut self, old: Option<Node>, new: Node) -> Result<Node> {
        let Some(old) = old else {
            if new.as_str().is_some() {
                self.tracer.replaced(Some(&self.rule()), &new, None);
                return Ok(new);
            }
            let python = format!(
                "TypeError: sequence item 1: expected str instance, {} found",
                pytype(&new)
            );
            return Err(self.crash(&Node::str("", crate::value::Span::NONE), &new, python));
        };
        match (old.as_str(), new.as_str()) {
            (Some(""), Some(_)) => {
                self.tracer.replaced(Some(&self.rule()), &new, Some(&old));
                Ok(new)
            }
            (Some(a), Some(b)) => {
                let joined = format!("{a}{b}");
                self.tracer.record(
                    Outcome::Concatenated,
                    Some(&self.site.rule),
                    old.span,
                    &[],
                    &[&old, &new],
                );
                if !b.is_empty() {
                    self.warnings.push(
                        crate::error::Warning::new(
                            format!(
                                "Heat concatenates strings under '{}' without a separator: '{}' = '{a}' + '{b}'",
                                self.site.rule.text,
                                short(&joined)
                            ),
                            new.span,
                        )
                        .with_path(self.tracer.path.clone()),
                    );
                }
                Ok(Node::str(joined, old.span))
            }
            (None, _) => {
                let python = format!(
                    "TypeError: sequence item 0: expected str instance, {} found",
                    pytype(&old)
                );
                Err(self.crash(&old, &new, python))
            }
            (Some(_), None) => {
                let python = format!(
                    "TypeError: sequence item 1: expected str instance, {} found",
                    pytype(&new)
                );
                Err(self.crash(&old, &new, python))
            }
        }
    }

    /// `old.get(key, 0) + new` for Number parameters (`new` is a string or a list here).
    pub fn add(&mut self, old: Option<Node>, new: Node) -> Result<Node> {
        let old = old.unwrap_or_else(|| Node::new(Kind::Int(0), crate::value::Span::NONE));
        match (&old.kind, &new.kind) {
            (Kind::Str(_), Kind::Str(_)) => self.join_str(Some(old), new),
            (Kind::List(_), Kind::List(_)) => self.merge_list(Some(old), new),
            _ => {
                let python = format!(
                    "TypeError: unsupported operand type(s) for +: '{}' and '{}'",
                    pytype(&old),
                    pytype(&new)
                );
                Err(self.crash(&old, &new, python))
            }
        }
    }
}

/// At most 60 characters of a string, for messages.
fn short(s: &str) -> String {
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s.to_string()
    }
}
