//! The ranked merge (`Policy::Ranked`, `Child`, `Maps`): the OLD value is the more specific
//! (first-ranked) side and always wins where the two cannot be combined. Values are told apart
//! by `Shape` (scalar, map, list of scalars, list of maps); different shapes never merge. Maps
//! merge by top keys (`TopKeys`) or recursively (`Deep`, which pushes its strategy down to
//! nested maps and lists that have no rule of their own); under `TopKeys` nested lists follow
//! their own path's rule or the default. Every child goes back through the engine's one
//! dispatch (`Engine::merge_as`) with the policy it inherits. Knockout markers live in
//! `knockout`, lists in `ranked_list`.

use super::fault::NoticeKind;
use super::knockout::{is_bare_marker, knock_out};
use super::rank_ctx::{Frame, RankCtx};
use super::ranked_list;
use super::walk::{walk, Fate, KeyPolicy, Keys};
use super::{Engine, Outcome, Policy};
use crate::strategy::ranked::{shape, ListMode, MapListMode, MapMode, RankedStrategy, Shape};
use crate::strategy::Merger as Spec;
use crate::value::{Key, Kind, Node};
use std::convert::Infallible;

/// A ranked policy's decision at a node (`Engine::merge_as` hands these here).
pub(super) fn merge_as(eng: &mut Engine<'_>, policy: Policy<'_>, r: Node, d: Node) -> Node {
    // Every ranked policy comes from a `MergerSpec::Ranked`, which needs the ranked context.
    let Some(ctx) = eng.ranked else {
        return r;
    };
    match policy {
        Policy::Ranked(s) => merge_value(eng, ctx, s, r, d),
        Policy::Child(frame) => merge_child(eng, ctx, frame, r, d),
        Policy::Maps(frame) => merge_maps(eng, ctx, frame, r, d),
        Policy::Stack | Policy::Spec(_) => r,
    }
}

/// The ranked merge of two values: `r` is the more specific value, `d` the less specific one.
fn merge_value(
    eng: &mut Engine<'_>,
    ctx: &RankCtx<'_>,
    s: &RankedStrategy,
    r: Node,
    d: Node,
) -> Node {
    if is_bare_marker(&r, s) {
        return knock_out(eng, s, r, &d);
    }
    let (tr, td) = (shape(&r), shape(&d));
    if tr != td {
        return mismatch(eng, ctx, r, d);
    }
    match tr {
        Shape::Scalar => kept(eng, &ctx.scalar_rule, r, &d),
        Shape::Map => match s.maps.value {
            MapMode::KeepFirst => kept(eng, &s.maps.rule, r, &d),
            MapMode::TopKeys => eng.merge_as(Policy::Maps(frame(s, false)), r, d),
            MapMode::Deep => eng.merge_as(Policy::Maps(frame(s, true)), r, d),
        },
        Shape::ScalarList => match s.lists.value {
            ListMode::KeepFirst => kept(eng, &s.lists.rule, r, &d),
            ListMode::Union => ranked_list::base_array(eng, ctx, s, r, d, true),
            ListMode::Concat => ranked_list::base_array(eng, ctx, s, r, d, false),
        },
        Shape::MapList => match s.map_lists.value {
            MapListMode::KeepFirst => kept(eng, &s.map_lists.rule, r, &d),
            MapListMode::Concat => ranked_list::hash_sum(eng, s, r, d),
            MapListMode::FirstByKeys => ranked_list::first_by_keys(eng, ctx, s, r, d),
            MapListMode::MergeByKeys => ranked_list::merge_by_keys(eng, ctx, s, r, d),
        },
    }
}

fn kept(eng: &mut Engine<'_>, rule: &Spec, r: Node, d: &Node) -> Node {
    eng.record(Outcome::Kept, Some(rule), r.span, &[], &[d]);
    r
}

fn mismatch(eng: &mut Engine<'_>, ctx: &RankCtx<'_>, r: Node, d: Node) -> Node {
    let (first, other) = (shape(&r), shape(&d));
    ctx.notice(eng, d.span, |at| NoticeKind::ShapeMismatch {
        at,
        first,
        other,
    });
    kept(eng, &ctx.scalar_rule, r, &d)
}

