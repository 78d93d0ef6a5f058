//! Folding layers into one value: the loop a front-end's layering goes through. A front-end
//! reads its system's files and directives and hands the layers over one by one, each with
//! the rules it merges by; the fold numbers the layers in the trace (the trace's current
//! layer is set here and nowhere else: `Fold::layer`), records a first value taken whole,
//! runs the engine on each later layer with its check first (a layer that would fail leaves
//! the result as it was, and the error says why) and keeps the engine's notices, as data, for
//! the front-end to word. The trace is lent to each call rather than held, so a front-end can
//! record steps of its own (a JSON patch, a dropped part, an assembly) between them, in the
//! same layer. A merge that is not a layer of a fold (a Heat parameter's, a Deckhand action's)
//! runs the engine through `merge_at` / `merge_with`, with its notices handed back the same way.

use super::rank_ctx::RankCtx;
use super::{Engine, MergeError, Notice, Outcome, RuleRef, Trace};
use crate::strategy::{Merger, RuleSet};
use crate::value::{Node, Path, Span};

/// What a layer merges by: a rule set, the ranked rules when its mergers are ranked, and
/// how the engine records.
#[derive(Clone, Copy)]
pub struct Rules<'r> {
    set: &'r RuleSet,
    ranked: Option<&'r RankCtx<'r>>,
    containers: bool,
}

impl<'r> Rules<'r> {
    /// Rules of one rule set (the stack family's and the gem's mergers).
    pub fn new(set: &'r RuleSet) -> Rules<'r> {
        Rules {
            set,
            ranked: None,
            containers: false,
        }
    }

    /// Rules whose `MergerSpec::Ranked` mergers take their path rules from `ctx`.
    pub fn ranked(set: &'r RuleSet, ctx: &'r RankCtx<'r>) -> Rules<'r> {
        Rules {
            set,
            ranked: Some(ctx),
            containers: false,
        }
    }

    /// Rules whose engine tracks the path even without a trace and records a step for each
    /// container merged into (`Engine::recording_containers`: Heat's trace).
    pub fn recording_containers(self) -> Rules<'r> {
        Rules {
            containers: true,
            ..self
        }
    }

    fn engine<'a>(&self, trace: Option<&'a mut Trace>) -> Engine<'a>
    where
        'r: 'a,
    {
        let engine = match self.ranked {
            Some(ctx) => Engine::with_ranked(self.set, ctx, trace),
            None => Engine::new(self.set, trace),
        };
        if self.containers {
            engine.tracking_path().recording_containers()
        } else {
            engine
        }
    }
}

/// One merge that is not a layer of a fold (a Deckhand action's, at the action's path):
/// `new` merged into `old` as the value at `at`, the check first, so a merge that would fail
/// gives `old` back with the error. The notices come back beside the result.
pub fn merge_at(
    trace: Option<&mut Trace>,
    rules: Rules<'_>,
    at: &Path,
    old: Node,
    new: Node,
) -> (Result<Node, (MergeError, Node)>, Vec<Notice>) {
    let mut engine = rules.engine(trace);
    let merged = engine.merge_at(at, old, new);
    (merged, engine.notices)
}

/// One merge of a value at `at` with `spec` at the top whatever the types, into `old`
/// (`None`: nothing there yet): a Heat parameter's, by its template type. The check comes
/// first; the notices come back beside the result.
pub fn merge_with(
    trace: Option<&mut Trace>,
    rules: Rules<'_>,
    at: &Path,
    spec: &Merger,
    old: Option<Node>,
    new: Node,
) -> (Result<Node, MergeError>, Vec<Notice>) {
    let mut engine = rules.engine(trace);
    let merged = engine.merge_with(at, spec, old, new);
    (merged, engine.notices)
}

/// The value accumulated so far (none before the first layer, unless the fold starts from
/// one) and the notices of the merges that made it.
#[derive(Debug, Default)]
pub struct Fold {
    acc: Option<Node>,
    notices: Vec<Notice>,
}

impl Fold {
    /// A fold with nothing accumulated: the first layer is taken whole (`first`).
    pub fn new() -> Fold {
        Fold::default()
    }

    /// A fold that merges its first layer into `start` (cloud-init's and `strata merge`'s
    /// empty mapping).
    pub fn starting(start: Node) -> Fold {
        Fold {
            acc: Some(start),
            notices: Vec::new(),
        }
    }

