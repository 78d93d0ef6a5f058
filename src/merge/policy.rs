//! The engine's one recursion: every family merges a child by handing the engine a `Policy`
//! (what decides that node) and the two values; `Engine::merge_as` / `check_as` is the one
//! dispatch. A container merger says which policy its children get — the stack specs give
//! theirs `Stack` (each child picked again by type, as cloud-init's `LookupMerger` does), the
//! ranked map merge gives its keys `Child(frame)` (the key's own path rule, else the frame) —
//! so the policy is data passed down, not a family's own recursion. The deep_merge gem is
//! reached through `Spec` and recurses itself, carrying Ruby's object identity (the special
//! case docs/ARCHITECTURE.md names).

use super::rank_ctx::Frame;
use super::{dict, gem, list, plus, ranked, string};
use super::{Engine, MergeError, Merger, Outcome};
use crate::strategy::ranked::RankedStrategy;
use crate::strategy::{Merger as Spec, MergerSpec};
use crate::value::Node;

/// What decides the merge of one node pair.
#[derive(Clone, Copy)]
pub(super) enum Policy<'p> {
    /// The rule set's stack picks a spec by the old (or new) value's type.
    Stack,
    /// This spec, whatever the types.
    Spec(&'p Spec),
    /// A ranked strategy for a whole value (different shapes never merge; the first wins).
    Ranked(&'p RankedStrategy),
    /// A key both maps of a ranked map merge have: its own path rule, else the frame.
    Child(Frame<'p>),
    /// Two maps merged key by key under a frame (a deep child, items merged by keys).
    Maps(Frame<'p>),
}

impl Engine<'_> {
    /// Merges `new` into `old` at the current path as `policy` decides.
    pub(super) fn merge_as(&mut self, policy: Policy<'_>, old: Node, new: Node) -> Node {
        let spec = match policy {
            Policy::Stack => match self.spec_for(&old, &new) {
                Some(spec) => spec,
                None => return self.unhandled(old, new),
            },
            Policy::Spec(spec) => spec,
            ranked => return ranked::merge_as(self, ranked, old, new),
        };
        match spec.spec {
            MergerSpec::Dict(o) => dict::DictMerger { opts: o, spec }.merge(self, old, new),
            MergerSpec::List(o) => list::ListMerger { opts: o, spec }.merge(self, old, new),
            MergerSpec::Str(o) => string::StrMerger { opts: o, spec }.merge(self, old, new),
            MergerSpec::Plus => plus::PlusMerger { spec }.merge(self, old, new),
            MergerSpec::Ranked(id) => match self.ranked {
                Some(ctx) => self.merge_as(Policy::Ranked(ctx.rules.strategy(id)), old, new),
                None => {
                    // A ranked rule with no ranked context: nothing to merge by.
                    self.record(Outcome::Kept, Some(spec), old.span, &[], &[&new]);
                    old
                }
            },
            MergerSpec::Gem(ref o) => gem::GemMerger { opts: o, spec }.merge(self, old, new),
        }
    }

    /// Whether merging `new` into `old` as `policy` decides would fail. Changes nothing.
    pub(super) fn check_as(
        &mut self,
        policy: Policy<'_>,
        old: &Node,
        new: &Node,
    ) -> Result<(), MergeError> {
        let spec = match policy {
            Policy::Stack => match self.spec_for(old, new) {
                Some(spec) => spec,
                None => return Ok(()),
            },
            Policy::Spec(spec) => spec,
            // Ranked merges never fail: a shape mismatch keeps the more specific value.
            Policy::Ranked(_) | Policy::Child(_) | Policy::Maps(_) => return Ok(()),
        };
        match spec.spec {
            MergerSpec::Dict(o) => dict::DictMerger { opts: o, spec }.check(self, old, new),
            MergerSpec::List(o) => list::ListMerger { opts: o, spec }.check(self, old, new),
            MergerSpec::Str(o) => string::StrMerger { opts: o, spec }.check(self, old, new),
            MergerSpec::Plus => plus::PlusMerger { spec }.check(self, old, new),
            MergerSpec::Ranked(_) => Ok(()),
            MergerSpec::Gem(ref o) => gem::GemMerger { opts: o, spec }.check(self, old, new),
        }
    }

    /// No spec of the stack handles the old value's type.
    fn unhandled(&mut self, old: Node, new: Node) -> Node {
        let stack = &self.rules.root;
        if stack.replace_unhandled {
            self.record(
                Outcome::Replaced,
                stack.mergers.first(),
                new.span,
                &[&old],
                &[],
            );
            return new;
        }
        // cloud-init returns the old value.
        self.record(Outcome::Kept, None, old.span, &[], &[&new]);
        old
    }
}
