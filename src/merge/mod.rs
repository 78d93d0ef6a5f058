//! The merge engine: one recursion (`Engine::merge_as`, in `policy`) decides every node pair
//! by the `Policy` its parent hands it — the rule set's stack picking a merger by the OLD
//! value's type (as cloud-init's `LookupMerger` does) or the NEW one's, one spec, or a ranked
//! strategy inherited by path — and records `trace` steps only when a trace is attached.
//! `Merger` is the one trait: each merger can `check` (would the merge fail? — nothing
//! changes) and `merge` (cannot fail). Mergers are named by behaviour (`strategy::MergerSpec`);
//! no file here knows which system asked for one.

#![warn(missing_docs)]

pub(crate) mod casefold;
mod dict;
mod fault;
pub mod fold;
mod gem;
pub(crate) mod knockout;
mod list;
mod plus;
mod policy;
pub(crate) mod rank_ctx;
pub(crate) mod ranked;
mod ranked_keys;
mod ranked_list;
mod string;
#[cfg(test)]
mod table;
mod trace;
pub(crate) mod union;
mod walk;

use crate::strategy::{Merger as Spec, MergerSpec, RuleSet, StrMethod};
use crate::value::{key_cow, Key, Kind, Node, Path, Span};
pub use fault::{MergeError, Notice, NoticeKind, PyError, PyFault};
use policy::Policy;
pub use trace::{Outcome, Prior, RuleRef, Step, Trace};

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
    /// Path rules and state, for `MergerSpec::Ranked` (see `with_ranked`).
    ranked: Option<&'a rank_ctx::RankCtx<'a>>,
    /// Record a step for each container merged into (see `recording_containers`).
    record_containers: bool,
    /// Merges that succeeded but were probably not meant; the front-end words them.
    pub notices: Vec<Notice>,
}

impl<'a> Engine<'a> {
    /// An engine merging under `rules`, recording steps into `trace` when there is one.
    pub fn new(rules: &'a RuleSet, trace: Option<&'a mut Trace>) -> Engine<'a> {
        let track_path = trace.is_some();
        Engine {
            rules,
            trace,
            path: Path::root(),
            track_path,
            ranked: None,
            record_containers: false,
            notices: Vec::new(),
        }
    }

    /// Tracks the path even without a trace (a front-end whose errors and notices name it).
    pub fn tracking_path(mut self) -> Engine<'a> {
        self.track_path = true;
        self
    }

    /// Records a step for each container merged into — `Merged` for a map, `Appended` for a
    /// list extended — after giving each of its children without a step of its own a copy of
    /// the container's last step, so the children keep their provenance (Heat's trace).
    pub fn recording_containers(mut self) -> Engine<'a> {
        self.record_containers = true;
        self
    }

    /// An engine that can run `MergerSpec::Ranked` mergers (always tracks the path: their rules
    /// are picked by path).
    pub fn with_ranked(
        rules: &'a RuleSet,
        ctx: &'a rank_ctx::RankCtx<'a>,
        trace: Option<&'a mut Trace>,
    ) -> Engine<'a> {
        let mut engine = Engine::new(rules, trace);
        engine.track_path = true;
        engine.ranked = Some(ctx);
        engine
    }

    /// Merges a whole layer: checks first (unless no merge under the rules can fail), so a
    /// failing layer changes nothing.
    pub fn merge_layer(&mut self, old: Node, new: Node) -> Result<Node, (MergeError, Node)> {
        if self.rules.infallible() {
            self.path = Path::root();
            return Ok(self.merge(old, new));
        }
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

    /// Merges `new` into `old` (`None`: the key was missing) with `spec` at the top whatever
    /// the types, as the value at `at`; checks first, so a failing merge changes nothing.
    pub fn merge_with(
        &mut self,
        at: &Path,
        spec: &Spec,
        old: Option<Node>,
        new: Node,
    ) -> Result<Node, MergeError> {
        if self.track_path {
            self.path = at.clone();
        }
        let result = match old {
            Some(old) => self
                .check_as(Policy::Spec(spec), &old, &new)
                .map(|()| self.merge_as(Policy::Spec(spec), old, new)),
            None => match spec.spec {
                MergerSpec::Plus => {
                    // Python's `old.get(key, 0) + new`.
                    let zero = Node::new(Kind::Int(0), Span::NONE);
                    self.check_as(Policy::Spec(spec), &zero, &new)
                        .map(|()| self.merge_as(Policy::Spec(spec), zero, new))
                }
                MergerSpec::Str(o) if o.method == StrMethod::Join && new.as_str().is_none() => {
                    // `''.join([old.get(key, ''), new])`.
                    let empty = Node::str("", Span::NONE);
                    Err(self.py_error(PyError::NotStr { item: 1 }, &empty, &new))
                }
                _ => {
                    self.record(Outcome::Added, Some(spec), new.span, &[], &[]);
                    Ok(new)
                }
            },
        };
        self.path = Path::root();
        result
    }

    fn spec_for(&self, old: &Node, new: &Node) -> Option<&'a Spec> {
        let stack = &self.rules.root;
        let by = if stack.by_new_type { new } else { old };
        stack.for_type(by.type_name())
    }

    /// Whether merging `new` into `old` at the current path would fail. Changes nothing.
    pub fn check(&mut self, old: &Node, new: &Node) -> Result<(), MergeError> {
        self.check_as(Policy::Stack, old, new)
    }

    /// Merges `new` into `old` at the current path.
    pub fn merge(&mut self, old: Node, new: Node) -> Node {
        self.merge_as(Policy::Stack, old, new)
    }

    /// Whether steps are recorded (`--explain`).
    pub fn tracing(&self) -> bool {
        self.trace.is_some()
    }

    fn error(&self, message: String, span: Span) -> MergeError {
        MergeError {
            message,
            span,
            path: self.path.clone(),
            python: None,
        }
    }

    /// The exception Python raises merging `new` into `old` here.
    fn py_error(&self, error: PyError, old: &Node, new: &Node) -> MergeError {
        let python = PyFault {
            error,
            old: Prior::of(old),
            new: Prior::of(new),
        };
        MergeError {
            message: python.python(Node::py_type_name),
            span: new.span,
            path: self.path.clone(),
            python: Some(Box::new(python)),
        }
    }

    /// A notice at the current path (every family's notices go here).
    pub(super) fn notice(&mut self, span: Span, what: NoticeKind) {
        self.notices.push(Notice {
            path: self.path.clone(),
            span,
            what,
        });
    }

    /// Under `recording_containers`, settles `container`'s children and records `outcome` for
    /// it (see there).
    fn record_container(&mut self, outcome: Outcome, rule: &Spec, container: &Node) {
        if !self.record_containers {
            return;
        }
        if let Some(trace) = self.trace.as_deref_mut() {
            trace.settle(&self.path, container);
        }
        self.record(outcome, Some(rule), container.span, &[], &[]);
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
            let rule = rule.map(RuleRef::from);
            trace.record(&self.path, outcome, rule, value, overrode, others);
        }
    }
}