    /// Enters layer `n`: every step recorded from now on, by the engine or by the front-end,
    /// belongs to it. A front-end that is not a fold (an assembly, a tree of parents) numbers
    /// its layers here too.
    pub fn layer(trace: Option<&mut Trace>, n: usize) {
        if let Some(t) = trace {
            t.layer = u32::try_from(n).unwrap_or(u32::MAX);
        }
    }

    /// Whether no layer has been taken yet.
    pub fn is_empty(&self) -> bool {
        self.acc.is_none()
    }

    /// The value accumulated so far.
    pub fn value(&self) -> Option<&Node> {
        self.acc.as_ref()
    }

    /// Takes `value` whole as the first layer's, recording it as added at the root under
    /// `rule` (`rule` is asked only when tracing).
    pub fn first(
        &mut self,
        trace: Option<&mut Trace>,
        rule: impl FnOnce(&Node) -> RuleRef,
        value: Node,
    ) {
        if let Some(t) = trace {
            let rule = rule(&value);
            t.record(
                &Path::root(),
                Outcome::Added,
                Some(rule),
                value.span,
                &[],
                &[],
            );
        }
        self.acc = Some(value);
    }

    /// Merges `new` into the accumulated value (later over earlier); nothing accumulated yet
    /// takes `new` whole without a step. A merge that would fail changes nothing.
    pub fn merge(
        &mut self,
        trace: Option<&mut Trace>,
        rules: Rules<'_>,
        new: Node,
    ) -> Result<(), MergeError> {
        let Some(old) = self.acc.take() else {
            self.acc = Some(new);
            return Ok(());
        };
        let (merged, result) = self.run(trace, rules, old, new);
        self.acc = Some(merged);
        result
    }

    /// Merges the accumulated value into `lower` (the accumulated value is the more specific
    /// one, `lower` the old side: Ruby's `lower.merge(higher)`, the deep_merge gem's
    /// `deep_merge!(higher, lower)`); nothing accumulated yet takes `lower` whole. A merge
    /// that would fail is not made, and leaves nothing accumulated (its error ends the fold).
    pub fn merge_into(
        &mut self,
        trace: Option<&mut Trace>,
        rules: Rules<'_>,
        lower: Node,
    ) -> Result<(), MergeError> {
        let Some(higher) = self.acc.take() else {
            self.acc = Some(lower);
            return Ok(());
        };
        match self.run(trace, rules, lower, higher) {
            (merged, Ok(())) => {
                self.acc = Some(merged);
                Ok(())
            }
            (_, Err(e)) => Err(e),
        }
    }

    /// One engine run with its check first: the result (the old value when the check
    /// failed) and the error.
    fn run(
        &mut self,
        trace: Option<&mut Trace>,
        rules: Rules<'_>,
        old: Node,
        new: Node,
    ) -> (Node, Result<(), MergeError>) {
        let mut engine = rules.engine(trace);
        let out = match engine.merge_layer(old, new) {
            Ok(merged) => (merged, Ok(())),
            Err((e, old)) => (old, Err(e)),
        };
        self.notices.append(&mut engine.notices);
        out
    }

    /// A change of the accumulated value that is the front-end's own (a JSON patch): `edit`
    /// gets the value (an empty mapping before the first layer) and gives back the new one,
    /// or the old one with its error.
    pub fn edit<E>(&mut self, edit: impl FnOnce(Node) -> Result<Node, (E, Node)>) -> Result<(), E> {
        let old = self
            .acc
            .take()
            .unwrap_or_else(|| Node::empty_map(Span::NONE));
        let (value, result) = match edit(old) {
            Ok(v) => (v, Ok(())),
            Err((e, old)) => (old, Err(e)),
        };
        self.acc = Some(value);
        result
    }

    /// The notices raised since the last call, oldest first.
    pub fn take_notices(&mut self) -> Vec<Notice> {
        std::mem::take(&mut self.notices)
    }

