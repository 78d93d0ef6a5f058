//! What the ranked mergers of one merge share (`RankCtx`): the path rules, the merge's own
//! path (rules are selected by `base` + the keys below it) and the rule recorded for scalars.
//! Notices go to the engine's, as every family's do.

use super::fault::NoticeKind;
use super::Engine;
use crate::strategy::ranked::RankedStrategy;
use crate::strategy::selector::{join, PathRules};
use crate::strategy::Merger as Spec;
use crate::value::{Seg, Span};

/// What the ranked mergers of one merge share.
pub struct RankCtx<'r> {
    pub rules: &'r PathRules,
    pub base: Vec<Box<str>>,
    /// The rule recorded where a scalar (or a value of another shape) is kept.
    pub(super) scalar_rule: Spec,
}

impl<'r> RankCtx<'r> {
    /// `base`: the path of the merged value in the rules' terms; `scalar_rule`: the rule
    /// recorded when the first of two scalars is kept (scalars never merge).
    pub fn new(rules: &'r PathRules, base: &[String], scalar_rule: Spec) -> RankCtx<'r> {
        RankCtx {
            rules,
            base: base.iter().map(|s| Box::<str>::from(s.as_str())).collect(),
            scalar_rule,
        }
    }

    pub fn fold(&self) -> bool {
        self.rules.fold
    }

    /// The rule path at the engine's position: the lookup path, then map keys (list indexes
    /// are skipped: items of a hash array are matched under the array's own path).
    pub(super) fn rule_path(&self, eng: &Engine<'_>) -> Vec<Box<str>> {
        let mut path = self.base.clone();
        path.extend(eng.path.0.iter().filter_map(|s| match s {
            Seg::Key(k) => Some(Box::from(&**k)),
            Seg::Index(_) => None,
        }));
        path
    }

    /// The exact or regex rule written for the engine's position, if any.
    pub(super) fn explicit(&self, eng: &Engine<'_>) -> Option<&'r RankedStrategy> {
        self.rules
            .explicit(&self.rule_path(eng))
            .map(|r| &r.strategy)
    }

    pub(super) fn default_strategy(&self) -> &'r RankedStrategy {
        &self.rules.default_rule().strategy
    }

    /// A notice about the value at `span` here; `what` gets the rule path joined with `\`.
    pub(super) fn notice(
        &self,
        eng: &mut Engine<'_>,
        span: Span,
        what: impl FnOnce(String) -> NoticeKind,
    ) {
        let rule_path = join(&self.rule_path(eng));
        eng.notice(span, what(rule_path));
    }
}

/// What the children of a ranked map merge inherit (the one child policy of the ranked family):
/// the strategy in force, the rule the trace names, and whether nested maps recurse (`Deep`)
/// or stay whole (`TopKeys`). A child with a path rule of its own takes that instead.
#[derive(Clone, Copy)]
pub(super) struct Frame<'r> {
    pub(super) s: &'r RankedStrategy,
    pub(super) rule: &'r Spec,
    pub(super) deep: bool,
}