/// The frame a strategy's own map merge gives its children.
fn frame(s: &RankedStrategy, deep: bool) -> Frame<'_> {
    Frame {
        s,
        rule: &s.maps.rule,
        deep,
    }
}

/// Two maps: keys of `r` stay (in order); keys only in `d` are appended whole; keys in both
/// are merged by `merge_child` (the one map walk, `walk`). The frame's rule is the setting that
/// asked for this merge (for the trace): the map rule, or the list-of-maps rule for items
/// merged by keys.
fn merge_maps(eng: &mut Engine<'_>, ctx: &RankCtx<'_>, frame: Frame<'_>, r: Node, d: Node) -> Node {
    let r_span = r.span;
    let mut rm = match r.kind {
        Kind::Map(m) => m,
        other => return Node::new(other, r_span),
    };
    let dm = match d.kind {
        Kind::Map(m) => m,
        _ => return Node::map(*rm, r_span),
    };
    eng.record(Outcome::Merged, Some(frame.rule), r_span, &[], &[]);
    let keys = Keys {
        fold: ctx.fold(),
        marker: frame.s.knockout_prefix.as_ref().map(|f| &*f.value),
    };
    let mut policy = RankedKeys { eng, frame };
    let Ok(()) = walk(&mut policy, &mut rm, *dm, keys);
    Node::new(Kind::Map(rm), r_span)
}

/// The ranked merge's decisions at each key of the walk.
struct RankedKeys<'x, 'e, 'a> {
    eng: &'e mut Engine<'a>,
    frame: Frame<'x>,
}

impl KeyPolicy for RankedKeys<'_, '_, '_> {
    type Error = Infallible;

    fn enter(&mut self, key: &Key) {
        self.eng.push_key(key);
    }

    fn leave(&mut self) {
        self.eng.pop();
    }

    fn absent(&mut self, _key: &Key, dv: Node) -> Result<Option<Node>, Infallible> {
        let rule = Some(self.frame.rule);
        self.eng.record(Outcome::Added, rule, dv.span, &[], &[]);
        Ok(Some(dv))
    }

    fn both(&mut self, slot: &mut Node, dv: Node) -> Result<Fate, Infallible> {
        let rv = slot.take();
        *slot = self.eng.merge_as(Policy::Child(self.frame), rv, dv);
        Ok(Fate::Stays)
    }

    fn blocked(&mut self, marker: &Key, dv: Node) {
        let rule = self.frame.s.knockout_prefix.as_ref().map(|f| &f.rule);
        self.eng
            .record(Outcome::Deleted, rule, marker.span(), &[&dv], &[&marker.0]);
    }
}

/// A key both sides have. Maps: under `deep`, merged with the key's own rule if it has one,
/// else recursively with the parent's strategy; under `hash`, the more specific map whole.
/// Arrays: the key's own rule, else (deep) the parent's strategy or (hash) the default.
fn merge_child(
    eng: &mut Engine<'_>,
    ctx: &RankCtx<'_>,
    frame: Frame<'_>,
    rv: Node,
    dv: Node,
) -> Node {
    let Frame { s, rule, deep } = frame;
    if is_bare_marker(&rv, s) {
        return knock_out(eng, s, rv, &dv);
    }
    let (tr, td) = (shape(&rv), shape(&dv));
    if tr != td {
        return mismatch(eng, ctx, rv, dv);
    }
    match tr {
        Shape::Scalar => kept(eng, &ctx.scalar_rule, rv, &dv),
        Shape::Map if !deep => kept(eng, rule, rv, &dv),
        Shape::Map => match ctx.explicit(eng) {
            Some(own) => eng.merge_as(Policy::Ranked(own), rv, dv),
            // Only a deep frame gets here: the child inherits it as it is.
            None => eng.merge_as(Policy::Maps(frame), rv, dv),
        },
        Shape::ScalarList | Shape::MapList => {
            let own = ctx
                .explicit(eng)
                .unwrap_or(if deep { s } else { ctx.default_strategy() });
            eng.merge_as(Policy::Ranked(own), rv, dv)
        }
    }
}