    /// The accumulated value (`None`: no layer) and the notices not yet taken.
    pub fn finish(self) -> (Option<Node>, Vec<Notice>) {
        (self.acc, self.notices)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{DictMethod, DictOpts, MergerSpec, Origin, Stack};
    use crate::value::{Key, Map};

    fn at(start: u32) -> Span {
        Span {
            start,
            end: start + 1,
        }
    }

    fn map(entries: &[(&str, Node)], start: u32) -> Node {
        let mut m = Map::default();
        for (k, v) in entries {
            m.insert(Key::str(k), v.clone());
        }
        Node::map(m, at(start))
    }

    fn get<'a>(n: &'a Node, k: &str) -> Option<&'a Node> {
        n.as_map().and_then(|m| m.get(&Key::str(k)))
    }

    #[test]
    fn steps_are_in_the_layer_the_fold_entered() {
        let rules = RuleSet::single(Stack::deep_default());
        let mut trace = Trace::default();
        let mut fold = Fold::starting(Node::empty_map(Span::NONE));
        for (i, v) in [10, 20].into_iter().enumerate() {
            Fold::layer(Some(&mut trace), i + 3);
            let layer = map(&[("a", Node::str("x", at(v)))], v + 5);
            assert!(fold
                .merge(Some(&mut trace), Rules::new(&rules), layer)
                .is_ok());
        }
        assert_eq!(trace.layer(), 4);
        assert_eq!(trace.last_for(at(10)).map(|s| s.layer), Some(3));
        assert_eq!(trace.last_for(at(20)).map(|s| s.layer), Some(4));
        let (value, _) = fold.finish();
        let a = value.as_ref().and_then(|v| get(v, "a")).map(|n| n.span);
        assert_eq!(a, Some(at(20)));
    }

    #[test]
    fn the_first_value_is_taken_whole_and_recorded_added() {
        let mut trace = Trace::default();
        let mut fold = Fold::new();
        assert!(fold.is_empty());
        let rule = |_: &Node| RuleRef {
            text: "first".into(),
            origin: Origin::Default("test".into()),
        };
        fold.first(Some(&mut trace), rule, Node::str("v", at(7)));
        let step = trace.last_for(at(7));
        assert_eq!(step.map(|s| s.outcome), Some(Outcome::Added));
        assert_eq!(
            step.and_then(|s| s.rule.as_ref()).map(|r| &*r.text),
            Some("first")
        );
        assert_eq!(fold.value().map(|v| v.span), Some(at(7)));
    }

    #[test]
    fn a_layer_that_would_fail_changes_nothing() {
        // A map met by a string under `strict_types` fails its check.
        let rules = RuleSet::one(Merger {
            spec: MergerSpec::Dict(DictOpts {
                strict_types: true,
                ..DictOpts::new(DictMethod::Replace)
            }),
            text: "strict".into(),
            origin: Origin::Default("test".into()),
        });
        let mut fold = Fold::starting(map(&[("a", Node::str("x", at(1)))], 2));
        let bad = Node::str("not a map", at(3));
        assert!(fold.merge(None, Rules::new(&rules), bad).is_err());
        let kept = fold.value().and_then(|v| get(v, "a")).map(|n| n.span);
        assert_eq!(kept, Some(at(1)));
    }

    #[test]
    fn merge_into_merges_the_accumulated_value_into_the_lower_layer() {
        // Ruby's `lower.merge(higher)`: lower keys first, higher values win.
        let rules = RuleSet::one(Merger {
            spec: MergerSpec::Dict(DictOpts::new(DictMethod::Replace)),
            text: "hash".into(),
            origin: Origin::Default("test".into()),
        });
        let higher = map(&[("b", Node::str("hi", at(1)))], 2);
        let lower = map(
            &[("a", Node::str("lo", at(3))), ("b", Node::str("lo", at(4)))],
            5,
        );
        let mut fold = Fold::starting(higher);
        assert!(fold.merge_into(None, Rules::new(&rules), lower).is_ok());
        let (value, notices) = fold.finish();
        assert!(notices.is_empty());
        let value = value.unwrap_or_else(|| Node::null(Span::NONE));
        let keys: Vec<String> = value
            .as_map()
            .map(|m| m.keys().map(|k| crate::value::key_text(&k.0)).collect())
            .unwrap_or_default();
        assert_eq!(keys, ["a", "b"]);
        assert_eq!(get(&value, "b").map(|n| n.span), Some(at(1)));
    }

    #[test]
    fn an_edit_that_fails_leaves_the_value() {
        let mut fold = Fold::starting(Node::str("v", at(1)));
        let r = fold.edit(|old| Err::<Node, _>(("no", old)));
        assert_eq!(r, Err("no"));
        assert_eq!(fold.value().map(|v| v.span), Some(at(1)));
        assert!(fold
            .edit(|_| Ok::<_, ((), Node)>(Node::str("w", at(2))))
            .is_ok());
        assert_eq!(fold.value().map(|v| v.span), Some(at(2)));
    }
}
