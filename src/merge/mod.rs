//! The merge engine: `Engine` picks the strategy stack for the current path, dispatches on the
//! OLD value's type to the first merger that handles it (as cloud-init's `LookupMerger` does),
//! and records `trace` steps only when a trace is attached. `Merger` is the one trait: each
//! merger can `check` (would the merge fail? — nothing changes) and `merge` (cannot fail).

pub mod datum;
mod datum_array;
mod datum_hash;
mod dict;
mod list;
mod string;
pub mod trace;

use crate::strategy::{Merger as Spec, MergerSpec, RuleSet, Stack};
use crate::value::{Key, Kind, Node, Path, Span};
pub use trace::{Outcome, Prior, RuleRef, Step, Trace};

/// A merge the real system would abort (cloud-init: TypeError / KeyError inside a merger).
#[derive(Clone, Debug, PartialEq)]
pub struct MergeError {
    pub message: String,
    pub span: Span,
    pub path: Path,
}

/// One merger kind's behaviour.
pub trait Merger {
    /// Whether merging `new` into `old` would fail. Pure.
    fn check(&self, eng: &mut Engine<'_>, old: &Node, new: &Node) -> Result<(), MergeError>;
    /// Merges `new` into `old`. Only called after `check` passed.
    fn merge(&self, eng: &mut Engine<'_>, old: Node, new: Node) -> Node;
}

/// Runs merges for one layer under a rule set, optionally tracing.
pub struct Engine<'a> {
    rules: &'a RuleSet,
    trace: Option<&'a mut Trace>,
    path: Path,
    track_path: bool,
    /// Datum rules and state, for `MergerSpec::Datum` (see `with_datum`).
    datum: Option<&'a datum::DatumCtx<'a>>,
}

impl<'a> Engine<'a> {
    pub fn new(rules: &'a RuleSet, trace: Option<&'a mut Trace>) -> Engine<'a> {
        let track_path = trace.is_some() || rules.path_dependent();
        Engine {
            rules,
            trace,
            path: Path::root(),
            track_path,
            datum: None,
        }
    }

    /// An engine that can run `MergerSpec::Datum` mergers (always tracks the path: Datum picks
    /// rules by path).
    pub fn with_datum(
        rules: &'a RuleSet,
        ctx: &'a datum::DatumCtx<'a>,
        trace: Option<&'a mut Trace>,
    ) -> Engine<'a> {
        let mut engine = Engine::new(rules, trace);
        engine.track_path = true;
        engine.datum = Some(ctx);
        engine
    }

    /// Merges a whole layer: checks first, so a failing layer changes nothing.
    pub fn merge_layer(&mut self, old: Node, new: Node) -> Result<Node, (MergeError, Node)> {
        if let Err(e) = self.check(&old, &new) {
            return Err((e, old));
        }
        self.path = Path::root();
        Ok(self.merge(old, new))
    }

    /// Merges `new` into `old` as the value at `at` (steps are recorded under that path);
    /// checks first, so a failing merge changes nothing.
    pub fn merge_at(
        &mut self,
        at: &Path,
        old: Node,
        new: Node,
    ) -> Result<Node, (MergeError, Node)> {
        if self.track_path {
            self.path = at.clone();
        }
        if let Err(e) = self.check(&old, &new) {
            return Err((e, old));
        }
        let merged = self.merge(old, new);
        self.path = Path::root();
        Ok(merged)
    }

    fn stack(&self) -> &'a Stack {
        if self.rules.path_dependent() {
            self.rules.stack_for(&self.path)
        } else {
            &self.rules.root
        }
    }

    fn spec_for(&self, old: &Node) -> Option<&'a Spec> {
        self.stack().for_type(old.type_name())
    }

    pub fn check(&mut self, old: &Node, new: &Node) -> Result<(), MergeError> {
        match self.spec_for(old) {
            None => Ok(()),
            Some(spec) => match spec.spec {
                MergerSpec::Dict(o) => dict::DictMerger { opts: o, spec }.check(self, old, new),
                MergerSpec::List(o) => list::ListMerger { opts: o, spec }.check(self, old, new),
                MergerSpec::Str(o) => string::StrMerger { opts: o, spec }.check(self, old, new),
                MergerSpec::Datum(id) => match self.datum {
                    Some(ctx) => datum::DatumMerger::new(ctx, id).check(self, old, new),
                    None => Ok(()),
                },
            },
        }
    }

    /// Merges `new` into `old` at the current path.
    pub fn merge(&mut self, old: Node, new: Node) -> Node {
        match self.spec_for(&old) {
            None if self.stack().replace_unhandled => {
                self.record(
                    Outcome::Replaced,
                    self.stack().mergers.first(),
                    new.span,
                    &[&old],
                    &[],
                );
                new
            }
            None => {
                // No merger for the old value's type: cloud-init returns the old value.
                self.record(Outcome::Kept, None, old.span, &[], &[&new]);
                old
            }
            Some(spec) => match spec.spec {
                MergerSpec::Dict(o) => dict::DictMerger { opts: o, spec }.merge(self, old, new),
                MergerSpec::List(o) => list::ListMerger { opts: o, spec }.merge(self, old, new),
                MergerSpec::Str(o) => string::StrMerger { opts: o, spec }.merge(self, old, new),
                MergerSpec::Datum(id) => match self.datum {
                    Some(ctx) => datum::DatumMerger::new(ctx, id).merge(self, old, new),
                    None => {
                        self.record(Outcome::Kept, Some(spec), old.span, &[], &[&new]);
                        old
                    }
                },
            },
        }
    }

    pub fn tracing(&self) -> bool {
        self.trace.is_some()
    }

    fn error(&self, message: String, span: Span) -> MergeError {
        MergeError {
            message,
            span,
            path: self.path.clone(),
        }
    }

    fn push_key(&mut self, key: &Key) {
        if self.track_path {
            self.path.push_key(&key_cow(&key.0));
        }
    }

    fn push_index(&mut self, i: usize) {
        if self.track_path {
            self.path.push_index(i);
        }
    }

    fn pop(&mut self) {
        if self.track_path {
            self.path.pop();
        }
    }

    /// Records a decision at the current path (no-op without a trace).
    pub fn record(
        &mut self,
        outcome: Outcome,
        rule: Option<&Spec>,
        value: Span,
        overrode: &[&Node],
        others: &[&Node],
    ) {
        if let Some(trace) = self.trace.as_deref_mut() {
            let step = Step {
                layer: trace.layer,
                path: self.path.clone(),
                outcome,
                rule: rule.map(RuleRef::from),
                value,
                overrode: overrode.iter().map(|n| Prior::of(n)).collect(),
                others: others.iter().map(|n| Prior::of(n)).collect(),
            };
            trace.push(step);
        }
    }
}

/// `key_text` without a copy for string keys.
pub fn key_cow(k: &Node) -> std::borrow::Cow<'_, str> {
    match &k.kind {
        Kind::Str(s) => std::borrow::Cow::Borrowed(s),
        _ => std::borrow::Cow::Owned(key_text(k)),
    }
}

/// A key as a path segment: strings as they are, other scalars as YAML would print them.
pub fn key_text(k: &Node) -> String {
    match &k.kind {
        Kind::Str(s) => s.to_string(),
        Kind::Timestamp(s) | Kind::BigInt(s) => s.to_string(),
        Kind::Null => "null".into(),
        Kind::Bool(b) => b.to_string(),
        Kind::Int(i) => i.to_string(),
        Kind::Float(f) => f.to_string(),
        Kind::Bytes(b) => crate::value::base64(b),
        Kind::List(_) | Kind::Map(_) | Kind::Set(_) | Kind::Tuple(_) => "?".into(),
    }
}
